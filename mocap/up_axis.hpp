// The up axis of a file's coordinates and the change of frame to the simulator's frame.
//
// The simulator's frame is right-handed with z up (DESIGN.md §1). Motive exports right-handed
// coordinates with y up by default (x right, y up, z towards the viewer); such a file is turned
// into the simulator's frame by the rotation of +90° about x:
//
//   (x, y, z)_file  ->  (x, -z, y)_simulator
//
// so that file +y becomes simulator +z and handedness is kept. A file exported z up is taken as is.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <optional>
#include <string_view>

namespace clothfit::mocap {

enum class UpAxis { kY, kZ };

// "y" or "z".
std::string_view up_axis_name(UpAxis axis);
// Accepts "y", "z" (any case). Empty otherwise.
std::optional<UpAxis> parse_up_axis(std::string_view text);

// The rotation matrix C with p_simulator = C p_file for a file whose up axis is `file_up`.
Eigen::Matrix3d file_to_simulator_rotation(UpAxis file_up);

// Position (any unit) from the file's axes to the simulator's axes, and back.
inline Eigen::Vector3d to_simulator_frame(const Eigen::Vector3d& p_file, UpAxis file_up) {
  if (file_up == UpAxis::kZ)
    return p_file;
  return {p_file.x(), -p_file.z(), p_file.y()};
}
inline Eigen::Vector3d from_simulator_frame(const Eigen::Vector3d& p_simulator, UpAxis file_up) {
  if (file_up == UpAxis::kZ)
    return p_simulator;
  return {p_simulator.x(), p_simulator.z(), -p_simulator.y()};
}

// Orientation (body -> file frame) to (body -> simulator frame) and back: q' = c q c⁻¹, where c is
// the quaternion of C; body-fixed offsets are rotated by C like positions.
Eigen::Quaterniond to_simulator_frame(const Eigen::Quaterniond& q_file, UpAxis file_up);
Eigen::Quaterniond from_simulator_frame(const Eigen::Quaterniond& q_simulator, UpAxis file_up);

}  // namespace clothfit::mocap
