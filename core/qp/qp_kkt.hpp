// Relative KKT residuals of a QP solution (the optimality test shared by both QP solvers' tests).
//
// For the QP of qp_problem.hpp and the sign convention stated there,
//
//   r_stat = (D + K) x − f + A_Eᵀ λ − A_Iᵀ γ    (n)      stationarity, a force
//   r_E    = c_E + A_E x                        (m_E)    equality residual
//   s      = c_I + A_I x                        (m_I)    inequality slack, ≥ 0 at a solution
//
// and a solution satisfies r_stat = 0, r_E = 0, s ≥ 0, γ ≥ 0, γ_i s_i = 0. Pinned rows
// (r_P = c_P + A_P x, multipliers σ, r_stat gets − A_Pᵀ σ) count as equality rows when unbounded;
// a bounded one enters `inequality` with a residual on the wrong side of its force (σ r_P > 0),
// `dual` with |σ| above the bound and `complementarity` with (b − |σ|) |r_P|. Each residual is made
// dimensionless with one of two problem scales, so that it is invariant under rescaling a row of
// (A, c), the objective (D, f) or the units of x:
//
//   force scale  F = max(‖|D x| + |K| |x|‖∞, ‖f‖∞, ‖|A_E|ᵀ|λ|‖∞, ‖|A_I|ᵀ|γ|‖∞)
//   length scale L = max(‖x‖∞, max_i |c_E,i| / ‖a_E,i‖₂, max_i max(0, −c_I,i) / ‖a_I,i‖₂)
//
// (|·| elementwise, |K| the full symmetric matrix of absolute values: F is the size of the largest
// force term, so round-off in r_stat is ~ε·F even when multipliers of duplicated rows cancel or
// the entries of K x cancel; without K the first term is ‖D x‖∞; L is the size of the step and of
// the moves that the offsets ask for at x = 0. Inequality rows satisfied at x = 0 do not enter L,
// so a contact far away does not make the measure lenient.) Row residuals are converted into
// lengths by dividing by the row's Euclidean norm: |r_i| / ‖a_i‖₂ is the distance from x to the
// row's hyperplane.
//
// A scale that is exactly zero is replaced by 1e-300, so a residual that is exactly zero is
// reported as 0 and any other residual on an all-zero problem as huge.
#pragma once

#include "core/qp/qp_problem.hpp"

namespace clothfit::qp {

struct QpKktResidual {
  // ‖r_stat‖∞ / F.
  double stationarity = 0.0;
  // max_i |r_E,i| / ‖a_E,i‖₂ / L (zero rows of A_E: |r_E,i| / L).
  double equality = 0.0;
  // max_i max(0, −s_i) / ‖a_I,i‖₂ / L (zero rows: max(0, −s_i) / L).
  double inequality = 0.0;
  // max_i max(0, −γ_i) ‖a_I,i‖₂ / F: a wrong-signed contact force relative to the force scale.
  double dual = 0.0;
  // max_i |γ_i s_i| / (F L): the energy γ_i s_i relative to force × length.
  double complementarity = 0.0;

  // The scales used: F in the units of f (N for the simulator), L in the units of x (m).
  double force_scale = 0.0;
  double length_scale = 0.0;
  // F₀ = max(‖|D x| + |K| |x|‖∞, ‖f‖∞): F without the multipliers' terms, the forces of the
  // objective alone. F ≫ F₀ means multipliers that cancel one another (dependent rows): then
  // round-off alone makes r_stat ~ ε F, and a residual small against F may be large against F₀.
  double objective_force_scale = 0.0;

  // Largest of the five relative residuals.
  double max() const;
};

// Residuals of `solution` for `problem`. The solution's vectors must be sized n, m_E, m_I and
// problem.curvature must be n × n or 0 × 0 (asserted); K is read from its lower triangle (entries
// stored above the diagonal are ignored, as by the solvers); active_inequalities is not used.
QpKktResidual kkt_residual(const QpProblem& problem, const QpSolution& solution);

}  // namespace clothfit::qp
