// TimeStepper: advances a SimulationState by one Δt (DESIGN.md §2): the unconstrained implicit
// Euler step, then projection iterations, each a QP whose equality rows are the linearised
// inextensibility constraints, until the tolerances of StepperOptions hold.
//
// Held nodes are equality rows of the form "node = target" with a unit gradient; the stepper
// eliminates them instead of handing them to the QP: their increment is known exactly, so they
// move to the constraint offsets (c + ∇C_held Δφ_held) and the QP is solved over the free
// coordinates only. This keeps the held positions exact even when the inextensibility rows are
// regularised, e.g. when two held corners are exactly one sheet-width apart and the edge between
// them is taut (a configuration where ∇C loses rank at the solution).
// It owns all work buffers, so a step allocates little beyond what the sparse factorisation does.
#pragma once

#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "core/constraints/inextensibility_constraints.hpp"
#include "core/forces/unconstrained_step.hpp"
#include "core/stepper/collision_set.hpp"
#include "core/stepper/contact_set.hpp"
#include "core/stepper/iteration_record.hpp"
#include "core/stepper/simulation_model.hpp"

namespace clothfit::stepper {

enum class StepStatus {
  kConverged,     // all tolerances met
  kIterationCap,  // max_iterations reached; the state advanced with the last iterate
  kFailed,        // the QP failed or the state became non-finite; the state did not advance
};

std::string_view to_string(StepStatus status);

struct StepReport {
  StepStatus status = StepStatus::kFailed;
  int iterations = 0;            // projection iterations (QPs solved)
  int factorizations = 0;        // of them, those that refactored the QP's matrices
  bool newton_fallback = false;  // the step finished as a Gauss–Newton projection
  // The exact curvature made a QP nonconvex: the step went on with the semidefinite model.
  bool semidefinite_fallback = false;
  int qp_working_set_changes = 0;        // summed over the iterations
  int first_qp_working_set_changes = 0;  // of them, the step's first QP's (a new friction basis)
  // Of them, friction rows moved to their bound and brought back from it (QpSummary::
  // pinned_rows_to_bound, pinned_rows_returned), summed over the iterations.
  int friction_rows_to_bound = 0;
  int friction_rows_returned = 0;
  // Responses K⁻¹gᵀ of rows entering the QPs' working sets, solved for with the factorisation
  // and reused from the active set's cache (QpSummary::solved_responses, reused_responses),
  // summed over the iterations.
  int qp_responses_solved = 0;
  int qp_responses_reused = 0;
  // Wall time in the QP solver, and of it in factorisations and in the rows each QP starts from
  // (QpSummary::factorization_seconds, seed_seconds; active set only), summed over the
  // iterations, s.
  double qp_seconds = 0.0;
  double qp_factorization_seconds = 0.0;
  double qp_seed_seconds = 0.0;
  // QPs solved with their working rows factored into the KKT matrix (QpSummary::
  // working_set_factored), and the factorisations of such matrices (tried or not), summed over
  // the iterations.
  int qp_working_sets_factored = 0;
  int qp_working_set_factorizations = 0;
  // Friction rows that the step's last QP left at their bound with the slip reversed, a force
  // along the slip (QpSummary::rows_left_at_bound; active set only).
  int friction_rows_against_slip = 0;
  double constraint_residual = 0.0;  // ‖C(φ)‖∞ at the end, dimensionless
  double max_violation = 0.0;        // InextensibilityConstraints::max_violation at the end
  double held_residual = 0.0;        // max distance of a held node to its target, m
  double last_increment = 0.0;       // ‖Δφ‖∞ of the last iteration, m
  int active_contacts = 0;           // contact rows active at the end of the step
  int sticking_contacts = 0;         // of them, node contacts held by static friction
  double min_contact_value = 0.0;    // min h over the contact candidates at the end, m (+∞: none)
  // How far the step's last QP's friction is from Coulomb's with the normal forces it found
  // (ContactSet::friction_error, errors that would move a node by less than the increment
  // tolerance left out): 0 when it matches, 1 when some contact's friction is missing or a row
  // exerts its bound without a normal force. 0 without obstacles. A step finished by the
  // Gauss–Newton fallback reports its last Newton QP's (the corrections have no friction rows).
  double friction_error = 0.0;
  // How far the same QP's friction forces lie outside Coulomb's disk with its bounds
  // (ContactSet::friction_cone_excess): up to √2 − 1 where a contact slid at a corner of its
  // friction box. 0 without obstacles.
  double friction_cone_excess = 0.0;
  // Self-collisions and the stick (CollisionSet), when the model has them:
  int collision_rows = 0;         // pairs in the step's collision set (observation set)
  int active_collision_rows = 0;  // collision and stick rows active at the end of the step
  bool stick_contact = false;     // some stick row is active at the end of the step
  double min_collision_value = std::numeric_limits<double>::infinity();  // min H_k − τ0, m
  double collision_seconds = 0.0;  // wall time in collision detection and row assembly, s
  int collision_retries = 0;       // projections redone with ω ← 0.9ω
  double proximity = 0.0;          // ω of the accepted projection
  // The projection reached the iteration cap and was taken again from the step's start
  // (StepperOptions::retry_capped_steps); status, residuals and contacts are the retry's, the
  // iteration and factorisation counts and the times both projections'.
  bool cap_retry = false;
  // QPs that ended infeasible (qp::QpTermination::kInfeasible: a contact or collision row that no
  // point meets together with the rows it depends on, set aside) and whose step the projection
  // took as it was, summed over the step's projections; and the last one's row in words with how
  // far its step misses it ("the stick against the cloth edge between nodes 12 and 13, missed by
  // 0.0075 m"). The iteration-cap and divergence messages name it.
  int infeasible_qps = 0;
  std::string infeasible_row;
  // Wall time in the iteration observer (TimeStepper::set_iteration_observer), s: part of the
  // step's time that callers timing the solver subtract.
  double observer_seconds = 0.0;
  std::string message;
};

class TimeStepper {
 public:
  explicit TimeStepper(const SimulationModel& model);
  ~TimeStepper();

  // A state at rest in `positions` (3N) at time 0 (defaults to the mesh's rest shape).
  SimulationState initial_state(const Eigen::VectorXd& positions) const;

  StepReport step(SimulationState* state);

  const SimulationModel& model() const { return m_model; }
  const constraints::InextensibilityConstraints& constraints() const { return m_constraints; }

  // Called after every projection iteration with its IterationRecord (an empty function: none).
  // The observer sees the iterations of every attempt of a step, including those the step then
  // redoes with a smaller proximity; its time is reported in StepReport::observer_seconds.
  void set_iteration_observer(IterationObserver observer) {
    m_iteration_observer = std::move(observer);
  }

 private:
  // The step's projection from φ0 with proximity ω (collisions only), taken again with the
  // compliance centred (τ = 0) when it reaches the iteration cap (StepperOptions::
  // retry_capped_steps).
  StepReport project_step(const SimulationState& state, double t1, double proximity);
  // The projection QP's row `row` (QpSummary::infeasible_row) in words.
  std::string describe_qp_row(int row) const;
  // The rows active in the last recorded QP by kind, " (active: 2 stick rows, 40 obstacle
  // contacts)"; empty when none is.
  std::string active_rows_text() const;
  // One projection from φ0: m_phi, m_lambda, the contacts and collisions set to the step's start,
  // and the QP's damping offset τ to the options' (or the cap retry's 0).
  StepReport project_from_start(const SimulationState& state, double t1, double proximity,
                                bool cap_retry);
  // The projection iterations from m_phi = φ0 (contacts and collisions already begun).
  StepReport project();
  // Newton projection: the QP's linear term at the current iterate, and its curvature K(λ_j) when
  // `refresh_curvature` (otherwise the QP keeps the curvature it was last factored with).
  void assemble_newton_terms(bool refresh_curvature);
  // Whether this step's Newton QPs use the exact constraint curvature (StepperOptions::
  // exact_curvature; cleared for the rest of a step when it makes a QP nonconvex).
  bool m_exact_curvature = false;
  // Fills m_record from the iteration just taken (φ_j = m_phi, φ_{j+1} = m_trial) and calls the
  // observer; returns the seconds it took.
  double observe_iteration();
  IterationObserver m_iteration_observer;
  IterationRecord m_record;  // step, time and attempt set by step(), the rest by project()

  const SimulationModel& m_model;
  constraints::InextensibilityConstraints m_constraints;
  forces::UnconstrainedStep m_unconstrained;
  std::unique_ptr<qp::QpSolver> m_solver;
  qp::QpProblem m_qp;
  qp::QpSolution m_solution;
  constraints::SparseRowMatrix m_jacobian;  // ∇C over all coordinates (m × 3N)
  std::vector<int> m_free_index;  // (3N) coordinate → QP variable, −1 for held coordinates
  double m_rest_size = 0.0;       // diagonal of the rest shape's bounding box, m
  // The step's: the larger of m_rest_size and the diagonal of φ0 with the held targets, m.
  double m_cloth_size = 0.0;
  std::vector<int> m_free_value;  // ∇C value p → slot in the QP's equality values, −1 if held
  std::vector<int> m_free_coordinate;  // QP variable → coordinate
  // Newton projection: the node curvature K (N × N) and where its values go, each list in K's
  // value order: free–free entries (K value, slot in the QP's curvature over the free
  // coordinates), and entries coupling a free coordinate to a held one, which move the held
  // increments into the QP's linear term.
  Eigen::SparseMatrix<double> m_node_curvature;
  struct HeldCoupling {
    int value;       // index into K's values
    int variable;    // the free coordinate's QP variable
    int coordinate;  // the held coordinate
  };
  std::vector<std::pair<int, int>> m_free_curvature;
  std::vector<HeldCoupling> m_held_coupling;
  // ∇C values in held columns (value index, row), in ∇C's row-major order: ∇Cᵀλ at the held
  // coordinates, summed in the order a full product would.
  std::vector<std::pair<int, int>> m_held_jacobian_entries;
  std::unique_ptr<ContactSet> m_contacts;      // null without obstacles
  std::unique_ptr<CollisionSet> m_collisions;  // null without self-collisions and stick
  Eigen::VectorXd m_lambda_start;              // m_lambda at the start of the step
  qp::QpWarmStart m_start;                     // warm start of the next QP
  Eigen::VectorXd m_lambda;          // multipliers of the inextensibility rows, kept between steps
  Eigen::VectorXd m_held_increment;  // (3N) Δφ of the held coordinates, 0 elsewhere
  Eigen::VectorXd m_held_reaction;  // (3N) ∇Cᵀλ at the held coordinates (0 elsewhere), for the line
                                    // search's held-row penalty
  Eigen::VectorXd m_constraint_values, m_phi, m_phi0, m_targets, m_trial, m_trial_values;
};

}  // namespace clothfit::stepper
