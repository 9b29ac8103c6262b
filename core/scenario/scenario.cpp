#include "core/scenario/scenario.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <numbers>
#include <optional>
#include <set>
#include <sstream>

#include "core/collision/edge_edge_distance.hpp"
#include "core/collision/point_triangle_distance.hpp"
#include "core/collision/triangle_triangle_intersection.hpp"
#include "core/io/json_object.hpp"
#include "core/mesh/coincident_nodes.hpp"
#include "core/mesh/obj_reader.hpp"
#include "core/mesh/quad_shape.hpp"
#include "core/obstacles/obstacle_json.hpp"
#include "core/obstacles/unit_vector.hpp"

namespace clothfit::scenario {

namespace {

mesh::QuadMesh parse_mesh(const JsonObject& m, const std::string& path) {
  const std::string type = m.choice("type", {"grid", "obj"});
  if (type == "grid") {
    m.reject_unknown({"type", "width", "height", "nodes_x", "nodes_y"});
    const double width = m.number("width", Range::positive());
    const double height = m.number("height", Range::positive());
    // Three at least: a 2 × N grid has no interior node, so the metric constraints, which sit
    // there, would hold none of its quads' shear (mesh::first_quad_without_interior_node).
    const int nodes_x = m.integer("nodes_x", Range::at_least(3));
    const int nodes_y = m.integer("nodes_y", Range::at_least(3));
    if (static_cast<long>(nodes_x) * nodes_y > mesh::kMaxGridNodes) {
      m.fail("nodes_y", "expected at most " + std::to_string(mesh::kMaxGridNodes) +
                            " nodes in all (nodes_x × nodes_y), found " + std::to_string(nodes_x) +
                            " × " + std::to_string(nodes_y));
    }
    std::string field;
    const std::string problem = mesh::grid_spacing_problem(width, height, nodes_x, nodes_y, &field);
    if (!problem.empty())
      m.fail(field, problem);
    return mesh::make_grid_mesh(width, height, nodes_x, nodes_y);
  }
  m.reject_unknown({"type", "path", "scale"});
  std::filesystem::path obj = m.string("path");
  if (obj.empty())  // it would be opened as "" and reported without a name
    m.fail("path", "expected the path of an OBJ file, found an empty string");
  if (obj.is_relative())  // relative to the scenario file, as the recording scenario's paths
    obj = (std::filesystem::path(path).parent_path() / obj).lexically_normal();
  mesh::QuadMesh mesh = mesh::read_obj_quad_mesh(obj.string());
  const double scale = m.number("scale", 1.0, Range::positive());
  if (scale != 1.0) {
    mesh.rest_positions *= scale;
    try {
      mesh::finalize(mesh, obj.string());
    } catch (const InputError& e) {
      // The OBJ file was valid at scale 1: the scale is what made its quads degenerate.
      m.fail("scale", "makes " + obj.filename().string() + " degenerate: " + e.problem());
    }
  }
  if (const int q = mesh::first_quad_without_interior_node(mesh); q >= 0) {
    const mesh::Quad& quad = mesh.quads[static_cast<std::size_t>(q)];
    m.fail("path", obj.filename().string() + ": quad " + std::to_string(q + 1) + " (vertices " +
                       std::to_string(quad[0] + 1) + ", " + std::to_string(quad[1] + 1) + ", " +
                       std::to_string(quad[2] + 1) + ", " + std::to_string(quad[3] + 1) +
                       ") has no corner inside the mesh: the inextensibility constraints sit at "
                       "interior nodes and boundary edges, so nothing would hold its shear or its "
                       "edges shared with other quads; expected every quad to have an interior "
                       "corner (refine the mesh)");
  }
  return mesh;
}

// Rotates about an axis through the origin, then translates.
void apply_placement(const JsonObject& p, mesh::QuadMesh* mesh) {
  p.reject_unknown({"translation", "rotation_axis", "rotation_deg"});
  const Eigen::Vector3d translation =
      p.has("translation") ? p.vector3("translation") : Eigen::Vector3d::Zero();
  const double angle = p.number("rotation_deg", 0.0, Range::any()) * std::numbers::pi / 180.0;
  const Eigen::Vector3d axis = p.has("rotation_axis")
                                   ? obstacles::unit_vector(p.direction("rotation_axis"))
                                   : Eigen::Vector3d::UnitZ();
  const Eigen::Matrix3d r = Eigen::AngleAxisd(angle, axis).toRotationMatrix();
  for (int i = 0; i < mesh->num_nodes(); ++i) {
    mesh->rest_positions.segment<3>(3 * i) = r * mesh->rest_position(i) + translation;
  }
}

int parse_node_reference(const JsonObject& object, const std::string& key, std::size_t index,
                         const mesh::QuadMesh& mesh, bool from_array) {
  const nlohmann::json& j = from_array ? object.raw(key)[index] : object.raw(key);
  std::string name = key;
  if (from_array)
    name.append("[").append(std::to_string(index)).append("]");
  // Indices as written (a huge one is out of range, not wrapped or cut to an int).
  if (j.is_number()) {
    if (!is_whole_number(j))
      object.fail(name, "expected a node index (a whole number), found " + j.dump());
    const std::optional<long long> node = whole_number(j);
    if (!node || *node < 0 || *node >= mesh.num_nodes()) {
      object.fail(name, "node index " + j.dump() + " is out of range 0.." +
                            std::to_string(mesh.num_nodes() - 1));
    }
    return static_cast<int>(*node);
  }
  if (j.is_array() && j.size() == 2 && j[0].is_number() && j[1].is_number()) {
    if (mesh.grid_columns == 0)
      object.fail(name, "[row, column] needs a grid mesh; use a node index");
    if (!is_whole_number(j[0]) || !is_whole_number(j[1]))
      object.fail(name, "expected [row, column] of whole numbers, found " + j.dump());
    const std::optional<long long> row = whole_number(j[0]), column = whole_number(j[1]);
    if (!row || !column || *row < 0 || *row >= mesh.grid_rows || *column < 0 ||
        *column >= mesh.grid_columns) {
      std::string problem = "[";
      problem.append(j[0].dump()).append(", ").append(j[1].dump());
      problem.append("] is outside the grid of ").append(std::to_string(mesh.grid_rows));
      problem.append(" rows × ").append(std::to_string(mesh.grid_columns)).append(" columns");
      object.fail(name, problem);
    }
    return mesh.grid_node(static_cast<int>(*row), static_cast<int>(*column));
  }
  std::string found = j.dump();
  if (found.size() > 60)
    found = found.substr(0, 60) + "...";
  object.fail(name, "expected a node index or [row, column], found " + found);
}

void parse_held(const JsonObject& h, const Eigen::VectorXd& initial,
                stepper::SimulationModel* model) {
  h.reject_unknown({"node", "nodes", "path"});
  std::vector<int> nodes;
  if (h.has("node") == h.has("nodes"))
    h.fail("", "expected exactly one of \"node\" or \"nodes\"");
  if (h.has("node")) {
    nodes.push_back(parse_node_reference(h, "node", 0, model->mesh, false));
  } else {
    const std::size_t count = h.array_size("nodes");
    if (count == 0)
      h.fail("nodes", "expected at least one node");
    for (std::size_t k = 0; k < count; ++k) {
      nodes.push_back(parse_node_reference(h, "nodes", k, model->mesh, true));
    }
  }
  std::vector<double> times;
  std::vector<Eigen::Vector3d> offsets;
  if (h.has("path")) {
    const std::size_t keys = h.array_size("path");
    if (keys == 0)
      h.fail("path", "expected at least one keyframe {\"time\": s, \"offset\": [x, y, z]}");
    for (std::size_t k = 0; k < keys; ++k) {
      const JsonObject key = h.element("path", k);
      key.reject_unknown({"time", "offset"});
      const double t = key.number("time", Range::non_negative());
      if (!times.empty() && t <= times.back())
        key.fail("time", "keyframe times must increase");
      times.push_back(t);
      offsets.push_back(key.vector3("offset"));
    }
  } else {
    times.push_back(0.0);
    offsets.push_back(Eigen::Vector3d::Zero());
  }
  for (int node : nodes) {
    for (const stepper::HeldNode& other : model->held) {
      if (other.node == node)
        h.fail("", "node " + std::to_string(node) + " is held twice");
    }
    std::vector<Eigen::Vector3d> positions;
    for (const Eigen::Vector3d& o : offsets)
      positions.push_back(initial.segment<3>(3 * node) + o);
    model->held.push_back({node, stepper::Trajectory(times, positions)});
  }
}

// Keyframes [{"time": s, "offset": [x, y, z]}, ...] added to `base` (m); a fixed position when
// the object has no "path".
stepper::Trajectory parse_path(const JsonObject& o, const Eigen::Vector3d& base) {
  if (!o.has("path"))
    return stepper::Trajectory(base);
  const std::size_t keys = o.array_size("path");
  if (keys == 0)
    o.fail("path", "expected at least one keyframe {\"time\": s, \"offset\": [x, y, z]}");
  std::vector<double> times;
  std::vector<Eigen::Vector3d> positions;
  for (std::size_t k = 0; k < keys; ++k) {
    const JsonObject key = o.element("path", k);
    key.reject_unknown({"time", "offset"});
    const double t = key.number("time", Range::non_negative());
    if (!times.empty() && t <= times.back())
      key.fail("time", "keyframe times must increase");
    times.push_back(t);
    positions.push_back(base + key.vector3("offset"));
  }
  return stepper::Trajectory(times, positions);
}

void parse_stick(const JsonObject& s, stepper::SimulationModel* model) {
  s.reject_unknown({"end0", "end1", "radius", "friction", "max_segment_length"});
  stepper::Stick stick;
  const JsonObject end0 = s.object("end0");
  const JsonObject end1 = s.object("end1");
  end0.reject_unknown({"position", "path"});
  end1.reject_unknown({"position", "path"});
  const Eigen::Vector3d p0 = end0.vector3("position"), p1 = end1.vector3("position");
  stick.end0 = parse_path(end0, p0);
  stick.end1 = parse_path(end1, p1);
  const double length = (stick.end1.position(0.0) - stick.end0.position(0.0)).norm();
  if (length < 1e-6)
    end1.fail("position", "expected the two ends of the stick apart at t = 0");
  stick.radius = s.number("radius", stick.radius, Range::positive());
  stick.max_segment_length =
      s.number("max_segment_length", stick.max_segment_length, Range::positive());
  if (!(length / stick.max_segment_length <= stepper::Stick::kMaxSegments)) {
    s.fail("max_segment_length",
           "expected at most " + std::to_string(stepper::Stick::kMaxSegments) +
               " segments on the stick's " + format_number(length) + " m, found " +
               format_number(length / stick.max_segment_length));
  }
  stick.friction = s.number("friction", stick.friction, Range::non_negative());
  if (stick.friction != 0.0)
    s.fail("friction", "friction between the cloth and the stick is not implemented; expected 0");
  model->stick = stick;
}

void parse_self_collisions(const JsonObject& c, stepper::SelfCollisionOptions* o) {
  c.reject_unknown({"enabled", "thickness", "proximity", "proximity_reduction", "max_retries"});
  o->enabled = c.boolean("enabled", true);
  o->thickness = c.number("thickness", o->thickness, Range::positive());
  o->proximity = c.number("proximity", o->proximity, Range{0.0, 0.5, false, false});
  o->proximity_reduction =
      c.number("proximity_reduction", o->proximity_reduction, Range{0.0, 1.0, false, false});
  o->max_retries = c.integer("max_retries", o->max_retries,
                             Range::between(0, stepper::SelfCollisionOptions::kMaxRetriesLimit));
}

void parse_solver(const JsonObject& s, stepper::StepperOptions* o) {
  s.reject_unknown({"qp", "constraint_tolerance", "contact_tolerance", "increment_tolerance",
                    "max_iterations", "contact_margin", "exact_curvature", "max_damping_offset",
                    "newton_fallback_after", "retry_capped_steps", "friction_tolerance"});
  if (s.has("qp")) {
    parse_qp_solver_type(s.choice("qp", {"active-set", "interior-point"}), &o->qp_solver);
  }
  o->constraint_tolerance =
      s.number("constraint_tolerance", o->constraint_tolerance, Range::positive());
  o->contact_tolerance = s.number("contact_tolerance", o->contact_tolerance, Range::positive());
  o->increment_tolerance =
      s.number("increment_tolerance", o->increment_tolerance, Range::positive());
  constexpr int kIterationLimit = stepper::StepperOptions::kMaxIterationsLimit;
  o->max_iterations =
      s.integer("max_iterations", o->max_iterations, Range::between(1, kIterationLimit));
  o->contact_margin = s.number("contact_margin", o->contact_margin, Range::positive());
  o->exact_curvature = s.boolean("exact_curvature", o->exact_curvature);
  o->max_damping_offset =
      s.number("max_damping_offset", o->max_damping_offset, Range::non_negative());
  o->newton_fallback_after = s.integer("newton_fallback_after", o->newton_fallback_after,
                                       Range::between(0, kIterationLimit));
  o->retry_capped_steps = s.boolean("retry_capped_steps", o->retry_capped_steps);
  o->friction_tolerance =
      s.number("friction_tolerance", o->friction_tolerance, Range::non_negative());
}

}  // namespace

std::string initial_penetration_warning(const Scenario& scenario) {
  const double tolerance = scenario.model.options.contact_tolerance;
  const int num_nodes = scenario.model.mesh.num_nodes();
  std::vector<bool> held(num_nodes, false);
  for (const auto& h : scenario.model.held)
    held[h.node] = true;
  std::ostringstream out;
  for (const auto& obstacle : scenario.model.obstacles) {
    // The deepest free node and the deepest held one: the first step pushes a free node out,
    // a held one follows its target and stays inside.
    double deepest[2] = {0.0, 0.0};
    int node[2] = {-1, -1};
    for (int i = 0; i < num_nodes; ++i) {
      const double h = obstacle->value(scenario.initial_positions.segment<3>(3 * i), 0.0);
      const int kind = held[i] ? 1 : 0;
      if (h < deepest[kind]) {
        deepest[kind] = h;
        node[kind] = i;
      }
    }
    const bool distance = obstacle->is_signed_distance();
    for (int kind = 0; kind < 2; ++kind) {
      if (node[kind] < 0 || (distance && deepest[kind] >= -tolerance))
        continue;
      if (out.tellp() > 0)
        out << "; ";
      if (kind == 0)
        out << "the cloth starts inside obstacle '" << obstacle->name() << "': node " << node[0];
      else
        out << "held node " << node[1] << " starts inside obstacle '" << obstacle->name() << "'";
      if (distance)
        out << " by " << -deepest[kind] << " m (more than contact_tolerance, " << tolerance
            << " m)";
      out << (kind == 0 ? "; the first step pushes such nodes out at once"
                        : ": held nodes follow their targets, not the contacts, and stay inside");
    }
    if (out.tellp() > 0)
      break;  // one obstacle's sentence is enough
  }
  return out.str();
}

std::string coincident_nodes_warning(const Scenario& scenario) {
  const std::vector<mesh::Edge> pairs = mesh::coincident_nodes(scenario.model.mesh);
  if (pairs.empty())
    return "";
  std::ostringstream out;
  out << "nodes " << pairs[0][0] << " and " << pairs[0][1];
  if (pairs.size() > 1)
    out << " (and " << pairs.size() - 1 << " other pair" << (pairs.size() > 2 ? "s" : "") << ")";
  out << " lie at the same rest position without sharing a quad: the cloth is not joined there "
         "(OBJ exporters split vertices along UV seams); merge them if it is meant to be one piece";
  return out.str();
}

std::string sliver_quad_warning(const Scenario& scenario) {
  const mesh::QuadShape worst = mesh::worst_quad_shape(scenario.model.mesh);
  if (!(worst.aspect() > mesh::kSliverAspect))
    return "";
  const mesh::Quad& q = scenario.model.mesh.quads[static_cast<std::size_t>(worst.quad)];
  std::ostringstream out;
  out << "quad " << worst.quad + 1 << " (nodes " << q[0] << ", " << q[1] << ", " << q[2] << ", "
      << q[3] << ") is a sliver: edges of " << worst.shortest_m << " m and " << worst.longest_m
      << " m at rest, " << worst.aspect() << " : 1 (above " << mesh::kSliverAspect
      << "); the projection may fail to hold it in shape, so remesh with quads closer to square";
  return out.str();
}

std::string stick_start_warning(const Scenario& scenario) {
  if (!scenario.model.stick)
    return "";
  const stepper::Stick& stick = *scenario.model.stick;
  const Eigen::Vector3d a = stick.end0.position(0.0), b = stick.end1.position(0.0);
  const Eigen::VectorXd& x = scenario.initial_positions;
  const mesh::QuadMesh& mesh = scenario.model.mesh;
  const auto node = [&x](int i) -> Eigen::Vector3d { return x.segment<3>(3 * i); };
  std::ostringstream out;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const mesh::Triangle& tri = mesh.triangles[t];
    if (collision::segment_intersects_triangle(a, b, node(tri[0]), node(tri[1]), node(tri[2]))) {
      const mesh::Quad& q = mesh.quads[t / 2];
      out << "the stick starts through the cloth: its axis crosses quad " << t / 2 + 1 << " (nodes "
          << q[0] << ", " << q[1] << ", " << q[2] << ", " << q[3]
          << "); the collision rows see crossings during a step only, so the cloth stays "
             "pierced. Start the stick clear of the cloth";
      return out.str();
    }
  }
  // The axis does not cross the cloth: its distance to a triangle is that of an end of the axis
  // to the triangle or of the axis to an edge of it.
  double closest = std::numeric_limits<double>::infinity();
  std::string where;
  for (const mesh::Edge& e : mesh.edges) {
    const double d = collision::edge_edge_distance(a, b, node(e[0]), node(e[1]));
    if (d < closest) {
      closest = d;
      where =
          "the cloth edge between nodes " + std::to_string(e[0]) + " and " + std::to_string(e[1]);
    }
  }
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const mesh::Triangle& tri = mesh.triangles[t];
    for (const Eigen::Vector3d& end : {a, b}) {
      const double d =
          collision::point_triangle_distance(end, node(tri[0]), node(tri[1]), node(tri[2]));
      if (d < closest) {
        closest = d;
        where = "quad " + std::to_string(t / 2 + 1) + " of the cloth";
      }
    }
  }
  if (!(closest < stick.radius))
    return "";
  out << "the stick starts " << std::setprecision(3) << closest << " m from " << where
      << ", within its radius (" << format_number(stick.radius)
      << " m): the first step must push the cloth out at once, and may fail. Start the stick "
         "clear of the cloth by its radius";
  return out.str();
}

std::string thickness_warning(const Scenario& scenario) {
  const stepper::SelfCollisionOptions& options = scenario.model.self_collisions;
  const mesh::QuadMesh& mesh = scenario.model.mesh;
  if (!options.enabled || mesh.edges.empty())
    return "";
  double shortest = std::numeric_limits<double>::infinity();
  mesh::Edge shortest_edge{};
  for (const mesh::Edge& e : mesh.edges) {
    const double length = (mesh.rest_position(e[0]) - mesh.rest_position(e[1])).norm();
    if (length < shortest) {
      shortest = length;
      shortest_edge = e;
    }
  }
  if (!(options.thickness > 0.5 * shortest))
    return "";
  std::ostringstream out;
  out << "self_collisions.thickness (" << format_number(options.thickness)
      << " m) is more than half the mesh's shortest rest edge (" << std::setprecision(3) << shortest
      << " m, between nodes " << shortest_edge[0] << " and " << shortest_edge[1]
      << "): non-adjacent elements start about one edge apart, so a thickness near that leaves "
         "them little room, and the first steps may fail to keep them apart. Keep it well below "
         "the edge length";
  return out.str();
}

namespace {

// The largest cut a run's sampling makes in a piecewise-linear path: at a keyframe strictly
// between two step times within the run, the distance from the path's value there to the
// straight line between its values at those step times. `value(t)` is the path at time t.
struct KeyframeCut {
  double time = 0.0, size = 0.0;
  std::vector<double> times;  // of the keyframes cut by more than the threshold
};
template <class Value>
KeyframeCut worst_keyframe_cut(const std::vector<double>& times, const Value& value, double dt,
                               double end, double threshold) {
  KeyframeCut worst;
  for (const double t : times) {
    const double n = std::floor(t / dt);
    const double before = n * dt, after = (n + 1.0) * dt;
    // On a step time (to rounding), or outside the run: the steps see this keyframe.
    if (!(t > 0.0 && t < end) || t - before <= 1e-9 * dt || after - t <= 1e-9 * dt)
      continue;
    const double s = (t - before) / dt;
    const double size = (value(t) - ((1.0 - s) * value(before) + s * value(after))).norm();
    if (!(size > threshold))
      continue;
    worst.times.push_back(t);
    if (size > worst.size) {
      worst.time = t;
      worst.size = size;
    }
  }
  return worst;
}

}  // namespace

std::string keyframe_sampling_warning(const Scenario& scenario) {
  const double dt = scenario.model.options.time_step;
  const double end = static_cast<double>(scenario.step_count()) * dt;
  constexpr double kDegree = std::numbers::pi / 180.0;
  struct Worst {
    std::string path;
    bool angle = false;  // the cut is of an angle (rad), not a position (m)
    KeyframeCut cut;
  } worst;
  double worst_ratio = 0.0;    // cuts are compared relative to their threshold
  std::set<double> cut_times;  // a keyframe several paths share (held nodes of a group) once
  const auto consider = [&](const KeyframeCut& cut, const std::string& path, bool angle) {
    cut_times.insert(cut.times.begin(), cut.times.end());
    const double ratio =
        cut.size / (angle ? kKeyframeCutWarning_deg * kDegree : kKeyframeCutWarning_m);
    // The first of equal cuts (to rounding) is named: the lowest node of a held group.
    if (!cut.times.empty() && ratio > worst_ratio * (1.0 + 1e-9)) {
      worst_ratio = ratio;
      worst = {path, angle, cut};
    }
  };
  const auto trajectory_cut = [&](const stepper::Trajectory& trajectory) {
    return worst_keyframe_cut(
        trajectory.times(), [&](double t) { return trajectory.position(t); }, dt, end,
        kKeyframeCutWarning_m);
  };
  for (const stepper::HeldNode& held : scenario.model.held)
    consider(trajectory_cut(held.target), "held node " + std::to_string(held.node) + "'s path",
             false);
  if (scenario.model.stick) {
    consider(trajectory_cut(scenario.model.stick->end0), "stick.end0.path", false);
    consider(trajectory_cut(scenario.model.stick->end1), "stick.end1.path", false);
  }
  for (const auto& obstacle : scenario.model.obstacles) {
    const obstacles::RigidMotion& motion = obstacle->motion();
    std::vector<double> times;
    for (const obstacles::OffsetKeyframe& k : motion.options().offset_keyframes)
      times.push_back(k.time_s);
    consider(
        worst_keyframe_cut(
            times, [&](double t) { return motion.offset_m(t); }, dt, end, kKeyframeCutWarning_m),
        "the translation of obstacle '" + obstacle->name() + "'", false);
    times.clear();
    for (const obstacles::AngleKeyframe& k : motion.options().angle_keyframes)
      times.push_back(k.time_s);
    consider(worst_keyframe_cut(
                 times, [&](double t) { return Eigen::Matrix<double, 1, 1>(motion.angle_rad(t)); },
                 dt, end, kKeyframeCutWarning_deg * kDegree),
             "the rotation of obstacle '" + obstacle->name() + "'", true);
  }
  if (cut_times.empty())
    return "";
  const std::size_t more = cut_times.size() - 1;
  std::ostringstream out;
  out << worst.path << " turns at the keyframe at t = " << format_number(worst.cut.time)
      << " s, between two steps (time_step " << format_number(dt)
      << " s): the run sees it at the steps only, which cuts that corner by "
      << std::setprecision(3) << (worst.angle ? worst.cut.size / kDegree : worst.cut.size)
      << (worst.angle ? "°" : " m");
  if (more > 0)
    out << " (" << more << " more keyframe time" << (more > 1 ? "s" : "") << " cut by over "
        << format_number(kKeyframeCutWarning_m) << " m or "
        << format_number(kKeyframeCutWarning_deg) << "°)";
  out << "; a motion shorter than a step is missed altogether. Put keyframes on multiples of the "
         "time step, or shorten it";
  return out.str();
}

Scenario parse_scenario(const nlohmann::json& json, const std::string& path,
                        const ScenarioOverrides& overrides) {
  const JsonObject root(json, path);
  // The other kind of scenario file, said as such rather than by its first unknown field.
  if (root.has("recording") && !root.has("time")) {
    root.fail("recording",
              "expected a simulation scenario (with \"time\"); this file names a "
              "recording, as a recording scenario does (for clothfit fit, sweep or "
              "synth)");
  }
  root.reject_unknown({"name", "description", "cloth", "time", "held", "obstacles", "stick",
                       "self_collisions", "solver", "output"});
  Scenario s;
  s.source_path = path;
  s.name = root.string("name", std::filesystem::path(path).stem().string());
  s.description = root.string("description", "");

  const JsonObject cloth = root.object("cloth");
  cloth.reject_unknown(
      {"mesh", "placement", "material", "density", "virtual_density", "damping", "bending"});
  s.model.mesh = parse_mesh(cloth.object("mesh"), path);
  if (cloth.has("placement"))
    apply_placement(cloth.object("placement"), &s.model.mesh);
  s.initial_positions = s.model.mesh.rest_positions;
  // Far from the origin a double cannot resolve the tolerances (at 1e9 m its spacing is 1e-7 m,
  // beyond 1e16 m a falling sheet does not move at all), and nothing is simulated there.
  constexpr double kMaxCoordinate_m = 1e6;
  const double farthest =
      s.initial_positions.size() > 0 ? s.initial_positions.cwiseAbs().maxCoeff() : 0.0;
  if (!(farthest <= kMaxCoordinate_m)) {
    cloth.fail(cloth.has("placement") ? "placement" : "mesh",
               "expected the sheet within 1e+06 m of the origin on every axis, found a node at " +
                   format_number(farthest) + " m");
  }

  forces::ClothMaterial& material = s.model.material;
  if (cloth.has("material") == cloth.has("density")) {
    cloth.fail("",
               "expected exactly one of \"material\" (a fabric of the paper's Table 1) or "
               "\"density\" (kg/m²)");
  }
  if (cloth.has("material")) {
    material.density = *forces::fabric_density(
        cloth.choice("material", {"polyester", "wool", "denim", "stiff-cotton"}));
  } else {
    material.density = cloth.number("density", Range::positive());
  }
  material.virtual_density =
      cloth.number("virtual_density", material.density, Range::non_negative());
  material.damping = cloth.number("damping", 0.0, Range::non_negative());
  material.bending = cloth.number("bending", 0.0, Range::non_negative());

  const JsonObject time = root.object("time");
  time.reject_unknown({"duration", "time_step"});
  s.duration = time.number("duration", Range::positive());
  s.model.options.time_step = time.number("time_step", 0.01, Range::positive());
  // The run's length: from the file, or from the command line (errors then name the option).
  const double time_step = s.model.options.time_step;
  const auto check_steps = [&](double duration, auto&& fail) {
    if (!(duration >= time_step)) {
      fail("expected at least one time step (time.time_step = " + format_number(time_step) +
           " s), found " + format_number(duration) + " s");
    }
    if (!(duration / time_step <= static_cast<double>(kMaxSteps))) {
      fail("expected at most " + std::to_string(kMaxSteps) + " steps of " +
           format_number(time_step) + " s (a duration of at most " +
           format_number(static_cast<double>(kMaxSteps) * time_step) + " s), found " +
           format_number(duration) + " s (" + format_number(duration / time_step) + " steps)");
    }
  };
  check_steps(s.duration, [&time](const std::string& problem) { time.fail("duration", problem); });
  if (overrides.duration) {
    s.duration = *overrides.duration;
    check_steps(s.duration, [](const std::string& problem) {
      throw InputError(InputLocation{"", 0, 0, "--duration"}, problem);
    });
  }

  if (root.has("held")) {
    const std::size_t count = root.array_size("held");
    for (std::size_t k = 0; k < count; ++k) {
      parse_held(root.element("held", k), s.initial_positions, &s.model);
    }
  }
  for (auto& obstacle : obstacles::parse_obstacles(root)) {
    s.model.obstacles.push_back(std::move(obstacle));
  }
  if (root.has("stick"))
    parse_stick(root.object("stick"), &s.model);
  if (root.has("self_collisions"))
    parse_self_collisions(root.object("self_collisions"), &s.model.self_collisions);
  if (root.has("solver"))
    parse_solver(root.object("solver"), &s.model.options);
  if (root.has("output")) {
    const JsonObject output = root.object("output");
    output.reject_unknown({"every"});
    s.output_every = output.integer("every", 1, Range::at_least(1));
  }
  if (overrides.qp_solver)
    s.model.options.qp_solver = *overrides.qp_solver;
  if (const auto [field, problem] = s.model.options.conflict(); *field != '\0') {
    // Only a solver object can set the options that conflict; --qp may have chosen the solver.
    root.object("solver").fail(
        field, std::string(problem) + (overrides.qp_solver ? " (--qp interior-point)" : ""));
  }
  return s;
}

long Scenario::step_count() const {
  return std::lround(duration / model.options.time_step);
}

Scenario load_scenario(const std::string& path, const ScenarioOverrides& overrides) {
  return parse_scenario(read_json_file(path), path, overrides);
}

}  // namespace clothfit::scenario
