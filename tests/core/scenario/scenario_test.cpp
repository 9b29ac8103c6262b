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

// A path the run samples at its steps: a keyframe between two step times cuts the corner there,
// and a motion shorter than a step is not seen at all (a stick through the sheet and back within
// one step left it untouched, with every step converged). Named, with the worst cut.
TEST(Scenario, KeyframesBetweenStepsThatTurnAreWarnedAbout) {
  const auto warning = [](const nlohmann::json& j) {
    return keyframe_sampling_warning(parse_scenario(j, "s.json"));
  };
  const auto path = [](std::initializer_list<std::pair<double, double>> time_and_z) {
    nlohmann::json keys = nlohmann::json::array();
    for (const auto& [t, z] : time_and_z)
      keys.push_back({{"time", t}, {"offset", {0, 0, z}}});
    return keys;
  };
  nlohmann::json j = base();  // Δt 0.01 s, 10 steps
  EXPECT_EQ(warning(j), "");
  // A corner 0.3 m up at 0.045 s, between the steps at 0.04 and 0.05 s: unseen.
  j["held"] = {{{"node", 0}, {"path", path({{0.04, 0}, {0.045, 0.3}, {0.05, 0}})}}};
  EXPECT_EQ(warning(j),
            "held node 0's path turns at the keyframe at t = 0.045 s, between two steps "
            "(time_step 0.01 s): the run sees it at the steps only, which cuts that corner by "
            "0.3 m; a motion shorter than a step is missed altogether. Put keyframes on multiples "
            "of the time step, or shorten it");
  // On step times, beyond the run, or on a straight line: nothing is cut.
  j["held"] = {{{"node", 0}, {"path", path({{0.04, 0}, {0.05, 0.3}, {0.06, 0}})}}};
  EXPECT_EQ(warning(j), "");
  j["held"] = {{{"node", 0}, {"path", path({{0.2, 0}, {0.205, 0.3}, {0.21, 0}})}}};
  EXPECT_EQ(warning(j), "");
  j["held"] = {{{"node", 0}, {"path", path({{0.04, 0}, {0.045, 0.15}, {0.05, 0.3}})}}};
  EXPECT_EQ(warning(j), "");
  j["held"] = {{{"node", 0}, {"path", path({{0.04, 0}, {0.045, 0.0009}, {0.05, 0}})}}};
  EXPECT_EQ(warning(j), "");  // below the 1 mm threshold
  // Nodes held together share their path: one keyframe, named at the group's first node, and
  // not counted once per node.
  j["held"] = {{{"nodes", {0, 3, 6}}, {"path", path({{0.04, 0}, {0.045, 0.3}, {0.05, 0}})}}};
  EXPECT_EQ(warning(j).substr(0, 55), "held node 0's path turns at the keyframe at t = 0.045 s");
  EXPECT_EQ(warning(j).find("more keyframe"), std::string::npos) << warning(j);

  // The stick and obstacles too; the worst of all is named, and how many more there are.
  j = base();
  j["stick"] = {{"end0", {{"position", {0, -0.5, 0.2}}, {"path", path({{0.03, 0}, {0.035, 0.2}})}}},
                {"end1", {{"position", {0, 0.5, 0.2}}, {"path", path({{0.03, 0}, {0.036, 0.1}})}}}};
  EXPECT_NE(warning(j).find("stick.end0.path turns at the keyframe at t = 0.035 s"),
            std::string::npos)
      << warning(j);
  EXPECT_NE(warning(j).find("cuts that corner by 0.1 m (1 more keyframe time cut by over 0.001 m "
                            "or 0.1°)"),
            std::string::npos)
      << warning(j);
  j = base();
  j["obstacles"] = {
      {{"type", "sphere"},
       {"name", "ball"},
       {"centre", {0, 0, -1}},
       {"radius", 0.1},
       {"motion", {{"translation", {{"keyframes", path({{0.01, 0}, {0.015, 0.4}, {0.02, 0}})}}}}}}};
  EXPECT_NE(warning(j).find("the translation of obstacle 'ball' turns at the keyframe at t = "
                            "0.015 s"),
            std::string::npos)
      << warning(j);
  j["obstacles"][0]["motion"] = {{"rotation",
                                  {{"axis", {0, 0, 1}},
                                   {"pivot", {0, 0, -1}},
                                   {"keyframes",
                                    {{{"time", 0.01}, {"angle_deg", 0}},
                                     {{"time", 0.015}, {"angle_deg", 90}},
                                     {{"time", 0.02}, {"angle_deg", 0}}}}}}};
  EXPECT_NE(warning(j).find("the rotation of obstacle 'ball' turns at the keyframe at t = 0.015 s, "
                            "between two steps (time_step 0.01 s): the run sees it at the steps "
                            "only, which cuts that corner by 90°"),
            std::string::npos)
      << warning(j);
}

}  // namespace
}  // namespace clothfit::scenario
