#include "core/collision/broad_phase.hpp"

#include <cassert>

#include "core/collision/triangle_mesh_edges.hpp"

namespace clothfit::collision {

BroadPhase::BroadPhase(int num_nodes, std::span<const std::array<int, 3>> triangles,
                       std::span<const std::array<int, 2>> edges)
    : m_num_nodes(num_nodes),
      m_triangles(triangles.begin(), triangles.end()),
      m_edges(edges.begin(), edges.end()) {
  for ([[maybe_unused]] const auto& t : m_triangles) {
    assert(t[0] >= 0 && t[0] < num_nodes && t[1] >= 0 && t[1] < num_nodes && t[2] >= 0 &&
           t[2] < num_nodes);
  }
  for ([[maybe_unused]] const auto& e : m_edges) {
    assert(e[0] >= 0 && e[0] < num_nodes && e[1] >= 0 && e[1] < num_nodes);
  }
}

BroadPhase::BroadPhase(int num_nodes, std::span<const std::array<int, 3>> triangles)
    : BroadPhase(num_nodes, triangles, triangle_mesh_edges(triangles)) {}

void BroadPhase::update_from_node_boxes(const BroadPhaseOptions& options) {
  assert(options.margin >= 0.0 && options.rebuild_factor >= 1.0);
  m_triangle_boxes.resize(m_triangles.size());
  for (size_t i = 0; i < m_triangles.size(); ++i) {
    Aabb box;
    for (int k = 0; k < 3; ++k) {
      box.extend(m_node_boxes[m_triangles[i][k]]);
    }
    m_triangle_boxes[i] = box;
  }
  m_edge_boxes.resize(m_edges.size());
  for (size_t i = 0; i < m_edges.size(); ++i) {
    Aabb box = m_node_boxes[m_edges[i][0]];
    box.extend(m_node_boxes[m_edges[i][1]]);
    m_edge_boxes[i] = box;
  }

  if (m_built) {
    m_node_tree.refit(m_node_boxes);
    m_triangle_tree.refit(m_triangle_boxes);
    m_edge_tree.refit(m_edge_boxes);
    const bool loose = m_node_tree.area_ratio() > options.rebuild_factor * m_node_ratio ||
                       m_triangle_tree.area_ratio() > options.rebuild_factor * m_triangle_ratio ||
                       m_edge_tree.area_ratio() > options.rebuild_factor * m_edge_ratio;
    if (!loose) {
      return;
    }
  }
  m_node_tree.build(m_node_boxes);
  m_triangle_tree.build(m_triangle_boxes);
  m_edge_tree.build(m_edge_boxes);
  m_node_ratio = m_node_tree.area_ratio();
  m_triangle_ratio = m_triangle_tree.area_ratio();
  m_edge_ratio = m_edge_tree.area_ratio();
  m_built = true;
  ++m_rebuilds;
}

bool BroadPhase::shares_node(int triangle, int node) const {
  const auto& t = m_triangles[triangle];
  return t[0] == node || t[1] == node || t[2] == node;
}

bool BroadPhase::edges_share_node(int a, int b) const {
  const auto& ea = m_edges[a];
  const auto& eb = m_edges[b];
  return ea[0] == eb[0] || ea[0] == eb[1] || ea[1] == eb[0] || ea[1] == eb[1];
}

bool BroadPhase::triangles_share_node(int a, int b) const {
  for (int node : m_triangles[b]) {
    if (shares_node(a, node)) {
      return true;
    }
  }
  return false;
}

void BroadPhase::self_candidates(SelfCandidates& out) const {
  assert(m_built);
  out.point_triangle.clear();
  out.edge_edge.clear();
  m_node_tree.pairs_with(m_triangle_tree, [&](int node, int triangle) {
    if (!shares_node(triangle, node)) {
      out.point_triangle.push_back({node, triangle});
    }
  });
  m_edge_tree.self_pairs([&](int a, int b) {
    if (!edges_share_node(a, b)) {
      out.edge_edge.push_back({std::min(a, b), std::max(a, b)});
    }
  });
}

void BroadPhase::external_candidates(const Eigen::Ref<const Eigen::MatrixX3d>& points_t0,
                                     const Eigen::Ref<const Eigen::MatrixX3d>& points_t1,
                                     std::span<const std::array<int, 2>> segments,
                                     std::span<const int> face_points,
                                     ExternalCandidates& out) const {
  assert(m_built);
  assert(points_t0.rows() == points_t1.rows());
  out.point_triangle.clear();
  out.segment_edge.clear();
  const double half_margin = 0.5 * m_margin;
  const auto point_box = [&](int i) {
    Aabb box;
    box.extend(Eigen::Vector3d(points_t0.row(i).transpose()));
    box.extend(Eigen::Vector3d(points_t1.row(i).transpose()));
    box.inflate(half_margin);
    return box;
  };
  for (const int i : face_points) {
    assert(i >= 0 && i < points_t0.rows());
    m_triangle_tree.query(point_box(i), [&](int triangle) {
      out.point_triangle.push_back({i, triangle});
    });
  }
  for (int s = 0; s < static_cast<int>(segments.size()); ++s) {
    assert(segments[s][0] >= 0 && segments[s][0] < points_t0.rows() && segments[s][1] >= 0 &&
           segments[s][1] < points_t0.rows());
    Aabb box = point_box(segments[s][0]);
    box.extend(point_box(segments[s][1]));
    m_edge_tree.query(box, [&](int edge) { out.segment_edge.push_back({s, edge}); });
  }
}

void BroadPhase::triangle_pair_candidates(std::vector<TrianglePairCandidate>& out) const {
  assert(m_built);
  out.clear();
  m_triangle_tree.self_pairs([&](int a, int b) {
    if (!triangles_share_node(a, b)) {
      out.push_back({std::min(a, b), std::max(a, b)});
    }
  });
}

}  // namespace clothfit::collision
