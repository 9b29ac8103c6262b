// A step whose projection reaches the iteration cap is projected again from its start with the
// damping's compliance centred (StepperOptions::retry_capped_steps). Steps that converge must not
// change at all; a step held above ε0 by the compliance (C = ελ at the default iteration's fixed
// point) must converge when taken again.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/scenario/scenario.hpp"
#include "core/stepper/time_stepper.hpp"
#include "support/test_paths.hpp"

namespace clothfit::stepper {
namespace {

scenario::Scenario hanging_example() {
  return scenario::load_scenario(
      (testing::source_dir() / "datasets/examples/hanging.json").string());
}

TEST(CapRetry, StepsThatConvergeAreTheSameByteForByte) {
  const scenario::Scenario with = hanging_example();
  scenario::Scenario without = hanging_example();
  without.model.options.retry_capped_steps = false;
  TimeStepper a(with.model), b(without.model);
  SimulationState sa = a.initial_state(with.initial_positions);
  SimulationState sb = b.initial_state(without.initial_positions);
  for (int n = 0; n < 100; ++n) {  // the first second: released flat, falling and swinging
    const StepReport ra = a.step(&sa);
    const StepReport rb = b.step(&sb);
    ASSERT_EQ(ra.status, StepStatus::kConverged) << "step " << n << ": " << ra.message;
    EXPECT_FALSE(ra.cap_retry) << "step " << n;
    EXPECT_EQ(ra.iterations, rb.iterations) << "step " << n;
    ASSERT_EQ(sa.positions, sb.positions) << "step " << n;
    ASSERT_EQ(sa.velocities, sb.velocities) << "step " << n;
  }
}

// With 100 times the default damping the compliance holds a 7 × 9 sheet's steps above ε0 as it
// does on 25 × 33 nodes at the default one (projection_damping_test.cpp: step 8 ends at the cap).
TEST(CapRetry, StepsHeldAboveToleranceByTheComplianceConvergeWhenTakenAgain) {
  scenario::Scenario s = hanging_example();
  s.model.options.projection_damping = 100.0 * StepperOptions{}.projection_damping;
  const int steps = 30;

  s.model.options.retry_capped_steps = false;
  TimeStepper without(s.model);
  SimulationState state = without.initial_state(s.initial_positions);
  int capped = 0;
  for (int n = 0; n < steps; ++n) {
    const StepReport report = without.step(&state);
    ASSERT_NE(report.status, StepStatus::kFailed) << report.message;
    capped += report.status == StepStatus::kIterationCap ? 1 : 0;
    EXPECT_FALSE(report.cap_retry);
  }
  ASSERT_GT(capped, 0) << "the test needs a step that reaches the cap without the retry";

  s.model.options.retry_capped_steps = true;
  TimeStepper with(s.model);
  state = with.initial_state(s.initial_positions);
  int retried = 0;
  for (int n = 0; n < steps; ++n) {
    const StepReport report = with.step(&state);
    ASSERT_EQ(report.status, StepStatus::kConverged) << "step " << n << ": " << report.message;
    EXPECT_LT(report.max_violation, s.model.options.constraint_tolerance) << "step " << n;
    if (report.cap_retry) {
      ++retried;
      // The capped projection's iterations are counted too.
      EXPECT_GT(report.iterations, s.model.options.max_iterations) << "step " << n;
    }
  }
  EXPECT_GT(retried, 0);
}

TEST(CapRetry, AStepThatReachesTheCapAgainReportsBothProjections) {
  scenario::Scenario s = hanging_example();
  s.model.options.max_iterations = 2;  // the flat start takes about 4
  TimeStepper stepper(s.model);
  SimulationState state = stepper.initial_state(s.initial_positions);
  int attempts = 0;
  stepper.set_iteration_observer(
      [&attempts](const IterationRecord& r) { attempts = std::max(attempts, r.attempt + 1); });
  const StepReport report = stepper.step(&state);
  EXPECT_EQ(report.status, StepStatus::kIterationCap);
  EXPECT_TRUE(report.cap_retry);
  EXPECT_EQ(report.iterations, 2 * s.model.options.max_iterations);
  EXPECT_EQ(attempts, 2);
  EXPECT_NE(report.message.find("taken again"), std::string::npos) << report.message;
  EXPECT_EQ(state.step, 1);  // the state advanced with the retry's last iterate

  // No retry where the compliance is centred already.
  s.model.options.max_damping_offset = 0.0;
  TimeStepper same(s.model);
  state = same.initial_state(s.initial_positions);
  const StepReport once = same.step(&state);
  EXPECT_EQ(once.status, StepStatus::kIterationCap);
  EXPECT_FALSE(once.cap_retry);
  EXPECT_EQ(once.iterations, s.model.options.max_iterations);
}

}  // namespace
}  // namespace clothfit::stepper
