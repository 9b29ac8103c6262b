#include "core/obstacles/table.hpp"

#include <cassert>
#include <cmath>

namespace clothfit::obstacles {

bool TableGeometry::is_valid(std::string* why) const {
  const auto positive = [](double v) { return std::isfinite(v) && v > 0.0; };
  if (!top_centre_m.allFinite() || !std::isfinite(yaw_rad)) {
    if (why)
      *why = "the table needs a finite top centre and yaw";
    return false;
  }
  if (!positive(size_x_m) || !positive(size_y_m) || !positive(thickness_m)) {
    if (why)
      *why = "the table sizes and thickness must be finite and > 0";
    return false;
  }
  const double max_radius = 0.5 * std::min({size_x_m, size_y_m, thickness_m});
  if (!std::isfinite(edge_radius_m) || edge_radius_m < 0.0 || edge_radius_m > max_radius) {
    if (why)
      *why = "the table edge radius must be >= 0 and <= half the smallest of its sizes";
    return false;
  }
  return true;
}

Table::Table(TableGeometry geometry, ObstacleOptions options)
    : Obstacle(std::move(options)), m_geometry(std::move(geometry)) {
  assert(m_geometry.is_valid());
  m_slab_centre = m_geometry.top_centre_m - 0.5 * m_geometry.thickness_m * Eigen::Vector3d::UnitZ();
  m_inner_half =
      0.5 * Eigen::Vector3d(m_geometry.size_x_m, m_geometry.size_y_m, m_geometry.thickness_m) -
      Eigen::Vector3d::Constant(m_geometry.edge_radius_m);
  m_cos_yaw = std::cos(m_geometry.yaw_rad);
  m_sin_yaw = std::sin(m_geometry.yaw_rad);
}

ValueAndGradient Table::evaluate_rest(const Eigen::Vector3d& x_rest_m) const {
  // Table-local coordinates q: the rest offset from the slab centre turned by −yaw.
  const Eigen::Vector3d r = x_rest_m - m_slab_centre;
  const Eigen::Vector3d q(m_cos_yaw * r.x() + m_sin_yaw * r.y(),
                          -m_sin_yaw * r.x() + m_cos_yaw * r.y(), r.z());
  const Eigen::Vector3d sign(q.x() >= 0.0 ? 1.0 : -1.0, q.y() >= 0.0 ? 1.0 : -1.0,
                             q.z() >= 0.0 ? 1.0 : -1.0);
  const Eigen::Vector3d d = q.cwiseAbs() - m_inner_half;  // per-axis distance beyond the inner box
  const Eigen::Vector3d outside = d.cwiseMax(0.0);
  const double outside_norm = outside.norm();
  double h;
  Eigen::Vector3d g_local;
  if (outside_norm > 0.0) {
    h = outside_norm - m_geometry.edge_radius_m;
    g_local = sign.cwiseProduct(outside) / outside_norm;
  } else {
    int k = 0;  // the nearest face; ties: x before y before z
    for (int i = 1; i < 3; ++i) {
      if (d[i] > d[k])
        k = i;
    }
    h = d[k] - m_geometry.edge_radius_m;
    g_local = sign[k] * Eigen::Vector3d::Unit(k);
  }
  // Back to the rest frame: turn by +yaw.
  const Eigen::Vector3d g(m_cos_yaw * g_local.x() - m_sin_yaw * g_local.y(),
                          m_sin_yaw * g_local.x() + m_cos_yaw * g_local.y(), g_local.z());
  return {h, g};
}

}  // namespace clothfit::obstacles
