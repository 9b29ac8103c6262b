// Whether a point of the sheet is near a contact: where a synthetic recording's markers are
// likelier to be occluded (marker_corruption.hpp). Near an obstacle means h(X, t) below
// kNearObstacleM (the distance, for the signed-distance obstacles); near the stick, within
// kNearStickM of its surface, measured from the segment between its ends (not the infinite line).
#pragma once

#include <Eigen/Core>

#include "core/stepper/simulation_model.hpp"

namespace clothfit::fitting {

inline constexpr double kNearObstacleM = 0.01;
inline constexpr double kNearStickM = 0.05;

struct ContactProximity {
  bool obstacle = false;  // some obstacle's h(X, t) < kNearObstacleM
  bool stick = false;     // the model has a stick and X is within radius + kNearStickM of it
};

ContactProximity contact_proximity(const stepper::SimulationModel& model,
                                   const Eigen::Vector3d& point_m, double time_s);

}  // namespace clothfit::fitting
