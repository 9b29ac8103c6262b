#include "core/obstacles/unit_vector.hpp"

#include <gtest/gtest.h>

#include <random>

namespace clothfit::obstacles {
namespace {

// Any finite nonzero vector gets unit length: [0, 0, 1e200] (|v|² overflows) and [0, 0, 1e-200]
// (underflows) made a plane's normal 0 or NaN, and the plane vanished.
TEST(UnitVector, AnyFiniteLengthIsNormalised) {
  EXPECT_EQ(unit_vector({0, 0, 1e200}), Eigen::Vector3d::UnitZ());
  EXPECT_EQ(unit_vector({0, 0, 1e-200}), Eigen::Vector3d::UnitZ());
  EXPECT_EQ(unit_vector({0, -5e-324, 0}), -Eigen::Vector3d::UnitY());
  EXPECT_TRUE(
      unit_vector({1.7e308, 1.7e308, 0}).isApprox(Eigen::Vector3d(1, 1, 0).normalized(), 1e-15));
  EXPECT_TRUE(unit_vector({3e-170, 0, 4e-170}).isApprox(Eigen::Vector3d(0.6, 0, 0.8), 1e-15));
}

// Where |v|² is an ordinary double it is v.normalized(), bit for bit: the obstacles of every
// scenario keep the normals and axes they had.
TEST(UnitVector, OrdinaryVectorsKeepTheirBits) {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> coordinate(-10.0, 10.0);
  for (int trial = 0; trial < 1000; ++trial) {
    const Eigen::Vector3d v(coordinate(random), coordinate(random), coordinate(random));
    EXPECT_EQ(unit_vector(v), v.normalized()) << v.transpose();
  }
}

}  // namespace
}  // namespace clothfit::obstacles
