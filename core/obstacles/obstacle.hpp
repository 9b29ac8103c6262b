// Obstacle: a rigid obstacle given by an implicit function h(x, t) ≥ 0 outside (DESIGN.md §1,
// paper §2, Remark 2.2): the contact constraint of a cloth node p is H_i = h(p, t) ≥ 0 with the
// outward normal ∇h(p, t) ≠ 0.
//
// Conventions shared by all obstacles (see rigid_motion.hpp for the frames):
// - h is in metres. For plane, table, sphere and cylinder it is the exact signed distance to the
//   surface (positive outside), so |∇h| = 1 and tolerances in metres mean what they say. For the
//   needle field it is the vertical gap to the surface (is_signed_distance() == false).
// - ∇h is nonzero everywhere (at kinks of the distance function, e.g. the centre of a sphere or
//   the edges of a sharp box, one of the one-sided gradients is returned).
// - A moving obstacle is evaluated in its rest frame: h(x, t) = h_rest(X), X = p + R(t)ᵀ(x − c(t)),
//   and ∇h(x, t) = R(t) ∇h_rest(X).
// - surface_velocity(x, t) is the velocity of the obstacle's material point nearest to x (the
//   point of the surface where the contact is), ω × (x_s − c) + ḋ; zero for static obstacles.
//   It is the velocity friction must subtract (paper §6.2).
//
// The contact code calls evaluate() for every node at every iteration: take a snapshot with
// at(t) once per iteration (it computes R(t) once) and call its evaluate(x) per node, or use the
// batched evaluate(points, t, ...).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <string_view>

#include "core/obstacles/rigid_motion.hpp"

namespace clothfit::obstacles {

// h and ∇h at one point.
struct ValueAndGradient {
  double value = 0.0;                                   // h, metres (≥ 0 outside)
  Eigen::Vector3d gradient = Eigen::Vector3d::UnitZ();  // ∇h (world), nonzero; unit for distances
};

// What every obstacle has besides its geometry.
// The largest friction coefficient scenario files, the command line and fits accept. Measured
// textiles have μ below 2; a contact at μ = 100 sticks as it would at any larger μ, and at 1e5
// the 196-node cylinder's converged steps created energy (0.86 J to 7.9 J in one step, nodes at
// 56 m/s) before the run failed.
inline constexpr double kMaxFrictionCoefficient = 100.0;

struct ObstacleOptions {
  // Name used in reports and to address this obstacle's μ when fitting; unique per scenario.
  std::string name;
  // Coulomb friction coefficient μ ≥ 0 of cloth against this obstacle (dimensionless).
  double friction_coefficient = 0.0;
  // Request a contact constraint at each face centre too, not only at the nodes (paper Remark 2.2,
  // for coarse meshes).
  bool constrain_face_centres = false;
  // Prescribed motion; the identity for a static obstacle.
  RigidMotion motion;
};

class ObstacleAtTime;

class Obstacle {
 public:
  // Asserts options.friction_coefficient ≥ 0.
  explicit Obstacle(ObstacleOptions options);
  virtual ~Obstacle() = default;

  // A deep copy (obstacles are held through std::unique_ptr).
  virtual std::unique_ptr<Obstacle> clone() const = 0;
  // "plane", "table", "sphere", "cylinder" or "needles": the JSON "type".
  virtual std::string_view type() const = 0;
  // True when h is a signed distance in metres (|∇h| = 1).
  virtual bool is_signed_distance() const = 0;

  // --- The shape in its rest frame (x_rest_m: X, metres). ---
  // h(X) and ∇h(X) (rest-frame components).
  virtual ValueAndGradient evaluate_rest(const Eigen::Vector3d& x_rest_m) const = 0;
  // The surface point (h = 0) the contact at X refers to: for signed distances the closest point
  // X − h ∇h; overridden where h is not a distance.
  virtual Eigen::Vector3d surface_point_rest(const Eigen::Vector3d& x_rest_m) const;

  // --- World evaluation at time t_s (seconds); x_world_m: x, metres. ---
  ObstacleAtTime at(double t_s) const;
  ValueAndGradient evaluate(const Eigen::Vector3d& x_world_m, double t_s) const;
  double value(const Eigen::Vector3d& x_world_m, double t_s) const;
  Eigen::Vector3d gradient(const Eigen::Vector3d& x_world_m, double t_s) const;
  // Batched: points (3 × n) → values (n), gradients (3 × n); outputs are resized.
  void evaluate(const Eigen::Matrix3Xd& points_world_m, double t_s, Eigen::VectorXd& values,
                Eigen::Matrix3Xd& gradients) const;
  // The surface point for x (world), metres.
  Eigen::Vector3d closest_surface_point(const Eigen::Vector3d& x_world_m, double t_s) const;
  // Velocity (m/s, world) of the obstacle's material point nearest x at time t (left-continuous
  // in t at keyframes, see rigid_motion.hpp).
  Eigen::Vector3d surface_velocity(const Eigen::Vector3d& x_world_m, double t_s) const;
  // Mean velocity (m/s) over [t0, t1] of the material point that is nearest x at t1:
  // (x_s(t1) − x_s(t0)) / (t1 − t0). Consistent with an implicit Euler step t0 → t1. t1 > t0.
  Eigen::Vector3d average_surface_velocity(const Eigen::Vector3d& x_world_m, double t0_s,
                                           double t1_s) const;

  // --- Options. ---
  const ObstacleOptions& options() const { return m_options; }
  const std::string& name() const { return m_options.name; }
  double friction_coefficient() const { return m_options.friction_coefficient; }
  // For fitting μ; asserts mu ≥ 0.
  void set_friction_coefficient(double mu);
  bool constrain_face_centres() const { return m_options.constrain_face_centres; }
  const RigidMotion& motion() const { return m_options.motion; }
  bool is_static() const { return m_options.motion.is_identity(); }

 private:
  ObstacleOptions m_options;
};

// An obstacle placed at one time: R(t), c(t), ω(t) computed once, then cheap per-point calls.
// Holds a reference to the obstacle, which must outlive it.
class ObstacleAtTime {
 public:
  ObstacleAtTime(const Obstacle& obstacle, double t_s)
      : m_obstacle(&obstacle), m_time_s(t_s), m_pose(obstacle.motion().pose(t_s)) {}

  ValueAndGradient evaluate(const Eigen::Vector3d& x_world_m) const {
    ValueAndGradient out = m_obstacle->evaluate_rest(m_pose.to_rest(x_world_m));
    out.gradient = m_pose.direction_to_world(out.gradient);
    return out;
  }
  double value(const Eigen::Vector3d& x_world_m) const {
    return m_obstacle->evaluate_rest(m_pose.to_rest(x_world_m)).value;
  }
  Eigen::Vector3d gradient(const Eigen::Vector3d& x_world_m) const {
    return evaluate(x_world_m).gradient;
  }
  Eigen::Vector3d closest_surface_point(const Eigen::Vector3d& x_world_m) const {
    return m_pose.to_world(m_obstacle->surface_point_rest(m_pose.to_rest(x_world_m)));
  }
  Eigen::Vector3d surface_velocity(const Eigen::Vector3d& x_world_m) const {
    if (m_pose.identity)
      return Eigen::Vector3d::Zero();
    return m_pose.velocity(closest_surface_point(x_world_m));
  }

  const Obstacle& obstacle() const { return *m_obstacle; }
  double time_s() const { return m_time_s; }
  const RigidPose& pose() const { return m_pose; }

 private:
  const Obstacle* m_obstacle;
  double m_time_s;
  RigidPose m_pose;
};

}  // namespace clothfit::obstacles
