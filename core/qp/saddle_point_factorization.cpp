#include "core/qp/saddle_point_factorization.hpp"

#include <algorithm>

#include "core/qp/hessian_block.hpp"
#include "core/qp/saddle_point_ordering.hpp"

namespace clothfit::qp {

namespace {

// Sizes of the problem and its K and A_E: the part of the pattern key compared first.
std::vector<int> pattern_sizes(const QpProblem& p) {
  return {p.num_variables(), p.num_equalities(), static_cast<int>(p.curvature.rows()),
          static_cast<int>(p.curvature.nonZeros()),
          static_cast<int>(p.equality_jacobian.nonZeros())};
}

// Outer and inner index arrays of a compressed sparse matrix, concatenated.
template <typename Matrix>
std::vector<int> index_arrays(const Matrix& a) {
  std::vector<int> key(a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1);
  key.insert(key.end(), a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros());
  return key;
}

template <typename Matrix>
bool same_index_arrays(const Matrix& a, const std::vector<int>& key) {
  const std::size_t outer = static_cast<std::size_t>(a.outerSize()) + 1;
  if (!a.isCompressed() || key.size() != outer + static_cast<std::size_t>(a.nonZeros()))
    return false;
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + outer, key.begin()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), key.begin() + outer);
}

}  // namespace

bool SaddlePointFactorization::same_pattern(const QpProblem& p) const {
  return !m_key_sizes.empty() && m_key_sizes == pattern_sizes(p) &&
         (!p.has_curvature() || same_index_arrays(p.curvature, m_key_curvature)) &&
         same_index_arrays(p.equality_jacobian, m_key_equality);
}

void SaddlePointFactorization::rebuild_pattern(const QpProblem& p) {
  const int n = p.num_variables(), m = p.num_equalities();
  std::vector<Eigen::Triplet<double>> triplets;
  HessianBlock::add_pattern(p, &triplets);
  for (int r = 0; r < m; ++r)
    triplets.emplace_back(n + r, n + r, 1.0);
  for (int r = 0; r < m; ++r) {
    for (SparseRowMatrix::InnerIterator it(p.equality_jacobian, r); it; ++it) {
      triplets.emplace_back(n + r, static_cast<int>(it.col()), 1.0);
    }
  }
  m_kkt.resize(n + m, n + m);
  m_kkt.setFromTriplets(triplets.begin(), triplets.end());
  m_kkt.makeCompressed();
  m_hessian.locate(m_kkt, p);
  locate_row_slots(m_kkt, p, m, &m_row_diagonal_slot, &m_equality_slot);
  m_ldlt.analyze(m_kkt, saddle_point_ordering(p.curvature, p.equality_jacobian));
  m_rhs.resize(n + m);
  m_z.resize(n + m);
  m_residual.resize(n + m);
  m_key_sizes = pattern_sizes(p);
  m_key_curvature = p.has_curvature() ? index_arrays(p.curvature) : std::vector<int>{};
  m_key_equality = index_arrays(p.equality_jacobian);
}

bool SaddlePointFactorization::factorize(const QpProblem& p, double relative_regularization,
                                         int refinement_steps) {
  if (!same_pattern(p))
    rebuild_pattern(p);
  m_problem = &p;
  m_refinement_steps = refinement_steps;
  const int m = p.num_equalities();
  const double epsilon = equality_regularization(p, relative_regularization);
  m_epsilon = epsilon;

  // Every entry of the pattern is written below (it was built from exactly these entries), K's
  // off-diagonal ones once each: no zeroing first.
  double* values = m_kkt.valuePtr();
  m_hessian.write(p, values);
  for (int r = 0; r < m; ++r)
    values[m_row_diagonal_slot[r]] = -epsilon;
  const double* a = p.equality_jacobian.valuePtr();
  for (std::size_t q = 0; q < m_equality_slot.size(); ++q)
    values[m_equality_slot[q]] = a[q];
  if (!m_ldlt.factorize(m_kkt))
    return false;
  m_convex = m_ldlt.num_negative_pivots() == m;
  return true;
}

void SaddlePointFactorization::solve(const Eigen::VectorXd& r_x, const Eigen::VectorXd& r_y,
                                     Eigen::VectorXd* x, Eigen::VectorXd* y) const {
  const QpProblem& p = *m_problem;
  const int n = p.num_variables(), m = p.num_equalities();
  m_rhs.head(n) = r_x;
  if (m > 0)
    m_rhs.tail(m) = r_y;
  m_z = m_rhs;
  m_ldlt.solve_in_place(&m_z);
  for (int step = 0; step < m_refinement_steps; ++step) {
    m_residual.head(n) = m_rhs.head(n) - p.mass.cwiseProduct(m_z.head(n));
    if (p.has_curvature()) {
      m_residual.head(n).noalias() -= p.curvature.selfadjointView<Eigen::Lower>() * m_z.head(n);
    }
    if (m > 0) {
      m_residual.head(n).noalias() -= p.equality_jacobian.transpose() * m_z.tail(m);
      m_residual.tail(m) = m_rhs.tail(m);
      m_residual.tail(m).noalias() -= p.equality_jacobian * m_z.head(n);
    }
    m_ldlt.solve_in_place(&m_residual);
    m_z += m_residual;
  }
  *x = m_z.head(n);
  *y = m_z.tail(m);
}

void SaddlePointFactorization::solve_columns(const RowMajorMatrix& r_x, RowMajorMatrix* x,
                                             RowMajorMatrix* y) const {
  const QpProblem& p = *m_problem;
  const int n = p.num_variables(), m = p.num_equalities();
  const Eigen::Index columns = r_x.cols();
  m_rhs_columns.resize(n + m, columns);
  m_rhs_columns.topRows(n) = r_x;
  m_rhs_columns.bottomRows(m).setZero();
  m_z_columns = m_rhs_columns;
  m_ldlt.solve_in_place(&m_z_columns);
  for (int step = 0; step < m_refinement_steps; ++step) {
    RowMajorMatrix& residual = m_residual_columns;
    residual.resize(n + m, columns);
    residual.topRows(n) = r_x - p.mass.asDiagonal() * m_z_columns.topRows(n);
    if (p.has_curvature()) {
      residual.topRows(n).noalias() -=
          p.curvature.selfadjointView<Eigen::Lower>() * m_z_columns.topRows(n);
    }
    if (m > 0) {
      residual.topRows(n).noalias() -= p.equality_jacobian.transpose() * m_z_columns.bottomRows(m);
      residual.bottomRows(m).noalias() = -(p.equality_jacobian * m_z_columns.topRows(n));
    }
    m_ldlt.solve_in_place(&residual);
    m_z_columns += residual;
  }
  *x = m_z_columns.topRows(n);
  *y = m_z_columns.bottomRows(m);
}

}  // namespace clothfit::qp
