#include "core/obstacles/plane.hpp"

#include <cassert>

#include "core/obstacles/unit_vector.hpp"

namespace clothfit::obstacles {

bool PlaneGeometry::is_valid(std::string* why) const {
  if (!point_m.allFinite() || !normal.allFinite() || normal.isZero(0.0)) {
    if (why)
      *why = "the plane needs a finite point and a finite nonzero normal";
    return false;
  }
  return true;
}

Plane::Plane(PlaneGeometry geometry, ObstacleOptions options)
    : Obstacle(std::move(options)), m_geometry(std::move(geometry)) {
  assert(m_geometry.is_valid());
  m_geometry.normal = unit_vector(m_geometry.normal);  // any finite length (unit_vector.hpp)
}

}  // namespace clothfit::obstacles
