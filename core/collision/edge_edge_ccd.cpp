#include "core/collision/edge_edge_ccd.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cassert>

#include "core/collision/ccd_candidate_times.hpp"
#include "core/collision/ccd_tolerance.hpp"
#include "core/collision/contact_normal.hpp"
#include "core/collision/edge_edge_distance.hpp"
#include "core/collision/motion_polynomial.hpp"

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

Vector3d at(const Vector3d& x_t0, const Vector3d& x_t1, double t) {
  return (1.0 - t) * x_t0 + t * x_t1;
}

// The motion of one edge-edge pair (collision_types.hpp glossary).
struct Motion {
  const Vector3d &ea0_t0, &ea1_t0, &eb0_t0, &eb1_t0, &ea0_t1, &ea1_t1, &eb0_t1, &eb1_t1;

  double distance_at(double t) const {
    return edge_edge_distance(at(ea0_t0, ea0_t1, t), at(ea1_t0, ea1_t1, t), at(eb0_t0, eb0_t1, t),
                              at(eb1_t0, eb1_t1, t));
  }
};

// The early outs (point_triangle_ccd.hpp): nullopt when the distance provably stays above
// `limit`, else the distance at t = 0.
std::optional<double> distance_t0_unless_apart(const Motion& m, double limit) {
  const Vector3d da0 = m.ea0_t1 - m.ea0_t0, da1 = m.ea1_t1 - m.ea1_t0;
  const Vector3d db0 = m.eb0_t1 - m.eb0_t0, db1 = m.eb1_t1 - m.eb1_t0;
  const double lipschitz =
      std::max({(da0 - db0).norm(), (da0 - db1).norm(), (da1 - db0).norm(), (da1 - db1).norm()});
  const double lower_t0 =
      box_distance(pair_extent({&m.ea0_t0, &m.ea1_t0}), pair_extent({&m.eb0_t0, &m.eb1_t0}));
  const double lower_t1 =
      box_distance(pair_extent({&m.ea0_t1, &m.ea1_t1}), pair_extent({&m.eb0_t1, &m.eb1_t1}));
  if (0.5 * (lower_t0 + lower_t1 - lipschitz) > limit) {
    return std::nullopt;
  }
  const double distance_t0 = m.distance_at(0.0);
  if (distance_t0 > limit && 0.5 * (distance_t0 + m.distance_at(1.0) - lipschitz) > limit) {
    return std::nullopt;
  }
  return distance_t0;
}

// t = 0 and the roots of the polynomials bounding {distance ≤ tau} (edge_edge_ccd.hpp).
void add_candidate_times(const Motion& m, double tau, CandidateTimes& candidates) {
  candidates.add(0.0);
  const MotionVector edge_a = relative_motion(m.ea0_t0, m.ea1_t0, m.ea0_t1, m.ea1_t1);
  const MotionVector edge_b = relative_motion(m.eb0_t0, m.eb1_t0, m.eb0_t1, m.eb1_t1);
  const MotionVector between = relative_motion(m.ea0_t0, m.eb0_t0, m.ea0_t1, m.eb0_t1);
  const MotionVector normal = cross(edge_a, edge_b);
  const MotionPolynomial volume = dot(normal, between);  // V(t)
  const bool coplanar_throughout = candidates.add_roots(volume);
  const double tau2 = tau * tau;
  if (tau > 0.0) {
    candidates.add_roots(volume * volume - scaled(dot(normal, normal), tau2));
  }
  if (!(tau > 0.0 || coplanar_throughout)) {
    return;
  }
  // End point x against the line of edge y0 y1, for the four (end point, other edge) pairs.
  const auto add_end_point_line = [&](const Vector3d& x_t0, const Vector3d& x_t1,
                                      const Vector3d& y0_t0, const Vector3d& y0_t1,
                                      const MotionVector& edge_y) {
    const MotionVector moment = cross(relative_motion(y0_t0, x_t0, y0_t1, x_t1), edge_y);
    candidates.add_roots(dot(moment, moment) - scaled(dot(edge_y, edge_y), tau2));
  };
  add_end_point_line(m.ea0_t0, m.ea0_t1, m.eb0_t0, m.eb0_t1, edge_b);
  add_end_point_line(m.ea1_t0, m.ea1_t1, m.eb0_t0, m.eb0_t1, edge_b);
  add_end_point_line(m.eb0_t0, m.eb0_t1, m.ea0_t0, m.ea0_t1, edge_a);
  add_end_point_line(m.eb1_t0, m.eb1_t1, m.ea0_t0, m.ea0_t1, edge_a);
  // End point of edge a against end point of edge b, the four pairs.
  const auto add_end_points = [&](const Vector3d& x_t0, const Vector3d& x_t1, const Vector3d& y_t0,
                                  const Vector3d& y_t1) {
    const MotionVector between_points = relative_motion(y_t0, x_t0, y_t1, x_t1);
    candidates.add_roots(dot(between_points, between_points) - constant_polynomial(tau2));
  };
  add_end_points(m.ea0_t0, m.ea0_t1, m.eb0_t0, m.eb0_t1);
  add_end_points(m.ea0_t0, m.ea0_t1, m.eb1_t0, m.eb1_t1);
  add_end_points(m.ea1_t0, m.ea1_t1, m.eb0_t0, m.eb0_t1);
  add_end_points(m.ea1_t0, m.ea1_t1, m.eb1_t0, m.eb1_t1);
}

// Edge parameters, frozen normal and distance at the contact time t.
EdgeEdgeCcdResult contact_at(const Motion& m, double t, double tol) {
  const Vector3d ea0 = at(m.ea0_t0, m.ea0_t1, t);
  const Vector3d ea1 = at(m.ea1_t0, m.ea1_t1, t);
  const Vector3d eb0 = at(m.eb0_t0, m.eb0_t1, t);
  const Vector3d eb1 = at(m.eb1_t0, m.eb1_t1, t);
  const EdgeEdgeClosest closest = edge_edge_closest(ea0, ea1, eb0, eb1);
  const double s = closest.s;
  const double u = closest.u;
  const auto separation = [s, u](const Vector3d& a0, const Vector3d& a1, const Vector3d& b0,
                                 const Vector3d& b1) -> Vector3d {
    return ((1.0 - s) * a0 + s * a1) - ((1.0 - u) * b0 + u * b1);
  };
  ContactGeometry geometry;
  geometry.separation = separation(ea0, ea1, eb0, eb1);
  geometry.plane_normal = (ea1 - ea0).cross(eb1 - eb0);
  geometry.plane_normal_scale = (ea1 - ea0).norm() * (eb1 - eb0).norm();
  geometry.separation_t0 = separation(m.ea0_t0, m.ea1_t0, m.eb0_t0, m.eb1_t0);
  geometry.separation_t1 = separation(m.ea0_t1, m.ea1_t1, m.eb0_t1, m.eb1_t1);
  geometry.axis = (ea1 - ea0).squaredNorm() > 0.0 ? Vector3d(ea1 - ea0) : Vector3d(eb1 - eb0);
  geometry.tolerance = tol;

  EdgeEdgeCcdResult result;
  result.time = t;
  result.s = s;
  result.u = u;
  result.normal = contact_normal(geometry);
  result.distance = closest.distance;
  result.separation_t0 = result.normal.dot(geometry.separation_t0);
  return result;
}

}  // namespace

std::optional<EdgeEdgeCcdResult> edge_edge_ccd(const Vector3d& ea0_t0, const Vector3d& ea1_t0,
                                               const Vector3d& eb0_t0, const Vector3d& eb1_t0,
                                               const Vector3d& ea0_t1, const Vector3d& ea1_t1,
                                               const Vector3d& eb0_t1, const Vector3d& eb1_t1,
                                               const CcdOptions& options) {
  assert(options.is_valid());
  const Motion m{ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1};
  const double tau = options.detection_distance();
  const PairExtent box_a = pair_extent({&ea0_t0, &ea1_t0, &ea0_t1, &ea1_t1});
  const PairExtent box_b = pair_extent({&eb0_t0, &eb1_t0, &eb0_t1, &eb1_t1});
  const double tol = distance_tolerance(merged(box_a, box_b), options.relative_tolerance);
  if (boxes_separated(box_a, box_b, tau + tol)) {
    return std::nullopt;
  }
  const std::optional<double> distance_t0 = distance_t0_unless_apart(m, tau + tol);
  if (!distance_t0) {
    return std::nullopt;
  }
  if (*distance_t0 <= tau + tol) {
    return contact_at(m, 0.0, tol);  // already within tau at the start
  }
  CandidateTimes candidates;
  add_candidate_times(m, tau, candidates);
  const std::optional<double> t =
      candidates.first_contact([&m](double time) { return m.distance_at(time); }, tau, tol);
  if (!t) {
    return std::nullopt;
  }
  return contact_at(m, *t, tol);
}

}  // namespace clothfit::collision
