// Point-edge distance: analytic cases and a degenerate (zero-length) edge.
#include "core/collision/point_edge_distance.hpp"

#include <gtest/gtest.h>

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

constexpr double kExact = 1e-14;

TEST(PointEdgeDistance, InteriorAndEndRegions) {
  const Vector3d e0(0, 0, 0), e1(2, 0, 0);
  PointEdgeClosest c = point_edge_closest(Vector3d(0.5, 1, 0), e0, e1);
  EXPECT_NEAR(c.distance, 1.0, kExact);
  EXPECT_NEAR(c.u, 0.25, kExact);
  c = point_edge_closest(Vector3d(-3, 4, 0), e0, e1);
  EXPECT_NEAR(c.distance, 5.0, kExact);
  EXPECT_EQ(c.u, 0.0);
  c = point_edge_closest(Vector3d(5, 0, 4), e0, e1);
  EXPECT_NEAR(c.distance, 5.0, kExact);
  EXPECT_EQ(c.u, 1.0);
  EXPECT_NEAR(point_edge_distance(Vector3d(1, 0, 0), e0, e1), 0.0, kExact);
}

TEST(PointEdgeDistance, DegenerateEdgeIsAPoint) {
  const Vector3d e(1, 1, 1);
  const PointEdgeClosest c = point_edge_closest(Vector3d(1, 1, 3), e, e);
  EXPECT_NEAR(c.distance, 2.0, kExact);
  EXPECT_EQ(c.u, 0.0);
}

}  // namespace
}  // namespace clothfit::collision
