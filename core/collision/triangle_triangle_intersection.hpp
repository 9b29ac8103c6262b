// Static intersection test of two closed triangles in 3D, exact: built only on the exact
// orientation predicates (orientation_predicates.hpp), so coplanar, touching and degenerate
// (collinear or coincident corners) configurations get the exact answer with no tolerance.
//
// Method. If either triangle is degenerate it is the union of its three edges, and the test is
// segment–triangle for each. Otherwise, if all corners of one triangle lie strictly on one side of
// the other's plane they are apart. If the triangles are coplanar, they intersect iff their
// projections on each of the three coordinate planes intersect (one of the projections is
// one-to-one on their common plane, and intersection is preserved by any projection), each tested
// in 2D by edge–edge crossings and corner containment. Otherwise the intersection, if any, is a
// segment on the line where the planes meet whose end points lie on edges, so the triangles
// intersect iff one of the six edges meets the other triangle.
//
// Touching counts: triangles that share a corner or an edge intersect. To check a mesh for
// self-intersections, skip the pairs that share a vertex (triangle_pair_candidates in
// broad_phase.hpp does that).
#pragma once

#include <Eigen/Core>

namespace clothfit::collision {

// True when the closed triangles (a0, a1, a2) and (b0, b1, b2) have a common point (m).
bool triangles_intersect(const Eigen::Vector3d& a0, const Eigen::Vector3d& a1,
                         const Eigen::Vector3d& a2, const Eigen::Vector3d& b0,
                         const Eigen::Vector3d& b1, const Eigen::Vector3d& b2);

// True when the closed segment (s0, s1) and the closed triangle (a, b, c) have a common point.
bool segment_intersects_triangle(const Eigen::Vector3d& s0, const Eigen::Vector3d& s1,
                                 const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                 const Eigen::Vector3d& c);

// True when the closed segments (p0, p1) and (q0, q1) have a common point.
bool segments_intersect(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1,
                        const Eigen::Vector3d& q0, const Eigen::Vector3d& q1);

}  // namespace clothfit::collision
