// DelassusFactorization: solves the saddle-point system of the equality-constrained QP
//
//   [ D   A_Eᵀ ] [x]   [r_x]        through the Delassus matrix   W = A_E D⁻¹ A_Eᵀ:
//   [ A_E  0   ] [y] = [r_y]        (W + εI) y = A_E D⁻¹ r_x − r_y,   x = D⁻¹ (r_x − A_Eᵀ y).
//
// W + εI is symmetric positive definite and factored by a sparse Cholesky whose symbolic analysis
// is reused while A_E keeps its sparsity pattern. ε keeps rank-deficient A_E factorable (a flat
// sheet has 15 dependent rows in 133 on a 7 × 9 grid: DESIGN.md §2 traps). Two uses:
//  - exact QPs: a tiny ε followed by iterative refinement against W recovers the exact solution
//    wherever the system is consistent;
//  - the projection iterations of a time step: a larger ε without refinement is a
//    Levenberg–Marquardt damping that keeps Gauss–Newton from overshooting along the nearly
//    dependent directions of a nearly flat sheet.
#pragma once

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

#include "core/qp/equality_system.hpp"

namespace clothfit::qp {

class DelassusFactorization final : public EqualitySystem {
 public:
  using SparseRowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

  // Uses problem.mass and problem.equality_jacobian (the curvature must be empty):
  // ε = relative_regularization · mean(diag W).
  bool factorize(const QpProblem& problem, double relative_regularization,
                 int refinement_steps) override;
  void solve(const Eigen::VectorXd& r_x, const Eigen::VectorXd& r_y, Eigen::VectorXd* x,
             Eigen::VectorXd* y) const override;
  // One column at a time: its refinement stops per column.
  void solve_columns(const RowMajorMatrix& r_x, RowMajorMatrix* x,
                     RowMajorMatrix* y) const override;

  // ε actually used, in the units of W.
  double regularization() const override { return m_epsilon; }

 private:
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower> m_llt;
  Eigen::SparseMatrix<double> m_delassus;             // W (without ε), lower triangle used
  std::vector<int> m_pattern_outer, m_pattern_inner;  // W pattern the analysis was made for
  const SparseRowMatrix* m_equality = nullptr;
  Eigen::VectorXd m_inverse_mass;
  Eigen::SparseMatrix<double> m_scaled;  // A_E D^{-1/2}, row-major → column-major product
  double m_epsilon = 0.0;
  int m_refinement_steps = 0;
  mutable Eigen::VectorXd m_rhs, m_residual;
};

}  // namespace clothfit::qp
