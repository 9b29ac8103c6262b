#include "core/obstacles/cylinder.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <random>

#include "finite_difference.hpp"

namespace clothfit::obstacles {
namespace {

constexpr double kTight = 1e-12;
constexpr double kFd = 1e-6;

// Axis z through the origin, caps at z = ±1, radius 1.
Cylinder unit_cylinder() {
  CylinderGeometry g;
  g.centre_m = Eigen::Vector3d::Zero();
  g.axis = Eigen::Vector3d::UnitZ();
  g.length_m = 2.0;
  g.radius_m = 1.0;
  return Cylinder(g, ObstacleOptions{});
}

void expect_value_and_gradient(const Obstacle& o, const Eigen::Vector3d& x, double h,
                               const Eigen::Vector3d& grad) {
  const ValueAndGradient vg = o.evaluate(x, 0.0);
  EXPECT_NEAR(vg.value, h, kTight) << "at " << x.transpose();
  EXPECT_LT((vg.gradient - grad).norm(), kTight) << "at " << x.transpose();
}

TEST(Cylinder, ValuesAtHandComputedPoints) {
  const Cylinder c = unit_cylinder();
  const double s = 1.0 / std::sqrt(2.0);
  // Outside: beside the side, above a cap, diagonally off a rim.
  expect_value_and_gradient(c, {2.0, 0.0, 0.5}, 1.0, {1, 0, 0});
  expect_value_and_gradient(c, {0.0, -3.0, 0.0}, 2.0, {0, -1, 0});
  expect_value_and_gradient(c, {0.3, 0.2, 3.0}, 2.0, {0, 0, 1});
  expect_value_and_gradient(c, {0.3, 0.2, -1.5}, 0.5, {0, 0, -1});
  expect_value_and_gradient(c, {2.0, 0.0, 2.0}, std::sqrt(2.0), {s, 0, s});
  expect_value_and_gradient(c, {0.0, 1.6, -1.8}, 1.0, {0, 0.6, -0.8});
  // On the surface: side, cap, and the rim (tie: the side's normal).
  expect_value_and_gradient(c, {0.0, 1.0, 0.3}, 0.0, {0, 1, 0});
  expect_value_and_gradient(c, {0.3, 0.4, 1.0}, 0.0, {0, 0, 1});
  expect_value_and_gradient(c, {0.6, -0.8, -1.0}, 0.0, {0.6, -0.8, 0});
  // Inside: nearer the side, nearer a cap.
  expect_value_and_gradient(c, {0.8, 0.0, 0.0}, -0.2, {1, 0, 0});
  expect_value_and_gradient(c, {0.1, 0.0, 0.9}, -0.1, {0, 0, 1});
  expect_value_and_gradient(c, {0.0, 0.1, -0.7}, -0.3, {0, 0, -1});
}

TEST(Cylinder, AxisPointsHaveAUnitGradient) {
  const Cylinder c = unit_cylinder();
  for (const double z : {-3.0, -0.5, 0.0, 0.95, 1.0, 2.0}) {
    const ValueAndGradient vg = c.evaluate(Eigen::Vector3d(0, 0, z), 0.0);
    EXPECT_NEAR(vg.gradient.norm(), 1.0, kTight);
  }
  EXPECT_DOUBLE_EQ(c.value(Eigen::Vector3d::Zero(), 0.0), -1.0);
  EXPECT_DOUBLE_EQ(c.value(Eigen::Vector3d(0, 0, 2.5), 0.0), 1.5);
}

TEST(Cylinder, FromEndsEqualsCentreAxisLength) {
  const Eigen::Vector3d a(0.2, -0.1, 0.4), b(1.1, 0.5, -0.3);
  const CylinderGeometry g = CylinderGeometry::from_ends(a, b, 0.07);
  EXPECT_TRUE(g.centre_m.isApprox(0.5 * (a + b), kTight));
  EXPECT_NEAR(g.length_m, (b - a).norm(), kTight);
  const Cylinder c(g, ObstacleOptions{});
  // The cap centres lie on the surface with the cap normals.
  expect_value_and_gradient(c, a, 0.0, (a - b).normalized());
  expect_value_and_gradient(c, b, 0.0, (b - a).normalized());
}

// Any finite nonzero axis is valid and normalised, also one whose norm overflows or underflows;
// from_ends measures a length whose square overflows.
TEST(Cylinder, AxesOfAnyFiniteLengthAreNormalised) {
  for (const double x : {1e200, 1e-200, 5e-324}) {
    CylinderGeometry g;
    g.axis = Eigen::Vector3d(x, 0.0, 0.0);
    EXPECT_TRUE(g.is_valid()) << x;
    const Cylinder c(g, ObstacleOptions{});
    EXPECT_EQ(c.geometry().axis, Eigen::Vector3d::UnitX()) << x;
  }
  const CylinderGeometry far =
      CylinderGeometry::from_ends(Eigen::Vector3d::Zero(), Eigen::Vector3d(0.0, 3e200, 4e200), 1.0);
  EXPECT_DOUBLE_EQ(far.length_m, 5e200);
  EXPECT_TRUE(far.is_valid());
}

TEST(Cylinder, AnyAxisIsTheZCylinderInRotatedCoordinates) {
  // A cylinder along an arbitrary axis equals the z-axis one seen through a rigid transform.
  const Eigen::Matrix3d rotation =
      Eigen::AngleAxisd(0.9, Eigen::Vector3d(0.3, -0.5, 0.8).normalized()).toRotationMatrix();
  const Eigen::Vector3d shift(0.4, -1.2, 0.6);
  CylinderGeometry g;
  g.centre_m = shift;
  g.axis = 2.5 * (rotation * Eigen::Vector3d::UnitZ());
  g.length_m = 2.0;
  g.radius_m = 1.0;
  const Cylinder turned(g, ObstacleOptions{});
  const Cylinder reference = unit_cylinder();
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    const Eigen::Vector3d y =
        testing::random_point(rng, Eigen::Vector3d::Constant(-2.5), Eigen::Vector3d::Constant(2.5));
    const ValueAndGradient expected = reference.evaluate(y, 0.0);
    const ValueAndGradient got = turned.evaluate(shift + rotation * y, 0.0);
    EXPECT_NEAR(got.value, expected.value, kTight);
    if (std::hypot(y.x(), y.y()) > 1e-6) {  // on the axis the radial choice is arbitrary
      EXPECT_LT((got.gradient - rotation * expected.gradient).norm(), 1e-10);
    }
  }
}

TEST(Cylinder, GradientMatchesFiniteDifferencesAwayFromKinks) {
  CylinderGeometry g = CylinderGeometry::from_ends(Eigen::Vector3d(-0.3, 0.1, 0.2),
                                                   Eigen::Vector3d(0.5, 0.6, 0.4), 0.25);
  const Cylinder c(g, ObstacleOptions{});
  const Eigen::Vector3d axis = c.geometry().axis;
  std::mt19937 rng(4);
  int checked = 0;
  for (int i = 0; i < 600; ++i) {
    const Eigen::Vector3d x = testing::random_point(rng, Eigen::Vector3d(-0.8, -0.5, -0.4),
                                                    Eigen::Vector3d(1.0, 1.2, 1.0));
    // Kinks (only on or inside the surface): the axis, the surface edges and the medial cone
    // d_r = d_z. Keep 1e-4 away from them; the stencil is 1e-6.
    const Eigen::Vector3d r = x - c.geometry().centre_m;
    const double z = axis.dot(r);
    const double d_r = (r - z * axis).norm() - g.radius_m;
    const double d_z = std::abs(z) - 0.5 * g.length_m;
    const bool inside_or_on = d_r <= 1e-4 && d_z <= 1e-4;
    if (inside_or_on && (std::abs(d_r - d_z) < 1e-4 || d_r + g.radius_m < 1e-4))
      continue;
    const Eigen::Vector3d fd = testing::central_difference_gradient(
        [&](const Eigen::Vector3d& y) { return c.value(y, 0.0); }, x);
    const Eigen::Vector3d grad = c.gradient(x, 0.0);
    EXPECT_LT((grad - fd).norm(), kFd) << x.transpose();
    EXPECT_NEAR(grad.norm(), 1.0, kTight);
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

TEST(Cylinder, GradientNearTheRimIsSmoothOutside) {
  // Points 1e-4 outside the rim circle, all around it, from the side's plane to the cap's: h is
  // C¹ there (only C¹ where the side and cap regions meet, so the FD step is small: error ≈
  // step / (4 h)).
  const Cylinder c = unit_cylinder();
  for (int k = 0; k < 16; ++k) {
    const double phi = 2.0 * std::numbers::pi * k / 16.0;
    const Eigen::Vector3d rim(std::cos(phi), std::sin(phi), 1.0);
    for (const double beta : {0.0, 0.3, 0.785, 1.2, 1.5707}) {  // angle from radial to axial
      const Eigen::Vector3d dir =
          std::cos(beta) * Eigen::Vector3d(std::cos(phi), std::sin(phi), 0) +
          std::sin(beta) * Eigen::Vector3d::UnitZ();
      const Eigen::Vector3d x = rim + 1e-4 * dir;
      EXPECT_NEAR(c.value(x, 0.0), 1e-4, kTight);
      const Eigen::Vector3d fd = testing::central_difference_gradient(
          [&](const Eigen::Vector3d& y) { return c.value(y, 0.0); }, x, 1e-9);
      EXPECT_LT((c.gradient(x, 0.0) - fd).norm(), 1e-5);
      EXPECT_LT((c.gradient(x, 0.0) - dir).norm(), 1e-10);
    }
  }
}

}  // namespace
}  // namespace clothfit::obstacles
