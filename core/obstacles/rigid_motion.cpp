#include "core/obstacles/rigid_motion.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cassert>
#include <cmath>

#include "core/obstacles/unit_vector.hpp"

namespace clothfit::obstacles {

namespace {

// How far from a keyframe time a step's end may be and still count as on it, for the rates: the
// stepper sums its time steps and decimal times are not exact in binary (50 steps of 0.01 s end
// at 0.5000000000000002), so the step ending "at" a keyframe took the segment after it and a
// moving obstacle's friction started and stopped a step early. 1e-9 s per second
// is far above the sums' rounding and far below a time step (at most 10⁸ steps per run).
double keyframe_tolerance(double t) {
  return 1e-9 * std::max(1.0, std::abs(t));
}

// Index i of the segment [t_i, t_{i+1}] holding t for interpolation, or -1 before the first and
// n-1 after the last keyframe. `left` picks the segment that ends at t when t is a keyframe time
// (to keyframe_tolerance).
template <typename Keyframe>
int segment_of(const std::vector<Keyframe>& keys, double t, bool left) {
  const int n = static_cast<int>(keys.size());
  if (left)
    t -= keyframe_tolerance(t);  // a keyframe a rounding after t still ends t's segment
  if (left ? t <= keys.front().time_s : t < keys.front().time_s)
    return -1;
  if (left ? t > keys.back().time_s : t >= keys.back().time_s)
    return n - 1;
  int lo = 0, hi = n - 1;  // keys[lo].time ≤ t < keys[hi].time (or < for left)
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    const bool before = left ? keys[mid].time_s < t : keys[mid].time_s <= t;
    (before ? lo : hi) = mid;
  }
  return lo;
}

template <typename Keyframe, typename Get>
auto interpolate(const std::vector<Keyframe>& keys, double t, Get get) {
  const int i = segment_of(keys, t, /*left=*/false);
  if (i < 0)
    return get(keys.front());
  if (i >= static_cast<int>(keys.size()) - 1)
    return get(keys.back());
  const double s = (t - keys[i].time_s) / (keys[i + 1].time_s - keys[i].time_s);
  return decltype(get(keys[i]))((1.0 - s) * get(keys[i]) + s * get(keys[i + 1]));
}

template <typename Keyframe, typename Get>
auto rate(const std::vector<Keyframe>& keys, double t, Get get) {
  using Value = decltype(get(keys.front()));
  const int i = segment_of(keys, t, /*left=*/true);
  if (i < 0 || i >= static_cast<int>(keys.size()) - 1)
    return Value(0.0 * get(keys.front()));
  return Value((get(keys[i + 1]) - get(keys[i])) / (keys[i + 1].time_s - keys[i].time_s));
}

template <typename Keyframe>
bool times_increasing(const std::vector<Keyframe>& keys, const char* what, std::string* why) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!std::isfinite(keys[i].time_s)) {
      if (why)
        *why = std::string(what) + " keyframe " + std::to_string(i) + " has a non-finite time";
      return false;
    }
    if (i > 0 && !(keys[i].time_s > keys[i - 1].time_s)) {
      if (why)
        *why = std::string(what) + " keyframe times must be strictly increasing";
      return false;
    }
  }
  return true;
}

}  // namespace

bool RigidMotionOptions::is_valid(std::string* why) const {
  if (!axis.allFinite() || axis.isZero(0.0)) {
    if (why)
      *why = "the rotation axis must be a finite nonzero vector";
    return false;
  }
  if (!pivot_m.allFinite()) {
    if (why)
      *why = "the pivot must be finite";
    return false;
  }
  for (const AngleKeyframe& k : angle_keyframes) {
    if (!std::isfinite(k.angle_rad)) {
      if (why)
        *why = "angle keyframes must be finite";
      return false;
    }
  }
  for (const OffsetKeyframe& k : offset_keyframes) {
    if (!k.offset_m.allFinite()) {
      if (why)
        *why = "offset keyframes must be finite";
      return false;
    }
  }
  return times_increasing(angle_keyframes, "angle", why) &&
         times_increasing(offset_keyframes, "offset", why);
}

RigidMotion::RigidMotion(RigidMotionOptions options) : m_options(std::move(options)) {
  assert(m_options.is_valid());
  m_options.axis = unit_vector(m_options.axis);  // any finite length (unit_vector.hpp)
  m_identity = true;
  for (const AngleKeyframe& k : m_options.angle_keyframes)
    m_identity &= k.angle_rad == 0.0;
  for (const OffsetKeyframe& k : m_options.offset_keyframes)
    m_identity &= k.offset_m.isZero(0.0);
}

double RigidMotion::angle_rad(double t_s) const {
  if (m_options.angle_keyframes.empty())
    return 0.0;
  return interpolate(m_options.angle_keyframes, t_s,
                     [](const AngleKeyframe& k) { return k.angle_rad; });
}

double RigidMotion::angular_speed_rad_s(double t_s) const {
  if (m_options.angle_keyframes.empty())
    return 0.0;
  return rate(m_options.angle_keyframes, t_s, [](const AngleKeyframe& k) { return k.angle_rad; });
}

Eigen::Vector3d RigidMotion::offset_m(double t_s) const {
  if (m_options.offset_keyframes.empty())
    return Eigen::Vector3d::Zero();
  return interpolate(m_options.offset_keyframes, t_s,
                     [](const OffsetKeyframe& k) -> Eigen::Vector3d { return k.offset_m; });
}

Eigen::Vector3d RigidMotion::offset_velocity_m_s(double t_s) const {
  if (m_options.offset_keyframes.empty())
    return Eigen::Vector3d::Zero();
  return rate(m_options.offset_keyframes, t_s,
              [](const OffsetKeyframe& k) -> Eigen::Vector3d { return k.offset_m; });
}

RigidPose RigidMotion::pose(double t_s) const {
  RigidPose pose;
  if (m_identity)
    return pose;
  pose.identity = false;
  pose.rotation = Eigen::AngleAxisd(angle_rad(t_s), m_options.axis).toRotationMatrix();
  pose.pivot_rest_m = m_options.pivot_m;
  pose.pivot_world_m = m_options.pivot_m + offset_m(t_s);
  pose.angular_velocity = angular_speed_rad_s(t_s) * m_options.axis;
  pose.linear_velocity_m_s = offset_velocity_m_s(t_s);
  return pose;
}

double RigidMotion::rest_speed_bound(const Eigen::Vector3d& x0_m, const Eigen::Vector3d& x1_m,
                                     double t0_s, double t1_s) const {
  assert(t1_s > t0_s);
  const double world_speed = (x1_m - x0_m).norm() / (t1_s - t0_s);
  if (m_identity)
    return world_speed;
  // The pieces' ends: t0, the keyframe times strictly inside, t1.
  std::vector<double> ends{t0_s, t1_s};
  for (const AngleKeyframe& k : m_options.angle_keyframes)
    if (k.time_s > t0_s && k.time_s < t1_s)
      ends.push_back(k.time_s);
  for (const OffsetKeyframe& k : m_options.offset_keyframes)
    if (k.time_s > t0_s && k.time_s < t1_s)
      ends.push_back(k.time_s);
  std::sort(ends.begin(), ends.end());
  const auto lever = [&](double t) {  // |x(t) − c(t)|
    const double s = (t - t0_s) / (t1_s - t0_s);
    return ((1.0 - s) * x0_m + s * x1_m - m_options.pivot_m - offset_m(t)).norm();
  };
  double bound = world_speed;
  for (std::size_t i = 0; i + 1 < ends.size(); ++i) {
    if (!(ends[i + 1] > ends[i]))
      continue;
    const double mid = 0.5 * (ends[i] + ends[i + 1]);  // inside the piece: its rates
    bound = std::max(bound, world_speed + offset_velocity_m_s(mid).norm() +
                                std::abs(angular_speed_rad_s(mid)) *
                                    std::max(lever(ends[i]), lever(ends[i + 1])));
  }
  return bound;
}

}  // namespace clothfit::obstacles
