// Behaviour shared by all obstacles: world evaluation through a rigid motion, surface velocity,
// batched evaluation, clone and options.
#include "core/obstacles/obstacle.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <string>

#include "core/obstacles/cylinder.hpp"
#include "core/obstacles/needle_field.hpp"
#include "core/obstacles/plane.hpp"
#include "core/obstacles/sphere.hpp"
#include "core/obstacles/table.hpp"
#include "finite_difference.hpp"

namespace clothfit::obstacles {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kTight = 1e-12;
constexpr double kFd = 1e-6;

// Tilted axis, off-body pivot, rotation and translation keyframes.
RigidMotion general_motion() {
  RigidMotionOptions options;
  options.axis = Eigen::Vector3d(0.4, -0.3, 1.0);
  options.pivot_m = Eigen::Vector3d(0.2, 0.1, 0.3);
  options.angle_keyframes = {{0.0, 0.0}, {1.0, 1.3}, {2.0, 0.5}};
  options.offset_keyframes = {{0.0, Eigen::Vector3d::Zero()},
                              {1.5, Eigen::Vector3d(0.3, -0.1, 0.2)}};
  return RigidMotion(options);
}

ObstacleOptions moving(const std::string& name) {
  ObstacleOptions options;
  options.name = name;
  options.friction_coefficient = 0.3;
  options.motion = general_motion();
  return options;
}

// One obstacle of every type, all moving.
std::vector<std::unique_ptr<Obstacle>> moving_obstacles() {
  std::vector<std::unique_ptr<Obstacle>> out;
  out.push_back(std::make_unique<Plane>(
      PlaneGeometry{Eigen::Vector3d(0, 0, 0.1), Eigen::Vector3d(0.1, 0.2, 1.0)}, moving("plane")));
  TableGeometry table;
  table.top_centre_m = Eigen::Vector3d(0.1, 0.0, 0.4);
  table.size_x_m = 0.8;
  table.size_y_m = 0.5;
  out.push_back(std::make_unique<Table>(table, moving("table")));
  out.push_back(std::make_unique<Sphere>(SphereGeometry{Eigen::Vector3d(0.1, 0.2, 0.3), 0.35},
                                         moving("sphere")));
  out.push_back(
      std::make_unique<Cylinder>(CylinderGeometry::from_ends(Eigen::Vector3d(-0.4, 0, 0.2),
                                                             Eigen::Vector3d(0.5, 0.1, 0.3), 0.1),
                                 moving("cylinder")));
  out.push_back(std::make_unique<NeedleField>(NeedleFieldGeometry{}, moving("needles")));
  return out;
}

TEST(Obstacle, ValueIsInvariantForPointsAttachedToTheBody) {
  std::mt19937 rng(12);
  for (const auto& obstacle : moving_obstacles()) {
    for (int i = 0; i < 30; ++i) {
      const Eigen::Vector3d X =
          testing::random_point(rng, Eigen::Vector3d::Constant(-1), Eigen::Vector3d::Constant(1));
      const ValueAndGradient rest = obstacle->evaluate_rest(X);
      for (const double t : {-1.0, 0.0, 0.4, 1.0, 1.7, 3.0}) {
        const RigidPose pose = obstacle->motion().pose(t);
        const Eigen::Vector3d x = pose.to_world(X);
        const ValueAndGradient world = obstacle->evaluate(x, t);
        EXPECT_NEAR(world.value, rest.value, 1e-10) << obstacle->name() << " t " << t;
        EXPECT_LT((world.gradient - pose.rotation * rest.gradient).norm(), 1e-8)
            << obstacle->name() << " t " << t;
      }
    }
  }
}

TEST(Obstacle, WorldGradientMatchesFiniteDifferencesWhileMoving) {
  std::mt19937 rng(13);
  for (const auto& obstacle : moving_obstacles()) {
    int checked = 0;
    for (int i = 0; i < 100 && checked < 30; ++i) {
      const double t = 0.7;
      const Eigen::Vector3d x =
          testing::random_point(rng, Eigen::Vector3d::Constant(-1), Eigen::Vector3d::Constant(1));
      // Kinks are inside; sharp rims curve like 1/h just outside.
      if (obstacle->is_signed_distance() && obstacle->value(x, t) < 1e-2)
        continue;
      const Eigen::Vector3d fd = testing::central_difference_gradient(
          [&](const Eigen::Vector3d& y) { return obstacle->value(y, t); }, x);
      EXPECT_LT((obstacle->gradient(x, t) - fd).norm(), kFd) << obstacle->name();
      ++checked;
    }
    EXPECT_EQ(checked, 30) << obstacle->name();
  }
}

TEST(Obstacle, PointOnARotatingSphereMovesAtOmegaCrossR) {
  // The paper's §6.2: a 35 cm sphere turning half a turn about z between 1 s and 2 s.
  const Eigen::Vector3d centre(0.0, 0.0, 0.35);
  RigidMotionOptions motion;
  motion.axis = Eigen::Vector3d::UnitZ();
  motion.pivot_m = centre;
  motion.angle_keyframes = {{1.0, 0.0}, {2.0, kPi}};
  ObstacleOptions options;
  options.motion = RigidMotion(motion);
  const Sphere sphere(SphereGeometry{centre, 0.35}, options);
  const Eigen::Vector3d omega(0.0, 0.0, kPi);  // rad/s
  std::mt19937 rng(14);
  for (int i = 0; i < 20; ++i) {
    const Eigen::Vector3d r = 0.35 * testing::random_point(rng, Eigen::Vector3d::Constant(-1),
                                                           Eigen::Vector3d::Constant(1))
                                         .normalized();
    const Eigen::Vector3d on_surface = centre + r;
    EXPECT_NEAR(sphere.value(on_surface, 1.5), 0.0, kTight);
    EXPECT_LT((sphere.surface_velocity(on_surface, 1.5) - omega.cross(r)).norm(), kTight);
    // Off the surface, the velocity is that of the nearest surface point (friction at a contact).
    const Eigen::Vector3d outside = centre + 1.3 * r;
    EXPECT_LT((sphere.surface_velocity(outside, 1.5) - omega.cross(r)).norm(), kTight);
    // Still before 1 s and after 2 s.
    EXPECT_EQ(sphere.surface_velocity(on_surface, 0.5), Eigen::Vector3d::Zero());
    EXPECT_EQ(sphere.surface_velocity(on_surface, 2.5), Eigen::Vector3d::Zero());
    EXPECT_DOUBLE_EQ(sphere.motion().angle_rad(2.5), kPi);
  }
}

TEST(Obstacle, SurfaceVelocityIsTheDerivativeOfTheNearestMaterialPoint) {
  const double dt = 1e-6;
  std::mt19937 rng(15);
  for (const auto& obstacle : moving_obstacles()) {
    for (int i = 0; i < 10; ++i) {
      const double t = 0.6;  // inside a segment of both schedules
      const Eigen::Vector3d x =
          testing::random_point(rng, Eigen::Vector3d::Constant(-1), Eigen::Vector3d::Constant(1));
      const Eigen::Vector3d surface = obstacle->closest_surface_point(x, t);
      EXPECT_NEAR(obstacle->value(surface, t), 0.0, 1e-10) << obstacle->name();
      const Eigen::Vector3d rest = obstacle->motion().pose(t).to_rest(surface);
      const Eigen::Vector3d fd = (obstacle->motion().pose(t + dt).to_world(rest) -
                                  obstacle->motion().pose(t - dt).to_world(rest)) /
                                 (2 * dt);
      EXPECT_LT((obstacle->surface_velocity(x, t) - fd).norm(), kFd) << obstacle->name();
    }
  }
}

TEST(Obstacle, AverageSurfaceVelocityOverAStep) {
  const Eigen::Vector3d centre(0.0, 0.0, 0.35);
  RigidMotionOptions motion;
  motion.axis = Eigen::Vector3d::UnitZ();
  motion.pivot_m = centre;
  motion.angle_keyframes = {{1.0, 0.0}, {2.0, kPi}};
  ObstacleOptions options;
  options.motion = RigidMotion(motion);
  const Sphere sphere(SphereGeometry{centre, 0.35}, options);
  const Eigen::Vector3d x = centre + Eigen::Vector3d(0.35, 0, 0);
  // The step that ends when the rotation starts has not moved; the one that ends when it stops
  // has. Chord velocity of a point at radius r turned by Δθ in Δt: r·2 sin(Δθ/2)/Δt.
  EXPECT_EQ(sphere.average_surface_velocity(x, 0.99, 1.0), Eigen::Vector3d::Zero());
  const double dt = 0.01, dtheta = kPi * dt;
  EXPECT_NEAR(sphere.average_surface_velocity(x, 1.99, 2.0).norm(),
              0.35 * 2 * std::sin(dtheta / 2) / dt, kTight);
  // Agrees with the instantaneous velocity to O(Δθ).
  EXPECT_LT(
      (sphere.average_surface_velocity(x, 1.49, 1.5) - sphere.surface_velocity(x, 1.5)).norm(),
      0.35 * kPi * dtheta);
  // Static obstacles: zero.
  const Sphere still(SphereGeometry{centre, 0.35}, ObstacleOptions{});
  EXPECT_EQ(still.average_surface_velocity(x, 1.0, 1.01), Eigen::Vector3d::Zero());
  EXPECT_EQ(still.surface_velocity(x, 1.0), Eigen::Vector3d::Zero());
}

TEST(Obstacle, BatchedAndSnapshotEvaluationEqualPointwise) {
  std::mt19937 rng(16);
  Eigen::Matrix3Xd points(3, 50);
  for (Eigen::Index i = 0; i < points.cols(); ++i) {
    points.col(i) =
        testing::random_point(rng, Eigen::Vector3d::Constant(-1), Eigen::Vector3d::Constant(1));
  }
  for (const auto& obstacle : moving_obstacles()) {
    Eigen::VectorXd values;
    Eigen::Matrix3Xd gradients;
    obstacle->evaluate(points, 1.2, values, gradients);
    ASSERT_EQ(values.size(), points.cols());
    const ObstacleAtTime placed = obstacle->at(1.2);
    for (Eigen::Index i = 0; i < points.cols(); ++i) {
      const ValueAndGradient vg = obstacle->evaluate(points.col(i), 1.2);
      EXPECT_EQ(values[i], vg.value);
      EXPECT_EQ(gradients.col(i), vg.gradient);
      EXPECT_EQ(placed.value(points.col(i)), vg.value);
      EXPECT_EQ(placed.gradient(points.col(i)), vg.gradient);
    }
  }
}

TEST(Obstacle, CloneCopiesGeometryAndOptions) {
  for (const auto& obstacle : moving_obstacles()) {
    const std::unique_ptr<Obstacle> copy = obstacle->clone();
    EXPECT_EQ(copy->type(), obstacle->type());
    EXPECT_EQ(copy->name(), obstacle->name());
    EXPECT_EQ(copy->friction_coefficient(), 0.3);
    EXPECT_FALSE(copy->is_static());
    const Eigen::Vector3d x(0.3, -0.2, 0.5);
    EXPECT_EQ(copy->value(x, 1.1), obstacle->value(x, 1.1));
    copy->set_friction_coefficient(0.8);
    EXPECT_EQ(copy->friction_coefficient(), 0.8);
    EXPECT_EQ(obstacle->friction_coefficient(), 0.3);
  }
}

TEST(Obstacle, OptionsDefaults) {
  const Sphere s(SphereGeometry{}, ObstacleOptions{});
  EXPECT_EQ(s.friction_coefficient(), 0.0);
  EXPECT_FALSE(s.constrain_face_centres());
  EXPECT_TRUE(s.is_static());
  EXPECT_TRUE(s.name().empty());
}

// Each geometry's is_valid (what its obstacle's constructor asserts): the defaults pass, and every
// field that makes the obstacle meaningless — not finite, zero or negative, an edge radius past
// half the table — fails with the obstacle's reason. (The scenario reader checks its fields
// itself, with their names; this is the library's own guard.)
template <typename Geometry>
void expect_refused(const Geometry& g, const std::string& reason, const char* what) {
  std::string why;
  EXPECT_FALSE(g.is_valid(&why)) << what;
  EXPECT_NE(why.find(reason), std::string::npos) << what << ": " << why;
  EXPECT_FALSE(g.is_valid()) << what;
}

// The default geometry with `change` applied.
template <typename Geometry, typename Change>
Geometry changed(Change change) {
  Geometry g;
  change(g);
  return g;
}

TEST(ObstacleGeometry, DefaultsAreValidAndEveryBadFieldIsRefused) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(PlaneGeometry{}.is_valid());
  EXPECT_TRUE(SphereGeometry{}.is_valid());
  EXPECT_TRUE(CylinderGeometry{}.is_valid());
  EXPECT_TRUE(TableGeometry{}.is_valid());
  EXPECT_TRUE(NeedleFieldGeometry{}.is_valid());

  const auto plane = [](auto change) { return changed<PlaneGeometry>(change); };
  expect_refused(plane([&](auto& g) { g.point_m.x() = nan; }), "plane", "plane point");
  expect_refused(plane([&](auto& g) { g.normal = Eigen::Vector3d::Zero(); }), "plane", "normal 0");
  expect_refused(plane([&](auto& g) { g.normal.z() = inf; }), "plane", "normal inf");

  const auto sphere = [](auto change) { return changed<SphereGeometry>(change); };
  expect_refused(sphere([&](auto& g) { g.centre_m.y() = inf; }), "sphere", "sphere centre");
  for (double r : {0.0, -1.0, nan, inf}) {
    expect_refused(sphere([&](auto& g) { g.radius_m = r; }), "sphere", "sphere radius");
  }

  const auto cylinder = [](auto change) { return changed<CylinderGeometry>(change); };
  expect_refused(cylinder([&](auto& g) { g.centre_m.z() = nan; }), "axis", "cylinder centre");
  expect_refused(cylinder([&](auto& g) { g.axis = Eigen::Vector3d::Zero(); }), "axis",
                 "cylinder axis 0");
  for (double bad : {0.0, -0.5, nan, inf}) {
    expect_refused(cylinder([&](auto& g) { g.length_m = bad; }), "length", "cylinder length");
    expect_refused(cylinder([&](auto& g) { g.radius_m = bad; }), "radius", "cylinder radius");
  }

  const auto table = [](auto change) { return changed<TableGeometry>(change); };
  expect_refused(table([&](auto& g) { g.top_centre_m.x() = inf; }), "top centre", "table centre");
  expect_refused(table([&](auto& g) { g.yaw_rad = nan; }), "yaw", "table yaw");
  for (double bad : {0.0, -1.0, nan, inf}) {
    expect_refused(table([&](auto& g) { g.size_x_m = bad; }), "sizes", "table size_x");
    expect_refused(table([&](auto& g) { g.size_y_m = bad; }), "sizes", "table size_y");
    expect_refused(table([&](auto& g) { g.thickness_m = bad; }), "thickness", "table thickness");
  }
  expect_refused(table([&](auto& g) { g.edge_radius_m = -1e-3; }), "edge radius", "radius < 0");
  expect_refused(table([&](auto& g) { g.edge_radius_m = nan; }), "edge radius", "radius nan");
  // Half the smallest size (the thickness, 0.03 m) is allowed, a little more is not.
  EXPECT_TRUE(table([&](auto& g) { g.edge_radius_m = 0.015; }).is_valid());
  expect_refused(table([&](auto& g) { g.edge_radius_m = 0.0151; }), "edge radius", "radius big");
  EXPECT_TRUE(table([&](auto& g) { g.edge_radius_m = 0.0; }).is_valid());

  const auto needles = [](auto change) { return changed<NeedleFieldGeometry>(change); };
  expect_refused(needles([&](auto& g) { g.origin_m.x() = nan; }), "needle", "needle origin");
  for (double bad : {0.0, -20.0, nan, inf}) {
    expect_refused(needles([&](auto& g) { g.c1_per_m = bad; }), "c1", "needle c1");
    expect_refused(needles([&](auto& g) { g.c2 = bad; }), "c2", "needle c2");
  }
}

}  // namespace
}  // namespace clothfit::obstacles
