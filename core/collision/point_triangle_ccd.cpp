#include "core/collision/point_triangle_ccd.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cassert>

#include "core/collision/ccd_candidate_times.hpp"
#include "core/collision/ccd_tolerance.hpp"
#include "core/collision/contact_normal.hpp"
#include "core/collision/motion_polynomial.hpp"
#include "core/collision/point_triangle_distance.hpp"

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

Vector3d at(const Vector3d& x_t0, const Vector3d& x_t1, double t) {
  return (1.0 - t) * x_t0 + t * x_t1;
}

// The motion of one point-triangle pair (collision_types.hpp glossary).
struct Motion {
  const Vector3d &p_t0, &a_t0, &b_t0, &c_t0, &p_t1, &a_t1, &b_t1, &c_t1;

  double distance_at(double t) const {
    return point_triangle_distance(at(p_t0, p_t1, t), at(a_t0, a_t1, t), at(b_t0, b_t1, t),
                                   at(c_t0, c_t1, t));
  }
};

// The early outs (point_triangle_ccd.hpp): nullopt when the distance provably stays above
// `limit`, else the distance at t = 0.
std::optional<double> distance_t0_unless_apart(const Motion& m, double limit) {
  const Vector3d dp = m.p_t1 - m.p_t0;
  const double lipschitz =
      std::max({(dp - (m.a_t1 - m.a_t0)).norm(), (dp - (m.b_t1 - m.b_t0)).norm(),
                (dp - (m.c_t1 - m.c_t0)).norm()});
  const double lower_t0 =
      box_distance(pair_extent({&m.p_t0}), pair_extent({&m.a_t0, &m.b_t0, &m.c_t0}));
  const double lower_t1 =
      box_distance(pair_extent({&m.p_t1}), pair_extent({&m.a_t1, &m.b_t1, &m.c_t1}));
  if (0.5 * (lower_t0 + lower_t1 - lipschitz) > limit) {
    return std::nullopt;
  }
  const double distance_t0 = m.distance_at(0.0);
  if (distance_t0 > limit && 0.5 * (distance_t0 + m.distance_at(1.0) - lipschitz) > limit) {
    return std::nullopt;
  }
  return distance_t0;
}

// t = 0 and the roots of the polynomials bounding {distance ≤ tau} (point_triangle_ccd.hpp).
void add_candidate_times(const Motion& m, double tau, CandidateTimes& candidates) {
  candidates.add(0.0);
  const MotionVector ab = relative_motion(m.a_t0, m.b_t0, m.a_t1, m.b_t1);
  const MotionVector ac = relative_motion(m.a_t0, m.c_t0, m.a_t1, m.c_t1);
  const MotionVector ap = relative_motion(m.a_t0, m.p_t0, m.a_t1, m.p_t1);
  const MotionVector normal = cross(ab, ac);
  const MotionPolynomial volume = dot(normal, ap);  // V(t), the coplanarity cubic
  const bool coplanar_throughout = candidates.add_roots(volume);
  const double tau2 = tau * tau;
  if (tau > 0.0) {
    candidates.add_roots(volume * volume - scaled(dot(normal, normal), tau2));
  }
  if (tau > 0.0 || coplanar_throughout) {
    const Vector3d* corners_t0[3] = {&m.a_t0, &m.b_t0, &m.c_t0};
    const Vector3d* corners_t1[3] = {&m.a_t1, &m.b_t1, &m.c_t1};
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3;
      const MotionVector edge =
          relative_motion(*corners_t0[i], *corners_t0[j], *corners_t1[i], *corners_t1[j]);
      const MotionVector to_point = relative_motion(*corners_t0[i], m.p_t0, *corners_t1[i], m.p_t1);
      const MotionVector moment = cross(to_point, edge);
      candidates.add_roots(dot(moment, moment) - scaled(dot(edge, edge), tau2));
      candidates.add_roots(dot(to_point, to_point) - constant_polynomial(tau2));
    }
  }
}

// Weights, frozen normal and distance at the contact time t.
PointTriangleCcdResult contact_at(const Motion& m, double t, double tol) {
  const Vector3d p = at(m.p_t0, m.p_t1, t);
  const Vector3d a = at(m.a_t0, m.a_t1, t);
  const Vector3d b = at(m.b_t0, m.b_t1, t);
  const Vector3d c = at(m.c_t0, m.c_t1, t);
  const PointTriangleClosest closest = point_triangle_closest(p, a, b, c);
  const Vector3d& w = closest.weights;
  ContactGeometry geometry;
  geometry.separation = p - (w[0] * a + w[1] * b + w[2] * c);
  geometry.plane_normal = (b - a).cross(c - a);
  geometry.plane_normal_scale = (b - a).norm() * (c - a).norm();
  geometry.separation_t0 = m.p_t0 - (w[0] * m.a_t0 + w[1] * m.b_t0 + w[2] * m.c_t0);
  geometry.separation_t1 = m.p_t1 - (w[0] * m.a_t1 + w[1] * m.b_t1 + w[2] * m.c_t1);
  geometry.tolerance = tol;

  PointTriangleCcdResult result;
  result.time = t;
  result.weights = w;
  result.normal = contact_normal(geometry);
  result.distance = closest.distance;
  result.separation_t0 = result.normal.dot(geometry.separation_t0);
  return result;
}

}  // namespace

std::optional<PointTriangleCcdResult> point_triangle_ccd(const Vector3d& p_t0, const Vector3d& a_t0,
                                                         const Vector3d& b_t0, const Vector3d& c_t0,
                                                         const Vector3d& p_t1, const Vector3d& a_t1,
                                                         const Vector3d& b_t1, const Vector3d& c_t1,
                                                         const CcdOptions& options) {
  assert(options.is_valid());
  const Motion m{p_t0, a_t0, b_t0, c_t0, p_t1, a_t1, b_t1, c_t1};
  const double tau = options.detection_distance();
  const PairExtent point_box = pair_extent({&p_t0, &p_t1});
  const PairExtent triangle_box = pair_extent({&a_t0, &b_t0, &c_t0, &a_t1, &b_t1, &c_t1});
  const double tol =
      distance_tolerance(merged(point_box, triangle_box), options.relative_tolerance);
  if (boxes_separated(point_box, triangle_box, tau + tol)) {
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
