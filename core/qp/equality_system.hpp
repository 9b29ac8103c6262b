// EqualitySystem: a factorisation of the saddle-point system of a QP's equality rows,
//
//   [ D + K   A_Eᵀ ] [x]   [r_x]
//   [ A_E     0    ] [y] = [r_y],
//
// which the active-set solver solves once for the equality-only solution, once for all the rows it
// starts from together (solve_columns) and once for each row entering the working set later. Two
// implementations: DelassusFactorization (K = 0: a Cholesky of A_E D⁻¹ A_Eᵀ) and
// SaddlePointFactorization (any K with D + K positive definite on the null space of A_E: an LDLᵀ,
// quasi-definite when K is positive semidefinite, whose inertia says whether K was acceptable).
// Both add ε = relative_regularization · mean(diag A_E D⁻¹ A_Eᵀ) to keep rank-deficient A_E (a
// flat sheet: DESIGN.md §2 traps) factorable and refine against the unregularised system.
#pragma once

#include <Eigen/Core>

#include "core/qp/qp_problem.hpp"

namespace clothfit::qp {

class EqualitySystem {
 public:
  virtual ~EqualitySystem() = default;
  // `problem` must stay alive and unchanged until the next factorize(). Returns false when the
  // factorisation fails.
  virtual bool factorize(const QpProblem& problem, double relative_regularization,
                         int refinement_steps) = 0;
  // After a successful factorize(): whether the QP is convex on the null space of A_E, i.e. the
  // matrix has n positive and m_E negative pivots (true whenever K is positive semidefinite).
  virtual bool convex() const { return true; }
  // After a successful factorize(): ε, the regularisation added (in the units of A_E D⁻¹ A_Eᵀ).
  virtual double regularization() const = 0;
  // r_x (n), r_y (m_E, may be empty) → x (n), y (m_E).
  virtual void solve(const Eigen::VectorXd& r_x, const Eigen::VectorXd& r_y, Eigen::VectorXd* x,
                     Eigen::VectorXd* y) const = 0;

  using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  // Many right-hand sides with r_y = 0 (the responses to rows entering the working set): column j
  // of r_x (n × c) → column j of x (n × c) and y (m_E × c).
  virtual void solve_columns(const RowMajorMatrix& r_x, RowMajorMatrix* x,
                             RowMajorMatrix* y) const = 0;
};

}  // namespace clothfit::qp
