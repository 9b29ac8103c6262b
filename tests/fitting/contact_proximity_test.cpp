// Which points of the sheet count as near a contact in a synthetic recording: within 1 cm of an
// obstacle (at the time asked) or 5 cm of the stick's surface, measured from the segment between
// its ends.
#include "fitting/contact_proximity.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "core/obstacles/plane.hpp"

namespace clothfit::fitting {
namespace {

// A floor at z = 0 that rises by 1 m per second.
std::shared_ptr<const obstacles::Obstacle> rising_floor() {
  obstacles::RigidMotionOptions motion;
  motion.offset_keyframes = {{0.0, Eigen::Vector3d::Zero()}, {1.0, Eigen::Vector3d(0, 0, 1)}};
  obstacles::ObstacleOptions options;
  options.name = "floor";
  options.motion = obstacles::RigidMotion(motion);
  return std::make_shared<obstacles::Plane>(obstacles::PlaneGeometry{}, options);
}

TEST(ContactProximity, WithinOneCentimetreOfAnObstacleAtTheTimeAsked) {
  stepper::SimulationModel model;
  model.obstacles.push_back(rising_floor());
  EXPECT_TRUE(contact_proximity(model, {0.3, 0.2, 0.009}, 0.0).obstacle);
  EXPECT_FALSE(contact_proximity(model, {0.3, 0.2, 0.011}, 0.0).obstacle);
  EXPECT_TRUE(contact_proximity(model, {0.3, 0.2, 0.509}, 0.5).obstacle);
  EXPECT_FALSE(contact_proximity(model, {0.3, 0.2, 0.509}, 0.0).obstacle);
  EXPECT_TRUE(contact_proximity(model, {0.3, 0.2, 0.4}, 0.5).obstacle);  // below it (h < 0)
  EXPECT_FALSE(contact_proximity(model, {0.3, 0.2, 0.6}, 0.5).obstacle);
  EXPECT_FALSE(contact_proximity(model, {0.3, 0.2, 0.009}, 0.0).stick);  // no stick
}

TEST(ContactProximity, WithinFiveCentimetresOfTheStickBetweenItsEnds) {
  stepper::SimulationModel model;
  stepper::Stick stick;
  // From x = 0 to x = 1 at height 1 m, moving up by 1 m per second; radius 1 cm.
  stick.end0 = stepper::Trajectory({0.0, 1.0}, {{0, 0, 1}, {0, 0, 2}});
  stick.end1 = stepper::Trajectory({0.0, 1.0}, {{1, 0, 1}, {1, 0, 2}});
  stick.radius = 0.01;
  model.stick = stick;
  EXPECT_TRUE(contact_proximity(model, {0.5, 0.0, 1.059}, 0.0).stick);
  EXPECT_FALSE(contact_proximity(model, {0.5, 0.0, 1.061}, 0.0).stick);
  EXPECT_TRUE(contact_proximity(model, {0.5, 0.059, 1.0}, 0.0).stick);
  EXPECT_TRUE(contact_proximity(model, {0.5, 0.0, 1.459}, 0.4).stick);
  EXPECT_FALSE(contact_proximity(model, {0.5, 0.0, 1.059}, 0.4).stick);
  // Beyond an end, from the end itself (radius + 5 cm = 6 cm): 5.9 cm along the axis is near;
  // 4 cm along it and 5 cm across (6.4 cm from the end) is not, though 5 cm from its line.
  EXPECT_TRUE(contact_proximity(model, {1.059, 0.0, 1.0}, 0.0).stick);
  EXPECT_TRUE(contact_proximity(model, {-0.059, 0.0, 1.0}, 0.0).stick);
  EXPECT_FALSE(contact_proximity(model, {1.061, 0.0, 1.0}, 0.0).stick);
  EXPECT_FALSE(contact_proximity(model, {-0.061, 0.0, 1.0}, 0.0).stick);
  EXPECT_FALSE(contact_proximity(model, {1.04, 0.05, 1.0}, 0.0).stick);
  EXPECT_FALSE(contact_proximity(model, {-0.04, 0.0, 1.05}, 0.0).stick);
  EXPECT_FALSE(contact_proximity(model, {0.5, 0.0, 1.0}, 0.0).obstacle);  // no obstacle
}

}  // namespace
}  // namespace clothfit::fitting
