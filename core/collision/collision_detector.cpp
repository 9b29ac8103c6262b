#include "core/collision/collision_detector.hpp"

#include <algorithm>
#include <cassert>
#include <tuple>

#include "core/collision/edge_edge_ccd.hpp"
#include "core/collision/point_triangle_ccd.hpp"

namespace clothfit::collision {

CollisionDetector::CollisionDetector(int num_nodes, std::span<const std::array<int, 3>> triangles,
                                     std::span<const std::array<int, 2>> edges)
    : m_broad_phase(num_nodes, triangles, edges) {}

CollisionDetector::CollisionDetector(int num_nodes, std::span<const std::array<int, 3>> triangles)
    : m_broad_phase(num_nodes, triangles) {}

void CollisionDetector::update(const Eigen::Ref<const Eigen::VectorXd>& positions_t0,
                               const Eigen::Ref<const Eigen::VectorXd>& positions_t1,
                               double margin) {
  assert(positions_t0.size() == 3 * m_broad_phase.num_nodes());
  assert(positions_t1.size() == positions_t0.size());
  m_positions_t0 = positions_t0;
  m_positions_t1 = positions_t1;
  m_margin = margin;
  BroadPhaseOptions options;
  options.margin = margin;
  m_broad_phase.update(m_positions_t0, m_positions_t1, options);
}

void CollisionDetector::self_collisions(const CcdOptions& options, SelfCollisions& out) const {
  assert(options.detection_distance() <= m_margin);
  out.point_triangle.clear();
  out.edge_edge.clear();
  m_broad_phase.self_candidates(m_self_candidates);
  out.candidates = static_cast<int>(m_self_candidates.point_triangle.size() +
                                    m_self_candidates.edge_edge.size());
  const auto triangles = m_broad_phase.triangles();
  const auto edges = m_broad_phase.edges();
  for (const PointTriangleCandidate& c : m_self_candidates.point_triangle) {
    const std::array<int, 3>& t = triangles[c.triangle];
    const auto ccd =
        point_triangle_ccd(node_t0(c.node), node_t0(t[0]), node_t0(t[1]), node_t0(t[2]),
                           node_t1(c.node), node_t1(t[0]), node_t1(t[1]), node_t1(t[2]), options);
    if (ccd) {
      out.point_triangle.push_back({c.node, c.triangle, *ccd});
    }
  }
  for (const EdgeEdgeCandidate& c : m_self_candidates.edge_edge) {
    const std::array<int, 2>& a = edges[c.edge_a];
    const std::array<int, 2>& b = edges[c.edge_b];
    const auto ccd =
        edge_edge_ccd(node_t0(a[0]), node_t0(a[1]), node_t0(b[0]), node_t0(b[1]), node_t1(a[0]),
                      node_t1(a[1]), node_t1(b[0]), node_t1(b[1]), options);
    if (ccd) {
      out.edge_edge.push_back({c.edge_a, c.edge_b, *ccd});
    }
  }
  std::sort(out.point_triangle.begin(), out.point_triangle.end(), [](const auto& a, const auto& b) {
    return std::tie(a.node, a.triangle) < std::tie(b.node, b.triangle);
  });
  std::sort(out.edge_edge.begin(), out.edge_edge.end(), [](const auto& a, const auto& b) {
    return std::tie(a.edge_a, a.edge_b) < std::tie(b.edge_a, b.edge_b);
  });
}

void CollisionDetector::external_collisions(const Eigen::Ref<const Eigen::MatrixX3d>& points_t0,
                                            const Eigen::Ref<const Eigen::MatrixX3d>& points_t1,
                                            std::span<const std::array<int, 2>> segments,
                                            std::span<const int> face_points,
                                            const CcdOptions& options,
                                            ExternalCollisions& out) const {
  assert(options.detection_distance() <= m_margin);
  out.point_triangle.clear();
  out.segment_edge.clear();
  m_broad_phase.external_candidates(points_t0, points_t1, segments, face_points,
                                    m_external_candidates);
  out.candidates = static_cast<int>(m_external_candidates.point_triangle.size() +
                                    m_external_candidates.segment_edge.size());
  const auto point_t0 = [&](int i) -> Eigen::Vector3d { return points_t0.row(i).transpose(); };
  const auto point_t1 = [&](int i) -> Eigen::Vector3d { return points_t1.row(i).transpose(); };
  const auto triangles = m_broad_phase.triangles();
  const auto edges = m_broad_phase.edges();
  for (const auto& c : m_external_candidates.point_triangle) {
    const std::array<int, 3>& t = triangles[c.triangle];
    const auto ccd =
        point_triangle_ccd(point_t0(c.point), node_t0(t[0]), node_t0(t[1]), node_t0(t[2]),
                           point_t1(c.point), node_t1(t[0]), node_t1(t[1]), node_t1(t[2]), options);
    if (ccd) {
      out.point_triangle.push_back({c.point, c.triangle, *ccd});
    }
  }
  for (const auto& c : m_external_candidates.segment_edge) {
    const std::array<int, 2>& s = segments[c.segment];
    const std::array<int, 2>& e = edges[c.edge];
    const auto ccd =
        edge_edge_ccd(point_t0(s[0]), point_t0(s[1]), node_t0(e[0]), node_t0(e[1]), point_t1(s[0]),
                      point_t1(s[1]), node_t1(e[0]), node_t1(e[1]), options);
    if (ccd) {
      out.segment_edge.push_back({c.segment, c.edge, *ccd});
    }
  }
  std::sort(out.point_triangle.begin(), out.point_triangle.end(), [](const auto& a, const auto& b) {
    return std::tie(a.point, a.triangle) < std::tie(b.point, b.triangle);
  });
  std::sort(out.segment_edge.begin(), out.segment_edge.end(), [](const auto& a, const auto& b) {
    return std::tie(a.segment, a.edge) < std::tie(b.segment, b.edge);
  });
}

}  // namespace clothfit::collision
