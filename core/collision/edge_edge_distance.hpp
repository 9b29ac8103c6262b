// Closest points of two segments (edges) and their distance.
//
// The squared distance between (1 − s) ea0 + s ea1 and (1 − u) eb0 + u eb1 is a convex quadratic
// in (s, u) over [0, 1]²: its minimum is either the unconstrained minimum of the two lines (when
// the lines are not parallel and it falls inside the square) or lies on the square's boundary,
// i.e. is one of the four end-point-to-segment distances. All five candidates are evaluated
// directly and the smallest wins, so parallel, nearly parallel and zero-length edges need no
// tolerance and never produce NaN.
#pragma once

#include <Eigen/Core>

namespace clothfit::collision {

struct EdgeEdgeClosest {
  double distance = 0.0;  // m, ≥ 0
  double s = 0.0;         // ∈ [0, 1]: closest point (1 − s)·ea0 + s·ea1 on edge a
  double u = 0.0;         // ∈ [0, 1]: closest point (1 − u)·eb0 + u·eb1 on edge b
};

EdgeEdgeClosest edge_edge_closest(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                                  const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1);

// m
double edge_edge_distance(const Eigen::Vector3d& ea0, const Eigen::Vector3d& ea1,
                          const Eigen::Vector3d& eb0, const Eigen::Vector3d& eb1);

}  // namespace clothfit::collision
