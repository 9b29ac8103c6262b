#include "core/stepper/collision_set.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <numeric>
#include <string>
#include <tuple>

#include "core/collision/edge_edge_distance.hpp"
#include "core/collision/point_triangle_distance.hpp"
#include "core/collision/triangle_mesh_edges.hpp"

namespace clothfit::stepper {

namespace {

// Self and needle pairs of the last step closer than this × τ0 at its end are carried into the
// next one.
constexpr double kCarryDistance = 1.25;

enum Kind : std::uint64_t {
  kNodeTriangle = 0,
  kEdgeEdge = 1,
  kStickEdge = 2,
  kStickTriangle = 3,
  kNeedleTriangle = 4,
  kNeedleEdge = 5
};

std::uint64_t make_key(Kind kind, int a, int b) {
  return (std::uint64_t(kind) << 60) | (std::uint64_t(a) << 30) | std::uint64_t(b);
}

// The needle fields among the obstacles.
std::vector<std::shared_ptr<const obstacles::NeedleField>> needle_fields(
    const SimulationModel& model) {
  std::vector<std::shared_ptr<const obstacles::NeedleField>> out;
  for (const auto& obstacle : model.obstacles) {
    if (auto field = std::dynamic_pointer_cast<const obstacles::NeedleField>(obstacle))
      out.push_back(std::move(field));
  }
  return out;
}

// A peak's identity: its needle field and its lattice position. In the rest frame a peak has
// c1 (X − x0) = 2πm + sπ/2, so kx = 2 c1 (X − x0)/π = 4m + s is an odd integer (likewise ky).
std::uint64_t peak_key(int field, const obstacles::NeedleFieldGeometry& g,
                       const Eigen::Vector3d& peak_rest_m) {
  const double scale = 2.0 * g.c1_per_m / std::numbers::pi;
  const auto lattice = [&](double v) {
    return std::uint64_t(std::llround(scale * v) + (1LL << 27)) & ((1ULL << 28) - 1);
  };
  return (std::uint64_t(field) << 56) | (lattice(peak_rest_m.x() - g.origin_m.x()) << 28) |
         lattice(peak_rest_m.y() - g.origin_m.y());
}

}  // namespace

bool CollisionSet::needed(const SimulationModel& model) {
  return model.self_collisions.enabled || model.stick.has_value() || !needle_fields(model).empty();
}

double CollisionSet::needle_thickness(const SimulationModel& model) {
  return model.self_collisions.enabled ? model.self_collisions.thickness : kDefaultNeedleThickness;
}

CollisionSet::CollisionSet(const SimulationModel& model, const std::vector<int>& free_index)
    : m_mesh(model.mesh),
      m_options(model.self_collisions),
      m_stick(model.stick),
      m_needle_fields(needle_fields(model)),
      m_needle_thickness(needle_thickness(model)),
      m_free_index(free_index) {
  m_edges = collision::triangle_mesh_edges(m_mesh.triangles);
  m_detector =
      std::make_unique<collision::CollisionDetector>(m_mesh.num_nodes(), m_mesh.triangles, m_edges);
  if (m_stick) {
    const int segments = m_stick->segment_count();
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
  m_t0 = t0;
  m_t1 = t1;
  m_proximity = proximity;
  m_needle_segments.clear();
  m_needles.clear();
  m_needle_of_key.clear();
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
    if (row.source != Source::kStick)
      m_carried.push_back(row.key);
  }
  m_carried_needles = m_needles;
}

void CollisionSet::add_carried(std::uint64_t key) {
  const auto kind = static_cast<Kind>(key >> 60);
  const int a = static_cast<int>((key >> 30) & ((1u << 30) - 1));
  const int b = static_cast<int>(key & ((1u << 30) - 1));
  const auto x = [&](int i) -> Eigen::Vector3d { return m_phi_n.segment<3>(3 * i); };
  Row row;
  Eigen::Vector3d separation;
  double thickness = m_options.thickness;
  Eigen::Vector3d external_t1 = Eigen::Vector3d::Zero();  // the needle's point at tₙ₊₁
  if (kind == kNeedleTriangle || kind == kNeedleEdge) {
    // Needle rows are keyed by the needle's index in its step: find the needle again by its
    // field and lattice position, registered anew for this step.
    const int old_needle = kind == kNeedleTriangle ? a / 2 : a;
    const auto& [field, peak_rest] = m_carried_needles[old_needle];
    const int needle = register_needle(field, peak_rest);
    thickness = m_needle_thickness;
    if (kind == kNeedleTriangle) {
      const int point = 2 * needle + a % 2;
      const Eigen::Vector3d o = m_needle_points_t0.row(point).transpose();
      const auto& t = m_mesh.triangles[b];
      const collision::PointTriangleClosest c =
          collision::point_triangle_closest(o, x(t[0]), x(t[1]), x(t[2]));
      row.nodes = {t[0], t[1], t[2], -1};
      row.weights = {-c.weights[0], -c.weights[1], -c.weights[2], 0.0};
      separation = o - (c.weights[0] * x(t[0]) + c.weights[1] * x(t[1]) + c.weights[2] * x(t[2]));
      external_t1 = m_needle_points_t1.row(point).transpose();
      key = make_key(kNeedleTriangle, point, b);
    } else {
      const Eigen::Vector3d a0 = m_needle_points_t0.row(2 * needle).transpose();
      const Eigen::Vector3d a1 = m_needle_points_t0.row(2 * needle + 1).transpose();
      const auto& e = m_edges[b];
      const collision::EdgeEdgeClosest c = collision::edge_edge_closest(a0, a1, x(e[0]), x(e[1]));
      row.nodes = {e[0], e[1], -1, -1};
      row.weights = {-(1.0 - c.u), -c.u, 0.0, 0.0};
      separation = (1.0 - c.s) * a0 + c.s * a1 - (1.0 - c.u) * x(e[0]) - c.u * x(e[1]);
      external_t1 = (1.0 - c.s) * m_needle_points_t1.row(2 * needle).transpose() +
                    c.s * m_needle_points_t1.row(2 * needle + 1).transpose();
      key = make_key(kNeedleEdge, needle, b);
    }
    row.source = Source::kNeedle;
  } else if (kind == kNodeTriangle) {
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
  if (distance > kCarryDistance * thickness || distance < 1e-3 * thickness)
    return;
  row.normal = separation / distance;
  row.constant = row.normal.dot(external_t1);
  row.bound = thickness;
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
  const double needle_thickness = m_needle_fields.empty() ? 0.0 : m_needle_thickness;
  // One margin for every call (the largest detection distance of the step), so that the final
  // check on the last detected iterate needs no new update and the trees are not loosened and
  // rebuilt by margins that change from call to call.
  const double margin =
      2.0 * m_options.proximity * std::max({thickness, stick_radius, needle_thickness});
  // The stick alone: no pair can come within the margin while the stick's swept box misses the
  // cloth's grown by it. Most steps of a hit are so, and then the trees are not even refitted
  // (the collisions come sorted, so when the trees were last refitted changes no result). The
  // cloth's box is needed only for the stick's test and the needles' broad phase.
  const Eigen::AlignedBox3d cloth =
      m_stick || !m_needle_fields.empty() ? swept_cloth_box(phi_j, margin) : Eigen::AlignedBox3d();
  const bool stick_near = m_stick && cloth.intersects(swept_stick_box());
  if (!m_options.enabled && m_needle_fields.empty() && !stick_near)
    return;
  if (!m_detected || m_detected_phi.size() != phi_j.size() || m_detected_phi != phi_j) {
    m_detector->update(m_phi_n, phi_j, margin);
    m_detected_phi = phi_j;
    m_detected = true;
  }
  if (m_options.enabled)
    *found += detect_self(proximity, count_only);
  if (stick_near)
    *found += detect_stick(proximity, count_only);
  if (!m_needle_fields.empty())
    *found += detect_needles(cloth, proximity, count_only);
}

Eigen::AlignedBox3d CollisionSet::swept_cloth_box(const Eigen::VectorXd& phi_j,
                                                  double margin) const {
  Eigen::AlignedBox3d box;
  for (int i = 0; i < m_mesh.num_nodes(); ++i) {
    box.extend(Eigen::Vector3d(m_phi_n.segment<3>(3 * i)));
    box.extend(Eigen::Vector3d(phi_j.segment<3>(3 * i)));
  }
  box.min().array() -= margin;
  box.max().array() += margin;
  return box;
}

Eigen::AlignedBox3d CollisionSet::swept_stick_box() const {
  // The stick's points move linearly: at every time of the step they lie in the box of their end
  // positions, and its segments in the box of their points.
  Eigen::AlignedBox3d box;
  for (Eigen::Index k = 0; k < m_stick_t0.rows(); ++k) {
    box.extend(Eigen::Vector3d(m_stick_t0.row(k).transpose()));
    box.extend(Eigen::Vector3d(m_stick_t1.row(k).transpose()));
  }
  return box;
}

int CollisionSet::detect_self(double proximity, bool count_only) {
  collision::CcdOptions ccd;
  ccd.thickness = m_options.thickness;
  ccd.proximity = proximity;
  m_detector->self_collisions(ccd, m_self);
  m_candidates += m_self.candidates;
  if (count_only)
    return static_cast<int>(m_self.point_triangle.size() + m_self.edge_edge.size());
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
  return static_cast<int>(m_self.point_triangle.size() + m_self.edge_edge.size());
}

CollisionSet::Row CollisionSet::point_triangle_row(
    const collision::ExternalCollisions::PointTriangle& c, const Eigen::Vector3d& point_t1,
    double bound, Source source) const {
  const auto& t = m_mesh.triangles[c.triangle];
  Row row;
  row.nodes = {t[0], t[1], t[2], -1};
  row.weights = {-c.ccd.weights[0], -c.ccd.weights[1], -c.ccd.weights[2], 0.0};
  row.normal = c.ccd.normal;
  row.constant = c.ccd.normal.dot(point_t1);
  row.bound = bound;
  row.source = source;
  return row;
}

CollisionSet::Row CollisionSet::segment_edge_row(
    const collision::ExternalCollisions::SegmentEdge& c, const Eigen::Vector3d& end0_t1,
    const Eigen::Vector3d& end1_t1, double bound, Source source) const {
  const auto& e = m_edges[c.edge];
  const Eigen::Vector3d x = (1.0 - c.ccd.s) * end0_t1 + c.ccd.s * end1_t1;
  Row row;
  row.nodes = {e[0], e[1], -1, -1};
  row.weights = {-(1.0 - c.ccd.u), -c.ccd.u, 0.0, 0.0};
  row.normal = c.ccd.normal;
  row.constant = c.ccd.normal.dot(x);
  row.bound = bound;
  row.source = source;
  return row;
}

int CollisionSet::detect_stick(double proximity, bool count_only) {
  collision::CcdOptions ccd;
  ccd.thickness = m_stick->radius;
  ccd.proximity = proximity;
  // Only the stick's two ends against the cloth's faces: its inner points lie on two segments,
  // whose edge rows cover them.
  const int last_point = static_cast<int>(m_stick_t0.rows()) - 1;
  const std::array<int, 2> ends = {0, last_point};
  m_detector->external_collisions(m_stick_t0, m_stick_t1, m_segments, ends, ccd, m_external);
  m_candidates += m_external.candidates;
  // One row per cloth edge: where it touches two adjacent stick segments near their common
  // point, the earliest contact is kept (two nearly equal rows would make the QP degenerate; of
  // two at the same time, the one with the lower segment). The rows follow the edges' order.
  m_first_of_edge.resize(m_external.segment_edge.size());
  for (int k = 0; k < static_cast<int>(m_external.segment_edge.size()); ++k)
    m_first_of_edge[k] = k;
  const auto& hits = m_external.segment_edge;
  std::sort(m_first_of_edge.begin(), m_first_of_edge.end(), [&hits](int a, int b) {
    return std::tie(hits[a].edge, hits[a].ccd.time, a) <
           std::tie(hits[b].edge, hits[b].ccd.time, b);
  });
  m_first_of_edge.erase(std::unique(m_first_of_edge.begin(), m_first_of_edge.end(),
                                    [&hits](int a, int b) { return hits[a].edge == hits[b].edge; }),
                        m_first_of_edge.end());
  const int found = static_cast<int>(m_first_of_edge.size() + m_external.point_triangle.size());
  if (count_only)
    return found;
  for (const int k : m_first_of_edge) {
    const auto& c = m_external.segment_edge[k];
    const auto& s = m_segments[c.segment];
    add(make_key(kStickEdge, c.edge, 0),
        segment_edge_row(c, m_stick_t1.row(s[0]).transpose(), m_stick_t1.row(s[1]).transpose(),
                         m_stick->radius, Source::kStick));
  }
  for (const auto& c : m_external.point_triangle) {
    add(make_key(kStickTriangle, c.point == 0 ? 0 : 1, c.triangle),
        point_triangle_row(c, m_stick_t1.row(c.point).transpose(), m_stick->radius,
                           Source::kStick));
  }
  return found;
}

int CollisionSet::detect_needles(const Eigen::AlignedBox3d& cloth, double proximity,
                                 bool count_only) {
  gather_needles(cloth);
  if (m_needle_segments.empty())
    return 0;
  collision::CcdOptions ccd;
  ccd.thickness = m_needle_thickness;
  ccd.proximity = proximity;
  // A needle is external geometry like the stick: its tip and base points against the cloth's
  // triangles, its axis segment against the cloth's edges.
  const auto points = static_cast<Eigen::Index>(2 * m_needle_segments.size());
  m_needle_face_points.resize(points);
  std::iota(m_needle_face_points.begin(), m_needle_face_points.end(), 0);
  m_detector->external_collisions(m_needle_points_t0.topRows(points),
                                  m_needle_points_t1.topRows(points), m_needle_segments,
                                  m_needle_face_points, ccd, m_needle_hits);
  m_candidates += m_needle_hits.candidates;
  if (!count_only) {
    for (const auto& c : m_needle_hits.point_triangle) {
      add(make_key(kNeedleTriangle, c.point, c.triangle),
          point_triangle_row(c, m_needle_points_t1.row(c.point).transpose(), m_needle_thickness,
                             Source::kNeedle));
    }
    for (const auto& c : m_needle_hits.segment_edge) {
      const auto& s = m_needle_segments[c.segment];
      add(make_key(kNeedleEdge, c.segment, c.edge),
          segment_edge_row(c, m_needle_points_t1.row(s[0]).transpose(),
                           m_needle_points_t1.row(s[1]).transpose(), m_needle_thickness,
                           Source::kNeedle));
    }
  }
  return static_cast<int>(m_needle_hits.point_triangle.size() + m_needle_hits.segment_edge.size());
}

int CollisionSet::register_needle(int field, const Eigen::Vector3d& peak_rest) {
  const int index = static_cast<int>(m_needles.size());
  const obstacles::NeedleField& needles = *m_needle_fields[field];
  const auto [it, inserted] =
      m_needle_of_key.try_emplace(peak_key(field, needles.geometry(), peak_rest), index);
  if (!inserted)
    return it->second;
  if (2 * index + 2 > m_needle_points_t0.rows()) {
    const Eigen::Index rows = std::max<Eigen::Index>(32, 2 * m_needle_points_t0.rows());
    m_needle_points_t0.conservativeResize(rows, 3);
    m_needle_points_t1.conservativeResize(rows, 3);
  }
  const obstacles::RigidPose pose_t0 = needles.motion().pose(m_t0);
  const obstacles::RigidPose pose_t1 = needles.motion().pose(m_t1);
  const Eigen::Vector3d base_rest(peak_rest.x(), peak_rest.y(), needles.geometry().origin_m.z());
  m_needle_points_t0.row(2 * index) = pose_t0.to_world(peak_rest).transpose();
  m_needle_points_t1.row(2 * index) = pose_t1.to_world(peak_rest).transpose();
  m_needle_points_t0.row(2 * index + 1) = pose_t0.to_world(base_rest).transpose();
  m_needle_points_t1.row(2 * index + 1) = pose_t1.to_world(base_rest).transpose();
  m_needle_segments.push_back({2 * index, 2 * index + 1});
  m_needles.emplace_back(field, peak_rest);
  return index;
}

void CollisionSet::gather_needles(const Eigen::AlignedBox3d& box) {
  // Broad phase for the needles: the cloth's swept bounding box (every triangle stays inside it
  // during the motion) grown by the margin, and the needles whose axis (tip to base) meets it at
  // some time of the step.
  for (int f = 0; f < static_cast<int>(m_needle_fields.size()); ++f) {
    const obstacles::NeedleField& field = *m_needle_fields[f];
    const obstacles::NeedleFieldGeometry& g = field.geometry();
    const double tip_z = g.origin_m.z() + g.peak_height_m();  // rest frame, m
    const double base_z = g.origin_m.z();
    const obstacles::RigidPose pose_t0 = field.motion().pose(m_t0);
    const obstacles::RigidPose pose_t1 = field.motion().pose(m_t1);
    if (field.is_static()) {
      // The axis [base_z, tip_z] above (x, y) meets the box when (x, y) is in the box's
      // rectangle, tip_z ≥ its bottom and base_z ≤ its top: the peaks inside the box stretched up
      // to the tips.
      if (base_z > box.max().z())
        continue;
      Eigen::AlignedBox3d reach = box;
      reach.max().z() = std::max(box.max().z(), tip_z);
      for (const Eigen::Vector3d& p : field.peaks_in_box(reach, m_t1))
        register_needle(f, p);
      continue;
    }
    // A moving needle may cross the box between tₙ and tₙ₊₁ without touching it at either time
    // (a field rising through a resting sheet). Its axis moves on straight lines (what the CCD
    // assumes) inside the box of its end points at tₙ and tₙ₊₁. Candidates: the rest-frame
    // rectangle holding the box's corners seen from both poses (exact for translations), grown by
    // the largest displacement over the step of the rectangle's corners at tip and base height
    // (covers the chords of a rotation); kept when their swept box meets the cloth's.
    Eigen::AlignedBox2d rest_xy;
    for (const obstacles::RigidPose* pose : {&pose_t0, &pose_t1}) {
      for (int i = 0; i < 8; ++i) {
        const Eigen::Vector3d corner =
            pose->to_rest(box.corner(static_cast<Eigen::AlignedBox3d::CornerType>(i)));
        rest_xy.extend(Eigen::Vector2d(corner.x(), corner.y()));
      }
    }
    double displacement = 0.0;
    for (int i = 0; i < 4; ++i) {
      const Eigen::Vector2d c = rest_xy.corner(static_cast<Eigen::AlignedBox2d::CornerType>(i));
      for (const double z : {tip_z, base_z}) {
        const Eigen::Vector3d x(c.x(), c.y(), z);
        displacement = std::max(displacement, (pose_t1.to_world(x) - pose_t0.to_world(x)).norm());
      }
    }
    rest_xy.min().array() -= displacement;
    rest_xy.max().array() += displacement;
    for (const Eigen::Vector3d& peak_rest : field.peaks_rest(rest_xy)) {
      const Eigen::Vector3d base_rest(peak_rest.x(), peak_rest.y(), base_z);
      Eigen::AlignedBox3d swept(pose_t0.to_world(peak_rest));
      swept.extend(pose_t1.to_world(peak_rest));
      swept.extend(pose_t0.to_world(base_rest));
      swept.extend(pose_t1.to_world(base_rest));
      if (swept.intersects(box))
        register_needle(f, peak_rest);
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

std::string CollisionSet::describe_row(int row) const {
  const int k = row - m_first_row;
  if (k < 0 || k >= size())
    return {};
  const Row& r = m_rows[k];
  const auto node = [&r](int i) { return std::to_string(r.nodes[i]); };
  const auto edge = [&](int i) {
    return "the cloth edge between nodes " + node(i) + " and " + node(i + 1);
  };
  const auto triangle = [&](int i) {
    return "the triangle of nodes " + node(i) + ", " + node(i + 1) + " and " + node(i + 2);
  };
  const auto kind = static_cast<Kind>(r.key >> 60);
  const int a = static_cast<int>((r.key >> 30) & ((1u << 30) - 1));
  // A needle by its peak's position at tₙ₊₁ (x, y), m.
  const auto needle = [this](int index) {
    const Eigen::Vector3d peak = m_needle_points_t1.row(2 * index).transpose();
    char text[64];
    std::snprintf(text, sizeof text, "the needle at (%.3g, %.3g) m", peak.x(), peak.y());
    return std::string(text);
  };
  switch (kind) {
    case kNodeTriangle:
      return "self-collision of node " + node(0) + " with " + triangle(1);
    case kEdgeEdge:
      return "self-collision of " + edge(0) + " with the edge between nodes " + node(2) + " and " +
             node(3);
    case kStickEdge:
      return "the stick against " + edge(0);
    case kStickTriangle:
      return std::string("the stick's ") + (a == 0 ? "first" : "last") + " end against " +
             triangle(0);
    case kNeedleTriangle:
      return std::string("the ") + (a % 2 == 0 ? "tip" : "base") + " of " + needle(a / 2) +
             " against " + triangle(0);
    case kNeedleEdge:
      return "the axis of " + needle(a) + " against " + edge(0);
  }
  return {};
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
  return static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(), [](const Row& r) {
    return r.active && r.source == Source::kStick;
  }));
}

int CollisionSet::active_needle_count() const {
  return static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(), [](const Row& r) {
    return r.active && r.source == Source::kNeedle;
  }));
}

}  // namespace clothfit::stepper
