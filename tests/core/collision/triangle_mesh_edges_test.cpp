// Unique edges of a triangulated grid, quad diagonals included.
#include "core/collision/triangle_mesh_edges.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace clothfit::collision {
namespace {

TEST(TriangleMeshEdges, GridHasQuadEdgesAndDiagonals) {
  const int nx = 7, ny = 9;
  std::vector<std::array<int, 3>> triangles;
  for (int r = 0; r + 1 < ny; ++r) {
    for (int c = 0; c + 1 < nx; ++c) {
      const int q0 = r * nx + c;
      triangles.push_back({q0, q0 + 1, q0 + 1 + nx});
      triangles.push_back({q0, q0 + 1 + nx, q0 + nx});
    }
  }
  const auto edges = triangle_mesh_edges(triangles);
  EXPECT_EQ(static_cast<int>(edges.size()), (nx - 1) * ny + nx * (ny - 1) + (nx - 1) * (ny - 1));
  EXPECT_TRUE(std::is_sorted(edges.begin(), edges.end()));
  for (const auto& e : edges) {
    EXPECT_LT(e[0], e[1]);
  }
  EXPECT_TRUE(std::binary_search(edges.begin(), edges.end(), std::array<int, 2>{0, nx + 1}));
}

}  // namespace
}  // namespace clothfit::collision
