#include "core/collision/point_edge_distance.hpp"

#include <algorithm>
#include <cmath>

namespace clothfit::collision {

PointEdgeClosest point_edge_closest(const Eigen::Vector3d& p, const Eigen::Vector3d& e0,
                                    const Eigen::Vector3d& e1) {
  const Eigen::Vector3d d = e1 - e0;
  const double length2 = d.squaredNorm();
  double u = 0.0;
  if (length2 > 0.0) {
    u = (p - e0).dot(d) / length2;
    u = std::isfinite(u) ? std::clamp(u, 0.0, 1.0) : 0.0;
  }
  // u = 0 and u = 1 reproduce the end points exactly.
  const Eigen::Vector3d closest = u == 1.0 ? e1 : Eigen::Vector3d(e0 + u * d);
  return {(p - closest).norm(), u};
}

double point_edge_distance(const Eigen::Vector3d& p, const Eigen::Vector3d& e0,
                           const Eigen::Vector3d& e1) {
  return point_edge_closest(p, e0, e1).distance;
}

}  // namespace clothfit::collision
