// SimulationModel (immutable during a run) and SimulationState (what a step changes), in the
// spirit of MuJoCo's mjModel / mjData.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/forces/cloth_material.hpp"
#include "core/mesh/quad_mesh.hpp"
#include "core/obstacles/obstacle.hpp"
#include "core/qp/qp_solver.hpp"
#include "core/stepper/self_collision_options.hpp"
#include "core/stepper/stick.hpp"
#include "core/stepper/trajectory.hpp"

namespace clothfit::stepper {

// A node whose position is prescribed (fixed or following a trajectory) as equality rows.
struct HeldNode {
  int node = 0;
  Trajectory target;  // world position over time, m
};

struct StepperOptions {
  double time_step = 0.01;  // Δt, s
  // Stop the projection when ‖C(φ_j)‖∞ < constraint_tolerance (ε0, dimensionless: metric rows and
  // ‖d‖²/L² − 1 for boundary edges, so 1e-6 keeps edges within 5e-7 of their length), held
  // nodes are within held_tolerance (m) of their targets, no contact is violated by more than
  // contact_tolerance (ε1, m) and the last increment ‖Δφ‖∞ < increment_tolerance (ε2, m).
  double constraint_tolerance = 1e-6;
  double contact_tolerance = 1e-4;
  double increment_tolerance = 1e-5;
  double held_tolerance = 1e-9;
  int max_iterations = 100;  // projection iterations per step
  // The largest max_iterations (and newton_fallback_after) a scenario file may ask for: ten times
  // the default. The bundled examples' converging steps take at most about 50 iterations; the steps
  // seen at the cap creep or cannot stop at all (README "The model and how a step is solved", *Flat
  // sheets*), which more iterations do not change. A step runs at most
  // 2 (SelfCollisionOptions::kMaxRetriesLimit + 1) × this many QPs (retry_capped_steps), which
  // bounds how long one step takes; Ctrl-C and SIGTERM stop a run only between steps. A fallback
  // after more iterations than the cap could never act, and its 2n would overflow an int.
  static constexpr int kMaxIterationsLimit = 1000;
  // Levenberg–Marquardt damping of the projection: the QP's equality Delassus matrix gets
  // ε = projection_damping · mean(diag) on its diagonal and no refinement, so that steps along the
  // nearly dependent constraint directions of a nearly flat sheet are damped instead of
  // overshooting. Overrides qp.equality_regularization and qp.refinement_steps. The damping is a
  // compliance: the QP holds the rows as C + ∇C Δφ = ε (λ − λ₀), and with λ₀ = 0 a Newton step
  // converges to C = ελ, not C = 0.
  double projection_damping = 1e-10;
  // Newton projection: the most that the damping's compliance may offset a row at the current
  // multipliers (τ, the units of C): λ₀ = λ − clamp(λ, ±τ/ε) (qp::QpProblem::multiplier_estimate),
  // so that the iteration's fixed points have |C_i| ≤ τ. +∞ (the default) keeps λ₀ = 0. ε grows
  // fast as the mesh is refined (the hanging sheet's flat start: ε = 1.5e-4, 1.4e-3 and 1.5e-2 on
  // 7 × 9, 13 × 17 and 25 × 33 nodes), and ε‖λ‖∞ with it, to about 8e-6 on 25 × 33, where steps
  // then cannot reach ε0 = 1e-6 and run into the iteration cap; τ = ε0/2 ends half of those, τ = 0
  // all of them there (and most on 49 × 65). 0 damps only the change of λ (the proximal method of
  // multipliers). docs/model.md "Flat sheets and the damping compliance" has the measurements; the
  // default is kept because a finite τ changes the contact runs the fits were validated with.
  double max_damping_offset = std::numeric_limits<double>::infinity();
  // Newton projection: each QP minimises ½‖φ − φ0‖² in the metric ρM + Σ λ_i ∇²C_i (the
  // constraint curvature, kept positive semidefinite: InextensibilityConstraints::curvature), so
  // the iteration converges to the implicit-Euler step with constraint forces at t_{n+1}, and
  // quickly even where ∇C is badly conditioned (nearly flat sheets). false gives the paper's
  // Gauss–Newton "fast projection": each QP minimises ½‖Δφ‖²_ρM from the current iterate.
  bool newton_projection = true;
  // Newton projection with the active-set solver: the QPs use the exact constraint curvature
  // Σ λ_i ∇²C_i, compression included, which converges in fewer iterations where the sheet is
  // compressed (a stick pushing it, a landing) than the semidefinite model that leaves
  // compression out. The KKT factorisation's inertia says whether the QP is still convex on the
  // constraints' null space; where it is not, the step goes on with the semidefinite model (one
  // factorisation more). The interior-point solver, which cannot tell, always uses the
  // semidefinite model. Off by default: the switch between the two models is a discrete decision
  // that tolerance-level perturbations flip, and it made the objective of a shaken hanging sheet
  // four times as noisy (docs/qp.md "Exact curvature (opt-in)").
  bool exact_curvature = false;
  // Modified Newton (with newton_projection): an iteration reuses the factorisation of the last
  // refactored iteration's QP matrices (ρM + K and ∇C at an earlier iterate) while the last
  // iteration reduced ‖C‖∞ at least by this factor, or ‖C‖∞ is already below
  // constraint_tolerance; otherwise it refactors. The residuals C(φ_j) and ρM(φ_j − φ0) +
  // ∇C(φ_j)ᵀλ_j stay exact, so a stale matrix slows the convergence but does not move the converged
  // step. Every step starts with a fresh factorisation (reusing the previous step's slowed the
  // swinging hanging sheet down). 0: refactor at every iteration (Newton).
  double refactor_contraction = 0.3;
  // The same threshold while obstacle contacts are active (a contact row was active in the last
  // QP) and the last increment is below 10 increment_tolerance. There a QP's cost is mostly the
  // responses K⁻¹gᵀ of the contact and friction rows it starts from, which a new factorisation
  // must solve for again, while a QP that keeps the factorisation takes them from the active
  // set's cache (ContactSet keeps their ∇h for that). The increment bound keeps the kept matrices
  // from leading the iteration away: while they are kept the increments shrink by this factor,
  // so the iterate moves at most 10 ε2 θ/(1 − θ) (10 ε2 at θ = 0.5) before a refactorisation;
  // without it, 0.7 let a landing step of the cylinder example converge 9 cm from plain Newton's.
  // 0.5 rather than 0.7 because with 0.7 the table-drag fit recovered μ = 0.26 for 0.4 (a fit
  // that a change of the Gauss–Newton fallback moves as much; docs/performance-log.md).
  // 0: as refactor_contraction.
  double contact_refactor_contraction = 0.5;
  // Newton projection: after this many iterations of one step, three iterations in a row whose
  // increments did not shrink below 0.99 times the previous one switch the rest of the step to the
  // Gauss–Newton projection (0: never). Near buckling (a sheet landing upright on its edge) the
  // compression the semidefinite curvature leaves out is as large as ρM along the buckling mode,
  // the Newton iteration's contraction rate approaches 1 and it creeps along that mode;
  // Gauss–Newton stops at the nearby point with C = 0 instead. A step still not converged after
  // twice this many iterations switches too: with contacts active (no line search) the Newton
  // iterates can cycle without stagnating (seen on tube_drop.json: increments repeating with a
  // period of 20 iterations, θ between 0.7 and 1.6), which Gauss–Newton ends in a few iterations.
  // Obstacle contacts keep the last Newton QP's friction through the Gauss–Newton corrections
  // (ContactSet::begin_corrections).
  int newton_fallback_after = 20;
  // A step whose projection reaches max_iterations is projected once more from its start with
  // the damping's compliance centred, max_damping_offset = 0 (StepReport::cap_retry). On the
  // hanging sheet with 25 × 33 nodes 10 of the 400 steps end at the cap by default, held above
  // ε0 by the compliance (docs/model.md "Flat sheets and the damping compliance"); taken again
  // they all converge. Steps that converge are untouched, so runs without a step at the cap (every
  // bundled 7 × 9 and 13 × 17 example) are the same byte for byte. Newton projection only, and
  // only where max_damping_offset is not 0 already.
  bool retry_capped_steps = true;
  // Contact candidates: a point enters the QP when h(p) at the end of the step is below
  // contact_margin (m) plus twice the largest node motion of the unconstrained step.
  double contact_margin = 0.02;
  // After this many projection iterations of one step, each friction bound μγ moves only halfway
  // from its last value towards the new one (and a contact that separated keeps half its last
  // bound). The fixed point is the same; it breaks the cycles where friction lifts a few contacts
  // off and they land again without it (seen when the sheet lands on the sphere).
  int friction_relaxation_after = 8;
  // A step may end only when its last QP's friction is within this relative error of Coulomb's
  // with the normal forces that QP found (StepReport::friction_error; 1: a contact without the
  // friction its normal force gives, e.g. one that touched down in that QP). +∞ (the default):
  // not checked. Measured on the whole 7 × 9 cylinder and sphere examples (2026-11-26): by
  // default 124 of 200 and 108 of 250 steps end above 0.1, 19 and 24 of them at 1; with 0.1 none,
  // at 45 % and 38 % more iterations per step (README "Friction"). Not checked once a step has
  // fallen back to Gauss–Newton (newton_fallback_after), whose corrections have no friction rows.
  double friction_tolerance = std::numeric_limits<double>::infinity();
  // Backtracking line search along each projection increment (on ‖C‖₂ in the Gauss–Newton
  // projection, on the exact-penalty merit in the Newton one; docs/model.md): at most this many
  // halvings (0 takes every full step).
  int max_step_halvings = 4;
  qp::QpSolverType qp_solver = qp::QpSolverType::kActiveSet;
  qp::QpSolverOptions qp;

  // Why these options cannot run together (the field to name first, then the problem), or an
  // empty field when they can: exact_curvature with the interior-point solver would be ignored.
  std::pair<const char*, const char*> conflict() const {
    if (exact_curvature && qp_solver == qp::QpSolverType::kInteriorPoint)
      return {"exact_curvature",
              "needs the active-set solver (it reads the KKT inertia from its factorisation); "
              "the interior-point solver would ignore it: set \"qp\": \"active-set\" or "
              "leave exact_curvature out"};
    return {"", ""};
  }
};

struct SimulationModel {
  mesh::QuadMesh mesh;
  forces::ClothMaterial material;
  std::vector<HeldNode> held;
  // Rigid obstacles (contacts with Coulomb friction); immutable during a run.
  std::vector<std::shared_ptr<const obstacles::Obstacle>> obstacles;
  // A moving stick hitting the cloth (paper §7.4); none by default.
  std::optional<Stick> stick;
  // Self-collisions of the cloth (off by default); `proximity` is also the stick's ω.
  SelfCollisionOptions self_collisions;
  StepperOptions options;
};

struct SimulationState {
  Eigen::VectorXd positions;   // φ (3N), m
  Eigen::VectorXd velocities;  // φ̇ (3N), m/s
  double time = 0.0;           // s
  long step = 0;
};

}  // namespace clothfit::stepper
