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

Eigen::Vector3d at(const Eigen::Vector3d& x_t0, const Eigen::Vector3d& x_t1, double t) {
  return (1.0 - t) * x_t0 + t * x_t1;
}

}  // namespace

std::optional<PointTriangleCcdResult> point_triangle_ccd(
    const Eigen::Vector3d& p_t0, const Eigen::Vector3d& a_t0, const Eigen::Vector3d& b_t0,
    const Eigen::Vector3d& c_t0, const Eigen::Vector3d& p_t1, const Eigen::Vector3d& a_t1,
    const Eigen::Vector3d& b_t1, const Eigen::Vector3d& c_t1, const CcdOptions& options) {
  assert(options.is_valid());
  const double tau = options.detection_distance();
  const PairExtent point_box = pair_extent({&p_t0, &p_t1});
  const PairExtent triangle_box = pair_extent({&a_t0, &b_t0, &c_t0, &a_t1, &b_t1, &c_t1});
  PairExtent extent = triangle_box;
  extent.lower = extent.lower.cwiseMin(point_box.lower);
  extent.upper = extent.upper.cwiseMax(point_box.upper);
  extent.max_abs = std::max(extent.max_abs, point_box.max_abs);
  const double tol = distance_tolerance(extent, options.relative_tolerance);
  if (boxes_separated(point_box, triangle_box, tau + tol)) {
    return std::nullopt;
  }

  const auto distance_at = [&](double t) {
    return point_triangle_distance(at(p_t0, p_t1, t), at(a_t0, a_t1, t), at(b_t0, b_t1, t),
                                   at(c_t0, c_t1, t));
  };
  // The distance is Lipschitz in t with constant D = max |Δx_i − Δy_j| over the corners of the two
  // elements (Δx = x_t1 − x_t0), so it stays above (d(0) + d(1) − D)/2 over the interval; d(0),
  // d(1) are first bounded below by the distances of the elements' boxes.
  const Eigen::Vector3d dp = p_t1 - p_t0;
  const double lipschitz = std::max(
      {(dp - (a_t1 - a_t0)).norm(), (dp - (b_t1 - b_t0)).norm(), (dp - (c_t1 - c_t0)).norm()});
  const double lower_t0 = box_distance(pair_extent({&p_t0}), pair_extent({&a_t0, &b_t0, &c_t0}));
  const double lower_t1 = box_distance(pair_extent({&p_t1}), pair_extent({&a_t1, &b_t1, &c_t1}));
  if (0.5 * (lower_t0 + lower_t1 - lipschitz) > tau + tol) {
    return std::nullopt;
  }
  const double distance_t0 = distance_at(0.0);
  std::optional<double> contact;
  if (distance_t0 <= tau + tol) {
    contact = 0.0;  // already within tau at the start
  } else {
    if (0.5 * (distance_t0 + distance_at(1.0) - lipschitz) > tau + tol) {
      return std::nullopt;
    }
    CandidateTimes candidates;
    candidates.add(0.0);
    const MotionVector ab = relative_motion(a_t0, b_t0, a_t1, b_t1);
    const MotionVector ac = relative_motion(a_t0, c_t0, a_t1, c_t1);
    const MotionVector ap = relative_motion(a_t0, p_t0, a_t1, p_t1);
    const MotionVector normal = cross(ab, ac);
    const MotionPolynomial volume = dot(normal, ap);  // V(t), the coplanarity cubic
    const bool coplanar_throughout = candidates.add_roots(volume);
    const double tau2 = tau * tau;
    if (tau > 0.0) {
      candidates.add_roots(volume * volume - scaled(dot(normal, normal), tau2));
    }
    if (tau > 0.0 || coplanar_throughout) {
      const Eigen::Vector3d* corners_t0[3] = {&a_t0, &b_t0, &c_t0};
      const Eigen::Vector3d* corners_t1[3] = {&a_t1, &b_t1, &c_t1};
      for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3;
        const MotionVector edge =
            relative_motion(*corners_t0[i], *corners_t0[j], *corners_t1[i], *corners_t1[j]);
        const MotionVector to_point = relative_motion(*corners_t0[i], p_t0, *corners_t1[i], p_t1);
        const MotionVector moment = cross(to_point, edge);
        candidates.add_roots(dot(moment, moment) - scaled(dot(edge, edge), tau2));
        candidates.add_roots(dot(to_point, to_point) - constant_polynomial(tau2));
      }
    }
    contact = candidates.first_contact(distance_at, tau, tol);
  }
  if (!contact) {
    return std::nullopt;
  }
  const double t = *contact;
  const Eigen::Vector3d p = at(p_t0, p_t1, t);
  const Eigen::Vector3d a = at(a_t0, a_t1, t);
  const Eigen::Vector3d b = at(b_t0, b_t1, t);
  const Eigen::Vector3d c = at(c_t0, c_t1, t);
  const PointTriangleClosest closest = point_triangle_closest(p, a, b, c);
  const Eigen::Vector3d& w = closest.weights;
  ContactGeometry geometry;
  geometry.separation = p - (w[0] * a + w[1] * b + w[2] * c);
  geometry.plane_normal = (b - a).cross(c - a);
  geometry.plane_normal_scale = (b - a).norm() * (c - a).norm();
  geometry.separation_t0 = p_t0 - (w[0] * a_t0 + w[1] * b_t0 + w[2] * c_t0);
  geometry.separation_t1 = p_t1 - (w[0] * a_t1 + w[1] * b_t1 + w[2] * c_t1);
  geometry.tolerance = tol;

  PointTriangleCcdResult result;
  result.time = t;
  result.weights = w;
  result.normal = contact_normal(geometry);
  result.distance = closest.distance;
  result.separation_t0 = result.normal.dot(geometry.separation_t0);
  return result;
}

}  // namespace clothfit::collision
