#include "core/obstacles/cylinder.hpp"

#include <cassert>
#include <cmath>

#include "core/obstacles/unit_vector.hpp"

namespace clothfit::obstacles {

CylinderGeometry CylinderGeometry::from_ends(const Eigen::Vector3d& end0_m,
                                             const Eigen::Vector3d& end1_m, double radius_m) {
  CylinderGeometry g;
  g.centre_m = 0.5 * (end0_m + end1_m);
  g.axis = end1_m - end0_m;
  g.length_m = g.axis.norm();
  if (!(g.length_m > 0.0 && std::isfinite(g.length_m)))  // |axis|² under- or overflowed
    g.length_m = g.axis.stableNorm();
  g.radius_m = radius_m;
  return g;
}

bool CylinderGeometry::is_valid(std::string* why) const {
  if (!centre_m.allFinite() || !axis.allFinite() || axis.isZero(0.0)) {
    if (why)
      *why = "the cylinder needs a finite centre and a finite nonzero axis";
    return false;
  }
  if (!std::isfinite(length_m) || !(length_m > 0.0) || !std::isfinite(radius_m) ||
      !(radius_m > 0.0)) {
    if (why)
      *why = "the cylinder needs a finite length > 0 and a finite radius > 0";
    return false;
  }
  return true;
}

Cylinder::Cylinder(CylinderGeometry geometry, ObstacleOptions options)
    : Obstacle(std::move(options)), m_geometry(std::move(geometry)) {
  assert(m_geometry.is_valid());
  m_geometry.axis = unit_vector(m_geometry.axis);  // any finite length (unit_vector.hpp)
  // The coordinate axis least aligned with a, made orthogonal to a.
  Eigen::Index smallest = 0;
  m_geometry.axis.cwiseAbs().minCoeff(&smallest);
  const Eigen::Vector3d e = Eigen::Vector3d::Unit(smallest);
  m_perpendicular = (e - e.dot(m_geometry.axis) * m_geometry.axis).normalized();
}

ValueAndGradient Cylinder::evaluate_rest(const Eigen::Vector3d& x_rest_m) const {
  const Eigen::Vector3d& a = m_geometry.axis;
  const Eigen::Vector3d r = x_rest_m - m_geometry.centre_m;
  const double z = a.dot(r);
  const Eigen::Vector3d radial = r - z * a;
  const double rho = radial.norm();
  const Eigen::Vector3d e_rho = rho > 0.0 ? Eigen::Vector3d(radial / rho) : m_perpendicular;
  const Eigen::Vector3d e_z = z >= 0.0 ? a : Eigen::Vector3d(-a);
  const double d_r = rho - m_geometry.radius_m;
  const double d_z = std::abs(z) - 0.5 * m_geometry.length_m;
  if (d_r > 0.0 || d_z > 0.0) {
    const double u = std::max(d_r, 0.0);
    const double w = std::max(d_z, 0.0);
    const double h = std::hypot(u, w);
    return {h, (u * e_rho + w * e_z) / h};
  }
  if (d_r >= d_z)
    return {d_r, e_rho};
  return {d_z, e_z};
}

}  // namespace clothfit::obstacles
