#include "core/collision/contact_normal.hpp"

#include <Eigen/Geometry>

#include <cmath>

namespace clothfit::collision {
namespace {

// v without its component along `axis` (axis may be zero).
Eigen::Vector3d perpendicular_part(const Eigen::Vector3d& v, const Eigen::Vector3d& axis) {
  const double axis2 = axis.squaredNorm();
  if (!(axis2 > 0.0)) {
    return v;
  }
  return v - (v.dot(axis) / axis2) * axis;
}

Eigen::Vector3d choose_direction(const ContactGeometry& g) {
  const double separation_norm = g.separation.norm();
  if (separation_norm > 1e4 * g.tolerance && std::isfinite(separation_norm)) {
    return g.separation / separation_norm;
  }
  const double normal_norm = g.plane_normal.norm();
  if (normal_norm > 1e-10 * g.plane_normal_scale && normal_norm > 0.0 &&
      std::isfinite(normal_norm)) {
    return g.plane_normal / normal_norm;
  }
  const Eigen::Vector3d from_start = perpendicular_part(g.separation_t0, g.axis);
  if (from_start.norm() > g.tolerance) {
    return from_start.normalized();
  }
  const Eigen::Vector3d against_motion =
      perpendicular_part(g.separation_t0 - g.separation_t1, g.axis);
  if (against_motion.norm() > g.tolerance) {
    return against_motion.normalized();
  }
  if (g.axis.squaredNorm() > 0.0) {
    return g.axis.unitOrthogonal();
  }
  return Eigen::Vector3d::UnitZ();
}

}  // namespace

Eigen::Vector3d contact_normal(const ContactGeometry& geometry) {
  Eigen::Vector3d n = choose_direction(geometry);
  const double h0 = n.dot(geometry.separation_t0);
  if (h0 < -geometry.tolerance) {
    n = -n;
  } else if (h0 <= geometry.tolerance &&
             n.dot(geometry.separation_t1 - geometry.separation_t0) > 0.0) {
    n = -n;
  }
  return n;
}

}  // namespace clothfit::collision
