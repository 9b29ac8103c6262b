// Exact orientation predicates against exact integer arithmetic (__int128) on inputs where the
// double-precision determinant is wrong or undecided: points 1 ulp off a common plane/line.
#include "core/collision/orientation_predicates.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace clothfit::collision {
namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;
__extension__ typedef __int128 Int;  // exact reference arithmetic (GCC/Clang)

int sign_of(Int v) {
  return (v > 0) - (v < 0);
}

int exact_orient3d(const std::array<std::array<int64_t, 3>, 4>& p) {
  Int m[3][3];
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 3; ++k) {
      m[r][k] = Int(p[r][k]) - Int(p[3][k]);
    }
  }
  const Int det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                  m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                  m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  return sign_of(det);
}

TEST(OrientationPredicates, SimpleSigns) {
  const Vector3d a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  EXPECT_EQ(orient3d(a, b, c, Vector3d(0, 0, -1)), 1);  // below a counter-clockwise abc
  EXPECT_EQ(orient3d(a, b, c, Vector3d(0, 0, 1)), -1);
  EXPECT_EQ(orient3d(a, b, c, Vector3d(5, 7, 0)), 0);
  EXPECT_EQ(orient2d(Vector2d(0, 0), Vector2d(1, 0), Vector2d(0, 1)), 1);
  EXPECT_EQ(orient2d(Vector2d(0, 0), Vector2d(0, 1), Vector2d(1, 0)), -1);
  EXPECT_EQ(orient2d(Vector2d(0, 0), Vector2d(1, 1), Vector2d(3, 3)), 0);
}

// Points on the line y = x near (0.5, 0.5), 1 ulp apart, against (12, 12) and (24, 24): the
// classic case where the floating-point determinant gives wrong signs. Scaled by 2⁵³ all
// coordinates are integers, so __int128 gives the exact answer.
TEST(OrientationPredicates, Orient2dOnAnUlpGrid) {
  const double ulp = std::ldexp(1.0, -53);
  const Vector2d b(12, 12), c(24, 24);
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 64; ++j) {
      const Vector2d a(0.5 + i * ulp, 0.5 + j * ulp);
      const Int scale = Int(1) << 53;
      const Int ax = (Int(1) << 52) + i, ay = (Int(1) << 52) + j;
      const Int bx = 12 * scale, by = 12 * scale, cx = 24 * scale, cy = 24 * scale;
      const int expected = sign_of((ax - cx) * (by - cy) - (ay - cy) * (bx - cx));
      ASSERT_EQ(orient2d(a, b, c), expected) << i << " " << j;
    }
  }
}

// Integer points made exactly coplanar (d = a + i (b − a) + j (c − a)) and then moved by ±1 in
// one coordinate, scaled by 2⁻⁴⁰ (exact) so that the values are not small integers.
TEST(OrientationPredicates, Orient3dNearlyCoplanarAgainstInt128) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int64_t> coordinate(-(int64_t(1) << 24), int64_t(1) << 24);
  std::uniform_int_distribution<int> small(-3, 3);
  int zeros = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::array<std::array<int64_t, 3>, 4> p;
    for (int r = 0; r < 3; ++r) {
      for (int k = 0; k < 3; ++k) {
        p[r][k] = coordinate(rng);
      }
    }
    const int i = small(rng), j = small(rng);
    for (int k = 0; k < 3; ++k) {
      p[3][k] = p[0][k] + i * (p[1][k] - p[0][k]) + j * (p[2][k] - p[0][k]);
    }
    p[3][trial % 3] += small(rng) / 3;  // −1, 0 or +1
    const double scale = std::ldexp(1.0, -40);
    std::array<Vector3d, 4> x;
    for (int r = 0; r < 4; ++r) {
      x[r] = Vector3d(p[r][0], p[r][1], p[r][2]) * scale;
    }
    const int expected = exact_orient3d(p);
    zeros += expected == 0;
    ASSERT_EQ(orient3d(x[0], x[1], x[2], x[3]), expected) << trial;
    // The sign flips with an odd permutation.
    ASSERT_EQ(orient3d(x[1], x[0], x[2], x[3]), -expected) << trial;
  }
  EXPECT_GT(zeros, 1000);
}

}  // namespace
}  // namespace clothfit::collision
