#include "core/stepper/collision_set.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/collision/edge_edge_distance.hpp"
#include "core/collision/point_triangle_distance.hpp"
#include "core/collision/triangle_mesh_edges.hpp"

namespace clothfit::stepper {

namespace {

// Self pairs of the last step closer than this × τ0 at its end are carried into the next one.
constexpr double kCarryDistance = 1.25;

enum Kind : std::uint64_t { kNodeTriangle = 0, kEdgeEdge = 1, kStickEdge = 2, kStickTriangle = 3 };

std::uint64_t make_key(Kind kind, int a, int b) {
  return (std::uint64_t(kind) << 60) | (std::uint64_t(a) << 30) | std::uint64_t(b);
}

}  // namespace

bool CollisionSet::needed(const SimulationModel& model) {
  return model.self_collisions.enabled || model.stick.has_value();
}

CollisionSet::CollisionSet(const SimulationModel& model, const std::vector<int>& free_index)
    : m_mesh(model.mesh),
      m_options(model.self_collisions),
      m_stick(model.stick),
      m_free_index(free_index) {
  m_edges = collision::triangle_mesh_edges(m_mesh.triangles);
  m_detector =
      std::make_unique<collision::CollisionDetector>(m_mesh.num_nodes(), m_mesh.triangles, m_edges);
  if (m_stick) {
    const double length = (m_stick->end1.position(0.0) - m_stick->end0.position(0.0)).norm();
    const int segments =
        std::max(1, static_cast<int>(std::ceil(length / m_stick->max_segment_length - 1e-9)));
    for (int k = 0; k < segments; ++k)
      m_segments.push_back({k, k + 1});
    m_stick_t0.resize(segments + 1, 3);
    m_stick_t1.resize(segments + 1, 3);
  }
}

CollisionSet::~CollisionSet() = default;

void CollisionSet::begin_step(const Eigen::VectorXd& phi_n, double t0, double t1,
                              double proximity) {
  m_phi_n = phi_n;
  m_proximity = proximity;
  m_rows.clear();
  m_row_of_key.clear();
  m_candidates = 0;
  m_detected = false;
  if (m_stick) {
    const int points = static_cast<int>(m_stick_t0.rows());
    const Eigen::Vector3d a0 = m_stick->end0.position(t0), b0 = m_stick->end1.position(t0);
    const Eigen::Vector3d a1 = m_stick->end0.position(t1), b1 = m_stick->end1.position(t1);
    for (int k = 0; k < points; ++k) {
      const double s = double(k) / (points - 1);
      m_stick_t0.row(k) = ((1.0 - s) * a0 + s * b0).transpose();
      m_stick_t1.row(k) = ((1.0 - s) * a1 + s * b1).transpose();
    }
  }
  for (std::uint64_t key : m_carried)
    add_carried(key);
}

void CollisionSet::end_step() {
  m_carried.clear();
  for (const Row& row : m_rows) {
    if (!row.stick)
      m_carried.push_back(row.key);
  }
}

void CollisionSet::add_carried(std::uint64_t key) {
  const auto kind = static_cast<Kind>(key >> 60);
  const int a = static_cast<int>((key >> 30) & ((1u << 30) - 1));
  const int b = static_cast<int>(key & ((1u << 30) - 1));
  const auto x = [&](int i) -> Eigen::Vector3d { return m_phi_n.segment<3>(3 * i); };
  Row row;
  Eigen::Vector3d separation;
  if (kind == kNodeTriangle) {
    const auto& t = m_mesh.triangles[b];
    const collision::PointTriangleClosest c =
        collision::point_triangle_closest(x(a), x(t[0]), x(t[1]), x(t[2]));
    row.nodes = {a, t[0], t[1], t[2]};
    row.weights = {1.0, -c.weights[0], -c.weights[1], -c.weights[2]};
    separation = x(a) - (c.weights[0] * x(t[0]) + c.weights[1] * x(t[1]) + c.weights[2] * x(t[2]));
  } else if (kind == kEdgeEdge) {
    const auto& ea = m_edges[a];
    const auto& eb = m_edges[b];
    const collision::EdgeEdgeClosest c =
        collision::edge_edge_closest(x(ea[0]), x(ea[1]), x(eb[0]), x(eb[1]));
    row.nodes = {ea[0], ea[1], eb[0], eb[1]};
    row.weights = {1.0 - c.s, c.s, -(1.0 - c.u), -c.u};
    separation = (1.0 - c.s) * x(ea[0]) + c.s * x(ea[1]) - (1.0 - c.u) * x(eb[0]) - c.u * x(eb[1]);
  } else {
    return;
  }
  const double distance = separation.norm();
  // Pairs that came apart are dropped; touching ones have no usable direction (the detection finds
  // them again).
  if (distance > kCarryDistance * m_options.thickness || distance < 1e-3 * m_options.thickness)
    return;
  row.normal = separation / distance;
  row.bound = m_options.thickness;
  row.active = true;
  add(key, row);
}

void CollisionSet::add(std::uint64_t key, Row row) {
  row.key = key;
  const auto [it, inserted] = m_row_of_key.try_emplace(key, static_cast<int>(m_rows.size()));
  if (inserted) {
    m_rows.push_back(row);
    return;
  }
  // Found again in a later iteration: the later row replaces the earlier one (paper §4.1).
  const bool active = m_rows[it->second].active;
  m_rows[it->second] = row;
  m_rows[it->second].active = active;
}

void CollisionSet::run_detection(const Eigen::VectorXd& phi_j, double proximity, bool count_only,
                                 int* found) {
  *found = 0;
  const double stick_radius = m_stick ? m_stick->radius : 0.0;
  const double thickness = m_options.enabled ? m_options.thickness : 0.0;
  // One margin for every call (the largest detection distance of the step), so that the final
  // check on the last detected iterate needs no new update and the trees are not loosened and
  // rebuilt by margins that change from call to call.
  const double margin = 2.0 * m_options.proximity * std::max(thickness, stick_radius);
  if (!m_detected || m_detected_phi.size() != phi_j.size() || m_detected_phi != phi_j) {
    m_detector->update(m_phi_n, phi_j, margin);
    m_detected_phi = phi_j;
    m_detected = true;
  }
  if (m_options.enabled) {
    collision::CcdOptions ccd;
    ccd.thickness = m_options.thickness;
    ccd.proximity = proximity;
    m_detector->self_collisions(ccd, m_self);
    m_candidates += m_self.candidates;
    *found += static_cast<int>(m_self.point_triangle.size() + m_self.edge_edge.size());
    if (!count_only) {
      for (const auto& c : m_self.point_triangle) {
        const auto& t = m_mesh.triangles[c.triangle];
        Row row;
        row.nodes = {c.node, t[0], t[1], t[2]};
        row.weights = {1.0, -c.ccd.weights[0], -c.ccd.weights[1], -c.ccd.weights[2]};
        row.normal = c.ccd.normal;
        row.bound = m_options.thickness;
        add(make_key(kNodeTriangle, c.node, c.triangle), row);
      }
      for (const auto& c : m_self.edge_edge) {
        const auto& a = m_edges[c.edge_a];
        const auto& b = m_edges[c.edge_b];
        Row row;
        row.nodes = {a[0], a[1], b[0], b[1]};
        row.weights = {1.0 - c.ccd.s, c.ccd.s, -(1.0 - c.ccd.u), -c.ccd.u};
        row.normal = c.ccd.normal;
        row.bound = m_options.thickness;
        add(make_key(kEdgeEdge, c.edge_a, c.edge_b), row);
      }
    }
  }
  if (m_stick) {
    collision::CcdOptions ccd;
    ccd.thickness = m_stick->radius;
    ccd.proximity = proximity;
    m_detector->external_collisions(m_stick_t0, m_stick_t1, m_segments, ccd, m_external);
    m_candidates += m_external.candidates;
    const int last_point = static_cast<int>(m_stick_t0.rows()) - 1;
    // One row per cloth edge: where it touches two adjacent stick segments near their common
    // point, the earliest contact is kept (two nearly equal rows would make the QP degenerate).
    std::unordered_map<int, int> first_of_edge;
    for (int k = 0; k < static_cast<int>(m_external.segment_edge.size()); ++k) {
      const auto& c = m_external.segment_edge[k];
      const auto [it, inserted] = first_of_edge.try_emplace(c.edge, k);
      if (!inserted && c.ccd.time < m_external.segment_edge[it->second].ccd.time)
        it->second = k;
    }
    *found += static_cast<int>(first_of_edge.size());
    for (const auto& c : m_external.point_triangle) {
      if (c.point == 0 || c.point == last_point)
        ++*found;
    }
    if (count_only)
      return;
    for (const auto& [edge, k] : first_of_edge) {
      const auto& c = m_external.segment_edge[k];
      const auto& s = m_segments[c.segment];
      const auto& e = m_edges[edge];
      const Eigen::Vector3d x = (1.0 - c.ccd.s) * m_stick_t1.row(s[0]).transpose() +
                                c.ccd.s * m_stick_t1.row(s[1]).transpose();
      Row row;
      row.nodes = {e[0], e[1], -1, -1};
      row.weights = {-(1.0 - c.ccd.u), -c.ccd.u, 0.0, 0.0};
      row.normal = c.ccd.normal;
      row.constant = c.ccd.normal.dot(x);
      row.bound = m_stick->radius;
      row.stick = true;
      add(make_key(kStickEdge, edge, 0), row);
    }
    for (const auto& c : m_external.point_triangle) {
      if (c.point != 0 && c.point != last_point)
        continue;  // interior points lie on two segments: their edge rows cover them
      const auto& t = m_mesh.triangles[c.triangle];
      const Eigen::Vector3d x = m_stick_t1.row(c.point).transpose();
      Row row;
      row.nodes = {t[0], t[1], t[2], -1};
      row.weights = {-c.ccd.weights[0], -c.ccd.weights[1], -c.ccd.weights[2], 0.0};
      row.normal = c.ccd.normal;
      row.constant = c.ccd.normal.dot(x);
      row.bound = m_stick->radius;
      row.stick = true;
      add(make_key(kStickTriangle, c.point == 0 ? 0 : 1, c.triangle), row);
    }
  }
}

int CollisionSet::detect(const Eigen::VectorXd& phi_j) {
  const int before = size();
  int found = 0;
  run_detection(phi_j, m_proximity, false, &found);
  return size() - before;
}

bool CollisionSet::final_check(const Eigen::VectorXd& phi_j) {
  int found = 0;
  run_detection(phi_j, 0.0, true, &found);
  return found > 0;
}

double CollisionSet::assemble(const Eigen::VectorXd& phi_j, const Eigen::VectorXd& held_increment,
                              qp::QpProblem* problem, std::vector<int>* seed) {
  const int first = problem->num_inequalities();
  m_first_row = first;
  m_triplets.clear();
  const qp::SparseRowMatrix& existing = problem->inequality_jacobian;
  for (int r = 0; r < existing.rows(); ++r) {
    for (qp::SparseRowMatrix::InnerIterator it(existing, r); it; ++it)
      m_triplets.emplace_back(r, static_cast<int>(it.col()), it.value());
  }
  const int rows = size();
  Eigen::VectorXd offsets(first + rows);
  offsets.head(first) = problem->inequality_offset;
  double min_value = std::numeric_limits<double>::infinity();
  for (int k = 0; k < rows; ++k) {
    const Row& row = m_rows[k];
    double value = row.constant;
    double offset = 0.0;
    for (int i = 0; i < 4; ++i) {
      const int v = row.nodes[i];
      if (v < 0)
        continue;
      const Eigen::Vector3d g = row.weights[i] * row.normal;  // ∂H/∂x_v
      value += g.dot(phi_j.segment<3>(3 * v));
      for (int d = 0; d < 3; ++d) {
        const int col = m_free_index[3 * v + d];
        if (col >= 0) {
          if (g[d] != 0.0)
            m_triplets.emplace_back(first + k, col, g[d]);
        } else {
          offset += g[d] * held_increment[3 * v + d];
        }
      }
    }
    offsets[first + k] = value - row.bound + offset;
    min_value = std::min(min_value, value - row.bound);
    if (row.active)
      seed->push_back(first + k);
  }
  problem->inequality_jacobian.resize(first + rows, problem->num_variables());
  problem->inequality_jacobian.setFromTriplets(m_triplets.begin(), m_triplets.end());
  problem->inequality_jacobian.makeCompressed();
  problem->inequality_offset = offsets;
  return min_value;
}

void CollisionSet::record(const qp::QpSolution& solution) {
  for (Row& row : m_rows)
    row.active = false;
  for (int r : solution.active_inequalities) {
    const int k = r - m_first_row;
    if (k >= 0 && k < size())
      m_rows[k].active = true;
  }
}

int CollisionSet::active_count() const {
  return static_cast<int>(
      std::count_if(m_rows.begin(), m_rows.end(), [](const Row& r) { return r.active; }));
}

int CollisionSet::active_stick_count() const {
  return static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(),
                                        [](const Row& r) { return r.active && r.stick; }));
}

}  // namespace clothfit::stepper
