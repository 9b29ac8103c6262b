// Analytic free fall (DESIGN.md §4): with nothing held and α = 0 the centre of mass accelerates at
// g·δ/ρ; with α > 0 the speed tends to g·δ/α. The sheet starts perfectly flat (the rank-deficient
// case of DESIGN.md §2) and must stay inextensible.
#include <gtest/gtest.h>

#include "core/stepper/time_stepper.hpp"

namespace clothfit::stepper {
namespace {

constexpr double kAccelerationTolerance = 1e-6;   // relative
constexpr double kTerminalSpeedTolerance = 1e-3;  // relative (the 0.1%)

SimulationModel falling_sheet(double damping) {
  SimulationModel model;
  model.mesh = mesh::make_grid_mesh(0.42, 0.594, 7, 9);
  model.material.density = 0.1042;
  model.material.virtual_density = 0.08;
  model.material.damping = damping;
  return model;
}

double mean_vertical(const Eigen::VectorXd& v) {
  double sum = 0.0;
  for (Eigen::Index i = 2; i < v.size(); i += 3)
    sum += v[i];
  return sum / static_cast<double>(v.size() / 3);
}

TEST(FreeFall, CentreOfMassAcceleratesAtGDeltaOverRho) {
  const SimulationModel model = falling_sheet(0.0);
  TimeStepper stepper(model);
  SimulationState state = stepper.initial_state(model.mesh.rest_positions);
  const double expected = forces::kGravity * 0.08 / 0.1042;
  double previous_speed = 0.0;
  for (int n = 0; n < 100; ++n) {
    const StepReport report = stepper.step(&state);
    ASSERT_EQ(report.status, StepStatus::kConverged) << report.message;
    ASSERT_LT(report.constraint_residual, model.options.constraint_tolerance);
    const double speed = mean_vertical(state.velocities);
    const double acceleration = -(speed - previous_speed) / model.options.time_step;
    ASSERT_NEAR(acceleration, expected, kAccelerationTolerance * expected) << "step " << n;
    previous_speed = speed;
  }
  // Every node moved the same: the sheet fell as a rigid body.
  EXPECT_NEAR((state.positions - model.mesh.rest_positions).maxCoeff(), 0.0, 1e-12);
}

TEST(FreeFall, DampedSpeedTendsToGDeltaOverAlpha) {
  const double alpha = 0.2;
  const SimulationModel model = falling_sheet(alpha);
  TimeStepper stepper(model);
  SimulationState state = stepper.initial_state(model.mesh.rest_positions);
  // The time constant is ρ/α ≈ 0.52 s: after 6 s the gap is below e^-11.
  for (int n = 0; n < 600; ++n) {
    const StepReport report = stepper.step(&state);
    ASSERT_EQ(report.status, StepStatus::kConverged);
    ASSERT_LT(report.constraint_residual, model.options.constraint_tolerance);
  }
  const double terminal = forces::kGravity * 0.08 / alpha;
  EXPECT_NEAR(-mean_vertical(state.velocities), terminal, kTerminalSpeedTolerance * terminal);
}

}  // namespace
}  // namespace clothfit::stepper
