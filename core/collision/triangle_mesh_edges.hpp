// The unique edges of a triangle mesh. For a QuadMesh split into triangles this includes the quad
// diagonals, which QuadMesh::edges (the quad edges) does not: edge-edge CCD on the triangulated
// surface needs them (an edge can first touch a bent quad along its diagonal).
#pragma once

#include <array>
#include <span>
#include <vector>

namespace clothfit::collision {

// (E) node index pairs, first < second, sorted lexicographically.
std::vector<std::array<int, 2>> triangle_mesh_edges(std::span<const std::array<int, 3>> triangles);

}  // namespace clothfit::collision
