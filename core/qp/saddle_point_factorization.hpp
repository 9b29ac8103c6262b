// SaddlePointFactorization: the EqualitySystem for QPs with a curvature term K (Newton steps).
// Factors [D + K, A_Eᵀ; A_E, −εI] by a supernodal LDLᵀ without pivoting (SupernodalLdlt; for
// K ⪰ 0 the matrix is quasi-definite, which has an LDLᵀ factorisation in every symmetric ordering;
// an indefinite K that still leaves D + K positive definite on the null space of A_E factors in
// practice, and the count of negative pivots says whether it did: convex()) in the
// node-grouped ordering of saddle_point_ordering, reusing the symbolic analysis while the patterns
// of K and A_E stay the same, and refines against the unregularised system. factorize() and solve()
// allocate nothing once the pattern is known.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

#include "core/qp/equality_system.hpp"
#include "core/qp/hessian_block.hpp"
#include "core/qp/supernodal_ldlt.hpp"

namespace clothfit::qp {

class SaddlePointFactorization final : public EqualitySystem {
 public:
  bool factorize(const QpProblem& problem, double relative_regularization,
                 int refinement_steps) override;
  void solve(const Eigen::VectorXd& r_x, const Eigen::VectorXd& r_y, Eigen::VectorXd* x,
             Eigen::VectorXd* y) const override;
  // All columns in one pass of each triangular sweep (SupernodalLdlt's matrix solve).
  void solve_columns(const RowMajorMatrix& r_x, RowMajorMatrix* x,
                     RowMajorMatrix* y) const override;
  // The LDLᵀ has exactly m_E negative pivots (with ε > 0, the inertia of the unregularised
  // matrix whenever A_E has full rank).
  bool convex() const override { return m_convex; }
  double regularization() const override { return m_epsilon; }

 private:
  bool same_pattern(const QpProblem& problem) const;
  void rebuild_pattern(const QpProblem& problem);

  SupernodalLdlt m_ldlt;
  Eigen::SparseMatrix<double> m_kkt;  // lower triangle of the regularised matrix
  HessianBlock m_hessian;             // where D + K goes
  std::vector<int> m_row_diagonal_slot, m_equality_slot;
  // Sizes and index arrays of K and A_E the analysis was made for.
  std::vector<int> m_key_sizes, m_key_curvature, m_key_equality;
  const QpProblem* m_problem = nullptr;
  int m_refinement_steps = 0;
  bool m_convex = true;
  double m_epsilon = 0.0;
  mutable Eigen::VectorXd m_rhs, m_z, m_residual;
  mutable RowMajorMatrix m_rhs_columns, m_z_columns, m_residual_columns;
};

}  // namespace clothfit::qp
