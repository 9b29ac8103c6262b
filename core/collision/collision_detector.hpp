// The self-collision and stick detection of one motion φⁿ → φ_j: the broad phase (broad_phase.hpp)
// followed by the CCD kernels (point_triangle_ccd.hpp, edge_edge_ccd.hpp) on every candidate —
// the set Collisions_ω(φⁿ →Δt φ_j) of paper Definition 1, t ∈ [0, 1] standing for
// [tₙ, tₙ + Δt]. The response constraints H_k (paper §3.2, §7.4) are built from the reported
// weights and frozen normals by the caller.
//
// Usage, for each iteration j of a time step:
//   detector.update(phi_n, phi_j, margin);            // margin ≥ every detection distance used
//   detector.self_collisions(cloth_options, self);     // node-face and edge-edge
//   detector.external_collisions(stick_t0, stick_t1, stick_segments, stick_ends, stick_options,
//                                stick);
// The detector keeps its buffers between calls; it is not thread-safe.
#pragma once

#include <Eigen/Core>
#include <array>
#include <span>
#include <vector>

#include "core/collision/broad_phase.hpp"
#include "core/collision/collision_types.hpp"

namespace clothfit::collision {

struct PointTriangleCollision {
  int node;      // mesh node (the point p)
  int triangle;  // mesh triangle (corners a, b, c in the triangle's order)
  PointTriangleCcdResult ccd;
};

struct EdgeEdgeCollision {
  int edge_a;  // mesh edge (ea0, ea1) = edges()[edge_a], parameter ccd.s
  int edge_b;  // mesh edge (eb0, eb1) = edges()[edge_b], parameter ccd.u
  EdgeEdgeCcdResult ccd;
};

struct SelfCollisions {
  std::vector<PointTriangleCollision> point_triangle;
  std::vector<EdgeEdgeCollision> edge_edge;
  int candidates = 0;  // broad-phase pairs tested by the kernels
};

struct ExternalCollisions {
  struct PointTriangle {
    int point;     // external point (the CCD's p)
    int triangle;  // mesh triangle
    PointTriangleCcdResult ccd;
  };
  struct SegmentEdge {
    int segment;  // external segment = the CCD's edge a, parameter ccd.s
    int edge;     // mesh edge = the CCD's edge b, parameter ccd.u
    EdgeEdgeCcdResult ccd;
  };
  std::vector<PointTriangle> point_triangle;
  std::vector<SegmentEdge> segment_edge;
  int candidates = 0;
};

class CollisionDetector {
 public:
  // See BroadPhase: num_nodes N, triangles (T), edges (E) (default: derived from the triangles).
  CollisionDetector(int num_nodes, std::span<const std::array<int, 3>> triangles,
                    std::span<const std::array<int, 2>> edges);
  CollisionDetector(int num_nodes, std::span<const std::array<int, 3>> triangles);

  // The motion positions_t0 → positions_t1, flat (3N) vectors (m); margin ≥ the detection
  // distance 2ωτ0 of every later call, m.
  void update(const Eigen::Ref<const Eigen::VectorXd>& positions_t0,
              const Eigen::Ref<const Eigen::VectorXd>& positions_t1, double margin);

  // Both calls list their collisions sorted by the elements' indices (node, triangle), (edge,
  // edge), (point, triangle), (segment, edge): the broad phase finds its candidates in the order
  // of its trees, whose shape depends on when they were last rebuilt, and the stepper makes QP rows
  // in the order it gets them. Sorted, the rows and every result built on them depend on the
  // motion alone.
  //
  // Cloth against itself for the last update (out is cleared first).
  void self_collisions(const CcdOptions& options, SelfCollisions& out) const;
  // Cloth against external segments moving over the same interval (the stick): points (M × 3) at
  // t0 and t1 (m), segments (S) as point index pairs. Edge-edge per segment and mesh edge, and
  // point-face for the points listed in `face_points` against the mesh triangles (a chain of
  // segments needs only its two ends there: an inner point lies on two segments, whose edge tests
  // cover it).
  void external_collisions(const Eigen::Ref<const Eigen::MatrixX3d>& points_t0,
                           const Eigen::Ref<const Eigen::MatrixX3d>& points_t1,
                           std::span<const std::array<int, 2>> segments,
                           std::span<const int> face_points, const CcdOptions& options,
                           ExternalCollisions& out) const;

  const BroadPhase& broad_phase() const { return m_broad_phase; }

 private:
  Eigen::Vector3d node_t0(int i) const { return m_positions_t0.segment<3>(3 * i); }
  Eigen::Vector3d node_t1(int i) const { return m_positions_t1.segment<3>(3 * i); }

  BroadPhase m_broad_phase;
  Eigen::VectorXd m_positions_t0;  // (3N)
  Eigen::VectorXd m_positions_t1;  // (3N)
  double m_margin = 0.0;
  mutable SelfCandidates m_self_candidates;
  mutable ExternalCandidates m_external_candidates;
};

}  // namespace clothfit::collision
