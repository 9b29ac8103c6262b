// Closest point of a triangle to a point, as barycentric weights, and their distance.
//
// The closest point is either the projection of p on the triangle's plane, when that projection
// lies inside (all barycentric weights ≥ 0), or the closest point of one of the three edges. Both
// are evaluated and the smaller distance wins; every candidate is an actual point of the closed
// triangle and its distance is measured directly, so slivers and degenerate triangles (collinear or
// coincident corners) give a finite, slightly conservative answer instead of NaN.
#pragma once

#include <Eigen/Core>

namespace clothfit::collision {

struct PointTriangleClosest {
  double distance = 0.0;    // m, ≥ 0
  Eigen::Vector3d weights;  // (w_a, w_b, w_c) ≥ 0, Σ = 1: closest point w_a a + w_b b + w_c c
};

PointTriangleClosest point_triangle_closest(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                            const Eigen::Vector3d& b, const Eigen::Vector3d& c);

// m
double point_triangle_distance(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                               const Eigen::Vector3d& b, const Eigen::Vector3d& c);

}  // namespace clothfit::collision
