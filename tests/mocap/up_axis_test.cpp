// The change of frame y up -> z up, length units and Euler angles.
#include "mocap/up_axis.hpp"

#include <gtest/gtest.h>

#include <numbers>
#include <utility>

#include "mocap/euler_angles.hpp"
#include "mocap/length_unit.hpp"

namespace clothfit::mocap {
namespace {

TEST(UpAxis, YUpFileBecomesZUpRightHanded) {
  const Eigen::Matrix3d c = file_to_simulator_rotation(UpAxis::kY);
  EXPECT_NEAR(c.determinant(), 1.0, 1e-15);  // a rotation: handedness kept
  EXPECT_TRUE((c * c.transpose()).isIdentity(1e-15));
  EXPECT_EQ(c * Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ());  // up stays up
  EXPECT_EQ(c * Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitX());
  const Eigen::Vector3d p(0.1, -2.5, 7.0);
  EXPECT_EQ(to_simulator_frame(p, UpAxis::kY), c * p);
  EXPECT_EQ(from_simulator_frame(to_simulator_frame(p, UpAxis::kY), UpAxis::kY), p);
  EXPECT_EQ(to_simulator_frame(p, UpAxis::kZ), p);
  EXPECT_TRUE(file_to_simulator_rotation(UpAxis::kZ).isIdentity());
}

TEST(UpAxis, OrientationsChangeFrameLikeMatrices) {
  const Eigen::Matrix3d c = file_to_simulator_rotation(UpAxis::kY);
  const Eigen::Quaterniond q(Eigen::AngleAxisd(0.7, Eigen::Vector3d(0.3, -1, 2).normalized()));
  const Eigen::Quaterniond s = to_simulator_frame(q, UpAxis::kY);
  EXPECT_TRUE(s.toRotationMatrix().isApprox(c * q.toRotationMatrix() * c.transpose(), 1e-14));
  EXPECT_TRUE(from_simulator_frame(s, UpAxis::kY).isApprox(q, 1e-14));
  // Body offsets move with the frame: C (R l) = (C R Cᵀ)(C l).
  const Eigen::Vector3d l(0.2, 0.1, -0.4);
  EXPECT_TRUE((c * (q * l)).isApprox(s * (c * l), 1e-14));
}

TEST(UpAxis, NamesParse) {
  EXPECT_EQ(parse_up_axis("y"), UpAxis::kY);
  EXPECT_EQ(parse_up_axis("Z"), UpAxis::kZ);
  EXPECT_FALSE(parse_up_axis("x").has_value());
  EXPECT_EQ(up_axis_name(UpAxis::kZ), "z");
}

TEST(LengthUnit, ParsesMotiveSpellingsAndSymbols) {
  // Every unit in Motive's spelling, the British one and its symbol, in any case.
  const std::pair<const char*, LengthUnit> spellings[] = {{"Meters", LengthUnit::kMeters},
                                                          {"metres", LengthUnit::kMeters},
                                                          {"M", LengthUnit::kMeters},
                                                          {"Centimeters", LengthUnit::kCentimeters},
                                                          {"centimetres", LengthUnit::kCentimeters},
                                                          {"cm", LengthUnit::kCentimeters},
                                                          {"MILLIMETERS", LengthUnit::kMillimeters},
                                                          {"Millimetres", LengthUnit::kMillimeters},
                                                          {"mm", LengthUnit::kMillimeters}};
  for (const auto& [text, unit] : spellings)
    EXPECT_EQ(parse_length_unit(text), unit) << text;
  EXPECT_FALSE(parse_length_unit("Inches").has_value());
  EXPECT_FALSE(parse_length_unit("meter").has_value());
  EXPECT_FALSE(parse_length_unit("").has_value());
  EXPECT_EQ(metres_per_unit(LengthUnit::kMillimeters), 0.001);
  EXPECT_EQ(motive_unit_name(LengthUnit::kCentimeters), "Centimeters");
  EXPECT_EQ(unit_symbol(LengthUnit::kMeters), "m");
}

TEST(EulerAngles, OrderIsTheProductOfElementaryRotations) {
  constexpr double kDeg = std::numbers::pi / 180;
  const Eigen::Vector3d angles(10, -35, 70);  // about x, y, z, degrees
  auto r = [&](int axis) {
    return Eigen::AngleAxisd(angles[axis] * kDeg, Eigen::Vector3d::Unit(axis)).toRotationMatrix();
  };
  EXPECT_TRUE(quaternion_from_euler_degrees(angles, *parse_euler_order("XYZ"))
                  .toRotationMatrix()
                  .isApprox(r(0) * r(1) * r(2), 1e-14));
  EXPECT_TRUE(quaternion_from_euler_degrees(angles, *parse_euler_order("zyx"))
                  .toRotationMatrix()
                  .isApprox(r(2) * r(1) * r(0), 1e-14));
  EXPECT_TRUE(quaternion_from_euler_degrees(angles, *parse_euler_order("YXZ"))
                  .toRotationMatrix()
                  .isApprox(r(1) * r(0) * r(2), 1e-14));
  EXPECT_FALSE(parse_euler_order("XXY").has_value());
  EXPECT_FALSE(parse_euler_order("XY").has_value());
  EXPECT_FALSE(parse_euler_order("Quaternion").has_value());
}

}  // namespace
}  // namespace clothfit::mocap
