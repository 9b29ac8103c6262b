#include "core/collision/edge_edge_ccd.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cassert>

#include "core/collision/ccd_driver.hpp"
#include "core/collision/contact_normal.hpp"
#include "core/collision/edge_edge_distance.hpp"
#include "core/collision/motion_polynomial.hpp"

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

// The motion of one edge-edge pair (collision_types.hpp glossary), a CcdPairMotion.
struct Motion {
  const Vector3d &ea0_t0, &ea1_t0, &eb0_t0, &eb1_t0, &ea0_t1, &ea1_t1, &eb0_t1, &eb1_t1;

  PairExtent first_sweep() const { return pair_extent({&ea0_t0, &ea1_t0, &ea0_t1, &ea1_t1}); }
  PairExtent second_sweep() const { return pair_extent({&eb0_t0, &eb1_t0, &eb0_t1, &eb1_t1}); }
  double box_gap(int end) const {
    return end == 0
               ? box_distance(pair_extent({&ea0_t0, &ea1_t0}), pair_extent({&eb0_t0, &eb1_t0}))
               : box_distance(pair_extent({&ea0_t1, &ea1_t1}), pair_extent({&eb0_t1, &eb1_t1}));
  }
  double lipschitz() const {
    const Vector3d da0 = ea0_t1 - ea0_t0, da1 = ea1_t1 - ea1_t0;
    const Vector3d db0 = eb0_t1 - eb0_t0, db1 = eb1_t1 - eb1_t0;
    return std::max(
        {(da0 - db0).norm(), (da0 - db1).norm(), (da1 - db0).norm(), (da1 - db1).norm()});
  }
  double distance_at(double t) const {
    return edge_edge_distance(position_at(ea0_t0, ea0_t1, t), position_at(ea1_t0, ea1_t1, t),
                              position_at(eb0_t0, eb0_t1, t), position_at(eb1_t0, eb1_t1, t));
  }
  // edge_edge_ccd.hpp: the contact set's bounding polynomials.
  void add_candidate_times(double tau, CandidateTimes& candidates) const;
  // Edge parameters, frozen normal and distance at the contact time t.
  EdgeEdgeCcdResult contact_at(double t, double tol) const;
};

void Motion::add_candidate_times(double tau, CandidateTimes& candidates) const {
  const Motion& m = *this;
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

EdgeEdgeCcdResult Motion::contact_at(double t, double tol) const {
  const Motion& m = *this;
  const Vector3d ea0 = position_at(m.ea0_t0, m.ea0_t1, t);
  const Vector3d ea1 = position_at(m.ea1_t0, m.ea1_t1, t);
  const Vector3d eb0 = position_at(m.eb0_t0, m.eb0_t1, t);
  const Vector3d eb1 = position_at(m.eb1_t0, m.eb1_t1, t);
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
  return first_ccd_contact(Motion{ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1},
                           options);
}

}  // namespace clothfit::collision
