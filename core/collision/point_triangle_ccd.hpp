// Continuous collision detection of a point against a triangle, all four moving linearly over
// t ∈ [0, 1] (collision_types.hpp glossary): the first time at which their distance is ≤ tau,
// tau = 2·ω·τ0 = options.detection_distance().
//
// Contact set. The distance is ≤ tau exactly when one of these holds:
//   face:   |V(t)| ≤ tau·|N(t)| and the projection of p is inside the triangle,
//   edge:   |(p − e0) × (e1 − e0)|² ≤ tau²·|e1 − e0|² with the projection inside the edge,
//   corner: |p − corner|² ≤ tau².
// The first contact time is therefore t = 0 or a root of V² − tau²|N|² (degree 6), of an edge
// quartic or of a corner quadratic. With tau = 0 every contact lies on the plane of the triangle,
// so the candidates are t = 0 and the roots of the coplanarity cubic V (paper eq. 4) — the exact
// coplanar-and-inside test of paper §3.1 — and the edge and corner polynomials are only needed
// when V vanishes identically (the point slides in the triangle's plane). The roots of V are always
// included, so a crossing of the triangle is found even if tau is so small that the degree-6
// polynomial cannot resolve it.
//
// Every candidate is checked by measuring the point-triangle distance there
// (point_triangle_distance.hpp) against tau + tol, and the entry into {distance ≤ tau + tol} just
// before the first candidate that passes is returned (ccd_candidate_times.hpp).
//
// Early outs, before any polynomial is formed (ccd_driver.hpp, shared with edge_edge_ccd): a
// pair already within tau + tol at t = 0 returns time 0; a pair whose distance provably stays
// above tau + tol (a Lipschitz bound) returns nothing.
// Guarantees (up to tol, see collision_types.hpp):
//   - if the distance reaches ≤ tau anywhere in [0, 1], a time no later than the first such time
//     is returned; a pair already within tau + tol at t = 0 returns time 0;
//   - at the returned time the distance is ≤ tau + tol, and just before it (within 1e-12 in t,
//     back to the previous candidate) it was > tau + tol: the time is the first entry into
//     {distance ≤ tau + tol}, within about tol/speed of the exact contact time.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "core/collision/collision_types.hpp"

namespace clothfit::collision {

// p: the point; a, b, c: the triangle's corners (m). nullopt when the pair never comes within tau.
std::optional<PointTriangleCcdResult> point_triangle_ccd(
    const Eigen::Vector3d& p_t0, const Eigen::Vector3d& a_t0, const Eigen::Vector3d& b_t0,
    const Eigen::Vector3d& c_t0, const Eigen::Vector3d& p_t1, const Eigen::Vector3d& a_t1,
    const Eigen::Vector3d& b_t1, const Eigen::Vector3d& c_t1, const CcdOptions& options);

}  // namespace clothfit::collision
