#include "core/qp/updatable_cholesky.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace clothfit::qp {

bool UpdatableCholesky::append(const Eigen::VectorXd& s, double d, double min_pivot_squared,
                               Eigen::VectorXd* l) {
  assert(s.size() == m_size);
  *l = s;
  forward_substitute(l->data());
  const double pivot_squared = d - l->squaredNorm();
  if (!(pivot_squared > min_pivot_squared))
    return false;
  if (m_l.rows() <= m_size) {
    const int capacity = std::max(16, 2 * m_size);
    Eigen::MatrixXd grown = Eigen::MatrixXd::Zero(capacity, capacity);
    grown.topLeftCorner(m_size, m_size) = m_l.topLeftCorner(m_size, m_size);
    m_l.swap(grown);
  }
  m_l.row(m_size).head(m_size) = l->transpose();
  m_l(m_size, m_size) = std::sqrt(pivot_squared);
  ++m_size;
  return true;
}

namespace {

// y[i] −= c0[i] a0, then − c1[i] a1, − c2[i] a2, − c3[i] a3, for begin ≤ i < end: four columns
// per pass over y, each element's subtractions one at a time and in that order, so y gets the
// bits four one-column passes would give it with a quarter of their loads and stores of y. Cloned
// for AVX2 (four doubles per vector instead of SSE2's two; no fused multiply–add, so the same
// arithmetic per element) and picked at load time, so the build still runs on any x86-64.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void subtract_four_columns(int begin, int end, const double* c0, const double* c1,
                           const double* c2, const double* c3, const double* a, double* y) {
  const double a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
  for (int i = begin; i < end; ++i) {
    double v = y[i];
    v -= c0[i] * a0;
    v -= c1[i] * a1;
    v -= c2[i] * a2;
    v -= c3[i] * a3;
    y[i] = v;
  }
}

}  // namespace

// Column by column (L is column-major): each y_i still takes its subtractions in the order
// j = 0, 1, …, i − 1 and then its division, as the row-by-row form does, so the values are the same
// bit for bit; only the memory is walked along columns instead of across them, four columns per
// pass below a 4 × 4 triangle solved first (a sheet resting on a plane seeds hundreds of rows,
// each appended through this loop: O(k²) per row).
void UpdatableCholesky::forward_substitute(double* y) const {
  int j = 0;
  for (; j + 4 <= m_size; j += 4) {
    const double* c0 = m_l.col(j).data();
    const double* c1 = m_l.col(j + 1).data();
    const double* c2 = m_l.col(j + 2).data();
    const double* c3 = m_l.col(j + 3).data();
    y[j] = y[j] / c0[j];
    y[j + 1] -= c0[j + 1] * y[j];
    y[j + 1] = y[j + 1] / c1[j + 1];
    y[j + 2] -= c0[j + 2] * y[j];
    y[j + 2] -= c1[j + 2] * y[j + 1];
    y[j + 2] = y[j + 2] / c2[j + 2];
    y[j + 3] -= c0[j + 3] * y[j];
    y[j + 3] -= c1[j + 3] * y[j + 1];
    y[j + 3] -= c2[j + 3] * y[j + 2];
    y[j + 3] = y[j + 3] / c3[j + 3];
    subtract_four_columns(j + 4, m_size, c0, c1, c2, c3, y + j, y);
  }
  for (; j < m_size; ++j) {
    const double* column = m_l.col(j).data();
    const double yj = y[j] / column[j];
    y[j] = yj;
    for (int i = j + 1; i < m_size; ++i)
      y[i] -= column[i] * yj;
  }
}

void UpdatableCholesky::remove(int index) {
  assert(index >= 0 && index < m_size);
  // Drop row `index`: rows below it keep one entry right of the diagonal, which Givens rotations
  // acting on column pairs (j, j+1) remove. Right-multiplying by a rotation keeps L Lᵀ.
  for (int j = 0; j < m_size; ++j) {
    double* column = m_l.col(j).data();
    std::copy(column + index + 1, column + m_size, column + index);
  }
  const int k = m_size - 1;
  for (int j = index; j < k; ++j) {
    const double a = m_l(j, j), b = m_l(j, j + 1);
    const double r = std::hypot(a, b);
    const double c = a / r, s = b / r;
    for (int i = j; i < k; ++i) {
      const double x = m_l(i, j), y = m_l(i, j + 1);
      m_l(i, j) = c * x + s * y;
      m_l(i, j + 1) = -s * x + c * y;
    }
    if (m_l(j, j) < 0)
      m_l.col(j).segment(j, k - j) *= -1.0;
  }
  for (int i = 0; i < k; ++i)
    m_l(i, k) = 0.0;
  m_size = k;
}

void UpdatableCholesky::solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) const {
  Eigen::VectorXd y = b;
  forward_substitute(y.data());
  solve_transposed(y, x);
}

void UpdatableCholesky::solve_transposed(const Eigen::VectorXd& y, Eigen::VectorXd* x) const {
  x->resize(m_size);
  for (int i = m_size - 1; i >= 0; --i) {
    double v = y[i];
    for (int j = i + 1; j < m_size; ++j)
      v -= m_l(j, i) * (*x)[j];
    (*x)[i] = v / m_l(i, i);
  }
}

}  // namespace clothfit::qp
