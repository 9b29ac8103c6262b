#include "core/collision/point_triangle_distance.hpp"

#include <Eigen/Geometry>

#include <cmath>
#include <limits>

#include "core/collision/point_edge_distance.hpp"

namespace clothfit::collision {

PointTriangleClosest point_triangle_closest(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                            const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  PointTriangleClosest best;
  best.distance = std::numeric_limits<double>::infinity();

  // Interior candidate: barycentric weights of the projection of p on the plane.
  const Eigen::Vector3d ab = b - a;
  const Eigen::Vector3d ac = c - a;
  const Eigen::Vector3d ap = p - a;
  const Eigen::Vector3d normal = ab.cross(ac);
  const double normal2 = normal.squaredNorm();
  if (normal2 > 0.0) {
    const double w_b = ap.cross(ac).dot(normal) / normal2;
    const double w_c = ab.cross(ap).dot(normal) / normal2;
    const double w_a = 1.0 - w_b - w_c;
    if (std::isfinite(w_b) && std::isfinite(w_c) && w_a >= 0.0 && w_b >= 0.0 && w_c >= 0.0) {
      const Eigen::Vector3d projection = w_a * a + w_b * b + w_c * c;
      best.distance = (p - projection).norm();
      best.weights = Eigen::Vector3d(w_a, w_b, w_c);
    }
  }

  // Edge candidates (the boundary of the closed triangle).
  const auto try_edge = [&](const Eigen::Vector3d& e0, const Eigen::Vector3d& e1, int i0, int i1) {
    const PointEdgeClosest closest = point_edge_closest(p, e0, e1);
    if (closest.distance < best.distance) {
      best.distance = closest.distance;
      best.weights.setZero();
      best.weights[i0] = 1.0 - closest.u;
      best.weights[i1] = closest.u;
    }
  };
  try_edge(a, b, 0, 1);
  try_edge(b, c, 1, 2);
  try_edge(c, a, 2, 0);
  return best;
}

double point_triangle_distance(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                               const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  return point_triangle_closest(p, a, b, c).distance;
}

}  // namespace clothfit::collision
