#include "mocap/euler_angles.hpp"

#include <cctype>
#include <numbers>

namespace clothfit::mocap {

std::optional<EulerOrder> parse_euler_order(std::string_view text) {
  if (text.size() != 3)
    return std::nullopt;
  EulerOrder order{};
  bool seen[3] = {false, false, false};
  for (int i = 0; i < 3; ++i) {
    const int axis = std::toupper(static_cast<unsigned char>(text[i])) - 'X';
    if (axis < 0 || axis > 2 || seen[axis])
      return std::nullopt;
    seen[axis] = true;
    order[i] = axis;
  }
  return order;
}

Eigen::Quaterniond quaternion_from_euler_degrees(const Eigen::Vector3d& angles_deg,
                                                 const EulerOrder& order) {
  constexpr double kRadPerDeg = std::numbers::pi / 180.0;
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
  for (int axis : order) {
    q = q * Eigen::Quaterniond(
                Eigen::AngleAxisd(angles_deg[axis] * kRadPerDeg, Eigen::Vector3d::Unit(axis)));
  }
  return q;
}

}  // namespace clothfit::mocap
