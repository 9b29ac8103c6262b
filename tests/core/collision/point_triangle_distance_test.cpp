// Point-triangle distance: the Voronoi regions of a triangle, degenerate triangles, and random
// configurations whose reported closest point must be an actual point of the triangle at the
// reported distance with no sample of the closed triangle closer.
#include "core/collision/point_triangle_distance.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include "support/random_vector.hpp"

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

constexpr double kExact = 1e-14;

Vector3d random_point(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> coordinate(-1.0, 1.0);
  return clothfit::testing::random_vector3(coordinate, rng);
}

TEST(PointTriangleDistance, RegionsOfTheUnitTriangle) {
  const Vector3d a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  // Face interior.
  PointTriangleClosest r = point_triangle_closest(Vector3d(0.25, 0.25, -2), a, b, c);
  EXPECT_NEAR(r.distance, 2.0, kExact);
  EXPECT_TRUE(r.weights.isApprox(Vector3d(0.5, 0.25, 0.25), kExact));
  // Edge ab.
  r = point_triangle_closest(Vector3d(0.5, -1, 1), a, b, c);
  EXPECT_NEAR(r.distance, std::sqrt(2.0), kExact);
  EXPECT_TRUE(r.weights.isApprox(Vector3d(0.5, 0.5, 0.0), kExact));
  // Corner c.
  r = point_triangle_closest(Vector3d(-1, 2, 0), a, b, c);
  EXPECT_NEAR(r.distance, std::sqrt(2.0), kExact);
  EXPECT_TRUE(r.weights.isApprox(Vector3d(0, 0, 1), kExact));
  // On the face.
  EXPECT_NEAR(point_triangle_distance(Vector3d(0.1, 0.2, 0), a, b, c), 0.0, kExact);
}

TEST(PointTriangleDistance, DegenerateTrianglesGiveFiniteAnswers) {
  // Collinear corners: the triangle is the segment from (0,0,0) to (2,0,0).
  PointTriangleClosest r = point_triangle_closest(Vector3d(1, 1, 0), Vector3d(0, 0, 0),
                                                  Vector3d(1, 0, 0), Vector3d(2, 0, 0));
  EXPECT_NEAR(r.distance, 1.0, kExact);
  EXPECT_TRUE(r.weights.allFinite());
  EXPECT_NEAR(r.weights.sum(), 1.0, kExact);
  // All corners coincide.
  const Vector3d a(1, 2, 3);
  r = point_triangle_closest(Vector3d(1, 2, 5), a, a, a);
  EXPECT_NEAR(r.distance, 2.0, kExact);
  EXPECT_TRUE(r.weights.allFinite());
  // A sliver 1e-12 wide.
  r = point_triangle_closest(Vector3d(0.5, 0, 1), Vector3d(0, 0, 0), Vector3d(1, 0, 0),
                             Vector3d(0.5, 1e-12, 0));
  EXPECT_NEAR(r.distance, 1.0, kExact);
}

TEST(PointTriangleDistance, RandomAgainstSampling) {
  std::mt19937_64 rng(11);
  constexpr int kSamples = 60;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vector3d p = random_point(rng), a = random_point(rng), b = random_point(rng),
                   c = random_point(rng);
    const PointTriangleClosest r = point_triangle_closest(p, a, b, c);
    ASSERT_TRUE(r.weights.minCoeff() >= 0.0);
    ASSERT_NEAR(r.weights.sum(), 1.0, 1e-14);
    const Vector3d q = r.weights[0] * a + r.weights[1] * b + r.weights[2] * c;
    ASSERT_NEAR((p - q).norm(), r.distance, 1e-13);
    for (int i = 0; i <= kSamples; ++i) {
      for (int j = 0; i + j <= kSamples; ++j) {
        const double wb = double(i) / kSamples, wc = double(j) / kSamples;
        const Vector3d x = (1 - wb - wc) * a + wb * b + wc * c;
        ASSERT_LE(r.distance, (p - x).norm() + 1e-13) << trial;
      }
    }
  }
}

}  // namespace
}  // namespace clothfit::collision
