#include "core/collision/triangle_mesh_edges.hpp"

#include <algorithm>

namespace clothfit::collision {

std::vector<std::array<int, 2>> triangle_mesh_edges(std::span<const std::array<int, 3>> triangles) {
  std::vector<std::array<int, 2>> edges;
  edges.reserve(3 * triangles.size());
  for (const std::array<int, 3>& t : triangles) {
    for (int i = 0; i < 3; ++i) {
      const int a = t[i];
      const int b = t[(i + 1) % 3];
      edges.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

}  // namespace clothfit::collision
