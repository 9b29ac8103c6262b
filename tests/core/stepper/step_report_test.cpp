// A step's report describes the state it ended at: ‖C‖∞ and the dimensionless violation in the
// StepReport are those of the returned positions, bit for bit. The stepper takes them from values
// it already has (the line search's evaluation of the point it accepted, the convergence test's),
// so a stale value there would show as a report that no longer matches the state.
#include <gtest/gtest.h>

#include "core/constraints/inextensibility_constraints.hpp"
#include "core/scenario/scenario.hpp"
#include "core/stepper/time_stepper.hpp"
#include "support/test_paths.hpp"

namespace clothfit::stepper {
namespace {

// Returns the number of steps that ended with the stick touching the sheet.
int expect_reports_match_states(const std::string& example, int steps) {
  const scenario::Scenario s =
      scenario::load_scenario((testing::source_dir() / "datasets/examples" / example).string());
  TimeStepper stepper(s.model);
  const constraints::InextensibilityConstraints constraints(s.model.mesh);
  SimulationState state = stepper.initial_state(s.initial_positions);
  Eigen::VectorXd values;
  int searched = 0;  // steps that reached the convergence test more than twice
  int stick_contacts = 0;
  for (int n = 0; n < steps; ++n) {
    const StepReport report = stepper.step(&state);
    if (report.status != StepStatus::kConverged) {
      ADD_FAILURE() << example << " step " << n << ": " << report.message;
      return stick_contacts;
    }
    constraints.evaluate(state.positions, &values, nullptr);
    EXPECT_EQ(report.constraint_residual, values.lpNorm<Eigen::Infinity>())
        << example << " step " << n;
    EXPECT_EQ(report.max_violation, constraints.max_violation(state.positions))
        << example << " step " << n;
    searched += report.iterations > 2 ? 1 : 0;
    stick_contacts += report.stick_contact ? 1 : 0;
  }
  EXPECT_GT(searched, 0) << example;
  return stick_contacts;
}

TEST(StepReport, DescribesTheStateTheHangingSheetEndedAt) {
  expect_reports_match_states("hanging.json", 150);
}

TEST(StepReport, DescribesTheStateTheStickHitEndedAt) {
  // Up to 0.6 s: the stick comes, pushes the sheet (collision rows in every iteration) and leaves.
  EXPECT_GT(expect_reports_match_states("stick_hit.json", 60), 0);
}

TEST(StepReport, MaxViolationOfValuesIsMaxViolationOfTheirState) {
  const scenario::Scenario s =
      scenario::load_scenario((testing::source_dir() / "datasets/examples/hanging.json").string());
  const constraints::InextensibilityConstraints constraints(s.model.mesh);
  Eigen::VectorXd phi = s.initial_positions, values;
  phi += 1e-3 * Eigen::VectorXd::Random(phi.size());  // every row violated, edges included
  constraints.evaluate(phi, &values, nullptr);
  EXPECT_EQ(constraints.max_violation_of(values), constraints.max_violation(phi));
  EXPECT_GT(constraints.max_violation_of(values), 0.0);
}

}  // namespace
}  // namespace clothfit::stepper
