// Motive's Euler angles (rigid-body `Rotation` with three columns X, Y, Z in degrees) as a
// quaternion.
//
// Motive documents only "rotation order XYZ, right-handed, degrees" (and, for the `Rotation Type`
// export setting, the orders XYZ, XZY, YXZ, YZX, ZXY, ZYX). clothfit reads order "ABC" as the
// product of elementary rotations R = R_A(angle_A) · R_B(angle_B) · R_C(angle_C) (intrinsic
// rotations: first about A, then about the rotated B, then about the twice-rotated C), the
// convention used by the reader of the 1.22 fixture's source project. This is an assumption, not
// something the file states; marker positions never depend on it.
#pragma once

#include <Eigen/Geometry>
#include <array>
#include <optional>
#include <string_view>

namespace clothfit::mocap {

// Axis indices (0 = x, 1 = y, 2 = z) in rotation order, e.g. {0, 1, 2} for "XYZ".
using EulerOrder = std::array<int, 3>;

// "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX" (any case). Empty otherwise.
std::optional<EulerOrder> parse_euler_order(std::string_view text);

// angles_deg: rotation about x, y and z in degrees (indexed by axis, not by order).
Eigen::Quaterniond quaternion_from_euler_degrees(const Eigen::Vector3d& angles_deg,
                                                 const EulerOrder& order);

}  // namespace clothfit::mocap
