// Checks of a cloth state for the self-collision tests: exact triangle–triangle intersections,
// the minimum separation of non-adjacent elements and the kinetic energy.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <limits>
#include <vector>

#include "core/collision/broad_phase.hpp"
#include "core/collision/edge_edge_distance.hpp"
#include "core/collision/point_triangle_distance.hpp"
#include "core/collision/triangle_mesh_edges.hpp"
#include "core/collision/triangle_triangle_intersection.hpp"
#include "core/mesh/quad_mesh.hpp"

namespace clothfit::testing {

class SelfCollisionChecks {
 public:
  explicit SelfCollisionChecks(const mesh::QuadMesh& mesh)
      : m_mesh(mesh),
        m_edges(collision::triangle_mesh_edges(mesh.triangles)),
        m_broad_phase(mesh.num_nodes(), mesh.triangles, m_edges) {}

  // Pairs of triangles without a common node that intersect (exact test) in `positions` (3N).
  int intersecting_triangle_pairs(const Eigen::VectorXd& positions) {
    m_broad_phase.update(positions, positions, collision::BroadPhaseOptions{});
    m_broad_phase.triangle_pair_candidates(m_pairs);
    int count = 0;
    for (const auto& p : m_pairs) {
      const auto& a = m_mesh.triangles[p.triangle_a];
      const auto& b = m_mesh.triangles[p.triangle_b];
      count += collision::triangles_intersect(node(positions, a[0]), node(positions, a[1]),
                                              node(positions, a[2]), node(positions, b[0]),
                                              node(positions, b[1]), node(positions, b[2]))
                   ? 1
                   : 0;
    }
    return count;
  }

  // Smallest node–triangle and edge–edge distance over the non-adjacent pairs within `reach` (m)
  // of each other; `reach` when none is closer.
  double min_separation(const Eigen::VectorXd& positions, double reach) {
    collision::BroadPhaseOptions options;
    options.margin = reach;
    m_broad_phase.update(positions, positions, options);
    m_broad_phase.self_candidates(m_candidates);
    double smallest = reach;
    for (const auto& c : m_candidates.point_triangle) {
      const auto& t = m_mesh.triangles[c.triangle];
      smallest = std::min(smallest, collision::point_triangle_distance(
                                        node(positions, c.node), node(positions, t[0]),
                                        node(positions, t[1]), node(positions, t[2])));
    }
    for (const auto& c : m_candidates.edge_edge) {
      const auto& a = m_edges[c.edge_a];
      const auto& b = m_edges[c.edge_b];
      smallest = std::min(
          smallest, collision::edge_edge_distance(node(positions, a[0]), node(positions, a[1]),
                                                  node(positions, b[0]), node(positions, b[1])));
    }
    return smallest;
  }

 private:
  static Eigen::Vector3d node(const Eigen::VectorXd& positions, int i) {
    return positions.segment<3>(3 * i);
  }
  const mesh::QuadMesh& m_mesh;
  std::vector<std::array<int, 2>> m_edges;
  collision::BroadPhase m_broad_phase;
  std::vector<collision::TrianglePairCandidate> m_pairs;
  collision::SelfCandidates m_candidates;
};

// ½ Σ ρ a_i |v_i|², J.
inline double kinetic_energy(const mesh::QuadMesh& mesh, double density,
                             const Eigen::VectorXd& velocities) {
  const Eigen::VectorXd area = mesh::lumped_areas(mesh);
  double energy = 0.0;
  for (int i = 0; i < mesh.num_nodes(); ++i)
    energy += 0.5 * density * area[i] * velocities.segment<3>(3 * i).squaredNorm();
  return energy;
}

}  // namespace clothfit::testing
