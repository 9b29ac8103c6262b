#include "fitting/recording_objective.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>

#include "core/stepper/stick.hpp"
#include "core/stepper/time_stepper.hpp"

namespace clothfit::fitting {

stepper::SimulationModel make_model(const RecordingSetup& setup, const ModelParameters& parameters,
                                    std::span<const double> values) {
  stepper::SimulationModel model = setup.model;
  parameters.apply(values, &model);
  if (setup.stick) {
    stepper::Stick stick;
    stick.end0 = setup.stick->end0;
    stick.end1 = setup.stick->end1;
    stick.radius = setup.stick->radius_m;
    stick.friction = setup.stick->friction;
    model.stick = std::move(stick);
  }
  return model;
}

namespace {

// Replica r's initial velocities: independent N(0, σ²) per coordinate, seeded by r.
Eigen::VectorXd replica_velocities(Eigen::Index size, int replica, double sigma) {
  std::seed_seq seed{replica, 0x636c6f74};
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, sigma);
  Eigen::VectorXd v(size);
  for (Eigen::Index k = 0; k < size; ++k)
    v[k] = normal(rng);
  return v;
}

}  // namespace

RecordingObjective::RecordingObjective(const RecordingSetup& setup,
                                       const ModelParameters& parameters)
    : m_setup(setup), m_parameters(parameters) {}

Evaluation RecordingObjective::evaluate(std::span<const double> values, bool keep_frames) const {
  return evaluate(values, keep_frames, m_setup.model.options.qp_solver);
}

Evaluation RecordingObjective::evaluate(std::span<const double> values, bool keep_frames,
                                        qp::QpSolverType solver, int replica) const {
  using Clock = std::chrono::steady_clock;
  Evaluation out;
  out.values.assign(values.begin(), values.end());
  stepper::SimulationModel model = make_model(m_setup, m_parameters, values);
  model.options.qp_solver = solver;
  const double dt = model.options.time_step;
  const long substeps = std::lround(m_setup.frame_interval_s / dt);
  const std::size_t cells = m_setup.marker_nodes.size();

  stepper::TimeStepper stepper(model);
  stepper::SimulationState state = stepper.initial_state(m_setup.initial_positions);
  if (replica > 0) {
    state.velocities =
        replica_velocities(state.velocities.size(), replica, kReplicaDisplacement / dt);
  }
  std::vector<FrameError> frames;
  frames.reserve(m_setup.frames);
  Eigen::MatrixX3d simulated(static_cast<Eigen::Index>(cells), 3);
  Clock::duration stepping{};
  long steps = 0, iterations = 0;
  if (keep_frames) {
    out.simulated_m.reserve(m_setup.frames * cells * 3);
    for (std::size_t c = 0; c < cells; ++c) {
      for (int d = 0; d < 3; ++d)
        out.simulated_m.push_back(m_setup.initial_positions[3 * m_setup.marker_nodes[c] + d]);
    }
  }
  for (std::size_t f = 1; f < m_setup.frames; ++f) {
    bool contact = false;
    for (long s = 0; s < substeps; ++s) {
      const auto start = Clock::now();
      const stepper::StepReport report = stepper.step(&state);
      stepping += Clock::now() - start;
      ++steps;
      iterations += report.iterations;
      if (report.status == stepper::StepStatus::kFailed) {
        out.message = "frame " + std::to_string(f) + " (t = " + std::to_string(state.time) +
                      " s): " + report.message;
        out.objective = std::numeric_limits<double>::infinity();
        out.wall_seconds = std::chrono::duration<double>(stepping).count();
        return out;
      }
      out.retried_steps += report.cap_retry ? 1 : 0;
      if (report.status == stepper::StepStatus::kIterationCap && out.unconverged_steps++ == 0)
        out.message = "frame " + std::to_string(f) + ": " + report.message;
      contact = contact || report.active_contacts > 0 || report.active_collision_rows > 0;
    }
    for (std::size_t c = 0; c < cells; ++c) {
      simulated.row(static_cast<Eigen::Index>(c)) =
          state.positions.segment<3>(3 * m_setup.marker_nodes[c]).transpose();
    }
    frames.push_back(frame_error(simulated, m_setup.recorded(f), m_setup.marker_weights));
    if (keep_frames) {
      for (std::size_t c = 0; c < cells; ++c) {
        for (int d = 0; d < 3; ++d)
          out.simulated_m.push_back(simulated(static_cast<Eigen::Index>(c), d));
      }
    }
    if (keep_frames)
      out.contact.push_back(contact);
  }
  out.errors = summarize_errors(frames);
  out.objective = out.errors.sum_error_m;
  out.ok = std::isfinite(out.objective);
  if (!out.ok) {  // a guard: the readers bound coordinates, so the errors' squares stay finite
    out.message = "the objective (sum of e_n) is not finite";
    out.objective = std::numeric_limits<double>::infinity();
  }
  out.wall_seconds = std::chrono::duration<double>(stepping).count();
  out.q = out.wall_seconds / (steps * dt);
  out.mean_iterations = steps > 0 ? double(iterations) / steps : 0.0;
  if (keep_frames)
    out.frames = std::move(frames);
  return out;
}

}  // namespace clothfit::fitting
