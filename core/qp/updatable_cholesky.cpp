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

// Column by column (L is column-major): each y_i still takes its subtractions in the order
// j = 0, 1, …, i − 1 and then its division, as the row-by-row form does, so the values are the same
// bit for bit; only the memory is walked along columns instead of across them.
void UpdatableCholesky::forward_substitute(double* y) const {
  for (int j = 0; j < m_size; ++j) {
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
