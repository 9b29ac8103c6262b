#include "mocap/up_axis.hpp"

#include <cmath>

namespace clothfit::mocap {

std::string_view up_axis_name(UpAxis axis) {
  return axis == UpAxis::kY ? "y" : "z";
}

std::optional<UpAxis> parse_up_axis(std::string_view text) {
  if (text == "y" || text == "Y")
    return UpAxis::kY;
  if (text == "z" || text == "Z")
    return UpAxis::kZ;
  return std::nullopt;
}

Eigen::Matrix3d file_to_simulator_rotation(UpAxis file_up) {
  if (file_up == UpAxis::kZ)
    return Eigen::Matrix3d::Identity();
  Eigen::Matrix3d c;
  c << 1, 0, 0,  //
      0, 0, -1,  //
      0, 1, 0;
  return c;
}

namespace {

Eigen::Quaterniond change_quaternion(UpAxis file_up) {
  if (file_up == UpAxis::kZ)
    return Eigen::Quaterniond::Identity();
  const double h = std::sqrt(0.5);  // cos 45° = sin 45°
  return Eigen::Quaterniond(h, h, 0.0, 0.0);
}

}  // namespace

Eigen::Quaterniond to_simulator_frame(const Eigen::Quaterniond& q_file, UpAxis file_up) {
  const Eigen::Quaterniond c = change_quaternion(file_up);
  return c * q_file * c.conjugate();
}

Eigen::Quaterniond from_simulator_frame(const Eigen::Quaterniond& q_simulator, UpAxis file_up) {
  const Eigen::Quaterniond c = change_quaternion(file_up);
  return c.conjugate() * q_simulator * c;
}

}  // namespace clothfit::mocap
