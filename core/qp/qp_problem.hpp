// The quadratic program solved at every projection iteration of a time step (DESIGN.md §2):
//
//   min_x  ½ xᵀ (D + K) x − fᵀ x
//   s.t.   c_E + A_E x  = 0      (inextensibility rows)
//          c_I + A_I x ≥ 0      (contact rows)
//          c_P + A_P x  = 0      (pinned rows: equalities that change between QPs, kept out of
//                                 the factorised block A_E; optionally with bounded multipliers)
//
// with D = diag(mass) positive definite and K an optional positive semidefinite curvature term
// (the constraint curvature of a Newton step; empty for the paper's Gauss–Newton QP). x is the
// increment Δφ (metres), so the problem has n = 3N unknowns. Multiplier convention (paper eq. 7,
// tested by qp_kkt):
//
//   (D + K) x − f = −A_Eᵀ λ + A_Iᵀ γ + A_Pᵀ σ,   γ ≥ 0,   γ_i (c_I + A_I x)_i = 0,
//
// σ of either sign (a pinned row acts like a contact row whose multiplier may pull). A pinned row
// with a bound b_i < ∞ holds only while |σ_i| < b_i; otherwise σ_i = −b_i sign(r_i) with
// r_i = (c_P + A_P x)_i: the row's force is at its bound and opposes the row's residual. This is
// Coulomb friction by maximal dissipation for a given normal force (b = μ × normal force): the
// QP then minimises ½ xᵀ(D + K)x − fᵀx + Σ b_i |r_i| over the bounded rows.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <limits>
#include <vector>

namespace clothfit::qp {

using SparseRowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

struct QpProblem {
  Eigen::VectorXd mass;                   // (n) diagonal of D, > 0 (see without_pinned_rows)
  Eigen::SparseMatrix<double> curvature;  // (n × n) lower triangle of K, PSD; 0 × 0 when absent
  Eigen::VectorXd linear;                 // (n) f
  SparseRowMatrix equality_jacobian;      // (m_E × n) A_E
  Eigen::VectorXd equality_offset;        // (m_E) c_E
  SparseRowMatrix inequality_jacobian;    // (m_I × n) A_I
  Eigen::VectorXd inequality_offset;      // (m_I) c_I
  SparseRowMatrix pinned_jacobian;        // (m_P × n) A_P; may be 0 × 0 when m_P = 0
  Eigen::VectorXd pinned_offset;          // (m_P) c_P
  Eigen::VectorXd pinned_bound;           // (m_P) b ≥ 0 on |σ|, +∞ for none; empty: all +∞
  // The damped QP (QpSolverOptions::refinement_steps = 0) holds the equality rows as
  // c_E + A_E x = ε (λ − λ₀): a compliance ε, centred at λ₀ = damping_centre(*this, ε), which is 0
  // unless the caller passes an estimate λ̂ of the multipliers (m_E; empty: none) and a bound τ on
  // the rows' offsets: λ₀ = λ̂ − clamp(λ̂, −τ/ε, τ/ε), so that at λ = λ̂ no row is off by more than
  // τ. An iteration that passes its current λ as λ̂ thus keeps the compliance where it is harmless
  // (it keeps nearly dependent rows well posed) and has fixed points with |c_E + A_E x| ≤ τ;
  // τ = 0 damps only the change of λ (the proximal method of multipliers), τ = ∞ gives λ₀ = 0.
  Eigen::VectorXd multiplier_estimate;
  double max_damping_offset = std::numeric_limits<double>::infinity();
  // Set by the caller when mass, curvature and equality_jacobian hold exactly the values of the
  // previous solve() given to the same solver (only f, c_E and the inequality rows changed): the
  // solver may then reuse its factorisation of the equality block instead of refactoring.
  bool matrices_unchanged = false;
  // Set by the caller when K is positive semidefinite by construction (the stepper's
  // semidefinite Newton model): D + K is then positive definite and the solver need not factor
  // the equality rows to check that the QP is convex. False: the solver checks (the exact
  // curvature can make it nonconvex).
  bool curvature_semidefinite = false;

  int num_variables() const { return static_cast<int>(mass.size()); }
  int num_equalities() const { return static_cast<int>(equality_offset.size()); }
  int num_inequalities() const { return static_cast<int>(inequality_offset.size()); }
  int num_pinned() const { return static_cast<int>(pinned_offset.size()); }
  double pinned_bound_of(int i) const {
    return pinned_bound.size() == 0 ? std::numeric_limits<double>::infinity() : pinned_bound[i];
  }
  bool has_curvature() const { return curvature.nonZeros() > 0; }
};

// λ₀ of QpProblem::multiplier_estimate for the compliance ε (m_E; zero when there is no estimate).
Eigen::VectorXd damping_centre(const QpProblem& problem, double epsilon);

struct QpSolution {
  Eigen::VectorXd x;                       // (n)
  Eigen::VectorXd equality_multipliers;    // (m_E) λ
  Eigen::VectorXd inequality_multipliers;  // (m_I) γ ≥ 0; zero for inactive rows
  Eigen::VectorXd pinned_multipliers;      // (m_P) σ, either sign
  std::vector<int> active_inequalities;    // indices i with row i in the final working set
};

// An equivalent QP without pinned rows, for the interior-point solver: the pinned rows are
// appended to the equality rows (A_E; A_P); a bounded row i also gets two slack variables
// p_i, q_i ≥ 0 (inequality rows), the row becoming c_i + a_i x − p_i + q_i = 0, with the objective
// term b_i (p_i + q_i) and zero mass: D is then only semidefinite, which the interior point
// accepts (the problem stays bounded) and the active-set solver does not. A row with bound 0 gets
// one free slack instead (σ = 0; with two the objective would not bound p + q). Variables: x,
// then the slacks per bounded row in order; its equality multipliers are (λ; −σ).
QpProblem without_pinned_rows(const QpProblem& problem);

// The equality rows that span A_E's row space, ascending: a column-pivoted Householder QR of A_Eᵀ
// with every column (row of A_E) scaled to unit length, so that the choice does not depend on
// the rows' scales; a row whose pivot is at most `relative_pivot` times the largest is dependent
// on those chosen before it. Dense: O(n m_E²) time and n m_E doubles. Zero rows are never chosen.
std::vector<int> spanning_equality_rows(const QpProblem& problem, double relative_pivot);

// `problem` with only the equality rows `rows` (indices into A_E, ascending), in that order.
QpProblem with_equality_rows(const QpProblem& problem, const std::vector<int>& rows);

}  // namespace clothfit::qp
