#include "core/obstacles/needle_field.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

namespace clothfit::obstacles {

bool NeedleFieldGeometry::is_valid(std::string* why) const {
  if (!origin_m.allFinite() || !std::isfinite(c1_per_m) || !(c1_per_m > 0.0) ||
      !std::isfinite(c2) || !(c2 > 0.0)) {
    if (why)
      *why = "the needle field needs a finite origin and finite c1 > 0, c2 > 0";
    return false;
  }
  return true;
}

NeedleField::NeedleField(NeedleFieldGeometry geometry, ObstacleOptions options)
    : Obstacle(std::move(options)), m_geometry(std::move(geometry)) {
  assert(m_geometry.is_valid());
}

ValueAndGradient NeedleField::evaluate_rest(const Eigen::Vector3d& x_rest_m) const {
  const double c1 = m_geometry.c1_per_m;
  const Eigen::Vector3d q = x_rest_m - m_geometry.origin_m;
  const double sx = std::sin(c1 * q.x()), cx = std::cos(c1 * q.x());
  const double sy = std::sin(c1 * q.y()), cy = std::cos(c1 * q.y());
  const double scale = 1.0 / (c1 * m_geometry.c2);
  // ∂/∂x of sin(c1 x) sin(c1 y)/(c1 c2) is cos(c1 x) sin(c1 y)/c2.
  return {q.z() - sx * sy * scale,
          Eigen::Vector3d(-cx * sy / m_geometry.c2, -sx * cy / m_geometry.c2, 1.0)};
}

Eigen::Vector3d NeedleField::surface_point_rest(const Eigen::Vector3d& x_rest_m) const {
  return x_rest_m - evaluate_rest(x_rest_m).value * Eigen::Vector3d::UnitZ();
}

std::vector<Eigen::Vector3d> NeedleField::peaks_rest(const Eigen::AlignedBox2d& rest_xy_m) const {
  std::vector<Eigen::Vector3d> out;
  if (rest_xy_m.isEmpty())
    return out;
  const double c1 = m_geometry.c1_per_m;
  const double two_pi = 2.0 * std::numbers::pi;
  const Eigen::Vector3d& o = m_geometry.origin_m;
  const double z = o.z() + m_geometry.peak_height_m();
  // Coordinates o + (2π m + s π/2)/c1 inside [lo, hi]: the integer range of m, widened by one and
  // then filtered on the computed coordinate, so that rounding never drops a peak on the border.
  const auto coordinates = [&](double origin, double lo, double hi, double s) {
    std::vector<double> values;
    const double phase = s * 0.5 * std::numbers::pi;
    const double m_lo = std::ceil((c1 * (lo - origin) - phase) / two_pi) - 1.0;
    const double m_hi = std::floor((c1 * (hi - origin) - phase) / two_pi) + 1.0;
    for (double m = m_lo; m <= m_hi; m += 1.0) {
      const double v = origin + (two_pi * m + phase) / c1;
      if (v >= lo && v <= hi)
        values.push_back(v);
    }
    return values;
  };
  for (const double s : {1.0, -1.0}) {
    const std::vector<double> xs = coordinates(o.x(), rest_xy_m.min().x(), rest_xy_m.max().x(), s);
    const std::vector<double> ys = coordinates(o.y(), rest_xy_m.min().y(), rest_xy_m.max().y(), s);
    for (const double y : ys) {
      for (const double x : xs)
        out.emplace_back(x, y, z);
    }
  }
  std::sort(out.begin(), out.end(), [](const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    return a.y() < b.y() || (a.y() == b.y() && a.x() < b.x());
  });
  return out;
}

std::vector<Eigen::Vector3d> NeedleField::peaks(const Eigen::AlignedBox2d& rest_xy_m,
                                                double t_s) const {
  std::vector<Eigen::Vector3d> out = peaks_rest(rest_xy_m);
  if (!is_static()) {
    const RigidPose pose = motion().pose(t_s);
    for (Eigen::Vector3d& p : out)
      p = pose.to_world(p);
  }
  return out;
}

std::vector<Eigen::Vector3d> NeedleField::peaks_in_box(const Eigen::AlignedBox3d& world_box_m,
                                                       double t_s) const {
  std::vector<Eigen::Vector3d> out;
  if (world_box_m.isEmpty())
    return out;
  const RigidPose pose = motion().pose(t_s);
  // The rest-frame xy rectangle holding the box's eight corners holds every candidate.
  Eigen::AlignedBox2d rest_xy;
  for (int i = 0; i < 8; ++i) {
    const Eigen::Vector3d corner =
        pose.to_rest(world_box_m.corner(static_cast<Eigen::AlignedBox3d::CornerType>(i)));
    rest_xy.extend(Eigen::Vector2d(corner.x(), corner.y()));
  }
  for (const Eigen::Vector3d& p_rest : peaks_rest(rest_xy)) {
    const Eigen::Vector3d p = pose.to_world(p_rest);
    if (world_box_m.contains(p))
      out.push_back(p);
  }
  return out;
}

}  // namespace clothfit::obstacles
