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

Eigen::Vector3d at(const Eigen::Vector3d& x_t0, const Eigen::Vector3d& x_t1, double t) {
  return (1.0 - t) * x_t0 + t * x_t1;
}

}  // namespace

std::optional<EdgeEdgeCcdResult> edge_edge_ccd(
    const Eigen::Vector3d& ea0_t0, const Eigen::Vector3d& ea1_t0, const Eigen::Vector3d& eb0_t0,
    const Eigen::Vector3d& eb1_t0, const Eigen::Vector3d& ea0_t1, const Eigen::Vector3d& ea1_t1,
    const Eigen::Vector3d& eb0_t1, const Eigen::Vector3d& eb1_t1, const CcdOptions& options) {
  assert(options.is_valid());
  const double tau = options.detection_distance();
  const PairExtent box_a = pair_extent({&ea0_t0, &ea1_t0, &ea0_t1, &ea1_t1});
  const PairExtent box_b = pair_extent({&eb0_t0, &eb1_t0, &eb0_t1, &eb1_t1});
  PairExtent extent = box_a;
  extent.lower = extent.lower.cwiseMin(box_b.lower);
  extent.upper = extent.upper.cwiseMax(box_b.upper);
  extent.max_abs = std::max(extent.max_abs, box_b.max_abs);
  const double tol = distance_tolerance(extent, options.relative_tolerance);
  if (boxes_separated(box_a, box_b, tau + tol)) {
    return std::nullopt;
  }

  const auto distance_at = [&](double t) {
    return edge_edge_distance(at(ea0_t0, ea0_t1, t), at(ea1_t0, ea1_t1, t), at(eb0_t0, eb0_t1, t),
                              at(eb1_t0, eb1_t1, t));
  };
  // The distance is Lipschitz in t with constant D = max |Δx_i − Δy_j| over the end points of the
  // two edges (Δx = x_t1 − x_t0), so it stays above (d(0) + d(1) − D)/2 over the interval; d(0),
  // d(1) are first bounded below by the distances of the edges' boxes.
  const Eigen::Vector3d da0 = ea0_t1 - ea0_t0, da1 = ea1_t1 - ea1_t0;
  const Eigen::Vector3d db0 = eb0_t1 - eb0_t0, db1 = eb1_t1 - eb1_t0;
  const double lipschitz =
      std::max({(da0 - db0).norm(), (da0 - db1).norm(), (da1 - db0).norm(), (da1 - db1).norm()});
  const double lower_t0 =
      box_distance(pair_extent({&ea0_t0, &ea1_t0}), pair_extent({&eb0_t0, &eb1_t0}));
  const double lower_t1 =
      box_distance(pair_extent({&ea0_t1, &ea1_t1}), pair_extent({&eb0_t1, &eb1_t1}));
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
    const MotionVector edge_a = relative_motion(ea0_t0, ea1_t0, ea0_t1, ea1_t1);
    const MotionVector edge_b = relative_motion(eb0_t0, eb1_t0, eb0_t1, eb1_t1);
    const MotionVector between = relative_motion(ea0_t0, eb0_t0, ea0_t1, eb0_t1);
    const MotionVector normal = cross(edge_a, edge_b);
    const MotionPolynomial volume = dot(normal, between);  // V(t)
    const bool coplanar_throughout = candidates.add_roots(volume);
    const double tau2 = tau * tau;
    if (tau > 0.0) {
      candidates.add_roots(volume * volume - scaled(dot(normal, normal), tau2));
    }
    if (tau > 0.0 || coplanar_throughout) {
      // End point x against the line of edge y0 y1, for the four (end point, other edge) pairs.
      const auto add_end_point_line = [&](const Eigen::Vector3d& x_t0, const Eigen::Vector3d& x_t1,
                                          const Eigen::Vector3d& y0_t0,
                                          const Eigen::Vector3d& y0_t1,
                                          const MotionVector& edge_y) {
        const MotionVector moment = cross(relative_motion(y0_t0, x_t0, y0_t1, x_t1), edge_y);
        candidates.add_roots(dot(moment, moment) - scaled(dot(edge_y, edge_y), tau2));
      };
      add_end_point_line(ea0_t0, ea0_t1, eb0_t0, eb0_t1, edge_b);
      add_end_point_line(ea1_t0, ea1_t1, eb0_t0, eb0_t1, edge_b);
      add_end_point_line(eb0_t0, eb0_t1, ea0_t0, ea0_t1, edge_a);
      add_end_point_line(eb1_t0, eb1_t1, ea0_t0, ea0_t1, edge_a);
      // End point of edge a against end point of edge b, the four pairs.
      const auto add_end_points = [&](const Eigen::Vector3d& x_t0, const Eigen::Vector3d& x_t1,
                                      const Eigen::Vector3d& y_t0, const Eigen::Vector3d& y_t1) {
        const MotionVector between_points = relative_motion(y_t0, x_t0, y_t1, x_t1);
        candidates.add_roots(dot(between_points, between_points) - constant_polynomial(tau2));
      };
      add_end_points(ea0_t0, ea0_t1, eb0_t0, eb0_t1);
      add_end_points(ea0_t0, ea0_t1, eb1_t0, eb1_t1);
      add_end_points(ea1_t0, ea1_t1, eb0_t0, eb0_t1);
      add_end_points(ea1_t0, ea1_t1, eb1_t0, eb1_t1);
    }

    contact = candidates.first_contact(distance_at, tau, tol);
  }
  if (!contact) {
    return std::nullopt;
  }
  const double t = *contact;
  const Eigen::Vector3d ea0 = at(ea0_t0, ea0_t1, t);
  const Eigen::Vector3d ea1 = at(ea1_t0, ea1_t1, t);
  const Eigen::Vector3d eb0 = at(eb0_t0, eb0_t1, t);
  const Eigen::Vector3d eb1 = at(eb1_t0, eb1_t1, t);
  const EdgeEdgeClosest closest = edge_edge_closest(ea0, ea1, eb0, eb1);
  const double s = closest.s;
  const double u = closest.u;
  const auto separation = [s, u](const Eigen::Vector3d& a0, const Eigen::Vector3d& a1,
                                 const Eigen::Vector3d& b0, const Eigen::Vector3d& b1) {
    return Eigen::Vector3d(((1.0 - s) * a0 + s * a1) - ((1.0 - u) * b0 + u * b1));
  };
  ContactGeometry geometry;
  geometry.separation = separation(ea0, ea1, eb0, eb1);
  geometry.plane_normal = (ea1 - ea0).cross(eb1 - eb0);
  geometry.plane_normal_scale = (ea1 - ea0).norm() * (eb1 - eb0).norm();
  geometry.separation_t0 = separation(ea0_t0, ea1_t0, eb0_t0, eb1_t0);
  geometry.separation_t1 = separation(ea0_t1, ea1_t1, eb0_t1, eb1_t1);
  geometry.axis =
      (ea1 - ea0).squaredNorm() > 0.0 ? Eigen::Vector3d(ea1 - ea0) : Eigen::Vector3d(eb1 - eb0);
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

}  // namespace clothfit::collision
