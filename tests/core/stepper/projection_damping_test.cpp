// The Levenberg–Marquardt damping of the Newton projection (StepperOptions::projection_damping)
// is a compliance: centred at λ₀ = 0, the QPs hold the rows only up to ελ, and a step converges to
// C = ελ. On fine meshes ε‖λ‖∞ outgrows ε0 (25 × 33 nodes at the default damping: 8e-6), and
// Newton can no longer stop. StepperOptions::max_damping_offset = τ centres the damping so that
// no row is offset by more than τ at the current λ. Here the same happens on 7 × 9 nodes with 100
// times the default damping: with τ = ∞, step 8 ends at the iteration cap with ‖C‖∞ = 2e-6.
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/input_error.hpp"
#include "core/scenario/scenario.hpp"
#include "core/stepper/time_stepper.hpp"
#include "support/test_paths.hpp"

namespace clothfit::stepper {
namespace {

TEST(ProjectionDamping, BoundedOffsetLetsHeavilyDampedNewtonStepsConverge) {
  scenario::Scenario s =
      scenario::load_scenario((testing::source_dir() / "datasets/examples/hanging.json").string());
  s.model.options.projection_damping = 100.0 * StepperOptions{}.projection_damping;
  s.model.options.max_damping_offset = 0.5 * s.model.options.constraint_tolerance;
  TimeStepper stepper(s.model);
  SimulationState state = stepper.initial_state(s.initial_positions);
  long iterations = 0;
  const int steps = 100;  // the first second: released flat, falling and swinging
  for (int n = 0; n < steps; ++n) {
    const StepReport report = stepper.step(&state);
    ASSERT_EQ(report.status, StepStatus::kConverged) << "step " << n << ": " << report.message;
    // Newton's own fixed point, not the Gauss–Newton fallback's nearby point with C = 0.
    EXPECT_FALSE(report.newton_fallback) << "step " << n;
    EXPECT_LT(report.max_violation, s.model.options.constraint_tolerance) << "step " << n;
    iterations += report.iterations;
  }
  EXPECT_LT(static_cast<double>(iterations) / steps, 10.0);
}

// The message of the InputError that parsing `j` throws, or "(no error)".
std::string parse_error(const nlohmann::json& j) {
  try {
    scenario::parse_scenario(j, "s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ProjectionDamping, ScenarioFieldsSetTheBoundAndTheFallbackAndRejectNegativeOnes) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "cloth": {"mesh": {"type": "grid", "width": 0.4, "height": 0.6, "nodes_x": 3, "nodes_y": 4},
              "material": "polyester", "virtual_density": 0.08, "damping": 0.2},
    "time": {"duration": 0.1},
    "solver": {"max_damping_offset": 5e-7, "newton_fallback_after": 5}})");
  EXPECT_EQ(scenario::parse_scenario(j, "s.json").model.options.max_damping_offset, 5e-7);
  EXPECT_EQ(scenario::parse_scenario(j, "s.json").model.options.newton_fallback_after, 5);
  j["solver"].erase("max_damping_offset");
  j["solver"].erase("newton_fallback_after");
  EXPECT_EQ(scenario::parse_scenario(j, "s.json").model.options.max_damping_offset,
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(scenario::parse_scenario(j, "s.json").model.options.newton_fallback_after,
            StepperOptions{}.newton_fallback_after);
  j["solver"]["newton_fallback_after"] = -1;
  const std::string fallback_error = parse_error(j);
  EXPECT_NE(fallback_error.find("solver.newton_fallback_after"), std::string::npos)
      << fallback_error;
  j["solver"].erase("newton_fallback_after");
  j["solver"]["max_damping_offset"] = -1.0;
  const std::string bound_error = parse_error(j);
  EXPECT_NE(bound_error.find("solver.max_damping_offset"), std::string::npos) << bound_error;
}

}  // namespace
}  // namespace clothfit::stepper
