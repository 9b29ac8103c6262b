// worst_quad_shape: the aspect of rectangles and of a sliver, against their edge lengths.
#include "core/mesh/quad_shape.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "core/mesh/obj_reader.hpp"

namespace clothfit::mesh {
namespace {

TEST(QuadShape, GridQuadsAreTheirSpacings) {
  const QuadShape din_a2 = worst_quad_shape(make_grid_mesh(0.42, 0.594, 7, 9));
  EXPECT_NEAR(din_a2.shortest_m, 0.07, 1e-12);
  EXPECT_NEAR(din_a2.longest_m, 0.594 / 8, 1e-12);
  EXPECT_NEAR(din_a2.aspect(), (0.594 / 8) / 0.07, 1e-12);
  EXPECT_LT(din_a2.aspect(), kSliverAspect);
  const QuadShape thin = worst_quad_shape(make_grid_mesh(0.42, 0.594, 100, 2));
  EXPECT_NEAR(thin.aspect(), 0.594 / (0.42 / 99), 1e-9);
  EXPECT_GT(thin.aspect(), kSliverAspect);
}

// A 2 × 3-quad strip whose middle row is 1 µm tall: its quads 3 and 4 (0-based 2, 3) are slivers,
// and the first of them is the one reported.
TEST(QuadShape, FindsTheSliver) {
  std::istringstream obj(
      "v 0 0 0\nv 0.1 0 0\nv 0.2 0 0\nv 0 0.1 0\nv 0.1 0.1 0\nv 0.2 0.1 0\n"
      "v 0 0.100001 0\nv 0.1 0.100001 0\nv 0.2 0.100001 0\nv 0 0.2 0\nv 0.1 0.2 0\nv 0.2 0.2 0\n"
      "f 1 2 5 4\nf 2 3 6 5\nf 4 5 8 7\nf 5 6 9 8\nf 7 8 11 10\nf 8 9 12 11\n");
  const QuadShape worst = worst_quad_shape(read_obj_quad_mesh(obj, "strip.obj"));
  EXPECT_EQ(worst.quad, 2);
  EXPECT_NEAR(worst.shortest_m, 1e-6, 1e-12);
  EXPECT_NEAR(worst.longest_m, 0.1, 1e-12);
  EXPECT_NEAR(worst.aspect(), 1e5, 1.0);
}

TEST(QuadShape, AMeshWithoutQuadsHasNone) {
  EXPECT_EQ(worst_quad_shape(QuadMesh{}).quad, -1);
  EXPECT_EQ(worst_quad_shape(QuadMesh{}).aspect(), 0.0);
}

}  // namespace
}  // namespace clothfit::mesh
