// RigidMotion: the prescribed motion of an obstacle, a rotation about a fixed axis through a pivot
// with a piecewise-linear angle schedule θ(t), plus a piecewise-linear translation d(t).
//
// Glossary (used by every obstacle):
//   rest frame  the world frame at the identity pose; an obstacle's geometry fields (sphere centre,
//               table top centre, ...) are given there. For a static obstacle rest = world.
//   X           a point in the rest frame (m);  x  the same material point in the world at time t.
//   a, p        unit rotation axis and pivot (a point on the axis), both in the rest/world frame.
//   θ(t), d(t)  angle turned (rad, right-handed about a) and translation offset (m) at time t.
//   c(t)        = p + d(t), where the pivot is at time t.
//
//   x = c(t) + R(t) (X − p),        R(t) = rotation by θ(t) about a
//   X = p + R(t)ᵀ (x − c(t))
//   ẋ = ω(t) × (x − c(t)) + ḋ(t),   ω(t) = θ̇(t) a
//
// Keyframe schedules are linear between keyframes and held constant before the first and after
// the last one. Rates (θ̇, ḋ) are left-continuous: at a keyframe time t_i they are the rate of the
// segment that ends at t_i, so a time step (t_n, t_{n+1}] evaluated at t_{n+1} sees the motion of
// that step when keyframes fall on step boundaries. Example (sphere scenario of the paper, §6.2):
// still until 1 s, half a turn about z during 1 s, still afterwards:
//   angle_keyframes = {{1.0, 0.0}, {2.0, π}}.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <string>
#include <vector>

namespace clothfit::obstacles {

struct AngleKeyframe {
  double time_s = 0.0;
  double angle_rad = 0.0;  // θ at time_s, right-handed about the axis
};

struct OffsetKeyframe {
  double time_s = 0.0;
  Eigen::Vector3d offset_m = Eigen::Vector3d::Zero();  // d at time_s (world), metres
};

struct RigidMotionOptions {
  // Rotation axis direction (world); any nonzero length, normalised by RigidMotion.
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
  // A point on the rotation axis at rest (world), metres.
  Eigen::Vector3d pivot_m = Eigen::Vector3d::Zero();
  // θ(t) keyframes, strictly increasing times. Empty: no rotation (θ ≡ 0).
  std::vector<AngleKeyframe> angle_keyframes;
  // d(t) keyframes, strictly increasing times. Empty: no translation (d ≡ 0).
  std::vector<OffsetKeyframe> offset_keyframes;

  // True when usable: finite values, nonzero axis, strictly increasing keyframe times. Otherwise
  // false and, when `why` is given, the reason.
  bool is_valid(std::string* why = nullptr) const;
};

// The placement of a moving body at one time t.
struct RigidPose {
  bool identity = true;                                           // R = I, d = 0, ω = 0, ḋ = 0
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();         // R(t)
  Eigen::Vector3d pivot_rest_m = Eigen::Vector3d::Zero();         // p
  Eigen::Vector3d pivot_world_m = Eigen::Vector3d::Zero();        // c(t) = p + d(t)
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();     // ω(t), rad/s (world)
  Eigen::Vector3d linear_velocity_m_s = Eigen::Vector3d::Zero();  // ḋ(t), m/s (world)

  // X = p + Rᵀ (x − c).
  Eigen::Vector3d to_rest(const Eigen::Vector3d& x_world_m) const {
    if (identity)
      return x_world_m;
    return pivot_rest_m + rotation.transpose() * (x_world_m - pivot_world_m);
  }
  // x = c + R (X − p).
  Eigen::Vector3d to_world(const Eigen::Vector3d& x_rest_m) const {
    if (identity)
      return x_rest_m;
    return pivot_world_m + rotation * (x_rest_m - pivot_rest_m);
  }
  // A rest-frame direction (e.g. a gradient) expressed in the world: R v.
  Eigen::Vector3d direction_to_world(const Eigen::Vector3d& v_rest) const {
    if (identity)
      return v_rest;
    return rotation * v_rest;
  }
  // Velocity (m/s) of the body's material point that is at x_world_m: ω × (x − c) + ḋ.
  Eigen::Vector3d velocity(const Eigen::Vector3d& x_world_m) const {
    if (identity)
      return Eigen::Vector3d::Zero();
    return angular_velocity.cross(x_world_m - pivot_world_m) + linear_velocity_m_s;
  }
};

class RigidMotion {
 public:
  // The identity motion: a static obstacle.
  RigidMotion() = default;
  // Asserts options.is_valid().
  explicit RigidMotion(RigidMotionOptions options);

  // True when the pose is the identity at every time (no keyframes, or all of them zero).
  bool is_identity() const { return m_identity; }
  const RigidMotionOptions& options() const { return m_options; }
  // Unit rotation axis a.
  const Eigen::Vector3d& axis() const { return m_options.axis; }

  // θ(t), rad: the angle turned at time t (for reports).
  double angle_rad(double t_s) const;
  // θ̇(t), rad/s, left-continuous.
  double angular_speed_rad_s(double t_s) const;
  // d(t), m.
  Eigen::Vector3d offset_m(double t_s) const;
  // ḋ(t), m/s, left-continuous.
  Eigen::Vector3d offset_velocity_m_s(double t_s) const;
  // Everything above at once, with R(t).
  RigidPose pose(double t_s) const;
  // An upper bound (m/s) on the rest-frame speed |dX/dt| over [t0, t1] (t1 > t0) of a point that
  // moves linearly in the world from x0 at t0 to x1 at t1. From dX/dt = Rᵀ(ẋ − ḋ) + Ṙᵀ(x − c):
  // |ẋ| + |ḋ| + |θ̇| |x − c|, the largest over the pieces of [t0, t1] between keyframes, on each
  // of which the rates are constant and |x − c| (x − c is linear there) is largest at an end.
  // The rest-frame path of such a point moves at most this far per second: conservative
  // advancement on a signed distance (ContactSet) steps by h / bound.
  double rest_speed_bound(const Eigen::Vector3d& x0_m, const Eigen::Vector3d& x1_m, double t0_s,
                          double t1_s) const;

 private:
  RigidMotionOptions m_options;
  bool m_identity = true;
};

}  // namespace clothfit::obstacles
