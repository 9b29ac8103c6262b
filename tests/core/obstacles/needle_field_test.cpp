#include "core/obstacles/needle_field.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "finite_difference.hpp"

namespace clothfit::obstacles {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kTight = 1e-12;
constexpr double kFd = 1e-6;

NeedleFieldGeometry shifted_geometry() {
  NeedleFieldGeometry g;  // the paper's c1 = 20, c2 = 0.075
  g.origin_m = Eigen::Vector3d(0.013, -0.021, 0.1);
  return g;
}

// Paper eq. 14 written out: c1 c2 z − sin(c1 x) sin(c1 y), about the origin.
double paper_h(const NeedleFieldGeometry& g, const Eigen::Vector3d& x) {
  const Eigen::Vector3d q = x - g.origin_m;
  return g.c1_per_m * g.c2 * q.z() - std::sin(g.c1_per_m * q.x()) * std::sin(g.c1_per_m * q.y());
}

TEST(NeedleField, DefaultsAreThePapers) {
  const NeedleFieldGeometry g;
  EXPECT_EQ(g.c1_per_m, 20.0);
  EXPECT_EQ(g.c2, 0.075);
  EXPECT_NEAR(g.peak_height_m(), 1.0 / 1.5, kTight);
}

TEST(NeedleField, ValueIsEquation14DividedByC1C2) {
  const NeedleFieldGeometry g = shifted_geometry();
  const NeedleField field(g, ObstacleOptions{});
  EXPECT_EQ(field.type(), "needles");
  EXPECT_FALSE(field.is_signed_distance());
  // Hand-computed: on the base plane at the origin, 0.2 m above it, and above the first peak.
  EXPECT_NEAR(field.value(g.origin_m, 0.0), 0.0, kTight);
  EXPECT_NEAR(field.value(g.origin_m + Eigen::Vector3d(0, 0, 0.2), 0.0), 0.2, kTight);
  const Eigen::Vector3d peak = g.origin_m + Eigen::Vector3d(kPi / 40, kPi / 40, 1.0 / 1.5);
  EXPECT_NEAR(field.value(peak + Eigen::Vector3d(0, 0, 0.05), 0.0), 0.05, kTight);
  std::mt19937 rng(9);
  for (int i = 0; i < 100; ++i) {
    const Eigen::Vector3d x =
        testing::random_point(rng, Eigen::Vector3d(-1, -1, -1), Eigen::Vector3d(1, 1, 1));
    EXPECT_NEAR(field.value(x, 0.0) * g.c1_per_m * g.c2, paper_h(g, x), kTight);
  }
}

TEST(NeedleField, GradientMatchesFiniteDifferences) {
  const NeedleField field(shifted_geometry(), ObstacleOptions{});
  std::mt19937 rng(10);
  for (int i = 0; i < 200; ++i) {
    const Eigen::Vector3d x =
        testing::random_point(rng, Eigen::Vector3d(-0.5, -0.5, -1), Eigen::Vector3d(0.5, 0.5, 1));
    const Eigen::Vector3d fd = testing::central_difference_gradient(
        [&](const Eigen::Vector3d& y) { return field.value(y, 0.0); }, x);
    const Eigen::Vector3d grad = field.gradient(x, 0.0);
    EXPECT_LT((grad - fd).norm(), kFd) << x.transpose();
    EXPECT_EQ(grad.z(), 1.0);  // never zero
  }
}

TEST(NeedleField, SurfacePointIsStraightBelow) {
  const NeedleField field(shifted_geometry(), ObstacleOptions{});
  const Eigen::Vector3d x(0.2, 0.3, 0.9);
  const Eigen::Vector3d s = field.closest_surface_point(x, 0.0);
  EXPECT_EQ(s.x(), x.x());
  EXPECT_EQ(s.y(), x.y());
  EXPECT_NEAR(field.value(s, 0.0), 0.0, kTight);
}

TEST(NeedleField, PeaksFollowEquation15) {
  const NeedleFieldGeometry g = shifted_geometry();
  const NeedleField field(g, ObstacleOptions{});
  const Eigen::AlignedBox2d rectangle(Eigen::Vector2d(-0.37, -0.52), Eigen::Vector2d(0.61, 0.28));
  const std::vector<Eigen::Vector3d> peaks = field.peaks(rectangle, 0.0);
  // Brute force over eq. 15: x, y = (2π m ± π/2)/c1 with the same sign, z = 1/(c1 c2).
  std::size_t expected = 0;
  for (const double s : {1.0, -1.0}) {
    for (int m = -10; m <= 10; ++m) {
      for (int n = -10; n <= 10; ++n) {
        const double x = g.origin_m.x() + (2 * kPi * m + s * kPi / 2) / g.c1_per_m;
        const double y = g.origin_m.y() + (2 * kPi * n + s * kPi / 2) / g.c1_per_m;
        if (rectangle.contains(Eigen::Vector2d(x, y)))
          ++expected;
      }
    }
  }
  EXPECT_EQ(peaks.size(), expected);
  EXPECT_GT(expected, 10u);
  for (const Eigen::Vector3d& p : peaks) {
    EXPECT_TRUE(rectangle.contains(Eigen::Vector2d(p.x(), p.y())));
    const Eigen::Vector3d q = p - g.origin_m;
    const double sx = std::sin(g.c1_per_m * q.x()), sy = std::sin(g.c1_per_m * q.y());
    EXPECT_NEAR(std::abs(sx), 1.0, kTight);
    EXPECT_NEAR(sx, sy, kTight);  // the two ± of eq. 15 go together
    EXPECT_NEAR(q.z(), 1.0 / (g.c1_per_m * g.c2), kTight);
    // The relation the paper gives: h(peak) = c1 c2 · 1/(c1 c2) − 1 = 0.
    EXPECT_NEAR(paper_h(g, p), 0.0, kTight);
    EXPECT_NEAR(field.value(p, 0.0), 0.0, kTight);
    // A maximum of the surface: horizontal tangent plane, surface lower all around.
    EXPECT_LT(field.gradient(p, 0.0).head<2>().norm(), 1e-10);
    for (int k = 0; k < 8; ++k) {
      const double a = kPi * k / 4;
      const Eigen::Vector3d beside = p + 0.01 * Eigen::Vector3d(std::cos(a), std::sin(a), 0);
      EXPECT_GT(field.value(beside, 0.0), 0.0);  // p is above the surface next to the peak
    }
  }
  // Ordered by y, then x.
  for (std::size_t i = 1; i < peaks.size(); ++i) {
    EXPECT_TRUE(peaks[i - 1].y() < peaks[i].y() ||
                (peaks[i - 1].y() == peaks[i].y() && peaks[i - 1].x() < peaks[i].x()));
  }
}

TEST(NeedleField, MixedSignsOfEquation15AreThePitsNotPeaks) {
  const NeedleFieldGeometry g;
  const NeedleField field(g, ObstacleOptions{});
  const double x = (kPi / 2) / g.c1_per_m, y = (-kPi / 2) / g.c1_per_m;
  // The surface there is at −1/(c1 c2): a point at +1/(c1 c2) is far above it.
  EXPECT_NEAR(field.value(Eigen::Vector3d(x, y, -g.peak_height_m()), 0.0), 0.0, kTight);
  const std::vector<Eigen::Vector3d> peaks = field.peaks(
      Eigen::AlignedBox2d(Eigen::Vector2d(x - 1e-3, y - 1e-3), Eigen::Vector2d(x + 1e-3, y + 1e-3)),
      0.0);
  EXPECT_TRUE(peaks.empty());
}

TEST(NeedleField, PeaksOnTheRectangleBorderAreIncluded) {
  const NeedleFieldGeometry g;  // origin 0
  const NeedleField field(g, ObstacleOptions{});
  const double first = (kPi / 2) / g.c1_per_m;             // s = +1, m = 0
  const double second = (2 * kPi + kPi / 2) / g.c1_per_m;  // s = +1, m = 1
  const Eigen::AlignedBox2d rectangle(Eigen::Vector2d(first, first),
                                      Eigen::Vector2d(second, first));
  const std::vector<Eigen::Vector3d> peaks = field.peaks(rectangle, 0.0);
  // (first, first), (second, first); the s = −1 peak at x = (2π − π/2)/c1 has y outside.
  ASSERT_EQ(peaks.size(), 2u);
  EXPECT_EQ(peaks[0].x(), first);
  EXPECT_EQ(peaks[1].x(), second);
  EXPECT_TRUE(field.peaks(Eigen::AlignedBox2d(), 0.0).empty());  // an empty rectangle
}

TEST(NeedleField, PeaksInAWorldBoxFollowAMovingField) {
  RigidMotionOptions motion;
  motion.axis = Eigen::Vector3d(0.1, 0.2, 1.0);
  motion.pivot_m = Eigen::Vector3d(0.05, 0.0, 0.0);
  motion.angle_keyframes = {{0.0, 0.0}, {1.0, 0.7}};
  motion.offset_keyframes = {{0.0, Eigen::Vector3d::Zero()}, {1.0, Eigen::Vector3d(0.1, 0, 0.2)}};
  ObstacleOptions options;
  options.motion = RigidMotion(motion);
  const NeedleFieldGeometry g = shifted_geometry();
  const NeedleField field(g, options);
  const double t = 0.6;
  const RigidPose pose = field.motion().pose(t);
  const Eigen::AlignedBox3d box(Eigen::Vector3d(-0.5, -0.4, -1.0), Eigen::Vector3d(0.6, 0.7, 2.0));
  const std::vector<Eigen::Vector3d> peaks = field.peaks_in_box(box, t);
  // Brute force: every rest peak of a big rectangle mapped to the world, kept if in the box.
  std::size_t expected = 0;
  for (const Eigen::Vector3d& p :
       field.peaks_rest(Eigen::AlignedBox2d(Eigen::Vector2d(-3, -3), Eigen::Vector2d(3, 3)))) {
    if (box.contains(pose.to_world(p)))
      ++expected;
  }
  EXPECT_EQ(peaks.size(), expected);
  EXPECT_GT(expected, 10u);
  for (const Eigen::Vector3d& p : peaks) {
    EXPECT_TRUE(box.contains(p));
    EXPECT_NEAR(field.value(p, t), 0.0, kTight);
    // At a peak ∇h (world) is the body's up direction R ẑ.
    EXPECT_LT((field.gradient(p, t) - pose.rotation * Eigen::Vector3d::UnitZ()).norm(), 1e-10);
  }
}

}  // namespace
}  // namespace clothfit::obstacles
