// SaddlePointFactorization: the EqualitySystem for QPs with a curvature term K (Newton steps).
// Factors the quasi-definite matrix [D + K, A_Eᵀ; A_E, −εI] by a sparse LDLᵀ (any symmetric
// ordering is stable for quasi-definite matrices), reusing the symbolic analysis while the
// patterns of K and A_E stay the same, and refines against the unregularised system.
#pragma once

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

#include "core/qp/equality_system.hpp"

namespace clothfit::qp {

class SaddlePointFactorization final : public EqualitySystem {
 public:
  bool factorize(const QpProblem& problem, double relative_regularization,
                 int refinement_steps) override;
  void solve(const Eigen::VectorXd& r_x, const Eigen::VectorXd& r_y, Eigen::VectorXd* x,
             Eigen::VectorXd* y) const override;

 private:
  void rebuild_pattern(const QpProblem& problem);

  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> m_ldlt;
  Eigen::SparseMatrix<double> m_kkt;  // lower triangle of the regularised matrix
  std::vector<int> m_diagonal_slot, m_curvature_slot, m_equality_slot;
  std::vector<int> m_key;  // patterns of K and A_E the analysis was made for
  const QpProblem* m_problem = nullptr;
  int m_refinement_steps = 0;
  mutable Eigen::VectorXd m_rhs, m_z, m_residual;
};

}  // namespace clothfit::qp
