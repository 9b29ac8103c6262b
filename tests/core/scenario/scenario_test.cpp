// parse_scenario / load_scenario: the per-step loop counts a scenario may ask for are bounded, a
// placement's rotation axis may have any finite length, and paths that are directories are named
// as such.
#include "core/scenario/scenario.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/io/input_error.hpp"
#include "support/scenario_fixture.hpp"

namespace clothfit::scenario {
namespace {

nlohmann::json base() {
  return testing::din_a2_scenario();
}

// The InputError parsing `json` throws, as "field: problem".
std::string error_of(const nlohmann::json& json) {
  try {
    parse_scenario(json, "s.json");
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, "s.json");
    return e.location().field + ": " + e.problem();
  }
  return "(no error)";
}

// With max_retries = 1e9 a step whose crossing remains never ends (a retry is a whole projection,
// and SIGTERM stops a run only between steps); max_iterations likewise. Both are capped, and so
// is newton_fallback_after, whose 2n overflowed an int beyond 2^30.
TEST(Scenario, LoopCountsOfAStepAreBounded) {
  nlohmann::json j = base();
  j["self_collisions"] = {{"max_retries", 1'000'000'000}};
  EXPECT_EQ(error_of(j),
            "self_collisions.max_retries: expected an integer >= 0 and <= 100, found 1000000000");
  j["self_collisions"]["max_retries"] = stepper::SelfCollisionOptions::kMaxRetriesLimit;
  EXPECT_EQ(parse_scenario(j, "s.json").model.self_collisions.max_retries, 100);

  j = base();
  j["solver"] = {{"max_iterations", 1'000'000'000}};
  EXPECT_EQ(error_of(j),
            "solver.max_iterations: expected an integer >= 1 and <= 1000, found 1000000000");
  j["solver"]["max_iterations"] = stepper::StepperOptions::kMaxIterationsLimit;
  EXPECT_EQ(parse_scenario(j, "s.json").model.options.max_iterations, 1000);

  j = base();
  j["solver"] = {{"newton_fallback_after", 1 << 30}};
  EXPECT_EQ(error_of(j),
            "solver.newton_fallback_after: expected an integer >= 0 and <= 1000, found 1073741824");
  j["solver"]["newton_fallback_after"] = 1000;
  EXPECT_EQ(parse_scenario(j, "s.json").model.options.newton_fallback_after, 1000);
}

// solver.retry_capped_steps (StepperOptions::retry_capped_steps): on unless the file says false.
TEST(Scenario, RetryAtTheCapIsOnByDefaultAndABoolean) {
  nlohmann::json j = base();
  EXPECT_TRUE(parse_scenario(j, "s.json").model.options.retry_capped_steps);
  j["solver"] = {{"retry_capped_steps", false}};
  EXPECT_FALSE(parse_scenario(j, "s.json").model.options.retry_capped_steps);
  j["solver"]["retry_capped_steps"] = 1;
  EXPECT_EQ(error_of(j).substr(0, 26), "solver.retry_capped_steps:");
}

// A rotation axis whose norm overflows (1e200) or underflows (1e-200) turns the sheet as the unit
// axis does.
TEST(Scenario, PlacementRotationAxisMayHaveAnyFiniteLength) {
  nlohmann::json j = base();
  j["cloth"]["placement"] = {{"rotation_axis", {0, 0, 1}}, {"rotation_deg", 90}};
  const Eigen::VectorXd unit = parse_scenario(j, "s.json").initial_positions;
  // Node 1 (0.07, 0, 0) turns onto the y axis.
  EXPECT_TRUE(unit.segment<3>(3).isApprox(Eigen::Vector3d(0.0, 0.07, 0.0), 1e-12));
  for (const double z : {1e200, 1e-200}) {
    j["cloth"]["placement"]["rotation_axis"] = {0, 0, z};
    EXPECT_EQ(parse_scenario(j, "s.json").initial_positions, unit) << z;
  }
  j["cloth"]["placement"]["rotation_axis"] = {0, 0, 0};
  EXPECT_EQ(error_of(j),
            "cloth.placement.rotation_axis: expected a nonzero direction [x, y, z], found [0, 0, "
            "0]");
}

TEST(Scenario, PathsThatAreDirectoriesAreNamed) {
  const std::filesystem::path directory = std::filesystem::temp_directory_path();
  try {
    load_scenario(directory.string());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), directory.string() + ": is a directory, expected a JSON file");
  }
  nlohmann::json j = base();
  j["cloth"]["mesh"] = {{"type", "obj"}, {"path", "."}};  // relative to the scenario's folder
  try {
    parse_scenario(j, (directory / "s.json").string());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    // The folder as it is, not "<folder>/.".
    EXPECT_EQ(e.location().file, (directory / "").string());
    EXPECT_EQ(e.problem(), "is a directory, expected an OBJ file");
  }
}

}  // namespace
}  // namespace clothfit::scenario
