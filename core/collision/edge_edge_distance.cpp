#include "core/collision/edge_edge_distance.hpp"

#include <Eigen/Geometry>

#include <cmath>
#include <limits>

#include "core/collision/point_edge_distance.hpp"

namespace clothfit::collision {

EdgeEdgeClosest edge_edge_closest(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                  const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  EdgeEdgeClosest best;
  best.distance = std::numeric_limits<double>::infinity();

  // Interior candidate: the closest points of the two lines, s = ((w × e_b)·N)/|N|²,
  // u = ((w × e_a)·N)/|N|² with w = eb0 − ea0 and N = e_a × e_b.
  const Eigen::Vector3d e_a = ea1 - ea0;
  const Eigen::Vector3d e_b = eb1 - eb0;
  const Eigen::Vector3d w = eb0 - ea0;
  const Eigen::Vector3d normal = e_a.cross(e_b);
  const double normal2 = normal.squaredNorm();
  if (normal2 > 0.0) {
    const double s = w.cross(e_b).dot(normal) / normal2;
    const double u = w.cross(e_a).dot(normal) / normal2;
    if (std::isfinite(s) && std::isfinite(u) && s >= 0.0 && s <= 1.0 && u >= 0.0 && u <= 1.0) {
      best.distance = ((ea0 + s * e_a) - (eb0 + u * e_b)).norm();
      best.s = s;
      best.u = u;
    }
  }

  // Boundary candidates: an end point against the other segment.
  const auto try_candidate = [&best](double distance, double s, double u) {
    if (distance < best.distance) {
      best.distance = distance;
      best.s = s;
      best.u = u;
    }
  };
  PointEdgeClosest c = point_edge_closest(ea0, eb0, eb1);
  try_candidate(c.distance, 0.0, c.u);
  c = point_edge_closest(ea1, eb0, eb1);
  try_candidate(c.distance, 1.0, c.u);
  c = point_edge_closest(eb0, ea0, ea1);
  try_candidate(c.distance, c.u, 0.0);
  c = point_edge_closest(eb1, ea0, ea1);
  try_candidate(c.distance, c.u, 1.0);
  return best;
}

double edge_edge_distance(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                          const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1) {
  return edge_edge_closest(ea0, ea1, eb0, eb1).distance;
}

}  // namespace clothfit::collision
