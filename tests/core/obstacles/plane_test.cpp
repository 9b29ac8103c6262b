#include "core/obstacles/plane.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "finite_difference.hpp"

namespace clothfit::obstacles {
namespace {

constexpr double kTight = 1e-12;
constexpr double kFd = 1e-7;  // central differences, step 1e-6, of a linear function

TEST(Plane, FloorIsHeightAboveZero) {
  const Plane floor(PlaneGeometry{}, ObstacleOptions{});
  EXPECT_DOUBLE_EQ(floor.value(Eigen::Vector3d(3.0, -2.0, 0.25), 0.0), 0.25);
  EXPECT_DOUBLE_EQ(floor.value(Eigen::Vector3d(3.0, -2.0, -0.1), 0.0), -0.1);
  EXPECT_DOUBLE_EQ(floor.value(Eigen::Vector3d(3.0, -2.0, 0.0), 0.0), 0.0);
  EXPECT_EQ(floor.gradient(Eigen::Vector3d(1, 2, 3), 0.0), Eigen::Vector3d::UnitZ());
  EXPECT_EQ(floor.type(), "plane");
  EXPECT_TRUE(floor.is_signed_distance());
}

TEST(Plane, TiltedRampIsSignedDistance) {
  // A ramp through (0, 0, 1) tilted by 30° about y; the normal is given unnormalised.
  const double theta = std::numbers::pi / 6;
  PlaneGeometry g;
  g.point_m = Eigen::Vector3d(0, 0, 1);
  g.normal = 4.0 * Eigen::Vector3d(std::sin(theta), 0, std::cos(theta));
  const Plane ramp(g, ObstacleOptions{});
  const Eigen::Vector3d n(std::sin(theta), 0, std::cos(theta));
  EXPECT_TRUE(ramp.geometry().normal.isApprox(n, kTight));
  // 0.3 m along the normal from a point in the plane, moved along the plane too.
  const Eigen::Vector3d in_plane =
      g.point_m + Eigen::Vector3d(std::cos(theta), 5.0, -std::sin(theta));
  EXPECT_NEAR(ramp.value(in_plane, 0.0), 0.0, kTight);
  EXPECT_NEAR(ramp.value(in_plane + 0.3 * n, 0.0), 0.3, kTight);
  EXPECT_NEAR(ramp.value(in_plane - 0.2 * n, 0.0), -0.2, kTight);
  EXPECT_TRUE(ramp.closest_surface_point(in_plane + 0.3 * n, 0.0).isApprox(in_plane, kTight));
}

// Any finite nonzero normal is valid and normalised, also one whose norm overflows (1e200² = inf)
// or underflows (1e-200² = 0).
TEST(Plane, NormalsOfAnyFiniteLengthAreNormalised) {
  for (const double z : {1e200, 1e-200, 5e-324, -1.7e308}) {
    PlaneGeometry g;
    g.normal = Eigen::Vector3d(0.0, 0.0, z);
    EXPECT_TRUE(g.is_valid()) << z;
    const Plane plane(g, ObstacleOptions{});
    EXPECT_EQ(plane.geometry().normal, Eigen::Vector3d(0.0, 0.0, z > 0 ? 1.0 : -1.0)) << z;
  }
  PlaneGeometry largest;  // Eigen's stableNormalize() overflows here: √2 · 1.7e308 > DBL_MAX
  largest.normal = Eigen::Vector3d(1.7e308, 1.7e308, 0.0);
  EXPECT_TRUE(Plane(largest, ObstacleOptions{})
                  .geometry()
                  .normal.isApprox(Eigen::Vector3d(1.0, 1.0, 0.0).normalized(), kTight));
  PlaneGeometry zero;
  zero.normal.setZero();
  EXPECT_FALSE(zero.is_valid());
}

TEST(Plane, GradientMatchesFiniteDifferences) {
  PlaneGeometry g;
  g.point_m = Eigen::Vector3d(0.2, -0.3, 0.1);
  g.normal = Eigen::Vector3d(-0.3, 0.5, 0.8);
  const Plane plane(g, ObstacleOptions{});
  std::mt19937 rng(1);
  for (int i = 0; i < 20; ++i) {
    const Eigen::Vector3d x =
        testing::random_point(rng, Eigen::Vector3d::Constant(-1), Eigen::Vector3d::Constant(1));
    const Eigen::Vector3d fd = testing::central_difference_gradient(
        [&](const Eigen::Vector3d& y) { return plane.value(y, 0.0); }, x);
    const Eigen::Vector3d grad = plane.gradient(x, 0.0);
    EXPECT_LT((grad - fd).norm(), kFd);
    EXPECT_NEAR(grad.norm(), 1.0, kTight);
  }
}

}  // namespace
}  // namespace clothfit::obstacles
