// Reading obstacles from a scenario's JSON (the "obstacles" array). Every field is documented in
// docs/obstacles.md; every mistake is an InputError naming the field path (e.g.
// "obstacles[1].radius") and what was expected; unknown fields are rejected.
//
//   "obstacles": [
//     {"type": "plane", "name": "floor", "friction": 0.4},
//     {"type": "sphere", "centre": [0, 0, 0.35], "radius": 0.35, "friction": 0.5,
//      "motion": {"rotation": {"axis": [0, 0, 1], "pivot": [0, 0, 0.35],
//                              "keyframes": [{"time": 1, "angle_deg": 0},
//                                            {"time": 2, "angle_deg": 180}]}}}
//   ]
#pragma once

#include <memory>
#include <vector>

#include "core/io/json_object.hpp"
#include "core/obstacles/obstacle.hpp"

namespace clothfit::obstacles {

// One element of the "obstacles" array. `default_name` is used when "name" is absent (the
// obstacle's type when empty).
std::unique_ptr<Obstacle> parse_obstacle(const JsonObject& object,
                                         const std::string& default_name = "");

// The "obstacles" array of `scenario` (none when the field is absent). Names must be distinct;
// an unnamed obstacle is named after its type ("plane", "table", ...).
std::vector<std::unique_ptr<Obstacle>> parse_obstacles(const JsonObject& scenario);

// A "motion" object: {"rotation": {...}, "translation": {...}}, both optional.
RigidMotion parse_rigid_motion(const JsonObject& motion);

}  // namespace clothfit::obstacles
