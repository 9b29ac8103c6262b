#include "core/obstacles/rigid_motion.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <numbers>
#include <random>

#include "finite_difference.hpp"

namespace clothfit::obstacles {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kTight = 1e-12;  // exact arithmetic up to rounding
constexpr double kFd = 1e-6;      // central differences with step 1e-6

// The paper's rotating sphere (§6.2): still until 1 s, half a turn about z in 1 s, then still.
RigidMotion half_turn_about_z(const Eigen::Vector3d& pivot) {
  RigidMotionOptions options;
  options.axis = Eigen::Vector3d::UnitZ();
  options.pivot_m = pivot;
  options.angle_keyframes = {{1.0, 0.0}, {2.0, kPi}};
  return RigidMotion(options);
}

// A general motion: tilted axis, three angle keyframes, translation keyframes.
RigidMotion general_motion() {
  RigidMotionOptions options;
  options.axis = Eigen::Vector3d(1.0, -2.0, 0.5);  // normalised by RigidMotion
  options.pivot_m = Eigen::Vector3d(0.3, -0.1, 0.7);
  options.angle_keyframes = {{0.0, 0.2}, {0.5, 1.1}, {1.5, -0.4}};
  options.offset_keyframes = {{0.2, Eigen::Vector3d(0.0, 0.0, 0.0)},
                              {1.0, Eigen::Vector3d(0.4, -0.2, 0.1)},
                              {2.0, Eigen::Vector3d(0.5, 0.3, -0.2)}};
  return RigidMotion(options);
}

TEST(RigidMotion, DefaultIsIdentity) {
  const RigidMotion motion;
  EXPECT_TRUE(motion.is_identity());
  const RigidPose pose = motion.pose(3.0);
  EXPECT_TRUE(pose.identity);
  const Eigen::Vector3d x(1.0, 2.0, 3.0);
  EXPECT_EQ(pose.to_rest(x), x);
  EXPECT_EQ(pose.to_world(x), x);
  EXPECT_EQ(pose.velocity(x), Eigen::Vector3d::Zero());
  EXPECT_EQ(motion.angle_rad(3.0), 0.0);
}

TEST(RigidMotion, AllZeroKeyframesAreIdentity) {
  RigidMotionOptions options;
  options.angle_keyframes = {{0.0, 0.0}, {1.0, 0.0}};
  options.offset_keyframes = {{0.0, Eigen::Vector3d::Zero()}};
  EXPECT_TRUE(RigidMotion(options).is_identity());
  options.angle_keyframes[1].angle_rad = 0.1;
  EXPECT_FALSE(RigidMotion(options).is_identity());
}

// Any finite nonzero rotation axis is valid and normalised, also one whose norm overflows or
// underflows.
TEST(RigidMotion, AxesOfAnyFiniteLengthAreNormalised) {
  for (const double z : {1e200, 1e-200, 5e-324}) {
    RigidMotionOptions options;
    options.axis = Eigen::Vector3d(0.0, 0.0, z);
    options.angle_keyframes = {{0.0, 0.0}, {1.0, kPi / 2}};
    EXPECT_TRUE(options.is_valid()) << z;
    const RigidMotion motion(options);
    EXPECT_EQ(motion.axis(), Eigen::Vector3d::UnitZ()) << z;
    EXPECT_TRUE(motion.pose(1.0)
                    .to_world(Eigen::Vector3d::UnitX())
                    .isApprox(Eigen::Vector3d::UnitY(), kTight))
        << z;
  }
}

TEST(RigidMotion, PiecewiseLinearAngleScheduleOfTheSphereScenario) {
  const RigidMotion motion = half_turn_about_z(Eigen::Vector3d::Zero());
  EXPECT_DOUBLE_EQ(motion.angle_rad(-1.0), 0.0);
  EXPECT_DOUBLE_EQ(motion.angle_rad(0.5), 0.0);
  EXPECT_DOUBLE_EQ(motion.angle_rad(1.0), 0.0);
  EXPECT_NEAR(motion.angle_rad(1.25), kPi / 4, kTight);
  EXPECT_NEAR(motion.angle_rad(1.5), kPi / 2, kTight);
  EXPECT_DOUBLE_EQ(motion.angle_rad(2.0), kPi);
  EXPECT_DOUBLE_EQ(motion.angle_rad(5.0), kPi);
  // Rates are left-continuous: the step ending at a keyframe sees the segment before it.
  EXPECT_EQ(motion.angular_speed_rad_s(0.5), 0.0);
  EXPECT_EQ(motion.angular_speed_rad_s(1.0), 0.0);
  EXPECT_NEAR(motion.angular_speed_rad_s(1.0 + 1e-6), kPi, kTight);
  EXPECT_NEAR(motion.angular_speed_rad_s(1.5), kPi, kTight);
  EXPECT_NEAR(motion.angular_speed_rad_s(2.0), kPi, kTight);
  EXPECT_EQ(motion.angular_speed_rad_s(2.0 + 1e-6), 0.0);
  // A step's end a rounding past a keyframe is on it: 100 and 200 steps of 0.01 s summed end at
  // 1.0000000000000007 and 2.0000000000000013; the segment after made the sphere start and stop
  // turning a step early.
  double t = 0.0;
  for (int n = 1; n <= 200; ++n) {
    t += 0.01;
    if (n == 100) {
      EXPECT_GT(t, 1.0);
      EXPECT_EQ(motion.angular_speed_rad_s(t), 0.0);
    }
  }
  EXPECT_GT(t, 2.0);
  EXPECT_NEAR(motion.angular_speed_rad_s(t), kPi, kTight);
  EXPECT_EQ(motion.angular_speed_rad_s(t + 0.01), 0.0);
}

TEST(RigidMotion, SingleKeyframeIsAConstantPose) {
  RigidMotionOptions options;
  options.angle_keyframes = {{1.0, kPi / 2}};
  options.offset_keyframes = {{3.0, Eigen::Vector3d(0.0, 0.0, 1.0)}};
  const RigidMotion motion(options);
  for (const double t : {0.0, 1.0, 2.0, 10.0}) {
    const RigidPose pose = motion.pose(t);
    // A quarter turn about z, then up by 1: (1, 0, 0) → (0, 1, 1).
    EXPECT_TRUE(pose.to_world(Eigen::Vector3d::UnitX()).isApprox(Eigen::Vector3d(0, 1, 1), 1e-12));
    EXPECT_EQ(pose.velocity(Eigen::Vector3d(0.3, 0.2, 0.1)), Eigen::Vector3d::Zero());
  }
}

TEST(RigidMotion, RotationTurnsAboutThePivot) {
  const Eigen::Vector3d pivot(1.0, 2.0, 0.35);
  const RigidMotion motion = half_turn_about_z(pivot);
  const RigidPose pose = motion.pose(2.0);  // half a turn
  EXPECT_TRUE(pose.to_world(pivot).isApprox(pivot, kTight));
  // A point 1 m along +x from the pivot ends 1 m along −x.
  EXPECT_TRUE(pose.to_world(pivot + Eigen::Vector3d::UnitX())
                  .isApprox(pivot - Eigen::Vector3d::UnitX(), kTight));
  // Points on the axis stay put.
  const Eigen::Vector3d on_axis = pivot + 0.7 * Eigen::Vector3d::UnitZ();
  EXPECT_TRUE(pose.to_world(on_axis).isApprox(on_axis, kTight));
}

TEST(RigidMotion, ToRestInvertsToWorld) {
  const RigidMotion motion = general_motion();
  std::mt19937 rng(7);
  for (int i = 0; i < 50; ++i) {
    const double t = std::uniform_real_distribution<double>(-0.5, 2.5)(rng);
    const RigidPose pose = motion.pose(t);
    const Eigen::Vector3d x =
        testing::random_point(rng, Eigen::Vector3d::Constant(-2), Eigen::Vector3d::Constant(2));
    EXPECT_LT((pose.to_world(pose.to_rest(x)) - x).norm(), kTight);
    EXPECT_LT((pose.rotation.transpose() * pose.rotation - Eigen::Matrix3d::Identity()).norm(),
              kTight);
    EXPECT_NEAR(pose.rotation.determinant(), 1.0, kTight);
  }
}

TEST(RigidMotion, VelocityIsTheTimeDerivativeOfAttachedPoints) {
  // Inside every segment the attached point x(t) = c(t) + R(t)(X − p) is smooth; its central
  // difference must equal ω × (x − c) + ḋ.
  const RigidMotion motion = general_motion();
  std::mt19937 rng(11);
  const double dt = 1e-6;
  for (const double t : {0.1, 0.3, 0.7, 1.2, 1.7, 2.5}) {
    const RigidPose pose = motion.pose(t);
    for (int i = 0; i < 10; ++i) {
      const Eigen::Vector3d X =
          testing::random_point(rng, Eigen::Vector3d::Constant(-1), Eigen::Vector3d::Constant(1));
      const Eigen::Vector3d fd =
          (motion.pose(t + dt).to_world(X) - motion.pose(t - dt).to_world(X)) / (2 * dt);
      EXPECT_LT((pose.velocity(pose.to_world(X)) - fd).norm(), kFd) << "t = " << t;
    }
  }
}

TEST(RigidMotion, OffsetScheduleAndRate) {
  const RigidMotion motion = general_motion();
  EXPECT_TRUE(motion.offset_m(0.0).isZero(0.0));
  EXPECT_TRUE(motion.offset_m(0.6).isApprox(Eigen::Vector3d(0.2, -0.1, 0.05), kTight));
  EXPECT_TRUE(motion.offset_m(7.0).isApprox(Eigen::Vector3d(0.5, 0.3, -0.2), kTight));
  EXPECT_TRUE(motion.offset_velocity_m_s(0.6).isApprox(Eigen::Vector3d(0.5, -0.25, 0.125), kTight));
  EXPECT_TRUE(motion.offset_velocity_m_s(1.0).isApprox(Eigen::Vector3d(0.5, -0.25, 0.125), kTight));
  EXPECT_TRUE(motion.offset_velocity_m_s(2.0).isApprox(Eigen::Vector3d(0.1, 0.5, -0.3), kTight));
  EXPECT_TRUE(motion.offset_velocity_m_s(2.5).isZero(0.0));
}

// The rest-frame speed bound (conservative advancement steps by it): along linear world paths
// over steps that straddle keyframes, the rest-frame speed |dX/dt| by central differences never
// exceeds it; for a point at rest beside a turning body it is exact, ω r, and for a static body
// it is the world speed.
TEST(RigidMotion, RestSpeedBoundHoldsAlongLinearPaths) {
  const RigidMotion motion = general_motion();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> time(-0.2, 2.2), length(1e-3, 0.6);
  const double dt = 1e-7;
  for (int path = 0; path < 200; ++path) {
    const double t0 = time(rng), t1 = t0 + length(rng);
    const Eigen::Vector3d x0 =
        testing::random_point(rng, Eigen::Vector3d::Constant(-1), Eigen::Vector3d::Constant(1));
    const Eigen::Vector3d x1 =
        testing::random_point(rng, Eigen::Vector3d::Constant(-1), Eigen::Vector3d::Constant(1));
    const double bound = motion.rest_speed_bound(x0, x1, t0, t1);
    const auto rest = [&](double t) {
      const double s = (t - t0) / (t1 - t0);
      return motion.pose(t).to_rest((1.0 - s) * x0 + s * x1);
    };
    double fastest = 0.0;
    for (int i = 0; i <= 400; ++i) {
      const double t = std::clamp(t0 + (t1 - t0) * i / 400.0, t0 + dt, t1 - dt);
      fastest = std::max(fastest, (rest(t + dt) - rest(t - dt)).norm() / (2 * dt));
    }
    EXPECT_LE(fastest, bound * (1.0 + 1e-6)) << "path " << path << ": [" << t0 << ", " << t1 << "]";
  }
  // A point at rest 0.4 m from the axis of a body turning at π rad/s: ω r.
  const RigidMotion turning = half_turn_about_z(Eigen::Vector3d(1.0, 0.0, 0.0));
  const Eigen::Vector3d x(1.4, 0.0, 0.0);
  EXPECT_NEAR(turning.rest_speed_bound(x, x, 1.2, 1.21), kPi * 0.4, kTight);
  EXPECT_NEAR(turning.rest_speed_bound(x, x, 0.2, 0.21), 0.0, kTight);  // still before 1 s
  EXPECT_NEAR(turning.rest_speed_bound(x, x + Eigen::Vector3d(0.03, 0.04, 0.0), 0.2, 0.21), 5.0,
              kTight);
  EXPECT_NEAR(RigidMotion().rest_speed_bound(x, x + Eigen::Vector3d(0.0, 0.0, 0.01), 0.0, 0.01),
              1.0, kTight);
}

TEST(RigidMotionOptions, ValidationNamesTheProblem) {
  std::string why;
  RigidMotionOptions options;
  EXPECT_TRUE(options.is_valid(&why));
  options.axis = Eigen::Vector3d::Zero();
  EXPECT_FALSE(options.is_valid(&why));
  EXPECT_NE(why.find("axis"), std::string::npos);
  options.axis = Eigen::Vector3d::UnitZ();
  options.angle_keyframes = {{1.0, 0.0}, {1.0, 1.0}};
  EXPECT_FALSE(options.is_valid(&why));
  EXPECT_NE(why.find("increasing"), std::string::npos);
  options.angle_keyframes = {{1.0, 0.0}};
  options.offset_keyframes = {{2.0, Eigen::Vector3d::Zero()}, {1.0, Eigen::Vector3d::Zero()}};
  EXPECT_FALSE(options.is_valid(&why));
}

}  // namespace
}  // namespace clothfit::obstacles
