// StepperOptions::friction_tolerance: with it, a step ends only when its last QP's friction is
// within that relative error of Coulomb's with the normal forces the QP found
// (StepReport::friction_error); without it (the default) many steps of a sheet sliding over the
// cylinder end further from it.
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/io/input_error.hpp"
#include "core/scenario/scenario.hpp"
#include "core/stepper/time_stepper.hpp"
#include "support/test_paths.hpp"

namespace clothfit::stepper {
namespace {

// The bundled cylinder example (14 × 14) for its first 0.5 s: the landing (0.11–0.13 s) and
// the start of the sliding. Returns the steps' friction errors.
std::vector<double> cylinder_friction_errors(double tolerance) {
  scenario::Scenario s =
      scenario::load_scenario((testing::source_dir() / "datasets/examples/cylinder.json").string());
  s.model.options.friction_tolerance = tolerance;
  TimeStepper stepper(s.model);
  SimulationState state = stepper.initial_state(s.initial_positions);
  std::vector<double> errors;
  for (int n = 0; n < 50; ++n) {
    const StepReport report = stepper.step(&state);
    EXPECT_EQ(report.status, StepStatus::kConverged) << "step " << n + 1 << ": " << report.message;
    errors.push_back(report.friction_error);
  }
  return errors;
}

TEST(FrictionTolerance, StepsEndWithFrictionWithinItOfCoulombs) {
  const std::vector<double> loose =
      cylinder_friction_errors(std::numeric_limits<double>::infinity());
  const std::vector<double> strict = cylinder_friction_errors(0.1);
  int loose_above = 0, missing = 0;
  for (std::size_t n = 0; n < loose.size(); ++n) {
    EXPECT_LE(strict[n], 0.1) << "step " << n + 1;
    loose_above += loose[n] > 0.1 ? 1 : 0;
    missing += loose[n] == 1.0 ? 1 : 0;
  }
  // The default is not checked and does end steps further off (measured: most of the sliding
  // steps, and some with a contact's friction missing).
  EXPECT_GT(loose_above, 0);
  EXPECT_GT(missing, 0);
}

TEST(FrictionTolerance, ScenarioFieldSetsItAndRejectsNegativeValues) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "cloth": {"mesh": {"type": "grid", "width": 0.4, "height": 0.6, "nodes_x": 3, "nodes_y": 4},
              "material": "polyester", "virtual_density": 0.08, "damping": 0.2},
    "time": {"duration": 0.1},
    "solver": {"friction_tolerance": 0.05}})");
  EXPECT_EQ(scenario::parse_scenario(j, "s.json").model.options.friction_tolerance, 0.05);
  j["solver"].erase("friction_tolerance");
  EXPECT_EQ(scenario::parse_scenario(j, "s.json").model.options.friction_tolerance,
            std::numeric_limits<double>::infinity());
  j["solver"]["friction_tolerance"] = -0.1;
  try {
    scenario::parse_scenario(j, "s.json");
    ADD_FAILURE() << "a negative friction_tolerance was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("solver.friction_tolerance"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace clothfit::stepper
