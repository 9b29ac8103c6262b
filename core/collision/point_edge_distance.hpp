// Closest point of a segment (edge) to a point, and their distance. Degenerate segments (e0 = e1)
// are handled: the closest point is then e0.
#pragma once

#include <Eigen/Core>

namespace clothfit::collision {

struct PointEdgeClosest {
  double distance = 0.0;  // m, ≥ 0
  double u = 0.0;         // ∈ [0, 1]: the closest point is (1 − u)·e0 + u·e1
};

PointEdgeClosest point_edge_closest(const Eigen::Vector3d& p, const Eigen::Vector3d& e0,
                                    const Eigen::Vector3d& e1);

// m
double point_edge_distance(const Eigen::Vector3d& p, const Eigen::Vector3d& e0,
                           const Eigen::Vector3d& e1);

}  // namespace clothfit::collision
