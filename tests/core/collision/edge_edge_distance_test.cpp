// Edge-edge distance: crossing and skew edges, parallel, nearly parallel and zero-length edges, and
// random configurations whose reported closest points must be actual points of the edges at the
// reported distance with no sample pair closer.
#include "core/collision/edge_edge_distance.hpp"

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

TEST(EdgeEdgeDistance, CrossingAndSkewEdges) {
  EdgeEdgeClosest r = edge_edge_closest(Vector3d(-1, 0, 0), Vector3d(1, 0, 0), Vector3d(0, -1, 1),
                                        Vector3d(0, 1, 1));
  EXPECT_NEAR(r.distance, 1.0, kExact);
  EXPECT_NEAR(r.s, 0.5, kExact);
  EXPECT_NEAR(r.u, 0.5, kExact);
  // The lines' closest points fall outside edge b: an end point wins.
  r = edge_edge_closest(Vector3d(-1, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 1),
                        Vector3d(0, 3, 1));
  EXPECT_NEAR(r.distance, std::sqrt(2.0), kExact);
  EXPECT_NEAR(r.s, 0.5, kExact);
  EXPECT_EQ(r.u, 0.0);
  EXPECT_NEAR(edge_edge_distance(Vector3d(-1, 0, 0), Vector3d(1, 0, 0), Vector3d(0, -1, 0),
                                 Vector3d(0, 1, 0)),
              0.0, kExact);
}

TEST(EdgeEdgeDistance, ParallelEdges) {
  // Overlapping parallel edges at distance 1: any overlap point is closest.
  EdgeEdgeClosest r =
      edge_edge_closest(Vector3d(0, 0, 0), Vector3d(2, 0, 0), Vector3d(1, 1, 0), Vector3d(3, 1, 0));
  EXPECT_NEAR(r.distance, 1.0, kExact);
  const Vector3d pa = Vector3d(0, 0, 0) + r.s * Vector3d(2, 0, 0);
  const Vector3d pb = Vector3d(1, 1, 0) + r.u * Vector3d(2, 0, 0);
  EXPECT_NEAR((pa - pb).norm(), 1.0, kExact);
  // Disjoint collinear edges.
  r = edge_edge_closest(Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(3, 0, 0), Vector3d(2, 0, 0));
  EXPECT_NEAR(r.distance, 1.0, kExact);
  EXPECT_EQ(r.s, 1.0);
  EXPECT_EQ(r.u, 1.0);
  // Nearly parallel (1e-13 rad).
  r = edge_edge_closest(Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 0.5, 0),
                        Vector3d(1, 0.5, 1e-13));
  EXPECT_NEAR(r.distance, 0.5, 1e-12);
  // Zero-length edges.
  r = edge_edge_closest(Vector3d(0, 0, 0), Vector3d(0, 0, 0), Vector3d(1, 1, 0),
                        Vector3d(1, -1, 0));
  EXPECT_NEAR(r.distance, 1.0, kExact);
  EXPECT_NEAR(r.u, 0.5, kExact);
  r = edge_edge_closest(Vector3d(0, 0, 0), Vector3d(0, 0, 0), Vector3d(0, 0, 2), Vector3d(0, 0, 2));
  EXPECT_NEAR(r.distance, 2.0, kExact);
}

TEST(EdgeEdgeDistance, RandomAgainstSampling) {
  std::mt19937_64 rng(12);
  constexpr int kSamples = 200;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vector3d a0 = random_point(rng), a1 = random_point(rng);
    Vector3d b0 = random_point(rng), b1 = random_point(rng);
    if (trial % 4 == 1) {  // parallel
      b1 = b0 + (a1 - a0) * 0.7;
    } else if (trial % 4 == 2) {  // nearly parallel
      b1 = b0 - (a1 - a0) * 1.3 + random_point(rng) * 1e-9;
    }
    const EdgeEdgeClosest r = edge_edge_closest(a0, a1, b0, b1);
    ASSERT_TRUE(r.s >= 0.0 && r.s <= 1.0 && r.u >= 0.0 && r.u <= 1.0);
    const Vector3d pa = (1 - r.s) * a0 + r.s * a1, pb = (1 - r.u) * b0 + r.u * b1;
    ASSERT_NEAR((pa - pb).norm(), r.distance, 1e-13);
    for (int i = 0; i <= kSamples; ++i) {
      const Vector3d xa = a0 + (a1 - a0) * (double(i) / kSamples);
      for (int j = 0; j <= kSamples; ++j) {
        const Vector3d xb = b0 + (b1 - b0) * (double(j) / kSamples);
        ASSERT_LE(r.distance, (xa - xb).norm() + 1e-13) << trial;
      }
    }
  }
}

}  // namespace
}  // namespace clothfit::collision
