#include "core/collision/coplanarity_cubic.hpp"

#include <Eigen/Geometry>

#include <gtest/gtest.h>

#include <random>
#include "support/random_vector.hpp"

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

double triple_product_at(const std::array<Vector3d, 4>& x_t0, const std::array<Vector3d, 4>& x_t1,
                         double t) {
  std::array<Vector3d, 4> x;
  for (int i = 0; i < 4; ++i) {
    x[i] = (1.0 - t) * x_t0[i] + t * x_t1[i];
  }
  return (x[1] - x[0]).cross(x[2] - x[0]).dot(x[3] - x[0]);
}

CoplanarityCubic cubic_of(const std::array<Vector3d, 4>& x_t0,
                          const std::array<Vector3d, 4>& x_t1) {
  return coplanarity_cubic(x_t0[0], x_t0[1], x_t0[2], x_t0[3], x_t1[0], x_t1[1], x_t1[2], x_t1[3]);
}

TEST(CoplanarityCubic, CoefficientsReproduceTheTripleProduct) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> coordinate(-1.0, 1.0);
  for (int trial = 0; trial < 1000; ++trial) {
    std::array<Vector3d, 4> x_t0, x_t1;
    for (int i = 0; i < 4; ++i) {
      x_t0[i] = clothfit::testing::random_vector3(coordinate, rng);
      x_t1[i] = clothfit::testing::random_vector3(coordinate, rng);
    }
    const CoplanarityCubic cubic = cubic_of(x_t0, x_t1);
    for (double t : {0.0, 0.1, 0.5, 0.77, 1.0}) {
      ASSERT_NEAR(cubic(t), triple_product_at(x_t0, x_t1, t), 1e-13);
    }
    ASSERT_GT(cubic.error_bound, 0.0);
    ASSERT_LT(cubic.error_bound, 1e-11);
  }
}

TEST(CoplanarityCubic, PointFallingThroughATriangleAtOneHalf) {
  const std::array<Vector3d, 4> x_t0 = {Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0),
                                        Vector3d(0.2, 0.2, 1.0)};
  std::array<Vector3d, 4> x_t1 = x_t0;
  x_t1[3].z() = -1.0;
  const CoplanarityCubic cubic = cubic_of(x_t0, x_t1);
  // V(t) = 1 − 2t: linear, leading coefficients exactly zero.
  EXPECT_EQ(cubic.coefficients[3], 0.0);
  EXPECT_EQ(cubic.coefficients[2], 0.0);
  const UnitIntervalRoots roots = coplanarity_cubic_roots(cubic);
  ASSERT_EQ(roots.count, 1);
  EXPECT_DOUBLE_EQ(roots.t[0], 0.5);
}

TEST(CoplanarityCubic, CoplanarAtStartGivesRootZero) {
  const std::array<Vector3d, 4> x_t0 = {Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0),
                                        Vector3d(0.2, 0.2, 0.0)};
  std::array<Vector3d, 4> x_t1 = x_t0;
  x_t1[3].z() = 0.3;
  const UnitIntervalRoots roots = coplanarity_cubic_roots(cubic_of(x_t0, x_t1));
  ASSERT_EQ(roots.count, 1);
  EXPECT_EQ(roots.t[0], 0.0);
}

TEST(CoplanarityCubic, RootExactlyAtTheEnd) {
  const std::array<Vector3d, 4> x_t0 = {Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0),
                                        Vector3d(0.2, 0.2, 0.5)};
  std::array<Vector3d, 4> x_t1 = x_t0;
  x_t1[3].z() = 0.0;
  const UnitIntervalRoots roots = coplanarity_cubic_roots(cubic_of(x_t0, x_t1));
  ASSERT_EQ(roots.count, 1);
  EXPECT_EQ(roots.t[0], 1.0);
}

TEST(CoplanarityCubic, CoplanarThroughoutIsIdenticallyZero) {
  // Every point moves inside the plane z = 0.5.
  const std::array<Vector3d, 4> x_t0 = {Vector3d(0.1, 0, 0.5), Vector3d(1, 0.3, 0.5),
                                        Vector3d(0, 1, 0.5), Vector3d(2, 2, 0.5)};
  const std::array<Vector3d, 4> x_t1 = {Vector3d(0.3, 0.1, 0.5), Vector3d(1, 0.1, 0.5),
                                        Vector3d(-1, 1, 0.5), Vector3d(0.2, 0.2, 0.5)};
  const UnitIntervalRoots roots = coplanarity_cubic_roots(cubic_of(x_t0, x_t1));
  EXPECT_TRUE(roots.identically_zero);
}

TEST(CoplanarityCubic, RotatingTriangleGivesThreeRoots) {
  // A full cubic: the triangle's plane tilts while the point rises, sign changes are checked
  // against dense sampling of the triple product.
  const std::array<Vector3d, 4> x_t0 = {Vector3d(0, 0, 0), Vector3d(1, 0, -1), Vector3d(0, 1, 1),
                                        Vector3d(0.3, 0.3, -0.6)};
  const std::array<Vector3d, 4> x_t1 = {Vector3d(0, 0, 0), Vector3d(1, 0, 1), Vector3d(0, 1, -1),
                                        Vector3d(0.3, 0.3, 0.65)};
  const CoplanarityCubic cubic = cubic_of(x_t0, x_t1);
  const UnitIntervalRoots roots = coplanarity_cubic_roots(cubic);
  int sign_changes = 0;
  double previous = triple_product_at(x_t0, x_t1, 0.0);
  for (int k = 1; k <= 100000; ++k) {
    const double value = triple_product_at(x_t0, x_t1, k / 100000.0);
    if ((value < 0) != (previous < 0)) {
      ++sign_changes;
    }
    previous = value;
  }
  EXPECT_EQ(roots.count, sign_changes);
  for (double t : roots) {
    EXPECT_NEAR(triple_product_at(x_t0, x_t1, t), 0.0, 1e-14);
  }
}

TEST(CoplanarityCubic, DoubleRootWhenThePointTouchesThePlane) {
  // a, b fixed on the x axis, c = (0, 1, t) tilts the plane, p = (0.2, −t, ¼ − t):
  // N = (0, −t, 1) and V = t·t + ¼ − t = (t − ½)², a double root with no sign change.
  const std::array<Vector3d, 4> x_t0 = {Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0),
                                        Vector3d(0.2, 0.0, 0.25)};
  const std::array<Vector3d, 4> x_t1 = {Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 1),
                                        Vector3d(0.2, -1.0, -0.75)};
  const CoplanarityCubic cubic = cubic_of(x_t0, x_t1);
  EXPECT_EQ(cubic.coefficients, Eigen::Vector4d(0.25, -1.0, 1.0, 0.0));
  const UnitIntervalRoots roots = coplanarity_cubic_roots(cubic);
  ASSERT_EQ(roots.count, 1);
  EXPECT_DOUBLE_EQ(roots.t[0], 0.5);
}

}  // namespace
}  // namespace clothfit::collision
