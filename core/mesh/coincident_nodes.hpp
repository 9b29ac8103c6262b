// Nodes that share a rest position without sharing an edge: a mesh whose faces meet there but are
// not joined. OBJ exporters write such duplicates along UV seams, so that a tube read from one is
// an open sheet whose two edges lie on each other: it falls apart, and its self-collision starts
// at zero distance.
#pragma once

#include <vector>

#include "core/mesh/quad_mesh.hpp"

namespace clothfit::mesh {

// Pairs (a, b), a < b, of nodes whose rest positions lie within tolerance_m of each other (in
// each coordinate), in increasing order. O(N log N) for meshes without large clusters. With the
// default tolerance no pair shares an edge (finalize refuses an edge that short).
std::vector<Edge> coincident_nodes(const QuadMesh& mesh, double tolerance_m = kMinEdgeLength_m);

}  // namespace clothfit::mesh
