#include "fitting/contact_proximity.hpp"

#include "core/collision/point_edge_distance.hpp"

namespace clothfit::fitting {

ContactProximity contact_proximity(const stepper::SimulationModel& model,
                                   const Eigen::Vector3d& point_m, double time_s) {
  ContactProximity out;
  for (const auto& obstacle : model.obstacles) {
    if (obstacle->value(point_m, time_s) < kNearObstacleM)
      out.obstacle = true;
  }
  if (model.stick) {
    const double distance = collision::point_edge_distance(
        point_m, model.stick->end0.position(time_s), model.stick->end1.position(time_s));
    out.stick = distance < model.stick->radius + kNearStickM;
  }
  return out;
}

}  // namespace clothfit::fitting
