#include "core/stepper/time_stepper.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

namespace clothfit::stepper {

std::string_view to_string(StepStatus status) {
  switch (status) {
    case StepStatus::kConverged:
      return "converged";
    case StepStatus::kIterationCap:
      return "iteration_cap";
    default:
      return "failed";
  }
}

namespace {

// θ above which an iteration counts as no longer contracting.
constexpr double kStagnation = 0.99;
constexpr int kStagnantIterations = 3;
// StepperOptions::contact_refactor_contraction applies while the last increment is below this
// many increment tolerances.
constexpr double kContactKeepIncrements = 10.0;
// A projection has diverged, and its step fails, when an iteration's step (the QP's, after the
// line search) moves a node by more than this many times the cloth's size: the diagonal of the
// bounding box of its rest shape, or of φ0 together with the held nodes' targets, whichever is
// larger (so held nodes that are moved far do not count). The stepper would otherwise go on from
// garbage, as where a stick was pushed through the sheet at the height of its held corners, which
// an inextensible sheet cannot give way to: QPs asked nodes to move hundreds of metres, then
// kilometres (with the whole top edge held, 40 km; tests/core/stepper/divergence_test.cpp).
// Converging projections can come within a factor 12 of 100 sizes: a held corner of the 7 × 9
// sheet pushed 15 cm per step towards the other along the straight edge between them (nearly
// singular) takes a 59 m step, and its QP asked for 949 m; the line search shortens such steps
// and the projection converges. Hence the step taken, and 1000 sizes.
constexpr double kDivergedSizes = 1000.0;

// A step that ends at the iteration cap with a violation above this (InextensibilityConstraints::
// max_violation: a boundary edge 10 % off its rest length, or a metric row 0.1 off) fails instead
// of advancing: the sheet is out of shape, and the steps after it would go on from a cloth that
// is no longer inextensible. Steps at the cap in the bundled examples and with stiff bending end
// near ε0 (1e-6); where the scenario asks more than the sheet can give they go far beyond (a plane
// rising through the held corners of hanging.json: 0.79 in the first such step, then up to 1e3;
// tests/core/stepper/divergence_test.cpp).
constexpr double kOutOfShapeViolation = 0.1;

// The diagonal of the bounding box of the points (3N and 3H coordinates).
double bounding_box_diagonal(const Eigen::VectorXd& positions,
                             const Eigen::VectorXd& more = Eigen::VectorXd()) {
  const auto xyz = positions.reshaped(3, positions.size() / 3);
  Eigen::Vector3d low = xyz.rowwise().minCoeff(), high = xyz.rowwise().maxCoeff();
  if (more.size() > 0) {
    const auto other = more.reshaped(3, more.size() / 3);
    low = low.cwiseMin(other.rowwise().minCoeff());
    high = high.cwiseMax(other.rowwise().maxCoeff());
  }
  return (high - low).norm();
}

// "%.3g", for messages.
std::string short_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

// Adds the work of a projection that was taken again to the report of the one that replaced it.
void add_work(const StepReport& earlier, StepReport* report) {
  report->iterations += earlier.iterations;
  report->factorizations += earlier.factorizations;
  report->qp_working_set_changes += earlier.qp_working_set_changes;
  report->friction_rows_to_bound += earlier.friction_rows_to_bound;
  report->friction_rows_returned += earlier.friction_rows_returned;
  report->qp_responses_solved += earlier.qp_responses_solved;
  report->qp_responses_reused += earlier.qp_responses_reused;
  report->qp_seconds += earlier.qp_seconds;
  report->qp_factorization_seconds += earlier.qp_factorization_seconds;
  report->qp_seed_seconds += earlier.qp_seed_seconds;
  report->qp_working_sets_factored += earlier.qp_working_sets_factored;
  report->qp_working_set_factorizations += earlier.qp_working_set_factorizations;
  report->collision_seconds += earlier.collision_seconds;
  report->observer_seconds += earlier.observer_seconds;
  report->infeasible_qps += earlier.infeasible_qps;
  if (report->infeasible_row.empty())
    report->infeasible_row = earlier.infeasible_row;
}

qp::QpSolverOptions projection_qp_options(const StepperOptions& options) {
  qp::QpSolverOptions qp = options.qp;
  qp.equality_regularization = options.projection_damping;
  qp.refinement_steps = 0;
  return qp;
}

}  // namespace

TimeStepper::TimeStepper(const SimulationModel& model)
    : m_model(model),
      m_constraints(model.mesh),
      m_unconstrained(model.mesh, model.material, model.options.time_step),
      m_solver(qp::make_qp_solver(model.options.qp_solver, projection_qp_options(model.options))),
      m_jacobian(m_constraints.make_jacobian()) {
  const int n = m_model.mesh.num_nodes();
  const int num_c = m_constraints.size();
  m_rest_size = bounding_box_diagonal(m_model.mesh.rest_positions);
  m_free_index.assign(3 * n, 0);
  for (const HeldNode& h : m_model.held) {
    for (int d = 0; d < 3; ++d)
      m_free_index[3 * h.node + d] = -1;
  }
  for (int k = 0; k < 3 * n; ++k) {
    if (m_free_index[k] < 0)
      continue;
    m_free_index[k] = static_cast<int>(m_free_coordinate.size());
    m_free_coordinate.push_back(k);
  }
  const int num_free = static_cast<int>(m_free_coordinate.size());
  m_qp.mass.resize(num_free);
  for (int v = 0; v < num_free; ++v) {
    const int node = m_free_coordinate[v] / 3;
    m_qp.mass[v] = m_model.material.density * m_unconstrained.lumped_area()[node];
  }
  m_qp.linear.setZero(num_free);
  // ∇C restricted to the free columns; its values are refreshed every iteration.
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(m_jacobian.nonZeros());
  for (int r = 0; r < num_c; ++r) {
    for (constraints::SparseRowMatrix::InnerIterator it(m_jacobian, r); it; ++it) {
      const int v = m_free_index[it.col()];
      if (v >= 0)
        triplets.emplace_back(r, v, 1.0);
    }
  }
  m_qp.equality_jacobian.resize(num_c, num_free);
  m_qp.equality_jacobian.setFromTriplets(triplets.begin(), triplets.end());
  m_qp.equality_jacobian.makeCompressed();
  // Columns keep their order when held ones are dropped, so the free values of each row appear in
  // the same order in both matrices.
  m_free_value.assign(m_jacobian.nonZeros(), -1);
  int slot = 0;
  for (int p = 0; p < m_jacobian.nonZeros(); ++p) {
    if (m_free_index[m_jacobian.innerIndexPtr()[p]] >= 0)
      m_free_value[p] = slot++;
  }
  for (int r = 0; r < num_c; ++r) {
    for (int p = m_jacobian.outerIndexPtr()[r]; p < m_jacobian.outerIndexPtr()[r + 1]; ++p) {
      if (m_free_value[p] < 0)
        m_held_jacobian_entries.emplace_back(p, r);
    }
  }
  m_qp.equality_offset.setZero(num_c);
  m_lambda.setZero(num_c);
  if (m_model.options.newton_projection) {
    // K ⊗ I₃ restricted to the free coordinates; the free numbering is monotone, so K's lower
    // triangle maps into the QP curvature's lower triangle.
    m_node_curvature = m_constraints.make_curvature();
    std::vector<Eigen::Triplet<double>> k_triplets;
    for (int c = 0; c < m_node_curvature.outerSize(); ++c) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(m_node_curvature, c); it; ++it) {
        for (int d = 0; d < 3; ++d) {
          const int vr = m_free_index[3 * it.row() + d], vc = m_free_index[3 * c + d];
          if (vr >= 0 && vc >= 0)
            k_triplets.emplace_back(vr, vc, 0.0);
        }
      }
    }
    m_qp.curvature.resize(num_free, num_free);
    m_qp.curvature.setFromTriplets(k_triplets.begin(), k_triplets.end());
    m_qp.curvature.makeCompressed();
    // Each K value p, per dimension d: a free–free entry's slot in the QP curvature, or the free
    // variable and held coordinate it couples (K's own order, so that the sums keep their order).
    int p = 0;
    for (int c = 0; c < m_node_curvature.outerSize(); ++c) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(m_node_curvature, c); it; ++it, ++p) {
        const int r = static_cast<int>(it.row());
        for (int d = 0; d < 3; ++d) {
          const int vr = m_free_index[3 * r + d], vc = m_free_index[3 * c + d];
          if (vr >= 0 && vc >= 0) {
            const int* first = m_qp.curvature.innerIndexPtr() + m_qp.curvature.outerIndexPtr()[vc];
            const int* last =
                m_qp.curvature.innerIndexPtr() + m_qp.curvature.outerIndexPtr()[vc + 1];
            m_free_curvature.emplace_back(p, static_cast<int>(std::lower_bound(first, last, vr) -
                                                              m_qp.curvature.innerIndexPtr()));
          } else if (vr >= 0) {
            m_held_coupling.push_back({p, vr, 3 * c + d});
          } else if (vc >= 0) {
            m_held_coupling.push_back({p, vc, 3 * r + d});
          }
        }
      }
    }
  }
  m_qp.inequality_jacobian.resize(0, num_free);
  m_qp.inequality_offset.resize(0);
  m_qp.pinned_jacobian.resize(0, num_free);
  m_qp.pinned_offset.resize(0);
  if (!m_model.obstacles.empty()) {
    m_contacts = std::make_unique<ContactSet>(m_model.mesh, m_model.obstacles, m_free_index);
  }
  if (CollisionSet::needed(m_model))
    m_collisions = std::make_unique<CollisionSet>(m_model, m_free_index);
  m_targets.resize(3 * static_cast<int>(m_model.held.size()));
  m_held_increment.setZero(3 * n);
  m_held_reaction.setZero(3 * n);
}

TimeStepper::~TimeStepper() = default;

SimulationState TimeStepper::initial_state(const Eigen::VectorXd& positions) const {
  SimulationState state;
  state.positions = positions;
  state.velocities.setZero(positions.size());
  return state;
}

void TimeStepper::assemble_newton_terms(bool refresh_curvature) {
  // The Newton step on the Lagrangian ½‖φ − φ0‖²_ρM + λᵀC(φ) at (φ_j, λ_j) with the held increments
  // known: Hessian ρM + K ⊗ I₃, linear term −ρM (φ_j − φ0) − K_free,held Δφ_held over the free
  // coordinates (the ∇C(φ_j)ᵀλ_j part of the gradient is absorbed by solving for the new λ).
  if (refresh_curvature)
    m_constraints.curvature(m_lambda, &m_node_curvature, m_exact_curvature);
  const double* values = m_node_curvature.valuePtr();
  if (refresh_curvature) {
    double* k = m_qp.curvature.valuePtr();
    std::fill(k, k + m_qp.curvature.nonZeros(), 0.0);
    for (const auto& [value, slot] : m_free_curvature)
      k[slot] += values[value];
  }
  for (std::size_t v = 0; v < m_free_coordinate.size(); ++v) {
    const int coordinate = m_free_coordinate[v];
    m_qp.linear[v] = -m_qp.mass[v] * (m_phi[coordinate] - m_phi0[coordinate]);
  }
  for (const HeldCoupling& h : m_held_coupling)
    m_qp.linear[h.variable] -= values[h.value] * m_held_increment[h.coordinate];
}

StepReport TimeStepper::step(SimulationState* state) {
  const StepperOptions& options = m_model.options;
  const double dt = options.time_step;
  const double t1 = state->time + dt;
  StepReport report;

  for (std::size_t h = 0; h < m_model.held.size(); ++h) {
    m_targets.segment<3>(3 * h) = m_model.held[h].target.position(t1);
  }
  m_record.step = state->step + 1;
  m_record.time = t1;
  m_record.attempt = -1;  // counted up by each projection from the step's start
  m_unconstrained.compute(state->positions, state->velocities, &m_phi0);
  m_cloth_size = std::max(m_rest_size, bounding_box_diagonal(m_phi0, m_targets));
  m_lambda_start = m_lambda;
  // A step at the cap that leaves the sheet out of shape fails (kOutOfShapeViolation).
  const auto out_of_shape = [this, &report] {
    if (report.status != StepStatus::kIterationCap)
      return false;
    const double violation = m_constraints.max_violation_of(m_constraint_values);  // C(m_phi)
    if (!(violation > kOutOfShapeViolation))
      return false;
    report.status = StepStatus::kFailed;
    report.max_violation = violation;
    report.message = "the sheet is out of shape at the iteration cap: a violation of " +
                     short_number(violation) + " (" +
                     m_constraints.describe(m_constraints.worst_row_of(m_constraint_values)) +
                     "), over " + short_number(kOutOfShapeViolation) +
                     "; the scenario may ask more than an inextensible sheet can give (held nodes "
                     "or obstacles moved beyond the cloth's reach), or a sliver quad cannot be "
                     "held in shape; " +
                     report.message;
    return true;
  };
  // An obstacle that swept over a node within the step fails it (ContactSet::find_sweep).
  const auto swept = [this, &report, &options] {
    if (!m_contacts)
      return false;
    const std::string sweep = m_contacts->find_sweep(m_phi, options.contact_tolerance);
    if (sweep.empty())
      return false;
    const bool capped = report.status == StepStatus::kIterationCap;
    report.status = StepStatus::kFailed;
    report.message =
        sweep +
        "; the obstacle (or the cloth) moved too far in the step for its contact rows to keep "
        "the node on its side: lower time.time_step" +
        (capped ? "; the step had ended at the iteration cap: " + report.message : std::string());
    return true;
  };
  if (!m_collisions) {
    report = project_step(*state, t1, 0.0);
    if (report.status == StepStatus::kFailed || out_of_shape() || swept())
      return report;
  } else {
    // Paper §4.1: project with proximity ω; when the final check with ω = 0 still finds a
    // crossing, redo the whole projection from φ0 with ω ← 0.9ω. The step's counts and times
    // include the attempts given up, as they do a retry at the cap.
    const SelfCollisionOptions& collision_options = m_model.self_collisions;
    double proximity = collision_options.proximity;
    StepReport given_up;  // the work of the attempts given up so far
    using Clock = std::chrono::steady_clock;
    for (int attempt = 0;; ++attempt) {
      report = project_step(*state, t1, proximity);
      add_work(given_up, &report);
      report.collision_retries = attempt;
      report.proximity = proximity;
      if (report.status == StepStatus::kFailed)
        return report;
      const auto start = Clock::now();
      const bool crossing = m_collisions->final_check(m_phi);
      report.collision_seconds += std::chrono::duration<double>(Clock::now() - start).count();
      if (!crossing)
        break;
      if (attempt == collision_options.max_retries) {
        report.status = StepStatus::kIterationCap;
        report.message = "a crossing remained after " + std::to_string(attempt) +
                         " retries with smaller proximity (ω = " + std::to_string(proximity) + ")";
        break;
      }
      given_up = report;
      proximity *= collision_options.proximity_reduction;
    }
    if (out_of_shape() || swept())
      return report;
    m_collisions->end_step();
    report.active_collision_rows = m_collisions->active_count();
    report.stick_contact = m_collisions->active_stick_count() > 0;
    report.collision_rows = m_collisions->size();
  }
  report.active_contacts = m_contacts ? m_contacts->active_count() : 0;
  report.sticking_contacts = m_contacts ? m_contacts->sticking_count() : 0;
  report.max_violation = m_constraints.max_violation_of(m_constraint_values);  // C(m_phi)
  state->velocities = (m_phi - state->positions) / dt;
  state->positions = m_phi;
  state->time = t1;
  ++state->step;
  return report;
}

StepReport TimeStepper::project_step(const SimulationState& state, double t1, double proximity) {
  const StepperOptions& options = m_model.options;
  StepReport report = project_from_start(state, t1, proximity, false);
  // The retry differs only in the Newton projection's damping offset.
  if (report.status != StepStatus::kIterationCap || !options.retry_capped_steps ||
      !options.newton_projection || !(options.max_damping_offset > 0.0))
    return report;
  const StepReport capped = report;
  report = project_from_start(state, t1, proximity, true);
  report.cap_retry = true;
  add_work(capped, &report);
  if (report.status == StepStatus::kIterationCap)
    report.message =
        capped.message + "; taken again with the compliance centred: " + report.message;
  return report;
}

std::string TimeStepper::active_rows_text() const {
  std::string text;
  // `what` names one row; a count above 1 takes an "s".
  const auto add = [&text](int count, const char* what) {
    if (count > 0) {
      text += (text.empty() ? " (active: " : ", ") + std::to_string(count) + " " + what +
              (count > 1 ? "s" : "");
    }
  };
  if (m_contacts)
    add(m_contacts->active_count(), "obstacle contact");
  if (m_collisions) {
    const int stick = m_collisions->active_stick_count();
    const int needle = m_collisions->active_needle_count();
    add(stick, "stick row");
    add(needle, "needle row");
    add(m_collisions->active_count() - stick - needle, "self-collision row");
  }
  return text.empty() ? text : text + ")";
}

std::string TimeStepper::describe_qp_row(int row) const {
  std::string text;
  if (m_contacts)
    text = m_contacts->describe_row(row);
  if (text.empty() && m_collisions)
    text = m_collisions->describe_row(row);
  if (text.empty()) {
    const int inequalities = m_qp.num_inequalities();
    text = row < inequalities ? "inequality row " + std::to_string(row)
                              : "pinned row " + std::to_string(row - inequalities);
  }
  return text;
}

StepReport TimeStepper::project_from_start(const SimulationState& state, double t1,
                                           double proximity, bool cap_retry) {
  const StepperOptions& options = m_model.options;
  ++m_record.attempt;
  m_phi = m_phi0;
  m_lambda = m_lambda_start;
  if (m_contacts) {
    const double reach =
        options.contact_margin + 2.0 * (m_phi0 - state.positions).lpNorm<Eigen::Infinity>();
    m_contacts->begin_step(state.positions, state.time, t1, reach);
  }
  if (m_collisions)
    m_collisions->begin_step(state.positions, state.time, t1, proximity);
  m_qp.max_damping_offset = cap_retry ? 0.0 : options.max_damping_offset;
  return project();
}

double TimeStepper::observe_iteration() {
  const auto start = std::chrono::steady_clock::now();
  Eigen::Index largest = 0;
  (m_trial - m_phi).cwiseAbs().maxCoeff(&largest);
  const int node = static_cast<int>(largest / 3);
  m_record.largest_node = node;
  m_record.largest_displacement = m_trial.segment<3>(3 * node) - m_phi.segment<3>(3 * node);
  m_iteration_observer(m_record);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

StepReport TimeStepper::project() {
  const StepperOptions& options = m_model.options;
  const int num_c = m_constraints.size();
  StepReport report;
  double last_increment = 0.0, previous_increment = 0.0;  // ‖Δφ‖∞ of the last two iterations
  double previous_residual = 0.0;
  int working_set_changes = 0;
  bool newton = options.newton_projection;
  int stagnant = 0;  // consecutive iterations with θ > kStagnation
  m_exact_curvature =
      newton && options.exact_curvature && options.qp_solver == qp::QpSolverType::kActiveSet;
  bool values_current = false;  // m_constraint_values hold C(m_phi): the line search evaluated it
  for (int iteration = 0;; ++iteration) {
    // θ: how much the last increment shrank (the iteration's observed contraction rate).
    const double theta = iteration >= 2 ? last_increment / previous_increment : 0.0;
    // Convergence of the increments: the distance left to the converged step, estimated from the
    // contraction rate as in Hairer and Wanner's test for simplified Newton iterations,
    // θ/(1 − θ) ‖Δφ‖∞, with θ capped at ½. A fast (Newton) iteration thus stops as soon as the
    // predicted next increment is below ε2, an iteration before ‖Δφ‖∞ itself is; a slow one keeps
    // the plain test ‖Δφ‖∞ < ε2 (with θ = 0.9 the estimate would be 9 ‖Δφ‖∞, which an iteration
    // that has no exact solution to converge to — two held corners exactly a sheet-width apart
    // with the edge between them loaded — never reaches: it creeps at a few µm per iteration).
    // After one increment there is no rate: ‖Δφ‖∞ itself.
    // Modified Newton keeps the factorised matrices while the iteration contracts at least by
    // `contraction`; such an iteration converges linearly at rate θ, and the estimate takes θ
    // itself (with the default thresholds, 0.3 and 0.5, the cap never binds there).
    const bool keep_longer = m_contacts && m_contacts->active_count() > 0 &&
                             options.contact_refactor_contraction > 0.0 &&
                             last_increment < kContactKeepIncrements * options.increment_tolerance;
    const double contraction =
        keep_longer ? options.contact_refactor_contraction : options.refactor_contraction;
    const double rate = theta <= contraction ? theta : std::min(theta, 0.5);
    const double distance_left =
        iteration < 2 ? last_increment : last_increment * rate / (1.0 - rate);
    // ∇C(φ_j) is needed only when the iteration goes on: where the increments already allow
    // stopping, C(φ_j) comes first (usually known from the line search) and ∇C only if not.
    const bool may_stop = iteration >= 1 && distance_left < options.increment_tolerance;
    if (!may_stop)
      m_constraints.evaluate(m_phi, &m_constraint_values, &m_jacobian);
    else if (!values_current)
      m_constraints.evaluate(m_phi, &m_constraint_values, nullptr);
    double held_residual = 0.0;
    for (std::size_t h = 0; h < m_model.held.size(); ++h) {
      const int node = m_model.held[h].node;
      const Eigen::Vector3d increment = m_targets.segment<3>(3 * h) - m_phi.segment<3>(3 * node);
      m_held_increment.segment<3>(3 * node) = increment;
      held_residual = std::max(held_residual, increment.norm());
    }
    const double residual = num_c > 0 ? m_constraint_values.lpNorm<Eigen::Infinity>() : 0.0;
    report.iterations = iteration;
    report.constraint_residual = residual;
    report.held_residual = held_residual;
    report.last_increment = last_increment;
    if (!std::isfinite(residual) || !std::isfinite(held_residual)) {
      report.status = StepStatus::kFailed;
      report.message = "positions became non-finite";
      return report;
    }
    // A Newton iteration that has stopped contracting, or has not converged after twice
    // options.newton_fallback_after iterations, finishes the step as the paper's Gauss–Newton
    // projection. Its QPs are corrections from the current iterate: their multipliers are not the
    // step's impulses, and friction rows bounded by the Newton QPs' normal impulses (on another
    // scale) left steps of sheets lying on a table at the iteration cap, and once moved the sheet
    // by 12 cm in one correction (docs/model.md "Gauss–Newton fallback"). The contacts therefore
    // keep the friction of the last Newton QP, which the iterate already holds, and get no friction
    // rows in the corrections (ContactSet::begin_corrections); the step's friction error is that
    // QP's.
    stagnant = theta > kStagnation ? stagnant + 1 : 0;
    if (newton && options.newton_fallback_after > 0 && iteration >= options.newton_fallback_after &&
        (stagnant >= kStagnantIterations || iteration >= 2 * options.newton_fallback_after)) {
      newton = false;
      report.newton_fallback = true;
      std::fill(m_qp.curvature.valuePtr(), m_qp.curvature.valuePtr() + m_qp.curvature.nonZeros(),
                0.0);
      if (m_contacts) {
        report.friction_error = m_contacts->friction_error(m_qp.mass, options.increment_tolerance);
        report.friction_cone_excess =
            m_contacts->friction_cone_excess(m_qp.mass, options.increment_tolerance);
        m_contacts->begin_corrections();
      }
    }
    // Modified Newton: keep the factorised matrices while the iteration contracts well.
    const bool refactor =
        iteration == 0 || !newton || contraction <= 0.0 || theta > contraction ||
        (residual >= options.constraint_tolerance && residual > contraction * previous_residual);
    previous_residual = residual;
    // The QP's linear term (Newton terms, friction) and contact rows at φ_j.
    if (newton) {
      assemble_newton_terms(refactor);
    } else {
      m_qp.linear.setZero();
    }
    // How far the last QP's friction is from Coulomb's with its normal forces (ContactSet::
    // friction_error; before assemble(), which replaces the rows it describes). A step may end
    // with it above StepperOptions::friction_tolerance only when that is +∞ (the default). Read
    // only where the step can end here: the increments allow it, or the iteration cap. (In the
    // Gauss–Newton fallback: read at the switch, from the last Newton QP.)
    if (m_contacts && newton && (may_stop || iteration == options.max_iterations)) {
      report.friction_error = m_contacts->friction_error(m_qp.mass, options.increment_tolerance);
      report.friction_cone_excess =
          m_contacts->friction_cone_excess(m_qp.mass, options.increment_tolerance);
    }
    double min_contact = std::numeric_limits<double>::infinity();
    if (m_contacts) {
      // A QP that keeps the factorised ∇C keeps the contact rows' ∇h too (ContactSet).
      min_contact = m_contacts->assemble(
          m_phi, iteration < options.friction_relaxation_after ? 1.0 : 0.5,
          refactor ? ContactSet::Linearisation::kCurrent : ContactSet::Linearisation::kKept, &m_qp,
          &m_start);
    } else if (m_collisions) {
      m_qp.inequality_jacobian.resize(0, m_qp.num_variables());
      m_qp.inequality_offset.resize(0);
      m_start = {};
    }
    report.min_contact_value = min_contact;
    if (m_collisions) {
      const auto start = std::chrono::steady_clock::now();
      m_collisions->detect(m_phi);
      const double min_collision =
          m_collisions->assemble(m_phi, m_held_increment, &m_qp, &m_start.inequalities);
      report.collision_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      report.min_collision_value = min_collision;
      min_contact = std::min(min_contact, min_collision);
    }
    if (residual < options.constraint_tolerance && held_residual < options.held_tolerance &&
        distance_left < options.increment_tolerance && iteration >= 1 &&
        min_contact >= -options.contact_tolerance &&
        (!newton || report.friction_error <= options.friction_tolerance)) {
      report.status = StepStatus::kConverged;
      break;
    }
    if (iteration == options.max_iterations) {
      report.status = StepStatus::kIterationCap;
      report.message = "projection stopped after " + std::to_string(iteration) +
                       " iterations with ‖C‖∞ = " + short_number(residual) +
                       ", ‖Δφ‖∞ = " + short_number(last_increment) + " m";
      if (std::isfinite(min_contact))
        report.message += ", min h = " + short_number(min_contact) + " m";
      report.message += active_rows_text();
      if (report.infeasible_qps > 0) {
        report.message += "; " + std::to_string(report.infeasible_qps) + " of its QPs had no " +
                          "feasible point, the last for " + report.infeasible_row;
      }
      break;
    }
    if (may_stop)
      m_constraints.evaluate(m_phi, &m_constraint_values, &m_jacobian);
    // Split ∇C Δφ into the free part (QP rows) and the known held part (into the offsets). When
    // the factorised ∇C_old is kept, the gradient gets (∇C(φ_j) − ∇C_old)ᵀλ_j so that the QP's
    // stationarity condition is the exact one at φ_j.
    m_qp.equality_offset = m_constraint_values;
    m_qp.matrices_unchanged = !refactor;
    m_qp.curvature_semidefinite = !m_exact_curvature;
    report.factorizations += refactor ? 1 : 0;
    const double* values = m_jacobian.valuePtr();
    double* free_values = m_qp.equality_jacobian.valuePtr();
    const int* free_columns = m_qp.equality_jacobian.innerIndexPtr();
    for (int r = 0; r < num_c; ++r) {
      for (int p = m_jacobian.outerIndexPtr()[r]; p < m_jacobian.outerIndexPtr()[r + 1]; ++p) {
        const int slot = m_free_value[p];
        if (slot < 0) {
          m_qp.equality_offset[r] += values[p] * m_held_increment[m_jacobian.innerIndexPtr()[p]];
        } else if (refactor) {
          free_values[slot] = values[p];
        } else {
          m_qp.linear[free_columns[slot]] -= (values[p] - free_values[slot]) * m_lambda[r];
        }
      }
    }
    // Newton with a finite damping offset (StepperOptions::max_damping_offset, or the cap retry's
    // 0): the damping's compliance centred so that it offsets no row by more than that at the
    // current λ. Gauss–Newton's multipliers are those of a correction: centred at 0.
    if (newton && m_qp.max_damping_offset < std::numeric_limits<double>::infinity())
      m_qp.multiplier_estimate = m_lambda;
    else
      m_qp.multiplier_estimate.resize(0);
    const auto solve = [this, &report] {
      const auto start = std::chrono::steady_clock::now();
      const qp::QpSummary s = m_solver->solve(m_qp, m_start, &m_solution);
      report.qp_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      report.qp_factorization_seconds += s.factorization_seconds;
      report.qp_seed_seconds += s.seed_seconds;
      report.qp_working_sets_factored += s.working_set_factored ? 1 : 0;
      report.qp_working_set_factorizations += s.working_set_factorizations;
      return s;
    };
    qp::QpSummary summary = solve();
    if (summary.termination == qp::QpTermination::kNotConvex && m_exact_curvature && refactor) {
      // The compression made the exact curvature too negative: the semidefinite model, for this
      // QP and the rest of the step.
      m_exact_curvature = false;
      report.semidefinite_fallback = true;
      ++report.factorizations;
      assemble_newton_terms(true);
      summary = solve();
    }
    working_set_changes += summary.iterations;
    report.friction_rows_to_bound += summary.pinned_rows_to_bound;
    report.friction_rows_returned += summary.pinned_rows_returned;
    report.qp_responses_solved += summary.solved_responses;
    report.qp_responses_reused += summary.reused_responses;
    if (iteration == 0)
      report.first_qp_working_set_changes = summary.iterations;
    report.friction_rows_against_slip = summary.rows_left_at_bound;
    if (summary.termination == qp::QpTermination::kNumericalFailure ||
        summary.termination == qp::QpTermination::kNotConvex || !m_solution.x.allFinite()) {
      report.status = StepStatus::kFailed;
      report.message =
          "QP solver (" + std::string(m_solver->name()) + ") failed: " + summary.message;
      return report;
    }
    if (summary.termination == qp::QpTermination::kInfeasible) {
      ++report.infeasible_qps;
      report.infeasible_row = describe_qp_row(summary.infeasible_row) + ", missed by " +
                              short_number(std::abs(summary.infeasible_residual)) + " m";
    }
    // Line search. Newton projection: backtracking on the exact-penalty merit
    //   ½ (φ − φ0)ᵀ ρM (φ − φ0) + ν ‖C(φ)‖₁ + ν_h Σ_h ‖target_h − φ_h‖₁
    // (free coordinates, ν = 2 max|λ|, ν_h = twice the largest held reaction), for which the QP's
    // step (a positive definite model of the Hessian) is a descent direction: the iteration cannot
    // drift once ‖C‖ is small, as it did when only ‖C‖ was watched. Paper's Gauss–Newton
    // projection: backtracking on ‖C‖₂, which its direction always decreases for a short enough
    // step (it keeps the iteration monotone where ∇C is badly conditioned). The held nodes'
    // increments are scaled too (they reach their targets over the iterations): snapping them to
    // their targets while shortening the rest of the step made the search useless when the held
    // nodes turn around (‖C‖∞ 1e-4 → 0.1 in one iteration). With active contacts the full step is
    // taken: a shorter one could violate them.
    if (m_contacts)
      m_contacts->record(m_solution);
    if (m_collisions)
      m_collisions->record(m_solution);
    const bool search = m_solution.active_inequalities.empty();
    double penalty = 0.0, held_penalty = 0.0;
    if (newton && search) {
      penalty = num_c > 0
                    ? 2.0 * std::max(m_lambda.lpNorm<Eigen::Infinity>(),
                                     m_solution.equality_multipliers.lpNorm<Eigen::Infinity>())
                    : 0.0;
      // The held rows' multipliers are their reactions ρm(φ − φ0) + ∇Cᵀλ at the held
      // coordinates; twice the largest makes the held residual's ℓ1 penalty exact too.
      if (num_c > 0) {
        for (const HeldNode& h : m_model.held)
          m_held_reaction.segment<3>(3 * h.node).setZero();
        const double* values = m_jacobian.valuePtr();
        const int* columns = m_jacobian.innerIndexPtr();
        for (const auto& [p, r] : m_held_jacobian_entries)
          m_held_reaction[columns[p]] += values[p] * m_solution.equality_multipliers[r];
      }
      for (const HeldNode& h : m_model.held) {
        const double mass = m_model.material.density * m_unconstrained.lumped_area()[h.node];
        for (int d = 0; d < 3; ++d) {
          const int k = 3 * h.node + d;
          const double reaction = std::abs(mass * (m_phi[k] - m_phi0[k])) +
                                  (num_c > 0 ? std::abs(m_held_reaction[k]) : 0.0);
          held_penalty = std::max(held_penalty, 2.0 * reaction);
        }
      }
    }
    const auto merit = [&](const Eigen::VectorXd& phi, const Eigen::VectorXd& values) {
      if (!newton)
        return values.squaredNorm();
      double quadratic = 0.0;
      for (std::size_t v = 0; v < m_free_coordinate.size(); ++v) {
        const double d = phi[m_free_coordinate[v]] - m_phi0[m_free_coordinate[v]];
        quadratic += 0.5 * m_qp.mass[v] * d * d;
      }
      double held = 0.0;
      for (std::size_t h = 0; h < m_model.held.size(); ++h)
        held +=
            (m_targets.segment<3>(3 * h) - phi.segment<3>(3 * m_model.held[h].node)).lpNorm<1>();
      return quadratic + penalty * values.lpNorm<1>() + held_penalty * held;
    };
    const double current = search ? merit(m_phi, m_constraint_values) : 0.0;
    double scale = 1.0;
    bool trial_evaluated = false;  // m_trial_values hold C at the accepted trial point
    for (int halving = 0;; ++halving) {
      m_trial = m_phi;
      for (std::size_t v = 0; v < m_free_coordinate.size(); ++v) {
        m_trial[m_free_coordinate[v]] += scale * m_solution.x[v];
      }
      for (const HeldNode& h : m_model.held)
        m_trial.segment<3>(3 * h.node) += scale * m_held_increment.segment<3>(3 * h.node);
      if (halving == options.max_step_halvings || !search)
        break;
      m_constraints.evaluate(m_trial, &m_trial_values, nullptr);
      if (merit(m_trial, m_trial_values) <= current) {
        trial_evaluated = true;
        break;
      }
      scale *= 0.5;
    }
    previous_increment = last_increment;
    last_increment = (m_trial - m_phi).lpNorm<Eigen::Infinity>();
    // The step taken, after the line search: a QP's own step may be far longer where the
    // iterate is nearly singular (held corners pushed together along the straight edge between
    // them: 133 m), which the search shortens, and the projection converges.
    if (last_increment > kDivergedSizes * m_cloth_size) {
      report.status = StepStatus::kFailed;
      report.message = "the projection diverged: QP " + std::to_string(iteration) +
                       " moved a node by " + short_number(last_increment) + " m, over " +
                       short_number(kDivergedSizes) + " times the cloth's size (" +
                       short_number(m_cloth_size) + " m)";
      if (summary.termination == qp::QpTermination::kInfeasible) {
        report.message += "; the QP had no feasible point: " + report.infeasible_row +
                          " (it depends on rows no point can move: the inextensibility, the "
                          "held nodes, other contacts)";
      } else if (summary.termination != qp::QpTermination::kConverged) {
        report.message += "; the QP: " + (summary.message.empty()
                                              ? std::string(qp::to_string(summary.termination))
                                              : summary.message);
      }
      return report;
    }
    if (m_iteration_observer) {
      m_record.iteration = iteration;
      m_record.model = !newton             ? ProjectionModel::kGaussNewton
                       : m_exact_curvature ? ProjectionModel::kNewtonExactCurvature
                                           : ProjectionModel::kNewton;
      m_record.refactored = refactor;
      m_record.theta = theta;
      m_record.constraint_residual = residual;
      m_record.held_residual = held_residual;
      m_record.min_contact = min_contact;
      m_record.qp_working_set_changes = summary.iterations;
      m_record.friction_rows_to_bound = summary.pinned_rows_to_bound;
      m_record.friction_rows_returned = summary.pinned_rows_returned;
      m_record.active_rows = static_cast<int>(m_solution.active_inequalities.size());
      m_record.step_scale = scale;
      m_record.increment = last_increment;
      report.observer_seconds += observe_iteration();
    }
    if (newton)
      m_lambda += scale * (m_solution.equality_multipliers - m_lambda);
    m_phi.swap(m_trial);
    values_current = trial_evaluated;
    if (trial_evaluated)
      m_constraint_values.swap(m_trial_values);
  }
  report.qp_working_set_changes = working_set_changes;
  return report;
}

}  // namespace clothfit::stepper
