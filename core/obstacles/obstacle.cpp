#include "core/obstacles/obstacle.hpp"

#include <cassert>

namespace clothfit::obstacles {

Obstacle::Obstacle(ObstacleOptions options) : m_options(std::move(options)) {
  assert(m_options.friction_coefficient >= 0.0);
}

Eigen::Vector3d Obstacle::surface_point_rest(const Eigen::Vector3d& x_rest_m) const {
  const ValueAndGradient vg = evaluate_rest(x_rest_m);
  return x_rest_m - vg.value * vg.gradient;
}

ObstacleAtTime Obstacle::at(double t_s) const {
  return ObstacleAtTime(*this, t_s);
}

ValueAndGradient Obstacle::evaluate(const Eigen::Vector3d& x_world_m, double t_s) const {
  return at(t_s).evaluate(x_world_m);
}

double Obstacle::value(const Eigen::Vector3d& x_world_m, double t_s) const {
  return at(t_s).value(x_world_m);
}

Eigen::Vector3d Obstacle::gradient(const Eigen::Vector3d& x_world_m, double t_s) const {
  return at(t_s).gradient(x_world_m);
}

void Obstacle::evaluate(const Eigen::Matrix3Xd& points_world_m, double t_s, Eigen::VectorXd& values,
                        Eigen::Matrix3Xd& gradients) const {
  const ObstacleAtTime placed = at(t_s);
  const Eigen::Index n = points_world_m.cols();
  values.resize(n);
  gradients.resize(3, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const ValueAndGradient vg = placed.evaluate(points_world_m.col(i));
    values[i] = vg.value;
    gradients.col(i) = vg.gradient;
  }
}

Eigen::Vector3d Obstacle::closest_surface_point(const Eigen::Vector3d& x_world_m,
                                                double t_s) const {
  return at(t_s).closest_surface_point(x_world_m);
}

Eigen::Vector3d Obstacle::surface_velocity(const Eigen::Vector3d& x_world_m, double t_s) const {
  return at(t_s).surface_velocity(x_world_m);
}

Eigen::Vector3d Obstacle::average_surface_velocity(const Eigen::Vector3d& x_world_m, double t0_s,
                                                   double t1_s) const {
  assert(t1_s > t0_s);
  if (is_static())
    return Eigen::Vector3d::Zero();
  const RigidPose pose0 = motion().pose(t0_s);
  const RigidPose pose1 = motion().pose(t1_s);
  const Eigen::Vector3d surface_rest = surface_point_rest(pose1.to_rest(x_world_m));
  return (pose1.to_world(surface_rest) - pose0.to_world(surface_rest)) / (t1_s - t0_s);
}

void Obstacle::set_friction_coefficient(double mu) {
  assert(mu >= 0.0);
  m_options.friction_coefficient = mu;
}

}  // namespace clothfit::obstacles
