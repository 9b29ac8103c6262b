// The frozen contact normal: each rule of contact_normal.hpp, its orientation, and finite unit
// vectors in the fully degenerate cases.
#include "core/collision/contact_normal.hpp"

#include <gtest/gtest.h>

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

ContactGeometry base() {
  ContactGeometry g;
  g.separation = Vector3d::Zero();
  g.plane_normal = Vector3d::Zero();
  g.plane_normal_scale = 1.0;
  g.separation_t0 = Vector3d::Zero();
  g.separation_t1 = Vector3d::Zero();
  g.tolerance = 1e-9;
  return g;
}

TEST(ContactNormal, ApartUsesTheSeparationDirection) {
  ContactGeometry g = base();
  g.separation = Vector3d(0.0, 3e-3, 4e-3);
  g.plane_normal = Vector3d(1, 0, 0);
  g.separation_t0 = Vector3d(0, 1, 1);
  EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 0.6, 0.8), 1e-12));
}

TEST(ContactNormal, TouchingUsesThePlaneNormalOrientedByTheStart) {
  ContactGeometry g = base();
  g.plane_normal = Vector3d(0, 0, 2);
  g.separation_t0 = Vector3d(0.1, 0, -1);  // started below
  EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 0, -1), 1e-12));
  g.separation_t0 = Vector3d(0.1, 0, 1);
  EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 0, 1), 1e-12));
}

// Rule 2's threshold is relative to |e1|·|e2|: the same nearly parallel edges choose the same rule
// at every size, 1 cm or 100 m long.
TEST(ContactNormal, ThePlaneNormalThresholdScalesWithTheEdges) {
  for (double size : {1e-2, 1.0, 1e2}) {
    ContactGeometry g = base();
    g.tolerance = 1e-9 * size;
    g.plane_normal_scale = size * size;  // two edges of length `size`
    g.axis = Vector3d(size, 0, 0);
    g.separation_t0 = Vector3d(0, 1e-3, 1e-3) * size;
    // 1e-8 rad between the edges: N is 1e-8 |e1||e2|, above the threshold of 1e-10 |e1||e2|.
    g.plane_normal = Vector3d(0, 0, 1e-8 * size * size);
    EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 0, 1), 1e-12)) << size;
    // 1e-11 rad: parallel for the rule, whatever the size; the start separation decides.
    g.plane_normal = Vector3d(0, 0, 1e-11 * size * size);
    EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 1, 1).normalized(), 1e-12)) << size;
  }
}

TEST(ContactNormal, StartInContactOpposesTheMotion) {
  ContactGeometry g = base();
  g.plane_normal = Vector3d(0, 0, 1);
  g.separation_t1 = Vector3d(0, 0, -0.5);  // moving to −z: the constraint must push +z
  EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 0, 1), 1e-12));
  g.separation_t1 = Vector3d(0, 0, 0.5);
  EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 0, -1), 1e-12));
}

// Within the tolerance of contact but not at it: the motion is sep_t1 − sep_t0, not sep_t1.
TEST(ContactNormal, StartWithinTheToleranceOpposesTheMotionFromThere) {
  ContactGeometry g = base();
  g.tolerance = 1e-3;
  g.plane_normal = Vector3d(0, 0, 1);
  g.separation_t0 = Vector3d(0, 0, 5e-4);
  g.separation_t1 = Vector3d(0, 0, 2e-4);  // still above, but moving to −z
  EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 0, 1), 1e-12));
  g.separation_t0 = Vector3d(0, 0, -5e-4);
  g.separation_t1 = Vector3d(0, 0, -2e-4);  // still below, but moving to +z
  EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 0, -1), 1e-12));
}

TEST(ContactNormal, ParallelEdgesFallBackToTheStartSeparationPerpendicularToTheAxis) {
  ContactGeometry g = base();
  g.axis = Vector3d(1, 0, 0);
  g.separation_t0 = Vector3d(5, 0, 2);  // along the axis part is dropped
  EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 0, 1), 1e-12));
  g.separation_t0 = Vector3d(5, 0, 0);  // only along the axis: use the reversed motion
  g.separation_t1 = Vector3d(1, -3, 0);
  EXPECT_TRUE(contact_normal(g).isApprox(Vector3d(0, 1, 0), 1e-12));
}

TEST(ContactNormal, FullyDegenerateIsStillAUnitVector) {
  ContactGeometry g = base();
  g.axis = Vector3d(0, 2, 0);
  Vector3d n = contact_normal(g);
  EXPECT_NEAR(n.norm(), 1.0, 1e-15);
  EXPECT_NEAR(n.y(), 0.0, 1e-15);
  g.axis.setZero();
  n = contact_normal(g);
  EXPECT_TRUE(n.allFinite());
  EXPECT_NEAR(n.norm(), 1.0, 1e-15);
}

}  // namespace
}  // namespace clothfit::collision
