#include "core/obstacles/sphere.hpp"

#include <cassert>
#include <cmath>

namespace clothfit::obstacles {

bool SphereGeometry::is_valid(std::string* why) const {
  if (!centre_m.allFinite() || !std::isfinite(radius_m) || !(radius_m > 0.0)) {
    if (why)
      *why = "the sphere needs a finite centre and a finite radius > 0";
    return false;
  }
  return true;
}

Sphere::Sphere(SphereGeometry geometry, ObstacleOptions options)
    : Obstacle(std::move(options)), m_geometry(std::move(geometry)) {
  assert(m_geometry.is_valid());
}

ValueAndGradient Sphere::evaluate_rest(const Eigen::Vector3d& x_rest_m) const {
  const Eigen::Vector3d r = x_rest_m - m_geometry.centre_m;
  const double distance = r.norm();
  if (!(distance > 0.0))
    return {-m_geometry.radius_m, Eigen::Vector3d::UnitZ()};
  return {distance - m_geometry.radius_m, r / distance};
}

}  // namespace clothfit::obstacles
