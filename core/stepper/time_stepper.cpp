#include "core/stepper/time_stepper.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
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
    for (int c = 0; c < m_node_curvature.outerSize(); ++c) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(m_node_curvature, c); it; ++it) {
        std::array<int, 3> slots{-1, -1, -1};
        for (int d = 0; d < 3; ++d) {
          const int vr = m_free_index[3 * it.row() + d], vc = m_free_index[3 * c + d];
          if (vr < 0 || vc < 0)
            continue;
          const int* first = m_qp.curvature.innerIndexPtr() + m_qp.curvature.outerIndexPtr()[vc];
          const int* last = m_qp.curvature.innerIndexPtr() + m_qp.curvature.outerIndexPtr()[vc + 1];
          slots[d] =
              static_cast<int>(std::lower_bound(first, last, vr) - m_qp.curvature.innerIndexPtr());
        }
        m_curvature_slot.push_back(slots);
      }
    }
  }
  m_qp.inequality_jacobian.resize(0, num_free);
  m_qp.inequality_offset.resize(0);
  if (!m_model.obstacles.empty()) {
    Eigen::VectorXd nodal_mass = m_model.material.density * m_unconstrained.lumped_area();
    m_contacts =
        std::make_unique<ContactSet>(m_model.mesh, m_model.obstacles, m_free_index, nodal_mass);
  }
  if (CollisionSet::needed(m_model))
    m_collisions = std::make_unique<CollisionSet>(m_model, m_free_index);
  m_targets.resize(3 * static_cast<int>(m_model.held.size()));
  m_held_increment.setZero(3 * n);
}

TimeStepper::~TimeStepper() = default;

SimulationState TimeStepper::initial_state(const Eigen::VectorXd& positions) const {
  SimulationState state;
  state.positions = positions;
  state.velocities.setZero(positions.size());
  return state;
}

void TimeStepper::assemble_newton_terms() {
  // Objective ½ (φ − φ0)ᵀ (ρM + K ⊗ I₃) (φ − φ0) around φ_j with the held increments known:
  // linear term −ρM (φ_j − φ0) − H_free,held Δφ_held over the free coordinates.
  m_constraints.curvature(m_lambda, &m_node_curvature);
  double* k = m_qp.curvature.valuePtr();
  std::fill(k, k + m_qp.curvature.nonZeros(), 0.0);
  for (std::size_t v = 0; v < m_free_coordinate.size(); ++v) {
    const int coordinate = m_free_coordinate[v];
    m_qp.linear[v] = -m_qp.mass[v] * (m_phi[coordinate] - m_phi0[coordinate]);
  }
  const double* values = m_node_curvature.valuePtr();
  int p = 0;
  for (int c = 0; c < m_node_curvature.outerSize(); ++c) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(m_node_curvature, c); it; ++it, ++p) {
      const int r = static_cast<int>(it.row());
      for (int d = 0; d < 3; ++d) {
        const int slot = m_curvature_slot[p][d];
        if (slot >= 0) {
          k[slot] += values[p];
          continue;
        }
        const int vr = m_free_index[3 * r + d], vc = m_free_index[3 * c + d];
        if (vr >= 0 && vc < 0)
          m_qp.linear[vr] -= values[p] * m_held_increment[3 * c + d];
        if (vc >= 0 && vr < 0)
          m_qp.linear[vc] -= values[p] * m_held_increment[3 * r + d];
      }
    }
  }
}

StepReport TimeStepper::step(SimulationState* state) {
  const StepperOptions& options = m_model.options;
  const double dt = options.time_step;
  const double t1 = state->time + dt;
  StepReport report;

  for (std::size_t h = 0; h < m_model.held.size(); ++h) {
    m_targets.segment<3>(3 * h) = m_model.held[h].target.position(t1);
  }
  m_unconstrained.compute(state->positions, state->velocities, &m_phi0);
  if (!m_collisions) {
    m_phi = m_phi0;
    if (m_contacts) {
      const double reach =
          options.contact_margin + 2.0 * (m_phi0 - state->positions).lpNorm<Eigen::Infinity>();
      m_contacts->begin_step(state->positions, state->time, t1, reach);
    }
    report = project();
    if (report.status == StepStatus::kFailed)
      return report;
  } else {
    // Paper §4.1: project with proximity ω; when the final check with ω = 0 still finds a
    // crossing, redo the whole projection from φ0 with ω ← 0.9ω.
    const SelfCollisionOptions& collision_options = m_model.self_collisions;
    m_lambda_start = m_lambda;
    double proximity = collision_options.proximity;
    double collision_seconds = 0.0;
    using Clock = std::chrono::steady_clock;
    for (int attempt = 0;; ++attempt) {
      m_phi = m_phi0;
      m_lambda = m_lambda_start;
      if (m_contacts) {
        const double reach =
            options.contact_margin + 2.0 * (m_phi0 - state->positions).lpNorm<Eigen::Infinity>();
        m_contacts->begin_step(state->positions, state->time, t1, reach);
      }
      m_collisions->begin_step(state->positions, state->time, t1, proximity);
      report = project();
      report.collision_retries = attempt;
      report.proximity = proximity;
      if (report.status == StepStatus::kFailed)
        return report;
      const auto start = Clock::now();
      const bool crossing = m_collisions->final_check(m_phi);
      collision_seconds +=
          report.collision_seconds + std::chrono::duration<double>(Clock::now() - start).count();
      if (!crossing)
        break;
      if (attempt == collision_options.max_retries) {
        report.status = StepStatus::kIterationCap;
        report.message = "a crossing remained after " + std::to_string(attempt) +
                         " retries with smaller proximity (ω = " + std::to_string(proximity) + ")";
        break;
      }
      proximity *= collision_options.proximity_reduction;
    }
    report.collision_seconds = collision_seconds;
    m_collisions->end_step();
    report.active_collision_rows = m_collisions->active_count();
    report.stick_contact = m_collisions->active_stick_count() > 0;
    report.collision_rows = m_collisions->size();
  }
  report.active_contacts = m_contacts ? m_contacts->active_count() : 0;
  report.max_violation = m_constraints.max_violation(m_phi);
  state->velocities = (m_phi - state->positions) / dt;
  state->positions = m_phi;
  state->time = t1;
  ++state->step;
  return report;
}

StepReport TimeStepper::project() {
  const StepperOptions& options = m_model.options;
  const int num_c = m_constraints.size();
  StepReport report;
  double last_increment = 0.0;
  int working_set_changes = 0;
  for (int iteration = 0;; ++iteration) {
    m_constraints.evaluate(m_phi, &m_constraint_values, &m_jacobian);
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
    // The QP's linear term (Newton terms, friction) and contact rows at φ_j.
    if (options.newton_projection) {
      assemble_newton_terms();
    } else {
      m_qp.linear.setZero();
    }
    double min_contact = std::numeric_limits<double>::infinity();
    if (m_contacts) {
      min_contact = m_contacts->assemble(
          m_phi, iteration < options.friction_relaxation_after ? 1.0 : 0.5, &m_qp, &m_seed);
    } else if (m_collisions) {
      m_qp.inequality_jacobian.resize(0, m_qp.num_variables());
      m_qp.inequality_offset.resize(0);
      m_seed.clear();
    }
    report.min_contact_value = min_contact;
    if (m_collisions) {
      const auto start = std::chrono::steady_clock::now();
      m_collisions->detect(m_phi);
      const double min_collision = m_collisions->assemble(m_phi, m_held_increment, &m_qp, &m_seed);
      report.collision_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      report.min_collision_value = min_collision;
      min_contact = std::min(min_contact, min_collision);
    }
    if (residual < options.constraint_tolerance && held_residual < options.held_tolerance &&
        last_increment < options.increment_tolerance && min_contact >= -options.contact_tolerance) {
      report.status = StepStatus::kConverged;
      break;
    }
    if (iteration == options.max_iterations) {
      report.status = StepStatus::kIterationCap;
      report.message = "projection stopped after " + std::to_string(iteration) +
                       " iterations with ‖C‖∞ = " + std::to_string(residual) +
                       ", ‖Δφ‖∞ = " + std::to_string(last_increment) +
                       " m, min h = " + std::to_string(min_contact) + " m";
      break;
    }
    // Split ∇C Δφ into the free part (QP rows) and the known held part (into the offsets).
    m_qp.equality_offset = m_constraint_values;
    const double* values = m_jacobian.valuePtr();
    double* free_values = m_qp.equality_jacobian.valuePtr();
    for (int r = 0; r < num_c; ++r) {
      for (int p = m_jacobian.outerIndexPtr()[r]; p < m_jacobian.outerIndexPtr()[r + 1]; ++p) {
        if (m_free_value[p] >= 0) {
          free_values[m_free_value[p]] = values[p];
        } else {
          m_qp.equality_offset[r] += values[p] * m_held_increment[m_jacobian.innerIndexPtr()[p]];
        }
      }
    }
    const qp::QpSummary summary = m_solver->solve(m_qp, m_seed, &m_solution);
    working_set_changes += summary.iterations;
    if (summary.termination == qp::QpTermination::kNumericalFailure || !m_solution.x.allFinite()) {
      report.status = StepStatus::kFailed;
      report.message =
          "QP solver (" + std::string(m_solver->name()) + ") failed: " + summary.message;
      return report;
    }
    // Backtracking on ‖C‖₂: the Gauss–Newton direction always decreases it for a short enough
    // step, which keeps the iteration monotone where ∇C is badly conditioned (nearly flat sheets).
    double scale = 1.0;
    const double current = m_constraint_values.squaredNorm();
    if (m_contacts)
      m_contacts->record(m_solution);
    if (m_collisions)
      m_collisions->record(m_solution);
    // With active contacts the full step is taken: a shorter one could violate them.
    const bool search = m_solution.active_inequalities.empty();
    for (int halving = 0;; ++halving) {
      m_trial = m_phi;
      for (std::size_t v = 0; v < m_free_coordinate.size(); ++v) {
        m_trial[m_free_coordinate[v]] += scale * m_solution.x[v];
      }
      for (std::size_t h = 0; h < m_model.held.size(); ++h) {
        m_trial.segment<3>(3 * m_model.held[h].node) = m_targets.segment<3>(3 * h);
      }
      if (halving == options.max_step_halvings || !search)
        break;
      m_constraints.evaluate(m_trial, &m_trial_values, nullptr);
      if (m_trial_values.squaredNorm() <= current || current == 0.0)
        break;
      scale *= 0.5;
    }
    double increment = (m_trial - m_phi).lpNorm<Eigen::Infinity>();
    if (options.newton_projection)
      m_lambda = m_solution.equality_multipliers;
    m_phi.swap(m_trial);
    last_increment = increment;
  }
  report.qp_working_set_changes = working_set_changes;
  return report;
}

}  // namespace clothfit::stepper
