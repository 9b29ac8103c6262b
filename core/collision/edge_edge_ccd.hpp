// Continuous collision detection of two edges moving linearly over t ∈ [0, 1]
// (collision_types.hpp glossary): the first time at which their distance is ≤ tau,
// tau = 2·ω·τ0 = options.detection_distance().
//
// Contact set. The segments' distance is ≤ tau exactly when one of these holds:
//   interior: |V(t)| ≤ tau·|N(t)|, N = e_a × e_b, with both closest points inside the edges,
//   end point on edge: |(x − y0) × (y1 − y0)|² ≤ tau²·|y1 − y0|² for an end point x of one edge
//             and the other edge y0 y1, with the projection inside,
//   end points: |x − y|² ≤ tau² for an end point of each.
// The first contact is t = 0 or a root of V² − tau²|N|², of one of the four end-point quartics or
// of the four end-point quadratics. With tau = 0 the candidates are t = 0 and the roots of the
// coplanarity cubic V = (e_a × e_b)·(eb0 − ea0) (paper eq. 4, here in the form whose ratio
// |V|/|N| is the distance of the two lines); the end-point polynomials are added when V vanishes
// identically — parallel edges, or edges moving in a common plane. The roots of V are always
// included.
//
// Every candidate is checked by measuring the segment distance (edge_edge_distance.hpp) against
// tau + tol, with the same scan, early outs and guarantees as point_triangle_ccd.hpp: no later
// than the first time the distance reaches tau (time 0 when the pair starts within tau), and
// distance ≤ tau + tol at the returned time.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "core/collision/collision_types.hpp"

namespace clothfit::collision {

// Edge a = ea0 ea1, edge b = eb0 eb1 (m). nullopt when the edges never come within tau.
std::optional<EdgeEdgeCcdResult> edge_edge_ccd(
    const Eigen::Vector3d& ea0_t0, const Eigen::Vector3d& ea1_t0, const Eigen::Vector3d& eb0_t0,
    const Eigen::Vector3d& eb1_t0, const Eigen::Vector3d& ea0_t1, const Eigen::Vector3d& ea1_t1,
    const Eigen::Vector3d& eb0_t1, const Eigen::Vector3d& eb1_t1, const CcdOptions& options);

}  // namespace clothfit::collision
