// The quadratic program solved at every projection iteration of a time step (DESIGN.md §2):
//
//   min_x  ½ xᵀ (D + K) x − fᵀ x
//   s.t.   c_E + A_E x  = 0      (inextensibility rows and held-node rows)
//          c_I + A_I x ≥ 0      (contact rows)
//
// with D = diag(mass) positive definite and K an optional positive semidefinite curvature term
// (the constraint curvature of a Newton step; empty for the paper's Gauss–Newton QP). x is the
// increment Δφ (metres), so the problem has n = 3N unknowns. Multiplier convention (paper eq. 7,
// tested by qp_kkt):
//
//   (D + K) x − f = −A_Eᵀ λ + A_Iᵀ γ,   γ ≥ 0,   γ_i (c_I + A_I x)_i = 0.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

namespace clothfit::qp {

using SparseRowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

struct QpProblem {
  Eigen::VectorXd mass;                   // (n) diagonal of D, > 0
  Eigen::SparseMatrix<double> curvature;  // (n × n) lower triangle of K, PSD; 0 × 0 when absent
  Eigen::VectorXd linear;                 // (n) f
  SparseRowMatrix equality_jacobian;      // (m_E × n) A_E
  Eigen::VectorXd equality_offset;        // (m_E) c_E
  SparseRowMatrix inequality_jacobian;    // (m_I × n) A_I
  Eigen::VectorXd inequality_offset;      // (m_I) c_I

  int num_variables() const { return static_cast<int>(mass.size()); }
  int num_equalities() const { return static_cast<int>(equality_offset.size()); }
  int num_inequalities() const { return static_cast<int>(inequality_offset.size()); }
  bool has_curvature() const { return curvature.nonZeros() > 0; }
};

struct QpSolution {
  Eigen::VectorXd x;                       // (n)
  Eigen::VectorXd equality_multipliers;    // (m_E) λ
  Eigen::VectorXd inequality_multipliers;  // (m_I) γ ≥ 0; zero for inactive rows
  std::vector<int> active_inequalities;    // indices i with row i in the final working set
};

}  // namespace clothfit::qp
