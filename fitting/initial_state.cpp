#include "fitting/initial_state.hpp"

#include <cassert>

#include "core/stepper/time_stepper.hpp"

namespace clothfit::fitting {

Eigen::VectorXd interpolate_marker_grid(const Eigen::Ref<const Eigen::MatrixX3d>& markers, int rows,
                                        int columns, int refinement) {
  assert(markers.rows() == rows * columns && markers.allFinite());
  const int k = refinement;
  const int node_rows = k * (rows - 1) + 1;
  const int node_cols = k * (columns - 1) + 1;
  Eigen::VectorXd phi(3 * node_rows * node_cols);
  for (int r = 0; r < node_rows; ++r) {
    const int i = std::min(r / k, rows - 2);  // marker cell row
    const double u = double(r - k * i) / k;
    for (int c = 0; c < node_cols; ++c) {
      const int j = std::min(c / k, columns - 2);
      const double v = double(c - k * j) / k;
      const Eigen::RowVector3d p = (1 - u) * (1 - v) * markers.row(i * columns + j) +
                                   (1 - u) * v * markers.row(i * columns + j + 1) +
                                   u * (1 - v) * markers.row((i + 1) * columns + j) +
                                   u * v * markers.row((i + 1) * columns + j + 1);
      phi.segment<3>(3 * (r * node_cols + c)) = p.transpose();
    }
  }
  return phi;
}

ProjectionResult project_onto_constraints(const stepper::SimulationModel& model,
                                          const Eigen::VectorXd& guess, int max_rounds) {
  stepper::SimulationModel still = model;  // no forces: the step's φ0 is the guess itself
  still.material.virtual_density = 0.0;
  still.material.damping = 0.0;
  still.material.bending = 0.0;
  still.options.max_iterations = std::max(still.options.max_iterations, 200);
  for (stepper::HeldNode& h : still.held)
    h.target = stepper::Trajectory(h.target.position(0.0));
  stepper::TimeStepper stepper(still);
  ProjectionResult result;
  result.positions = guess;
  for (int round = 0; round < max_rounds; ++round) {
    stepper::SimulationState state = stepper.initial_state(result.positions);
    const stepper::StepReport report = stepper.step(&state);
    result.iterations += report.iterations;
    if (report.status == stepper::StepStatus::kFailed) {
      result.message = report.message;
      return result;
    }
    result.positions = state.positions;
    result.max_violation = report.max_violation;
    if (report.status == stepper::StepStatus::kConverged) {
      result.converged = true;
      break;
    }
    result.message = report.message;
  }
  result.moved_m = 0.0;
  for (Eigen::Index i = 0; i < guess.size(); i += 3) {
    result.moved_m =
        std::max(result.moved_m, (result.positions.segment<3>(i) - guess.segment<3>(i)).norm());
  }
  return result;
}

ProjectionResult settle_between_markers(const stepper::SimulationModel& model,
                                        const Eigen::VectorXd& start,
                                        const std::vector<int>& marker_nodes, double hold_s) {
  stepper::SimulationModel settling = model;
  const double rho = settling.material.density;
  settling.material.virtual_density = rho;
  settling.material.damping = 20.0 * rho;  // a time constant of 0.05 s
  std::vector<bool> held(static_cast<std::size_t>(model.mesh.num_nodes()), false);
  for (stepper::HeldNode& h : settling.held) {
    h.target = stepper::Trajectory(Eigen::Vector3d(start.segment<3>(3 * h.node)));
    held[static_cast<std::size_t>(h.node)] = true;
  }
  for (int node : marker_nodes) {
    if (!held[static_cast<std::size_t>(node)])
      settling.held.push_back(
          {node, stepper::Trajectory(Eigen::Vector3d(start.segment<3>(3 * node)))});
  }
  stepper::TimeStepper stepper(settling);
  stepper::SimulationState state = stepper.initial_state(start);
  ProjectionResult result;
  result.positions = start;
  result.converged = true;
  const long steps = std::lround(hold_s / settling.options.time_step);
  for (long n = 0; n < steps; ++n) {
    const stepper::StepReport report = stepper.step(&state);
    result.iterations += report.iterations;
    if (report.status != stepper::StepStatus::kConverged) {
      result.message =
          "settling stopped at t = " + std::to_string(state.time) + " s: " + report.message;
      break;
    }
    result.positions = state.positions;
    result.max_violation = report.max_violation;
  }
  for (Eigen::Index i = 0; i < start.size(); i += 3) {
    result.moved_m =
        std::max(result.moved_m, (result.positions.segment<3>(i) - start.segment<3>(i)).norm());
  }
  return result;
}

}  // namespace clothfit::fitting
