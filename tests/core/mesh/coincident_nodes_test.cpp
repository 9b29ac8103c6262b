// coincident_nodes: the duplicate vertices an OBJ exporter leaves along a UV seam are found, and
// nodes a tolerance apart are not.
#include "core/mesh/coincident_nodes.hpp"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "core/mesh/obj_reader.hpp"

namespace clothfit::mesh {
namespace {

TEST(CoincidentNodes, AGridHasNone) {
  EXPECT_TRUE(coincident_nodes(make_grid_mesh(0.42, 0.594, 25, 33)).empty());
}

// A band of four quads round a square tube, written as an exporter does along a UV seam: the
// last column of vertices repeats the first, so the band is open where it should close.
TEST(CoincidentNodes, FindsTheSeamOfATubeWrittenOpen) {
  std::istringstream obj(
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 0\n"  // 1–5: the ring at z = 0, 5 on 1
      "v 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\nv 0 0 1\n"  // 6–10: at z = 1, 10 on 6
      "f 1 2 7 6\nf 2 3 8 7\nf 3 4 9 8\nf 4 5 10 9\n");
  const QuadMesh mesh = read_obj_quad_mesh(obj, "tube.obj");
  const std::vector<Edge> pairs = coincident_nodes(mesh);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0], (Edge{0, 4}));
  EXPECT_EQ(pairs[1], (Edge{5, 9}));
}

// Against all pairs, on random points where a few are copies of others moved by less (or more)
// than the tolerance.
TEST(CoincidentNodes, AgreesWithAllPairs) {
  std::mt19937 random(20261203);
  std::uniform_real_distribution<double> coordinate(-1.0, 1.0);
  QuadMesh mesh;
  const int n = 400;
  mesh.rest_positions.resize(3 * n);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k)
      mesh.rest_positions[3 * i + k] = coordinate(random);
    if (i > 0 && i % 7 == 0) {  // a copy of an earlier node, 0.5 or 2 tolerances off in one axis
      const int of = std::uniform_int_distribution<int>(0, i - 1)(random);
      mesh.rest_positions.segment<3>(3 * i) = mesh.rest_positions.segment<3>(3 * of);
      mesh.rest_positions[3 * i + i % 3] += (i % 2 ? 0.5 : 2.0) * 1e-6;
    }
  }
  std::vector<Edge> expected;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if ((mesh.rest_position(a) - mesh.rest_position(b)).cwiseAbs().maxCoeff() <= 1e-6)
        expected.push_back({a, b});
    }
  }
  EXPECT_GT(expected.size(), 10u);
  EXPECT_EQ(coincident_nodes(mesh, 1e-6), expected);
}

}  // namespace
}  // namespace clothfit::mesh
