#include "core/obstacles/sphere.hpp"

#include <gtest/gtest.h>

#include <random>

#include "finite_difference.hpp"

namespace clothfit::obstacles {
namespace {

constexpr double kTight = 1e-12;
constexpr double kFd = 1e-6;

Sphere make_sphere() {
  return Sphere(SphereGeometry{Eigen::Vector3d(0.1, -0.2, 0.35), 0.35}, ObstacleOptions{});
}

TEST(Sphere, ValuesAtHandComputedPoints) {
  const Sphere s = make_sphere();
  const Eigen::Vector3d c(0.1, -0.2, 0.35);
  EXPECT_NEAR(s.value(c + Eigen::Vector3d(0, 0, 0.35), 0.0), 0.0, kTight);        // top
  EXPECT_NEAR(s.value(c + Eigen::Vector3d(0.3, 0.4, 0.0), 0.0), 0.15, kTight);    // 0.5 away
  EXPECT_NEAR(s.value(c + Eigen::Vector3d(0.0, -0.1, 0.0), 0.0), -0.25, kTight);  // inside
  EXPECT_TRUE(s.gradient(c + Eigen::Vector3d(0.3, 0.4, 0.0), 0.0)
                  .isApprox(Eigen::Vector3d(0.6, 0.8, 0.0), kTight));
  EXPECT_TRUE(s.closest_surface_point(c + Eigen::Vector3d(0.3, 0.4, 0.0), 0.0)
                  .isApprox(c + Eigen::Vector3d(0.21, 0.28, 0.0), kTight));
}

TEST(Sphere, CentreHasANonzeroGradient) {
  const Sphere s = make_sphere();
  const ValueAndGradient vg = s.evaluate(Eigen::Vector3d(0.1, -0.2, 0.35), 0.0);
  EXPECT_DOUBLE_EQ(vg.value, -0.35);
  EXPECT_EQ(vg.gradient, Eigen::Vector3d::UnitZ());
}

TEST(Sphere, GradientMatchesFiniteDifferencesAndIsUnit) {
  const Sphere s = make_sphere();
  std::mt19937 rng(2);
  for (int i = 0; i < 200; ++i) {
    const Eigen::Vector3d x = testing::random_point(rng, Eigen::Vector3d(-0.6, -0.9, -0.4),
                                                    Eigen::Vector3d(0.8, 0.5, 1.1));
    if ((x - s.geometry().centre_m).norm() < 1e-3)
      continue;  // the kink at the centre
    const Eigen::Vector3d fd = testing::central_difference_gradient(
        [&](const Eigen::Vector3d& y) { return s.value(y, 0.0); }, x);
    const Eigen::Vector3d grad = s.gradient(x, 0.0);
    EXPECT_LT((grad - fd).norm(), kFd) << x.transpose();
    EXPECT_NEAR(grad.norm(), 1.0, kTight);
  }
}

}  // namespace
}  // namespace clothfit::obstacles
