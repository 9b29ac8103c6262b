// Broad phase of the continuous collision detection: candidate pairs whose swept boxes overlap.
//
// The swept box of a node is the box of its positions at t0 and t1, inflated by margin/2; the box
// of a triangle or an edge is the union of its nodes' boxes. Since a linearly moving point stays in
// the box of its two end positions, every pair of elements that comes within `margin` of each
// other at some t ∈ [0, 1] has overlapping boxes and is returned (a superset of the pairs the CCD
// kernels can report with tau ≤ margin). Three bounding volume hierarchies (bvh.hpp) hold the
// nodes, triangles and edges; they are refitted on every update and rebuilt when refitting has
// made them loose (area_ratio grown by rebuild_factor since the last build), so repeated calls
// during the iterations of a time step cost a refit and a traversal, and buffers are reused.
//
// Topological neighbours are excluded: a node and a triangle it belongs to, two edges sharing a
// node, two triangles sharing a node.
//
// Positions φ are given either as the simulator's flat (3N) vector, node i at entries 3i … 3i+2,
// or as an (N × 3) matrix with node i in row i, metres.
#pragma once

#include <Eigen/Core>
#include <array>
#include <span>
#include <vector>

#include "core/collision/aabb.hpp"
#include "core/collision/bvh.hpp"

namespace clothfit::collision {

struct BroadPhaseOptions {
  // Pairs closer than `margin` (m, ≥ 0) at some t are returned: pass the CCD's detection distance
  // tau = 2ωτ0 (0 for the exact test).
  double margin = 0.0;
  // Rebuild a tree when its area_ratio exceeds rebuild_factor × the ratio right after its last
  // build; ≥ 1 (1: rebuild on every update).
  double rebuild_factor = 1.5;
};

struct PointTriangleCandidate {
  int node;      // mesh node index
  int triangle;  // mesh triangle index, not containing `node`
};

struct EdgeEdgeCandidate {
  int edge_a;  // mesh edge indices, edge_a < edge_b, no common node
  int edge_b;
};

struct SelfCandidates {
  std::vector<PointTriangleCandidate> point_triangle;
  std::vector<EdgeEdgeCandidate> edge_edge;
};

// Candidates against an external set of segments (the stick, split into short segments).
struct ExternalCandidates {
  struct PointTriangle {
    int point;     // external point index (an end point of a segment)
    int triangle;  // mesh triangle index
  };
  struct SegmentEdge {
    int segment;  // external segment index
    int edge;     // mesh edge index
  };
  std::vector<PointTriangle> point_triangle;
  std::vector<SegmentEdge> segment_edge;
};

struct TrianglePairCandidate {
  int triangle_a;  // mesh triangle indices, triangle_a < triangle_b, no common node
  int triangle_b;
};

class BroadPhase {
 public:
  // num_nodes N; triangles (T) and edges (E) as node indices, e.g. QuadMesh::triangles and
  // triangle_mesh_edges(QuadMesh::triangles). The mesh topology is fixed for the object's life.
  BroadPhase(int num_nodes, std::span<const std::array<int, 3>> triangles,
             std::span<const std::array<int, 2>> edges);
  // Edges derived from the triangles (triangle_mesh_edges).
  BroadPhase(int num_nodes, std::span<const std::array<int, 3>> triangles);

  // Swept boxes for the motion positions_t0 → positions_t1: flat (3N) vectors or (N × 3)
  // matrices (m). Refits the trees (rebuilds them when loose, or on the first call).
  template <class Derived0, class Derived1>
  void update(const Eigen::MatrixBase<Derived0>& positions_t0,
              const Eigen::MatrixBase<Derived1>& positions_t1, const BroadPhaseOptions& options);

  // Mesh against itself, for the last update; `out` is cleared first (its capacity is reused).
  void self_candidates(SelfCandidates& out) const;
  // Mesh against external segments moving linearly over the same interval: points (M × 3) at t0
  // and t1 (m), segments (S) as pairs of point indices against the mesh edges, and the points
  // listed in `face_points` against the mesh triangles. Uses the margin of the last update.
  void external_candidates(const Eigen::Ref<const Eigen::MatrixX3d>& points_t0,
                           const Eigen::Ref<const Eigen::MatrixX3d>& points_t1,
                           std::span<const std::array<int, 2>> segments,
                           std::span<const int> face_points, ExternalCandidates& out) const;
  // Triangle pairs with overlapping boxes and no common node, for the last update (pass the same
  // positions as t0 and t1 to check one state for intersections).
  void triangle_pair_candidates(std::vector<TrianglePairCandidate>& out) const;

  int num_nodes() const { return m_num_nodes; }
  std::span<const std::array<int, 3>> triangles() const { return m_triangles; }
  std::span<const std::array<int, 2>> edges() const { return m_edges; }
  // Number of tree rebuilds so far (the first update builds).
  int rebuilds() const { return m_rebuilds; }

 private:
  void update_from_node_boxes(const BroadPhaseOptions& options);
  bool shares_node(int triangle, int node) const;
  bool edges_share_node(int a, int b) const;
  bool triangles_share_node(int a, int b) const;

  int m_num_nodes = 0;
  std::vector<std::array<int, 3>> m_triangles;  // (T)
  std::vector<std::array<int, 2>> m_edges;      // (E)
  double m_margin = 0.0;
  std::vector<Aabb> m_node_boxes;      // (N) swept, inflated by margin/2
  std::vector<Aabb> m_triangle_boxes;  // (T)
  std::vector<Aabb> m_edge_boxes;      // (E)
  Bvh m_node_tree, m_triangle_tree, m_edge_tree;
  double m_node_ratio = 0.0, m_triangle_ratio = 0.0, m_edge_ratio = 0.0;  // after last build
  bool m_built = false;
  int m_rebuilds = 0;
};

template <class Derived0, class Derived1>
void BroadPhase::update(const Eigen::MatrixBase<Derived0>& positions_t0,
                        const Eigen::MatrixBase<Derived1>& positions_t1,
                        const BroadPhaseOptions& options) {
  static_assert(Derived0::ColsAtCompileTime == 1 || Derived0::ColsAtCompileTime == 3,
                "positions: a flat (3N) vector or an (N x 3) matrix");
  static_assert(Derived1::ColsAtCompileTime == Derived0::ColsAtCompileTime);
  constexpr bool kFlat = Derived0::ColsAtCompileTime == 1;
  const auto node = [](const auto& positions, int i) -> Eigen::Vector3d {
    if constexpr (kFlat) {
      return positions.template segment<3>(3 * i);
    } else {
      return positions.row(i).transpose();
    }
  };
  m_node_boxes.resize(m_num_nodes);
  const double half_margin = 0.5 * options.margin;
  for (int i = 0; i < m_num_nodes; ++i) {
    Aabb box;
    box.extend(node(positions_t0, i));
    box.extend(node(positions_t1, i));
    box.inflate(half_margin);
    m_node_boxes[i] = box;
  }
  m_margin = options.margin;
  update_from_node_boxes(options);
}

}  // namespace clothfit::collision
