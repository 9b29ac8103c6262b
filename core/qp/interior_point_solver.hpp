// The interior-point baseline for the time-step QP (DESIGN.md §2): the QP of qp_problem.hpp handed
// to Ipopt (primal-dual interior point, MUMPS), as the standard method the paper compares its
// active-set method with.
//
// What Ipopt is given:
// - variables x (n), no bounds; objective ½ xᵀ (D + K) x − fᵀ x with the exact Hessian D + K,
//   whose lower-triangle structure is the diagonal followed by K's strictly lower entries (K's
//   diagonal is added to D's; K's entries above the diagonal, not part of the interface, are
//   ignored, as by the active-set solver's factorisation);
// - constraints g(x) = [A_E; A_I] x (sparse Jacobian copied from the row-major matrices) with
//   bounds −c_E ≤ A_E x ≤ −c_E and −c_I ≤ A_I x; hessian_constant, jac_c_constant and
//   jac_d_constant are set, bound_relax_factor = 0 (contacts are not relaxed), mu_strategy
//   adaptive, starting point x = 0 (the interface has no initial iterate; the warm start is
//   ignored);
// - user scaling, so that Ipopt's tol is relative: with the step length
//     σ = max(‖(D + K)⁻¹ f‖∞, max_i |c_E,i| / ‖a_E,i‖∞, max_i max(0, −c_I,i) / ‖a_I,i‖∞)
//   (1 if 0; the first term by a sparse LDLᵀ of D + K, ‖D⁻¹ f‖∞ without K),
//   x is scaled by 1/σ, row i of g by 1/(σ ‖a_i‖∞) and the objective by 1/(σ² ‖D‖∞), which makes
//   the scaled Jacobian, the initial gradient and D's part of the scaled Hessian O(1) whatever the
//   units. K's part is left as large as it is relative to D (up to ~3e3 on the hanging example):
//   scaling the objective by 1/(σ² ‖D + K‖) instead loosens Ipopt's tolerances, relative to the
//   forces that only D resists, by ‖K‖/‖D‖, and the contacts of Newton QPs captured from the
//   hanging example (contact forces ~1e-6 F, F inflated by |K| |x|) came out only to ~3e-6 L.
//   (σ from D⁻¹ f would overestimate the step by up to ‖K‖/‖D‖ when K is stiff.)
// - a second pass when σ was too long: Ipopt's tolerances are relative to σ, so an overestimate
//   by σ/L (L the length scale of qp_kkt.hpp at the solution) loosens the complementarity that
//   kkt_residual measures by up to (σ/L)². σ ≫ L when the constraint forces are large against
//   (D + K) x, so that the unconstrained step (D + K)⁻¹ f is much longer than the constrained one
//   (random QPs with K ≈ 100 D and contact forces of the size of (D + K) x*: σ ≈ 100 L, residuals
//   up to 2e-8 instead of ~1e-10). If the first pass succeeds with kkt_residual(...).max() above
//   kRescaleResidualFactor × tol and σ > kRescaleStepRatio × L, the QP is solved again from
//   x = 0 with σ = L of the first solution, and the second result is returned (iterations of both
//   passes are summed; the message says "second pass").
// - the damped QP when QpSolverOptions::refinement_steps = 0 and equality_regularization =
//   reg > 0 (what the stepper asks for: Levenberg–Marquardt damping of the projection). The
//   active set then solves the regularised system [D + K, A_Eᵀ; A_E, −εI] without refinement,
//   ε = reg · mean(diag A_E D⁻¹ A_Eᵀ), i.e. the equality rows hold only up to ε λ; the interior
//   point solves the same problem as an exact QP over (x, v) with elastic lengths v (m_E): rows
//   a_i x − ‖a_i‖₂ v_i + c_i = 0 and objective + ½ Σ (‖a_i‖₂² / ε) v_i², whose solution has
//   a_i x + c_i = ε λ_i. That keeps Ipopt from declaring a round-off-inconsistent linearisation
//   infeasible (the stepper's first QP on a flat sheet: rank 117 of 133, offsets ~1e-15, which
//   ended every `--qp interior-point` run at step 1 with Infeasible_Problem_Detected). The
//   kkt_residual guard, the second pass and the active-row rule then apply to the (x, v) problem;
//   the message ends with "(damped QP)". With refinement_steps > 0 (the default) the exact QP is
//   solved, as the active set's refinement does.
// Options used: interior_point_tolerance (Ipopt tol, on the scaled problem),
// interior_point_max_iterations (max_iter), and refinement_steps = 0 with
// equality_regularization for the damped QP; the other active-set options are ignored.
//
// What comes back (sign convention of qp_problem.hpp):
// - x: Ipopt's final iterate; λ = Ipopt's equality multipliers; γ = −(Ipopt's inequality
//   multipliers) because Ipopt's Lagrangian is f + gᵀy (so y ≤ 0 at an active lower bound);
// - negative γ_i whose force |γ_i| ‖a_i‖₂ is below kNegativeMultiplierClip × F (F the force scale
//   of qp_kkt.hpp) are round-off of Ipopt's dual infeasibility and are set to 0; larger negative
//   values (only after a failed solve) are kept so that kkt_residual reports them;
// - active_inequalities: rows whose relative slack s_i / (‖a_i‖₂ L) is at most kActiveSlack and
//   smaller than their relative force γ_i ‖a_i‖₂ / F (L, F the scales of qp_kkt.hpp), ascending.
//   An interior point never makes either member of the pair exactly zero; this picks the one that
//   is.
// - QpSummary: kConverged for Solve_Succeeded whose kkt_residual is at most
//   kMaxConvergedKktResidual; kIterationLimit for Maximum_Iterations_Exceeded; kNumericalFailure
//   for everything else, including Solved_To_Acceptable_Level (Ipopt could not reach tol) and
//   infeasible or inconsistent problems. iterations = Ipopt iterations; message = "Ipopt: " and
//   Ipopt's status name (of the last pass).
//
// Rank-deficient equality rows (duplicates, the flat sheet) are handled by Ipopt's regularisation
// of the constraint block (jacobian_regularization_value), with MUMPS's analysis-time
// permutation/scaling switched off (mumps_permuting_scaling = 0: computed from a singular first
// matrix it made every later factorisation fail). That is not always enough: on about 1 in 100
// random QPs with duplicated rows Ipopt failed (Solved_To_Acceptable_Level, or Restoration_Failed
// on one QP of the tests), or reported success with multipliers of the dependent rows that cancel
// at 7e13–2e16 times the forces of the objective F₀ (qp_kkt.hpp), inflating the force scale F
// until a wrong x passed the KKT test. So a solve that
// fails, or converges with F > kMaxMultiplierGrowth × F₀, is done again without the equality rows
// that a column-pivoted QR of A_Eᵀ (rows scaled to unit length, pivots at most
// kDependentRowPivot of the largest) finds dependent on the others; their multipliers are 0. The
// retry's result replaces the first only if it converges and the whole QP's KKT residual is at
// most kMaxConvergedKktResidual (inconsistent dependent rows fail that), and the message says
// "left out as dependent"; otherwise the first result stands, its message extended with the
// retry's. No retry when the dense QR would exceed kMaxDenseRankEntries entries. Pinned rows
// count as equality rows here (without_pinned_rows). Ipopt counts rows, not rank: it refuses
// m_E > n and treats m_E = n as a square system whose objective it ignores, so when m_E ≥ n the
// problem is padded with m_E − n + 1 unconstrained variables y (objective ½ ‖D‖∞ ‖y‖², no
// curvature, solution y = 0) that are dropped from the result. The solver never throws and never
// prints (no console journal; MUMPS output off). One IpoptApplication is created in the
// constructor and reused by every solve; an object must not be used by two threads at once (and
// the sequential MUMPS build is not re-entrant, so use one thread for all interior-point solves).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "core/qp/qp_solver.hpp"

namespace clothfit::qp {

class InteriorPointSolver final : public QpSolver {
 public:
  // Negative multipliers at most this fraction of the force scale are clipped to 0.
  static constexpr double kNegativeMultiplierClip = 1e-6;
  // Largest relative slack of a row reported as active.
  static constexpr double kActiveSlack = 1e-6;
  // Second pass (header): when the first pass succeeds with kkt_residual(...).max() above
  // kRescaleResidualFactor × interior_point_tolerance and σ exceeds kRescaleStepRatio × L.
  static constexpr double kRescaleResidualFactor = 10.0;
  static constexpr double kRescaleStepRatio = 10.0;
  // A solve Ipopt calls successful is reported as kNumericalFailure when kkt_residual(...).max()
  // of the returned solution exceeds this (a guard against Ipopt's special cases; a genuine
  // success is ~tol).
  static constexpr double kMaxConvergedKktResidual = 1e-6;
  // A solution whose length scale L is below this fraction of σ is x = 0 to Ipopt's precision
  // (everything already satisfied, e.g. a rigidly falling sheet whose only contact row is far
  // from active): its relative residuals compare round-off with round-off, so neither the
  // second pass nor the residual guard applies (a second pass with σ = L overflowed).
  static constexpr double kNegligibleStepRatio = 1e-12;
  // A QP whose every requested move (|f_k|/D_k, |c_E,i|/‖a_i‖₂) is below this (in x's unit, metres
  // in the stepper) and whose contact rows hold at x = 0 is answered x = 0 without Ipopt.
  static constexpr double kZeroStep = 1e-30;
  // Dependent equality rows (header): a solution whose force scale F exceeds this multiple of the
  // objective's forces F₀ (qp_kkt.hpp) is solved again without the rows that a column-pivoted QR
  // of A_Eᵀ (unit rows) finds dependent, pivot at most kDependentRowPivot of the largest; no
  // retry when the dense n × m_E matrix would have more than kMaxDenseRankEntries entries.
  static constexpr double kMaxMultiplierGrowth = 1e8;
  static constexpr double kDependentRowPivot = 1e-12;
  static constexpr double kMaxDenseRankEntries = 2e7;

  explicit InteriorPointSolver(const QpSolverOptions& options = {});
  ~InteriorPointSolver() override;
  InteriorPointSolver(const InteriorPointSolver&) = delete;
  InteriorPointSolver& operator=(const InteriorPointSolver&) = delete;

  std::string_view name() const override { return "interior-point"; }
  // See the file comment. `start` is ignored.
  QpSummary solve(const QpProblem& problem, const QpWarmStart& start,
                  QpSolution* solution) override;

 private:
  // One solve of a QP without pinned rows (everything but the dependent-row retry); `overgrown`
  // says whether a converged solution's multipliers exceed kMaxMultiplierGrowth.
  QpSummary solve_once(const QpProblem& problem, QpSolution* solution, bool* overgrown);

  struct Impl;  // holds the Ipopt application (Ipopt headers stay out of this header)
  std::unique_ptr<Impl> m_impl;
};

}  // namespace clothfit::qp
