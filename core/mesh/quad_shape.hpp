// The worst-shaped quad of a mesh: the one whose shortest edge is the smallest fraction of its
// longest. The projection holds each quad's metric in shape; a sliver (edges 1 µm and 10 cm) makes
// its rows nearly dependent, and the sheet fails out of shape within a few steps although nothing
// pulls on it. finalize() refuses only quads that are degenerate outright.
#pragma once

#include "core/mesh/quad_mesh.hpp"

namespace clothfit::mesh {

struct QuadShape {
  int quad = -1;            // index into QuadMesh::quads; -1 for a mesh without quads
  double shortest_m = 0.0;  // its shortest edge at rest
  double longest_m = 0.0;   // its longest edge at rest
  double aspect() const { return shortest_m > 0.0 ? longest_m / shortest_m : 0.0; }
};

// Quads whose aspect is above this are slivers (a warning of `clothfit simulate`). A 7 × 9 DIN A2
// grid has 1.06; a 100 × 2 grid of the same sheet 140.
inline constexpr double kSliverAspect = 100.0;

QuadShape worst_quad_shape(const QuadMesh& mesh);

}  // namespace clothfit::mesh
