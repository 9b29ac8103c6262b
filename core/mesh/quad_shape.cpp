#include "core/mesh/quad_shape.hpp"

#include <algorithm>
#include <limits>

namespace clothfit::mesh {

QuadShape worst_quad_shape(const QuadMesh& mesh) {
  QuadShape worst;
  for (std::size_t q = 0; q < mesh.quads.size(); ++q) {
    const Quad& quad = mesh.quads[q];
    QuadShape shape{static_cast<int>(q), std::numeric_limits<double>::infinity(), 0.0};
    for (int k = 0; k < 4; ++k) {
      const double length =
          (mesh.rest_position(quad[(k + 1) % 4]) - mesh.rest_position(quad[k])).norm();
      shape.shortest_m = std::min(shape.shortest_m, length);
      shape.longest_m = std::max(shape.longest_m, length);
    }
    if (worst.quad < 0 || shape.aspect() > worst.aspect())
      worst = shape;
  }
  return worst;
}

}  // namespace clothfit::mesh
