// Issue 4: the "stick" and "self_collisions" objects of a scenario file — parsed values and
// defaults, and errors that name the field.
#include <gtest/gtest.h>

#include "core/io/input_error.hpp"
#include "core/scenario/scenario.hpp"
#include "support/scenario_fixture.hpp"

namespace clothfit::scenario {
namespace {

nlohmann::json base() {
  return testing::din_a2_scenario();
}

nlohmann::json stick() {
  return {{"end0",
           {{"position", {-0.1, -0.2, 0.3}},
            {"path",
             {{{"time", 0.0}, {"offset", {0, 0, 0}}}, {{"time", 0.5}, {"offset", {0, 0.4, 0}}}}}}},
          {"end1", {{"position", {0.65, -0.2, 0.3}}}}};
}

TEST(StickScenario, ParsesStickAndSelfCollisions) {
  nlohmann::json j = base();
  j["stick"] = stick();
  j["stick"]["radius"] = 0.01;
  j["self_collisions"] = {{"thickness", 0.003}, {"proximity", 0.4}, {"max_retries", 3}};
  const Scenario s = parse_scenario(j, "s.json");
  ASSERT_TRUE(s.model.stick.has_value());
  EXPECT_DOUBLE_EQ(s.model.stick->radius, 0.01);
  EXPECT_DOUBLE_EQ(s.model.stick->max_segment_length, 0.05);  // default
  EXPECT_DOUBLE_EQ(s.model.stick->friction, 0.0);
  // end0 moves 0.4 m along y in 0.5 s; end1 has no path and stays.
  EXPECT_NEAR(s.model.stick->end0.position(0.25).y(), 0.0, 1e-12);
  EXPECT_NEAR(s.model.stick->end0.position(1.0).y(), 0.2, 1e-12);
  EXPECT_NEAR(s.model.stick->end1.position(1.0).y(), -0.2, 1e-12);
  EXPECT_TRUE(s.model.self_collisions.enabled);  // the object's presence enables them
  EXPECT_DOUBLE_EQ(s.model.self_collisions.thickness, 0.003);
  EXPECT_DOUBLE_EQ(s.model.self_collisions.proximity, 0.4);
  EXPECT_EQ(s.model.self_collisions.max_retries, 3);
}

// The 0.75 m stick in segments of at most 5 cm: 15; a recorded stick, whose length the scenario
// does not check, is clamped to Stick::kMaxSegments instead of overflowing.
TEST(StickScenario, SegmentCountRoundsUpAndIsClamped) {
  nlohmann::json j = base();
  j["stick"] = stick();
  stepper::Stick s = *parse_scenario(j, "s.json").model.stick;
  EXPECT_EQ(s.segment_count(), 15);
  s.max_segment_length = 0.07;
  EXPECT_EQ(s.segment_count(), 11);
  s.max_segment_length = 10.0;
  EXPECT_EQ(s.segment_count(), 1);
  s.max_segment_length = 1e-12;
  EXPECT_EQ(s.segment_count(), stepper::Stick::kMaxSegments);
}

TEST(StickScenario, DefaultsHaveNeither) {
  const Scenario s = parse_scenario(base(), "s.json");
  EXPECT_FALSE(s.model.stick.has_value());
  EXPECT_FALSE(s.model.self_collisions.enabled);
}

TEST(StickScenario, ErrorsNameTheField) {
  struct Bad {
    const char* what;
    nlohmann::json json;
    std::string field;
    std::string problem;
  };
  std::vector<Bad> cases;
  {
    nlohmann::json j = base();
    j["stick"] = stick();
    j["stick"]["radius"] = -1.0;
    cases.push_back({"negative radius", j, "stick.radius", "> 0"});
  }
  {
    nlohmann::json j = base();
    j["stick"] = stick();
    j["stick"]["friction"] = 0.3;
    cases.push_back({"friction", j, "stick.friction", "not implemented"});
  }
  {
    nlohmann::json j = base();
    j["stick"] = stick();
    j["stick"]["end1"]["position"] = {-0.1, -0.2, 0.3};
    cases.push_back({"coincident ends", j, "stick.end1.position", "apart"});
  }
  {
    nlohmann::json j = base();
    j["stick"] = stick();
    j["stick"]["end0"]["path"][1]["time"] = 0.0;
    cases.push_back({"keyframe order", j, "stick.end0.path[1].time", "increase"});
  }
  {
    nlohmann::json j = base();
    j["stick"] = stick();
    j["stick"]["colour"] = "red";
    cases.push_back({"unknown key", j, "stick.colour", ""});
  }
  {
    nlohmann::json j = base();
    j["stick"] = stick();
    j["stick"]["max_segment_length"] = 1e-12;  // 7.5e11 segments overflowed the count's int
    cases.push_back({"tiny segments", j, "stick.max_segment_length", "at most 10000 segments"});
  }
  {
    nlohmann::json j = base();
    j["self_collisions"] = {{"proximity", 0.5}};
    cases.push_back({"proximity 1/2", j, "self_collisions.proximity", "< 0.5"});
  }
  {
    nlohmann::json j = base();
    j["self_collisions"] = {{"thickness", 0.0}};
    cases.push_back({"zero thickness", j, "self_collisions.thickness", "> 0"});
  }
  for (const Bad& bad : cases) {
    try {
      parse_scenario(bad.json, "s.json");
      ADD_FAILURE() << bad.what << ": no error";
    } catch (const InputError& e) {
      EXPECT_EQ(e.location().field, bad.field) << bad.what << ": " << e.what();
      EXPECT_NE(e.problem().find(bad.problem), std::string::npos) << bad.what << ": " << e.what();
    }
  }
}

// A stick that starts through the flat DIN A2 sheet (z = 0), or within its radius of a cloth
// edge, is warned about before the run: the sheet stayed pierced in every frame, or the run
// failed with a message about held nodes or obstacles.
TEST(StickScenario, AStickStartingInTheClothIsWarnedAbout) {
  nlohmann::json j = base();
  j["stick"] = stick();  // 0.3 m above the sheet
  EXPECT_EQ(stick_start_warning(parse_scenario(j, "s.json")), "");
  j["stick"] = {{"end0", {{"position", {0.2, 0.3, -0.1}}}},
                {"end1", {{"position", {0.2, 0.3, 0.1}}}}};
  EXPECT_EQ(stick_start_warning(parse_scenario(j, "s.json")).substr(0, 61),
            "the stick starts through the cloth: its axis crosses quad 27 ");
  j["stick"] = {{"end0", {{"position", {-0.1, 0.3, 0.005}}}},
                {"end1", {{"position", {0.65, 0.3, 0.005}}}}};
  EXPECT_NE(stick_start_warning(parse_scenario(j, "s.json"))
                .find("the stick starts 0.005 m from the cloth edge between nodes "),
            std::string::npos)
      << stick_start_warning(parse_scenario(j, "s.json"));
  EXPECT_NE(stick_start_warning(parse_scenario(j, "s.json")).find(", within its radius (0.0075 m)"),
            std::string::npos);
  j["stick"]["radius"] = 0.004;
  EXPECT_EQ(stick_start_warning(parse_scenario(j, "s.json")), "");
  // A vertical stick ending 3 mm above a quad's centre, far from its edges (its first step ran to
  // the iteration cap, and the warning looked at edges only).
  j["stick"] = {{"end0", {{"position", {0.175, 0.334, 0.003}}}},
                {"end1", {{"position", {0.175, 0.334, 0.5}}}}};
  EXPECT_NE(
      stick_start_warning(parse_scenario(j, "s.json")).find("the stick starts 0.003 m from quad "),
      std::string::npos)
      << stick_start_warning(parse_scenario(j, "s.json"));
  j["stick"]["end0"]["position"] = {0.175, 0.334, 0.02};
  EXPECT_EQ(stick_start_warning(parse_scenario(j, "s.json")), "");
}

// The 7 × 9 DIN A2 grid's shortest edge is 0.07 m: a thickness above half of it is warned about
// (a tube whose 4 mm edges met the default 4 mm failed its first step); without self-collisions
// the thickness is not used.
TEST(StickScenario, AThicknessNearTheEdgeLengthIsWarnedAbout) {
  nlohmann::json j = base();
  j["self_collisions"] = {{"thickness", 0.034}};
  EXPECT_EQ(thickness_warning(parse_scenario(j, "s.json")), "");
  j["self_collisions"]["thickness"] = 0.036;
  EXPECT_EQ(thickness_warning(parse_scenario(j, "s.json")).substr(0, 91),
            "self_collisions.thickness (0.036 m) is more than half the mesh's shortest rest edge "
            "(0.07 m");
  j["self_collisions"]["enabled"] = false;
  EXPECT_EQ(thickness_warning(parse_scenario(j, "s.json")), "");
}

}  // namespace
}  // namespace clothfit::scenario
