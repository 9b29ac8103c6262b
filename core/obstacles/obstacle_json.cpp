#include "core/obstacles/obstacle_json.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/obstacles/cylinder.hpp"
#include "core/obstacles/needle_field.hpp"
#include "core/obstacles/plane.hpp"
#include "core/obstacles/sphere.hpp"
#include "core/obstacles/table.hpp"
#include "core/obstacles/unit_vector.hpp"

namespace clothfit::obstacles {

namespace {

constexpr double kDegree = std::numbers::pi / 180.0;
constexpr double kDefaultEdgeRadius = 0.005;  // m
constexpr double kDefaultThickness = 0.03;    // m

std::string format_vector(const Eigen::Vector3d& v) {
  std::ostringstream s;
  s << "[" << v.x() << ", " << v.y() << ", " << v.z() << "]";
  return s.str();
}

Eigen::Vector3d vector3_or(const JsonObject& o, const std::string& key,
                           const Eigen::Vector3d& fallback) {
  return o.has(key) ? o.vector3(key) : fallback;
}

// A direction (JsonObject::direction: any finite nonzero vector, normalised), or the unit
// vector `fallback` when absent.
Eigen::Vector3d direction_or(const JsonObject& o, const std::string& key,
                             const Eigen::Vector3d& fallback) {
  return o.has(key) ? unit_vector(o.direction(key)) : fallback;
}

// Keyframe times of element i must exceed those of element i − 1.
void check_increasing(const JsonObject& keyframe, double time, std::size_t index, double previous) {
  if (index > 0 && !(time > previous)) {
    keyframe.fail("time", "expected a time > " + format_number(previous) +
                              " s (keyframe times must strictly increase), found " +
                              format_number(time));
  }
}

std::size_t keyframe_count(const JsonObject& o) {
  const std::size_t n = o.array_size("keyframes");
  if (n == 0)
    o.fail("keyframes", "expected at least one keyframe, found an empty array");
  return n;
}

ObstacleOptions parse_common(const JsonObject& o, const std::string& default_name) {
  ObstacleOptions options;
  options.name = o.string("name", default_name);
  if (options.name.empty())
    o.fail("name", "expected a non-empty string");
  // The name becomes a parameter (mu.<name>, given as mu.<name>=VALUE) and a CSV column: a comma
  // split sweep.csv's header, an '=' made the parameter impossible to name.
  for (const char c : options.name) {
    if (c == ',' || c == '=' || c == '"' || static_cast<unsigned char>(c) < 0x20)
      o.fail("name",
             "expected a name without ',', '=', '\"' or control characters (it names the "
             "parameter mu.<name> of fits and sweeps and a column of sweep.csv)");
  }
  options.friction_coefficient =
      o.number("friction", 0.0, Range::between(0.0, kMaxFrictionCoefficient));
  options.constrain_face_centres = o.boolean("face_centres", false);
  if (o.has("motion"))
    options.motion = parse_rigid_motion(o.object("motion"));
  return options;
}

std::unique_ptr<Obstacle> parse_plane(const JsonObject& o, ObstacleOptions options) {
  PlaneGeometry g;
  g.point_m = vector3_or(o, "point", Eigen::Vector3d::Zero());
  g.normal = direction_or(o, "normal", Eigen::Vector3d::UnitZ());
  return std::make_unique<Plane>(g, std::move(options));
}

std::unique_ptr<Obstacle> parse_table(const JsonObject& o, ObstacleOptions options) {
  TableGeometry g;
  g.top_centre_m = o.vector3("top_centre");
  if (o.array_size("size") != 2) {
    o.fail("size", "expected an array of 2 numbers [size_x, size_y] in metres, found an array of " +
                       std::to_string(o.array_size("size")) + " elements");
  }
  g.size_x_m = o.number_at("size", 0, Range::positive());
  g.size_y_m = o.number_at("size", 1, Range::positive());
  g.thickness_m = o.number("thickness", kDefaultThickness, Range::positive());
  const double max_radius = 0.5 * std::min({g.size_x_m, g.size_y_m, g.thickness_m});
  g.edge_radius_m =
      o.number("edge_radius", std::min(kDefaultEdgeRadius, max_radius), Range::non_negative());
  if (g.edge_radius_m > max_radius) {
    o.fail("edge_radius", "expected at most half the smallest of size and thickness (" +
                              format_number(max_radius) + " m), found " +
                              format_number(g.edge_radius_m));
  }
  g.yaw_rad = o.number("yaw_deg", 0.0, Range::any()) * kDegree;
  return std::make_unique<Table>(g, std::move(options));
}

std::unique_ptr<Obstacle> parse_sphere(const JsonObject& o, ObstacleOptions options) {
  SphereGeometry g;
  g.centre_m = o.vector3("centre");
  g.radius_m = o.number("radius", Range::positive());
  return std::make_unique<Sphere>(g, std::move(options));
}

std::unique_ptr<Obstacle> parse_cylinder(const JsonObject& o, ObstacleOptions options) {
  CylinderGeometry g;
  if (o.has("ends")) {
    for (const char* other : {"centre", "axis", "length"}) {
      if (o.has(other)) {
        o.fail(other, "give either \"ends\" or \"centre\", \"axis\" and \"length\", not both");
      }
    }
    if (o.array_size("ends") != 2) {
      o.fail("ends", "expected an array of 2 points [[x, y, z], [x, y, z]], found an array of " +
                         std::to_string(o.array_size("ends")) + " elements");
    }
    const Eigen::Vector3d end0 = o.vector3_at("ends", 0);
    const Eigen::Vector3d end1 = o.vector3_at("ends", 1);
    if (end1 == end0)
      o.fail("ends", "expected two distinct end points, found " + format_vector(end0) + " twice");
    g = CylinderGeometry::from_ends(end0, end1, 1.0);
    if (!std::isfinite(g.length_m)) {
      o.fail("ends", "expected end points a finite distance apart, found " + format_vector(end0) +
                         " and " + format_vector(end1));
    }
  } else {
    if (!o.has("centre")) {
      o.fail("centre",
             "required field is missing (give \"centre\", \"axis\" and \"length\", or \"ends\")");
    }
    g.centre_m = o.vector3("centre");
    g.axis = unit_vector(o.direction("axis"));
    g.length_m = o.number("length", Range::positive());
  }
  g.radius_m = o.number("radius", Range::positive());
  return std::make_unique<Cylinder>(g, std::move(options));
}

std::unique_ptr<Obstacle> parse_needles(const JsonObject& o, ObstacleOptions options) {
  NeedleFieldGeometry g;
  g.origin_m = vector3_or(o, "origin", Eigen::Vector3d::Zero());
  // Within 1e6 m, as the cloth: far out the peaks' indices (c1·x/2π) pass 2⁵³, where counting
  // them one by one in double never ends (an origin of 1e14 m hung the run).
  if (!(g.origin_m.cwiseAbs().maxCoeff() <= 1e6))
    o.fail("origin", "expected a point within 1e+06 m of the origin on every axis, found " +
                         format_number(g.origin_m.cwiseAbs().maxCoeff()) + " m");
  // Up to 1000/m (spikes every 6.3 mm): the peaks under a sheet grow as c1², and at 1e5/m the
  // 0.66 m sheet of needles.json has 10⁸ of them.
  g.c1_per_m = o.number("c1", 20.0, Range{0.0, 1000.0, false, true});
  g.c2 = o.number("c2", 0.075, Range::positive());
  return std::make_unique<NeedleField>(g, std::move(options));
}

}  // namespace

RigidMotion parse_rigid_motion(const JsonObject& motion) {
  motion.reject_unknown({"rotation", "translation"});
  RigidMotionOptions options;
  if (motion.has("rotation")) {
    const JsonObject rotation = motion.object("rotation");
    rotation.reject_unknown({"axis", "pivot", "keyframes"});
    options.axis = unit_vector(rotation.direction("axis"));
    options.pivot_m = rotation.vector3("pivot");
    const std::size_t n = keyframe_count(rotation);
    for (std::size_t i = 0; i < n; ++i) {
      const JsonObject key = rotation.element("keyframes", i);
      key.reject_unknown({"time", "angle_deg"});
      AngleKeyframe k;
      k.time_s = key.number("time");
      check_increasing(key, k.time_s, i, i > 0 ? options.angle_keyframes.back().time_s : 0.0);
      k.angle_rad = key.number("angle_deg") * kDegree;
      options.angle_keyframes.push_back(k);
    }
  }
  if (motion.has("translation")) {
    const JsonObject translation = motion.object("translation");
    translation.reject_unknown({"keyframes"});
    const std::size_t n = keyframe_count(translation);
    for (std::size_t i = 0; i < n; ++i) {
      const JsonObject key = translation.element("keyframes", i);
      key.reject_unknown({"time", "offset"});
      OffsetKeyframe k;
      k.time_s = key.number("time");
      check_increasing(key, k.time_s, i, i > 0 ? options.offset_keyframes.back().time_s : 0.0);
      k.offset_m = key.vector3("offset");
      options.offset_keyframes.push_back(k);
    }
  }
  return RigidMotion(std::move(options));
}

std::unique_ptr<Obstacle> parse_obstacle(const JsonObject& o, const std::string& default_name) {
  const std::string type = o.choice("type", {"plane", "table", "sphere", "cylinder", "needles"});
  const std::string name = default_name.empty() ? type : default_name;
  if (type == "plane") {
    o.reject_unknown({"type", "name", "friction", "face_centres", "motion", "point", "normal"});
    return parse_plane(o, parse_common(o, name));
  }
  if (type == "table") {
    o.reject_unknown({"type", "name", "friction", "face_centres", "motion", "top_centre", "size",
                      "thickness", "edge_radius", "yaw_deg"});
    return parse_table(o, parse_common(o, name));
  }
  if (type == "sphere") {
    o.reject_unknown({"type", "name", "friction", "face_centres", "motion", "centre", "radius"});
    return parse_sphere(o, parse_common(o, name));
  }
  if (type == "cylinder") {
    o.reject_unknown({"type", "name", "friction", "face_centres", "motion", "ends", "centre",
                      "axis", "length", "radius"});
    return parse_cylinder(o, parse_common(o, name));
  }
  o.reject_unknown({"type", "name", "friction", "face_centres", "motion", "origin", "c1", "c2"});
  return parse_needles(o, parse_common(o, name));
}

std::vector<std::unique_ptr<Obstacle>> parse_obstacles(const JsonObject& scenario) {
  std::vector<std::unique_ptr<Obstacle>> out;
  if (!scenario.has("obstacles"))
    return out;
  const std::size_t n = scenario.array_size("obstacles");
  for (std::size_t i = 0; i < n; ++i) {
    const JsonObject element = scenario.element("obstacles", i);
    std::unique_ptr<Obstacle> obstacle = parse_obstacle(element);
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (out[j]->name() == obstacle->name()) {
        element.fail("name", "duplicate obstacle name \"" + obstacle->name() + "\" (obstacles[" +
                                 std::to_string(j) +
                                 "] has it too); give each obstacle a distinct \"name\"");
      }
    }
    out.push_back(std::move(obstacle));
  }
  return out;
}

}  // namespace clothfit::obstacles
