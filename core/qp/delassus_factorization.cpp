#include "core/qp/delassus_factorization.hpp"

#include <algorithm>
#include <limits>

namespace clothfit::qp {

bool DelassusFactorization::factorize(const QpProblem& problem, double relative_regularization,
                                      int refinement_steps) {
  const SparseRowMatrix& equality = problem.equality_jacobian;
  m_equality = &equality;
  m_inverse_mass = problem.mass.cwiseInverse();
  m_refinement_steps = refinement_steps;
  const Eigen::Index m = equality.rows();
  if (m == 0)
    return true;
  const Eigen::VectorXd inverse_sqrt = m_inverse_mass.cwiseSqrt();
  const SparseRowMatrix scaled = equality * inverse_sqrt.asDiagonal();
  m_delassus = (scaled * scaled.transpose()).template triangularView<Eigen::Lower>();
  m_delassus.makeCompressed();
  m_epsilon = relative_regularization * std::max(m_delassus.diagonal().mean(), 1e-300);
  const bool same_pattern =
      static_cast<Eigen::Index>(m_pattern_outer.size()) == m + 1 &&
      static_cast<Eigen::Index>(m_pattern_inner.size()) == m_delassus.nonZeros() &&
      std::equal(m_pattern_outer.begin(), m_pattern_outer.end(), m_delassus.outerIndexPtr()) &&
      std::equal(m_pattern_inner.begin(), m_pattern_inner.end(), m_delassus.innerIndexPtr());
  Eigen::SparseMatrix<double> regularized = m_delassus;
  for (Eigen::Index i = 0; i < m; ++i)
    regularized.coeffRef(i, i) += m_epsilon;
  if (!same_pattern) {
    m_pattern_outer.assign(m_delassus.outerIndexPtr(), m_delassus.outerIndexPtr() + m + 1);
    m_pattern_inner.assign(m_delassus.innerIndexPtr(),
                           m_delassus.innerIndexPtr() + m_delassus.nonZeros());
    m_llt.analyzePattern(regularized);
  }
  m_llt.factorize(regularized);
  return m_llt.info() == Eigen::Success;
}

void DelassusFactorization::solve(const Eigen::VectorXd& r_x, const Eigen::VectorXd& r_y,
                                  Eigen::VectorXd* x, Eigen::VectorXd* y) const {
  const Eigen::Index m = m_equality->rows();
  if (m == 0) {
    *x = m_inverse_mass.cwiseProduct(r_x);
    y->resize(0);
    return;
  }
  m_rhs.noalias() = (*m_equality) * m_inverse_mass.cwiseProduct(r_x);
  m_rhs -= r_y;
  *y = m_llt.solve(m_rhs);
  // Refinement against the unregularised W (its lower triangle holds all of it), until the
  // residual reaches round-off or stops shrinking, at most m_refinement_steps times.
  const double target = 1e-15 * m_rhs.norm();
  double previous = std::numeric_limits<double>::infinity();
  for (int step = 0; step < m_refinement_steps; ++step) {
    m_residual = m_rhs;
    m_residual.noalias() -= m_delassus.template selfadjointView<Eigen::Lower>() * (*y);
    const double size = m_residual.norm();
    if (size <= target || size > 0.9 * previous)
      break;
    previous = size;
    *y += m_llt.solve(m_residual);
  }
  *x = m_inverse_mass.cwiseProduct(r_x - m_equality->transpose() * (*y));
}

void DelassusFactorization::solve_columns(const RowMajorMatrix& r_x, RowMajorMatrix* x,
                                          RowMajorMatrix* y) const {
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(m_equality->rows());
  Eigen::VectorXd xj, yj;
  x->resize(r_x.rows(), r_x.cols());
  y->resize(m_equality->rows(), r_x.cols());
  for (Eigen::Index j = 0; j < r_x.cols(); ++j) {
    solve(r_x.col(j), zero, &xj, &yj);
    x->col(j) = xj;
    if (y->rows() > 0)  // a column block of an empty matrix offsets its null data pointer (UB)
      y->col(j) = yj;
  }
}

}  // namespace clothfit::qp
