// The steps every continuous collision test of two primitives takes (point_triangle_ccd.hpp and
// edge_edge_ccd.hpp say what they guarantee): the distance tolerance tol of the pair, the early
// outs before any polynomial is formed, the contact at t = 0 of a pair already within
// tau + tol, and otherwise the scan of the candidate times (ccd_candidate_times.hpp). What
// differs between the pairs — their distance, the polynomials bounding the contact set and the
// contact they report — is the motion type's (CcdPairMotion).
//
// Early outs: the pair's distance is Lipschitz in t with constant D = max_ij |Δx_i − Δy_j| (the
// largest relative displacement of a vertex of one primitive and a vertex of the other), so it
// is ≥ (d(0) + d(1) − D)/2 on [0, 1]; d(0) and d(1) are bounded first by the distances of the
// primitives' boxes and then measured.
#pragma once

#include <Eigen/Core>
#include <concepts>
#include <optional>

#include "core/collision/ccd_candidate_times.hpp"
#include "core/collision/ccd_tolerance.hpp"
#include "core/collision/collision_types.hpp"

namespace clothfit::collision {

// The position at t ∈ [0, 1] of a point moving linearly from x_t0 to x_t1.
inline Eigen::Vector3d position_at(const Eigen::Vector3d& x_t0, const Eigen::Vector3d& x_t1,
                                   double t) {
  return (1.0 - t) * x_t0 + t * x_t1;
}

// The linear motion of two primitives over t ∈ [0, 1] (collision_types.hpp glossary).
template <class Motion>
concept CcdPairMotion = requires(const Motion& m, double t, int end, CandidateTimes& candidates) {
  // Bounding box of each primitive's vertices at t = 0 and t = 1 together.
  { m.first_sweep() } -> std::same_as<PairExtent>;
  { m.second_sweep() } -> std::same_as<PairExtent>;
  // Distance of the two primitives' boxes at t = 0 (end 0) or t = 1 (end 1): a lower bound of
  // their distance there.
  { m.box_gap(end) } -> std::convertible_to<double>;
  // D above.
  { m.lipschitz() } -> std::convertible_to<double>;
  { m.distance_at(t) } -> std::convertible_to<double>;
  // t = 0 and the roots of the polynomials whose sign changes bound {distance ≤ tau}.
  m.add_candidate_times(t, candidates);
  // The contact at time t (its normal frozen there) with the pair's tolerance tol.
  m.contact_at(t, t);
};

// The first time in [0, 1] at which the primitives come within options.detection_distance(),
// and the contact there; nullopt when they never do.
template <CcdPairMotion Motion>
auto first_ccd_contact(const Motion& m, const CcdOptions& options)
    -> std::optional<decltype(m.contact_at(0.0, 0.0))> {
  const double tau = options.detection_distance();
  const PairExtent first = m.first_sweep(), second = m.second_sweep();
  const double tol = distance_tolerance(merged(first, second), options.relative_tolerance);
  const double limit = tau + tol;
  if (boxes_separated(first, second, limit)) {
    return std::nullopt;
  }
  const double lipschitz = m.lipschitz();
  if (0.5 * (m.box_gap(0) + m.box_gap(1) - lipschitz) > limit) {
    return std::nullopt;
  }
  const double distance_t0 = m.distance_at(0.0);
  if (distance_t0 > limit && 0.5 * (distance_t0 + m.distance_at(1.0) - lipschitz) > limit) {
    return std::nullopt;
  }
  if (distance_t0 <= limit) {
    return m.contact_at(0.0, tol);  // already within tau at the start
  }
  CandidateTimes candidates;
  m.add_candidate_times(tau, candidates);
  const std::optional<double> t =
      candidates.first_contact([&m](double time) { return m.distance_at(time); }, tau, tol);
  if (!t) {
    return std::nullopt;
  }
  return m.contact_at(*t, tol);
}

}  // namespace clothfit::collision
