#include "core/collision/point_triangle_ccd.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cassert>

#include "core/collision/ccd_driver.hpp"
#include "core/collision/contact_normal.hpp"
#include "core/collision/motion_polynomial.hpp"
#include "core/collision/point_triangle_distance.hpp"

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

// The motion of one point-triangle pair (collision_types.hpp glossary), a CcdPairMotion.
struct Motion {
  const Vector3d &p_t0, &a_t0, &b_t0, &c_t0, &p_t1, &a_t1, &b_t1, &c_t1;

  PairExtent first_sweep() const { return pair_extent({&p_t0, &p_t1}); }
  PairExtent second_sweep() const {
    return pair_extent({&a_t0, &b_t0, &c_t0, &a_t1, &b_t1, &c_t1});
  }
  double box_gap(int end) const {
    return end == 0 ? box_distance(pair_extent({&p_t0}), pair_extent({&a_t0, &b_t0, &c_t0}))
                    : box_distance(pair_extent({&p_t1}), pair_extent({&a_t1, &b_t1, &c_t1}));
  }
  double lipschitz() const {
    const Vector3d dp = p_t1 - p_t0;
    return std::max(
        {(dp - (a_t1 - a_t0)).norm(), (dp - (b_t1 - b_t0)).norm(), (dp - (c_t1 - c_t0)).norm()});
  }
  double distance_at(double t) const {
    return point_triangle_distance(position_at(p_t0, p_t1, t), position_at(a_t0, a_t1, t),
                                   position_at(b_t0, b_t1, t), position_at(c_t0, c_t1, t));
  }
  // point_triangle_ccd.hpp: the contact set's bounding polynomials.
  void add_candidate_times(double tau, CandidateTimes& candidates) const;
  // Weights, frozen normal and distance at the contact time t.
  PointTriangleCcdResult contact_at(double t, double tol) const;
};

void Motion::add_candidate_times(double tau, CandidateTimes& candidates) const {
  const Motion& m = *this;
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

PointTriangleCcdResult Motion::contact_at(double t, double tol) const {
  const Motion& m = *this;
  const Vector3d p = position_at(m.p_t0, m.p_t1, t);
  const Vector3d a = position_at(m.a_t0, m.a_t1, t);
  const Vector3d b = position_at(m.b_t0, m.b_t1, t);
  const Vector3d c = position_at(m.c_t0, m.c_t1, t);
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
  return first_ccd_contact(Motion{p_t0, a_t0, b_t0, c_t0, p_t1, a_t1, b_t1, c_t1}, options);
}

}  // namespace clothfit::collision
