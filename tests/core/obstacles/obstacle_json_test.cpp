#include "core/obstacles/obstacle_json.hpp"

#include <gtest/gtest.h>

#include <numbers>

#include "core/obstacles/cylinder.hpp"
#include "core/obstacles/needle_field.hpp"
#include "core/obstacles/plane.hpp"
#include "core/obstacles/sphere.hpp"
#include "core/obstacles/table.hpp"

namespace clothfit::obstacles {
namespace {

constexpr double kTight = 1e-12;

std::vector<std::unique_ptr<Obstacle>> parse(const std::string& text) {
  const nlohmann::json json = nlohmann::json::parse(text);
  return parse_obstacles(JsonObject(json, "scenario.json"));
}

TEST(ObstacleJson, ParsesEveryType) {
  const auto obstacles = parse(R"({"obstacles": [
    {"type": "plane", "name": "floor", "friction": 0.4},
    {"type": "plane", "name": "ramp", "point": [0, 0, 1], "normal": [0, 0, 2], "face_centres": true},
    {"type": "table", "top_centre": [1, 2, 0.75], "size": [1.2, 0.8], "thickness": 0.04,
     "edge_radius": 0.01, "yaw_deg": 90, "friction": 1.6},
    {"type": "sphere", "centre": [0, 0, 0.35], "radius": 0.35, "friction": 0.5,
     "motion": {"rotation": {"axis": [0, 0, 1], "pivot": [0, 0, 0.35],
                             "keyframes": [{"time": 1, "angle_deg": 0},
                                           {"time": 2, "angle_deg": 180}]}}},
    {"type": "cylinder", "name": "bar", "ends": [[-1, 0.3, 0.5], [1, 0.3, 0.5]], "radius": 0.1},
    {"type": "cylinder", "centre": [0, 0, 0], "axis": [0, 1, 0], "length": 2, "radius": 0.2},
    {"type": "needles", "origin": [0, 0, 0.1], "c1": 10,
     "motion": {"translation": {"keyframes": [{"time": 0, "offset": [0, 0, 0]},
                                              {"time": 1, "offset": [0, 0, 0.5]}]}}}
  ]})");
  ASSERT_EQ(obstacles.size(), 7u);

  const Obstacle& floor = *obstacles[0];
  EXPECT_EQ(floor.type(), "plane");
  EXPECT_EQ(floor.name(), "floor");
  EXPECT_EQ(floor.friction_coefficient(), 0.4);
  EXPECT_FALSE(floor.constrain_face_centres());
  EXPECT_TRUE(floor.is_static());
  EXPECT_DOUBLE_EQ(floor.value(Eigen::Vector3d(5, 5, 0.2), 0.0), 0.2);

  const Obstacle& ramp = *obstacles[1];
  EXPECT_TRUE(ramp.constrain_face_centres());
  EXPECT_EQ(ramp.friction_coefficient(), 0.0);
  EXPECT_DOUBLE_EQ(ramp.value(Eigen::Vector3d(0, 0, 1.5), 0.0), 0.5);

  const auto& table = dynamic_cast<const Table&>(*obstacles[2]);
  EXPECT_EQ(table.name(), "table");
  EXPECT_EQ(table.geometry().size_x_m, 1.2);
  EXPECT_EQ(table.geometry().size_y_m, 0.8);
  EXPECT_NEAR(table.geometry().yaw_rad, std::numbers::pi / 2, kTight);
  // Turned by 90°: the 1.2 m side now runs along y, so 0.5 m from the centre along x is off the
  // 0.8 m side (0.1 m beyond it, at mid-thickness).
  EXPECT_NEAR(table.value(Eigen::Vector3d(1.5, 2.0, 0.73), 0.0), 0.1, kTight);

  const auto& sphere = dynamic_cast<const Sphere&>(*obstacles[3]);
  EXPECT_EQ(sphere.geometry().radius_m, 0.35);
  EXPECT_FALSE(sphere.is_static());
  EXPECT_NEAR(sphere.motion().angle_rad(1.5), std::numbers::pi / 2, kTight);
  EXPECT_NEAR(sphere.surface_velocity(Eigen::Vector3d(0.35, 0, 0.35), 1.5).y(),
              0.35 * std::numbers::pi, kTight);

  const auto& bar = dynamic_cast<const Cylinder&>(*obstacles[4]);
  EXPECT_NEAR(bar.geometry().length_m, 2.0, kTight);
  EXPECT_TRUE(bar.geometry().axis.isApprox(Eigen::Vector3d::UnitX(), kTight));
  EXPECT_NEAR(bar.value(Eigen::Vector3d(0, 0.3, 0.8), 0.0), 0.2, kTight);

  const auto& cylinder = dynamic_cast<const Cylinder&>(*obstacles[5]);
  EXPECT_EQ(cylinder.name(), "cylinder");
  EXPECT_NEAR(cylinder.value(Eigen::Vector3d(0, 1.5, 0), 0.0), 0.5, kTight);

  const auto& needles = dynamic_cast<const NeedleField&>(*obstacles[6]);
  EXPECT_EQ(needles.geometry().c1_per_m, 10.0);
  EXPECT_EQ(needles.geometry().c2, 0.075);
  EXPECT_NEAR(needles.value(Eigen::Vector3d(0, 0, 0.7), 1.0), 0.1, kTight);
}

TEST(ObstacleJson, AbsentArrayMeansNoObstacles) {
  EXPECT_TRUE(parse(R"({"time_step": 0.01})").empty());
  EXPECT_TRUE(parse(R"({"obstacles": []})").empty());
}

TEST(ObstacleJson, DefaultsOfOptionalFields) {
  const auto obstacles = parse(R"({"obstacles": [
    {"type": "plane"},
    {"type": "table", "top_centre": [0, 0, 1], "size": [1, 1]},
    {"type": "table", "name": "thin", "top_centre": [0, 0, 1], "size": [1, 1], "thickness": 0.006},
    {"type": "needles"}
  ]})");
  const auto& plane = dynamic_cast<const Plane&>(*obstacles[0]);
  EXPECT_EQ(plane.geometry().point_m, Eigen::Vector3d::Zero());
  EXPECT_EQ(plane.geometry().normal, Eigen::Vector3d::UnitZ());
  const auto& table = dynamic_cast<const Table&>(*obstacles[1]);
  EXPECT_EQ(table.geometry().thickness_m, 0.03);
  EXPECT_EQ(table.geometry().edge_radius_m, 0.005);
  EXPECT_EQ(table.geometry().yaw_rad, 0.0);
  // The default rounding is capped at half the thickness.
  EXPECT_EQ(dynamic_cast<const Table&>(*obstacles[2]).geometry().edge_radius_m, 0.003);
  const auto& needles = dynamic_cast<const NeedleField&>(*obstacles[3]);
  EXPECT_EQ(needles.geometry().c1_per_m, 20.0);
  EXPECT_EQ(needles.geometry().origin_m, Eigen::Vector3d::Zero());
}

// A direction is any finite nonzero [x, y, z]: one whose norm overflows (1e200² = inf) or
// underflows (1e-200² = 0, and the smallest subnormal) behaves as the unit vector along it.
TEST(ObstacleJson, DirectionsOfAnyFiniteLengthAreNormalised) {
  const Eigen::Vector3d x(0.3, -0.7, 0.25);
  for (const char* z : {"1e200", "1e-200", "5e-324", "1.7e308"}) {
    SCOPED_TRACE(z);
    const std::string s = z;
    const auto obstacles = parse(R"({"obstacles": [
      {"type": "plane", "normal": [0, 0, )" +
                                 s + R"(]},
      {"type": "cylinder", "centre": [0, 0, 0], "axis": [)" +
                                 s + R"(, 0, 0], "length": 2,
       "radius": 0.1},
      {"type": "plane", "name": "turning", "motion": {"rotation": {"axis": [0, 0, -)" +
                                 s + R"(],
       "pivot": [0, 0, 0], "keyframes": [{"time": 0, "angle_deg": 0}, {"time": 1, "angle_deg": 90}]}}}
    ]})");
    const auto& plane = dynamic_cast<const Plane&>(*obstacles[0]);
    EXPECT_EQ(plane.geometry().normal, Eigen::Vector3d::UnitZ());
    EXPECT_EQ(plane.value(x, 0.0), 0.25);
    EXPECT_EQ(plane.gradient(x, 0.0), Eigen::Vector3d::UnitZ());
    const auto& cylinder = dynamic_cast<const Cylinder&>(*obstacles[1]);
    EXPECT_EQ(cylinder.geometry().axis, Eigen::Vector3d::UnitX());
    EXPECT_NEAR(cylinder.value(Eigen::Vector3d(0.5, 0.0, 0.4), 0.0), 0.3, kTight);
    EXPECT_EQ(obstacles[2]->motion().axis(), -Eigen::Vector3d::UnitZ());
  }
  // Cylinder ends whose distance's square overflows give the right length.
  const auto far = parse(R"({"obstacles": [
    {"type": "cylinder", "ends": [[0, 0, 0], [1e200, 0, 0]], "radius": 0.1}]})");
  const auto& cylinder = dynamic_cast<const Cylinder&>(*far[0]);
  EXPECT_EQ(cylinder.geometry().axis, Eigen::Vector3d::UnitX());
  EXPECT_DOUBLE_EQ(cylinder.geometry().length_m, 1e200);
}

struct BadInput {
  const char* obstacles;  // the "obstacles" value
  const char* field;      // expected InputLocation::field
  const char* problem;    // expected part of the problem
};

class ObstacleJsonErrors : public ::testing::TestWithParam<BadInput> {};

TEST_P(ObstacleJsonErrors, NameTheFieldAndWhatWasExpected) {
  const BadInput& bad = GetParam();
  const std::string text = std::string(R"({"obstacles": )") + bad.obstacles + "}";
  try {
    parse(text);
    FAIL() << "no error for " << bad.obstacles;
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().field, bad.field) << e.what();
    EXPECT_EQ(e.location().file, "scenario.json");
    EXPECT_NE(e.problem().find(bad.problem), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(bad.field), std::string::npos);
  }
}

constexpr const char* kSphere = R"({"type": "sphere", "centre": [0, 0, 0], "radius": 1})";

INSTANTIATE_TEST_SUITE_P(
    Cases, ObstacleJsonErrors,
    ::testing::Values(
        BadInput{R"({"type": "plane"})", "obstacles", "expected an array"},
        BadInput{R"([7])", "obstacles[0]", "expected a JSON object"},
        BadInput{R"([{"radius": 1}])", "obstacles[0].type", "missing"},
        BadInput{R"([{"type": "cube"}])", "obstacles[0].type", "\"needles\""},
        BadInput{R"([{"type": "needles", "c1": 1e5}])", "obstacles[0].c1", "<= 1000"},
        // Far out the peaks could not be counted in double (the run hung at 1e14 m).
        BadInput{R"([{"type": "needles", "origin": [0, 1e14, 0]}])", "obstacles[0].origin",
                 "within 1e+06 m of the origin on every axis, found 1e+14 m"},
        BadInput{R"([{"type": "sphere", "centre": [0, 0, 0]}])", "obstacles[0].radius", "missing"},
        BadInput{R"([{"type": "plane"}, {"type": "sphere", "centre": [0, 0, 0], "radius": -1}])",
                 "obstacles[1].radius", "> 0"},
        BadInput{R"([{"type": "sphere", "centre": [0, 0], "radius": 1}])", "obstacles[0].centre",
                 "3 finite numbers"},
        BadInput{R"([{"type": "sphere", "centre": [0, 0, 0], "radus": 1}])", "obstacles[0].radus",
                 "unknown field"},
        BadInput{R"([{"type": "plane", "friction": -0.1}])", "obstacles[0].friction", ">= 0"},
        // μ = 1e5 made converged steps create energy; nothing above 100 behaves differently.
        BadInput{R"([{"type": "plane", "friction": 100.5}])", "obstacles[0].friction", "<= 100"},
        BadInput{R"([{"type": "plane", "face_centres": 1}])", "obstacles[0].face_centres",
                 "true or false"},
        BadInput{R"([{"type": "plane", "name": ""}])", "obstacles[0].name", "non-empty"},
        // A comma split sweep.csv's header; an '=' made mu.<name>=VALUE impossible to give.
        BadInput{R"([{"type": "plane", "name": "t,a"}])", "obstacles[0].name",
                 "expected a name without ',', '='"},
        BadInput{R"([{"type": "plane", "name": "t=a"}])", "obstacles[0].name",
                 "expected a name without ',', '='"},
        BadInput{R"([{"type": "plane", "name": "t\"a"}])", "obstacles[0].name",
                 "expected a name without ',', '='"},
        BadInput{R"([{"type": "plane", "name": "t\ta"}])", "obstacles[0].name",
                 "expected a name without ',', '='"},
        BadInput{R"([{"type": "plane"}, {"type": "plane"}])", "obstacles[1].name", "duplicate"},
        BadInput{R"([{"type": "plane", "normal": [0, 0, 0]}])", "obstacles[0].normal",
                 "nonzero direction"},
        BadInput{R"([{"type": "table", "size": [1, 1]}])", "obstacles[0].top_centre", "missing"},
        BadInput{R"([{"type": "table", "top_centre": [0, 0, 1], "size": [1, 1, 1]}])",
                 "obstacles[0].size", "2 numbers"},
        BadInput{R"([{"type": "table", "top_centre": [0, 0, 1], "size": [1, 0]}])",
                 "obstacles[0].size[1]", "> 0"},
        BadInput{
            R"([{"type": "table", "top_centre": [0, 0, 1], "size": [1, 1], "edge_radius": 0.02}])",
            "obstacles[0].edge_radius", "at most half"},
        BadInput{R"([{"type": "table", "top_centre": [0, 0, 1], "size": [1, 1], "thickness": 0}])",
                 "obstacles[0].thickness", "> 0"},
        BadInput{R"([{"type": "cylinder", "radius": 1}])", "obstacles[0].centre", "\"ends\""},
        BadInput{R"([{"type": "cylinder", "centre": [0, 0, 0], "length": 1, "radius": 1}])",
                 "obstacles[0].axis", "missing"},
        BadInput{R"([{"type": "cylinder", "centre": [0, 0, 0], "axis": [0, 0, 0], "length": 1,
                      "radius": 1}])",
                 "obstacles[0].axis", "nonzero"},
        BadInput{R"([{"type": "cylinder", "ends": [[0, 0, 0], [1, 0, 0]], "length": 1,
                      "radius": 1}])",
                 "obstacles[0].length", "not both"},
        BadInput{R"([{"type": "cylinder", "ends": [[0, 0, 0]], "radius": 1}])", "obstacles[0].ends",
                 "2 points"},
        BadInput{R"([{"type": "cylinder", "ends": [[1, 0, 0], [1, 0, 0]], "radius": 1}])",
                 "obstacles[0].ends", "distinct"},
        BadInput{R"([{"type": "cylinder", "ends": [[-1e308, 0, 0], [1e308, 0, 0]], "radius": 1}])",
                 "obstacles[0].ends", "a finite distance apart"},
        BadInput{
            R"([{"type": "cylinder", "ends": [[0, 0, 0], [1.7e308, 1.7e308, 0]], "radius": 1}])",
            "obstacles[0].ends", "a finite distance apart"},
        BadInput{R"([{"type": "plane", "motion": {"rotation": {"axis": [0, 0, 0],
                      "pivot": [0, 0, 0], "keyframes": [{"time": 0, "angle_deg": 0}]}}}])",
                 "obstacles[0].motion.rotation.axis",
                 "nonzero direction [x, y, z], found [0, 0, 0]"},
        BadInput{R"([{"type": "cylinder", "ends": [[0, 0, 0], [1, 0, 0]]}])", "obstacles[0].radius",
                 "missing"},
        BadInput{R"([{"type": "needles", "c2": 0}])", "obstacles[0].c2", "> 0"},
        BadInput{R"([{"type": "needles", "c1": "20"}])", "obstacles[0].c1", "found a string"},
        BadInput{R"([{"type": "plane", "motion": {"spin": {}}}])", "obstacles[0].motion.spin",
                 "unknown field"},
        BadInput{R"([{"type": "plane", "motion": {"rotation": {"pivot": [0, 0, 0],
                      "keyframes": [{"time": 0, "angle_deg": 0}]}}}])",
                 "obstacles[0].motion.rotation.axis", "missing"},
        BadInput{R"([{"type": "plane", "motion": {"rotation": {"axis": [0, 0, 1],
                      "keyframes": [{"time": 0, "angle_deg": 0}]}}}])",
                 "obstacles[0].motion.rotation.pivot", "missing"},
        BadInput{R"([{"type": "plane", "motion": {"rotation": {"axis": [0, 0, 1],
                      "pivot": [0, 0, 0], "keyframes": []}}}])",
                 "obstacles[0].motion.rotation.keyframes", "at least one"},
        BadInput{R"([{"type": "plane", "motion": {"rotation": {"axis": [0, 0, 1],
                      "pivot": [0, 0, 0], "keyframes": [{"time": 1, "angle_deg": 0},
                                                        {"time": 1, "angle_deg": 90}]}}}])",
                 "obstacles[0].motion.rotation.keyframes[1].time", "strictly increase"},
        BadInput{R"([{"type": "plane", "motion": {"rotation": {"axis": [0, 0, 1],
                      "pivot": [0, 0, 0], "keyframes": [{"time": 1, "angle": 0}]}}}])",
                 "obstacles[0].motion.rotation.keyframes[0].angle", "unknown field"},
        BadInput{R"([{"type": "plane", "motion": {"translation": {"keyframes": [
                      {"time": 0, "offset": [0, 0, 0]}, {"time": -1, "offset": [0, 0, 1]}]}}}])",
                 "obstacles[0].motion.translation.keyframes[1].time", "strictly increase"},
        BadInput{R"([{"type": "plane", "motion": {"translation": {"keyframes": [
                      {"time": 0}]}}}])",
                 "obstacles[0].motion.translation.keyframes[0].offset", "missing"}));

TEST(ObstacleJson, SingleObstacleParses) {
  const nlohmann::json json = nlohmann::json::parse(kSphere);
  const std::unique_ptr<Obstacle> sphere = parse_obstacle(JsonObject(json, "x.json", "ball"), "");
  EXPECT_EQ(sphere->name(), "sphere");
  EXPECT_DOUBLE_EQ(sphere->value(Eigen::Vector3d(2, 0, 0), 0.0), 1.0);
}

}  // namespace
}  // namespace clothfit::obstacles
