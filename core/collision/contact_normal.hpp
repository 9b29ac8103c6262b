// The frozen contact normal n of a pair found in contact (paper §3.2), shared by the point-triangle
// and edge-edge CCD (collision_types.hpp glossary).
//
// Choice, first that applies:
//   1. the pair is apart at the contact time (|sep| > 10⁴·tol, a contact at distance tau > 0):
//      n = sep/|sep|, the direction of the distance gradient (the triangle or common normal when
//      the closest points are interior, as in the paper);
//   2. the geometric normal N (triangle normal, or e_a × e_b) is well defined
//      (|N| > 10⁻¹⁰·|e1||e2|): n = N/|N|;
//   3. degenerate (touching parallel edges, collapsed triangle): the start separation sep_t0, else
//      the reversed relative motion −(sep_t1 − sep_t0), each with its component along `axis`
//      removed (for edges: perpendicular to edge a); else any unit vector perpendicular to `axis`.
// Orientation: n·sep_t0 ≥ 0 (the start state is feasible). When |n·sep_t0| ≤ tol the start is
// (nearly) in contact and n is oriented against the motion: n·(sep_t1 − sep_t0) ≤ 0. The result is
// always a finite unit vector.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace clothfit::collision {

struct ContactGeometry {
  Eigen::Vector3d separation;       // sep at the contact time, m
  Eigen::Vector3d plane_normal;     // N at the contact time (unnormalised, may vanish), m²
  double plane_normal_scale = 0.0;  // |e1|·|e2| of the two vectors whose cross product is N, m²
  Eigen::Vector3d separation_t0;    // sep_t0 (frozen weights), m
  Eigen::Vector3d separation_t1;    // sep_t1 (frozen weights), m
  Eigen::Vector3d axis = Eigen::Vector3d::Zero();  // n ⟂ axis in the degenerate case; may be zero
  double tolerance = 0.0;                          // tol, m
};

// Unit normal (3).
Eigen::Vector3d contact_normal(const ContactGeometry& geometry);

}  // namespace clothfit::collision
