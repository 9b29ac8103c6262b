#include "fitting/recording_scenario.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/forces/cloth_material.hpp"
#include "core/io/json_object.hpp"
#include "core/mesh/quad_mesh.hpp"
#include "core/obstacles/obstacle.hpp"
#include "core/obstacles/obstacle_json.hpp"
#include "fitting/parameter_grid.hpp"
#include "fitting/recording_truth.hpp"
#include "mocap/mocap_input_error.hpp"
#include "mocap/motive_csv_reader.hpp"

namespace clothfit::fitting {
namespace {

std::string resolve_relative(const std::string& file, const std::string& scenario_path) {
  const std::filesystem::path p(file);
  if (p.is_absolute())
    return file;
  return (std::filesystem::path(scenario_path).parent_path() / p).lexically_normal().string();
}

// The file a path field names, relative to the scenario; an empty path is refused here, since it
// would be opened as "" and reported without any name.
std::string path_field(const JsonObject& root, const std::string& key,
                       const std::string& scenario_path, const char* what) {
  const std::string file = root.string(key);
  if (file.empty())
    root.fail(key, std::string("expected the path of ") + what + ", found an empty string");
  return resolve_relative(file, scenario_path);
}

// The layout file `file` named by the scenario at `scenario_path`: read as every JSON file is (a
// key given twice, a folder, a syntax error at its line), its errors saying which scenario named
// it.
mocap::MarkerLayout read_layout_file(const std::string& file, const std::string& scenario_path) {
  const std::string of = " (the \"layout\" file of " + scenario_path + ")";
  try {
    return mocap::parse_marker_layout(read_json_file(file), file);
  } catch (const InputError& e) {
    throw InputError(e.location(), e.problem() + of);
  } catch (const mocap::MocapInputError& e) {
    throw mocap::MocapInputError(e.location(), e.problem() + of);
  }
}

void parse_recording_options(const JsonObject& o, RecordingScenario* s) {
  o.reject_unknown({"up_axis", "units_if_absent", "max_gap_frames", "driver_smoothing"});
  s->driver_smoothing_frames =
      o.integer("driver_smoothing", s->driver_smoothing_frames, Range::at_least(1));
  if (s->driver_smoothing_frames % 2 == 0)
    o.fail("driver_smoothing", "expected an odd number of frames (a centred window)");
  if (o.has("up_axis")) {
    const std::string axis = o.choice("up_axis", {"y", "z"});
    s->read_options.file_up_axis = *mocap::parse_up_axis(axis);
  }
  if (o.has("units_if_absent")) {
    const std::string unit = o.choice("units_if_absent", {"m", "cm", "mm"});
    s->read_options.length_unit_if_absent = *mocap::parse_length_unit(unit);
  }
  s->gap_filling.max_gap_frames = static_cast<std::size_t>(o.integer(
      "max_gap_frames", static_cast<int>(s->gap_filling.max_gap_frames), Range::at_least(0)));
}

void parse_solver(const JsonObject& o, stepper::StepperOptions* solver) {
  o.reject_unknown({"qp", "time_step", "constraint_tolerance", "contact_tolerance",
                    "increment_tolerance", "max_iterations", "contact_margin", "projection_damping",
                    "newton_projection", "exact_curvature", "max_damping_offset",
                    "newton_fallback_after", "retry_capped_steps", "friction_tolerance"});
  if (o.has("qp"))
    qp::parse_qp_solver_type(o.choice("qp", {"active-set", "interior-point"}), &solver->qp_solver);
  // Absent: 0, which build_recording_setup makes the take's frame interval.
  solver->time_step = o.number("time_step", 0.0, Range::positive());
  solver->constraint_tolerance =
      o.number("constraint_tolerance", solver->constraint_tolerance, Range::positive());
  solver->contact_tolerance =
      o.number("contact_tolerance", solver->contact_tolerance, Range::positive());
  solver->increment_tolerance =
      o.number("increment_tolerance", solver->increment_tolerance, Range::positive());
  // As in simulation scenarios: a step's work is bounded (StepperOptions::kMaxIterationsLimit).
  constexpr int kIterationLimit = stepper::StepperOptions::kMaxIterationsLimit;
  solver->max_iterations =
      o.integer("max_iterations", solver->max_iterations, Range::between(1, kIterationLimit));
  solver->contact_margin = o.number("contact_margin", solver->contact_margin, Range::positive());
  solver->projection_damping =
      o.number("projection_damping", solver->projection_damping, Range::positive());
  solver->newton_projection = o.boolean("newton_projection", solver->newton_projection);
  solver->exact_curvature = o.boolean("exact_curvature", solver->exact_curvature);
  solver->max_damping_offset =
      o.number("max_damping_offset", solver->max_damping_offset, Range::non_negative());
  solver->newton_fallback_after = o.integer("newton_fallback_after", solver->newton_fallback_after,
                                            Range::between(0, kIterationLimit));
  solver->retry_capped_steps = o.boolean("retry_capped_steps", solver->retry_capped_steps);
  solver->friction_tolerance =
      o.number("friction_tolerance", solver->friction_tolerance, Range::non_negative());
  if (const auto [field, problem] = solver->conflict(); *field != '\0')
    o.fail(field, problem);
}

// A fit bound: a finite number from 0 to kMaxParameterBound.
double parse_bound(const JsonObject& o, const std::string& key) {
  const double v = o.number(key, Range::non_negative());
  if (v > kMaxParameterBound) {
    o.fail(key, "expected a bound of at most " + format_number(kMaxParameterBound) +
                    " (α, δ and μ are of order 0.01 to 10; the grid search's arithmetic must stay "
                    "finite), found " +
                    format_number(v));
  }
  return v;
}

ParameterSpec parse_parameter(const JsonObject& parameters, const std::string& name) {
  ParameterSpec spec;
  spec.name = name;
  if (!parse_parameter_name(name, &spec.kind, &spec.obstacle)) {
    parameters.fail(name, "expected a parameter name: \"alpha\", \"delta\" or \"mu.<obstacle>\"");
  }
  const nlohmann::json& raw = parameters.raw(name);
  if (raw.is_number()) {
    spec.value =
        parameters.number(name, spec.kind == ParameterKind::kFriction
                                    ? Range::between(0.0, obstacles::kMaxFrictionCoefficient)
                                    : Range::non_negative());
    return spec;
  }
  if (!raw.is_object()) {
    parameters.fail(name,
                    "expected a number (a fixed value) or an object {\"min\", \"max\"} (fit "
                    "bounds)");
  }
  const JsonObject o = parameters.object(name);
  o.reject_unknown({"min", "max", "grid", "start"});
  spec.fitted = true;
  spec.lower = parse_bound(o, "min");
  spec.upper = parse_bound(o, "max");
  if (spec.kind == ParameterKind::kFriction && spec.upper > obstacles::kMaxFrictionCoefficient) {
    o.fail("max", "expected a friction bound of at most " +
                      format_number(obstacles::kMaxFrictionCoefficient) +
                      " (a contact sticks there as at any larger μ), found " +
                      format_number(spec.upper));
  }
  if (!(spec.upper > spec.lower))
    o.fail("max", "expected a number > min (" + std::to_string(spec.lower) + ")");
  spec.grid_points = o.integer("grid", 0, Range::between(2, static_cast<double>(kMaxGridPoints)));
  spec.value =
      o.number("start", 0.5 * (spec.lower + spec.upper), Range::between(spec.lower, spec.upper));
  return spec;
}

ModelParameters parse_parameters(const JsonObject& root, const RecordingScenario& s) {
  std::vector<ParameterSpec> specs;
  const JsonObject p = root.object("parameters");  // throws unless an object
  std::set<std::string> friction_names;
  for (const auto& obstacle : s.obstacles)
    friction_names.insert("mu." + obstacle->name());
  if (!root.raw("parameters").is_object())
    root.fail("parameters", "expected an object");
  for (const auto& [key, value] : root.raw("parameters").items()) {
    (void)value;
    if (key != "alpha" && key != "delta" && !friction_names.count(key)) {
      std::string expected = "\"alpha\", \"delta\"";
      for (const std::string& f : friction_names)
        expected += ", \"" + f + "\"";
      p.fail(key, "unknown parameter; expected one of " + expected +
                      " (mu.<name> for each obstacle of \"obstacles\")");
    }
  }
  for (const char* name : {"alpha", "delta"}) {
    if (!p.has(name))
      p.fail(name, "missing: give a value or {\"min\", \"max\"} bounds");
    specs.push_back(parse_parameter(p, name));
  }
  for (const auto& obstacle : s.obstacles) {
    const std::string name = "mu." + obstacle->name();
    if (p.has(name)) {
      specs.push_back(parse_parameter(p, name));
    } else {
      ParameterSpec spec;  // the obstacle's own "friction"
      spec.name = name;
      spec.kind = ParameterKind::kFriction;
      spec.obstacle = obstacle->name();
      spec.value = obstacle->friction_coefficient();
      specs.push_back(spec);
    }
  }
  return ModelParameters(std::move(specs));
}

}  // namespace

RecordingScenario parse_recording_scenario(const nlohmann::json& json, const std::string& path) {
  const JsonObject root(json, path);
  // The other kind of scenario file, said as such rather than by its first unknown field.
  if (root.has("time") && !root.has("recording")) {
    root.fail("time",
              "expected a recording scenario (with \"recording\", a Motive CSV take); "
              "this file has \"time\", as a simulation scenario does (for clothfit "
              "simulate)");
  }
  root.reject_unknown({"name", "description", "experiment", "condition", "recording", "truth",
                       "recording_options", "frames", "cloth", "layout", "refinement", "held",
                       "obstacles", "stick", "solver", "parameters", "fit", "synth"});
  RecordingScenario s;
  s.source_path = path;
  s.name = root.string("name", std::filesystem::path(path).stem().string());
  s.description = root.string("description", "");
  s.experiment = root.string("experiment", "");
  s.condition = root.string("condition", "");
  s.recording_path = path_field(root, "recording", path, "a Motive CSV file");
  if (root.has("truth"))
    s.truth_path = path_field(root, "truth", path, "a truth JSON file");
  if (root.has("recording_options"))
    parse_recording_options(root.object("recording_options"), &s);
  if (root.has("frames")) {
    const JsonObject f = root.object("frames");
    f.reject_unknown({"first", "count"});
    s.first_frame = f.integer("first", 0, Range::at_least(0));
    s.frame_count = f.integer("count", 0, Range::at_least(2));
  }

  const JsonObject cloth = root.object("cloth");
  cloth.reject_unknown({"width", "height", "material", "density", "bending"});
  s.width_m = cloth.number("width", Range::positive());
  s.height_m = cloth.number("height", Range::positive());
  if (cloth.has("material") == cloth.has("density")) {
    cloth.fail("",
               "expected exactly one of \"material\" (a fabric of the paper's Table 1: "
               "polyester, wool, denim, stiff-cotton) or \"density\" (kg/m²)");
  }
  if (cloth.has("material")) {
    s.fabric = cloth.choice("material", {"polyester", "wool", "denim", "stiff-cotton"});
    s.density = *forces::fabric_density(s.fabric);
  } else {
    s.density = cloth.number("density", Range::positive());
  }
  s.bending = cloth.number("bending", 0.0, Range::non_negative());

  if (!root.has("layout"))
    root.fail("layout",
              "missing: the marker grid ({\"rows\", \"columns\", \"markers\"} or a file)");
  if (root.raw("layout").is_string()) {
    s.layout = read_layout_file(path_field(root, "layout", path, "a layout JSON file"), path);
  } else {
    s.layout = mocap::parse_marker_layout(root.raw("layout"), path, "layout");
  }
  if (s.layout.rows < 2 || s.layout.columns < 2)
    root.fail("layout", "expected a marker grid of at least 2 × 2 markers");
  {
    // The cloth's size with the markers' spacing (refinement 1); parse_refinement checks the mesh.
    std::string field;
    const std::string problem =
        mesh::grid_spacing_problem(s.width_m, s.height_m, s.layout.columns, s.layout.rows, &field);
    if (!problem.empty())
      cloth.fail(field, "too small for the marker grid: " + problem);
  }
  s.refinement = parse_refinement(root, "refinement", 2, s);

  if (root.has("held")) {
    const std::size_t n = root.array_size("held");
    const nlohmann::json& held = root.raw("held");
    for (std::size_t k = 0; k < n; ++k) {
      if (!held[k].is_string())
        root.fail("held", "expected an array of marker names of the layout");
      const std::string name = held[k].get<std::string>();
      if (std::find(s.layout.names.begin(), s.layout.names.end(), name) == s.layout.names.end())
        root.fail("held", "marker '" + name + "' is not in the layout");
      if (std::find(s.held_markers.begin(), s.held_markers.end(), name) != s.held_markers.end())
        root.fail("held", "marker '" + name + "' is listed twice");
      s.held_markers.push_back(name);
    }
  } else {
    s.held_markers = {s.layout.name(0, 0), s.layout.name(0, s.layout.columns - 1)};
  }

  for (auto& obstacle : obstacles::parse_obstacles(root))
    s.obstacles.push_back(std::move(obstacle));
  if (root.has("stick")) {
    const JsonObject st = root.object("stick");
    st.reject_unknown({"end0", "end1", "radius", "friction"});
    StickSpec stick;
    stick.end0_marker = st.string("end0");
    stick.end1_marker = st.string("end1");
    if (stick.end0_marker == stick.end1_marker)
      st.fail("end1", "expected a marker other than end0");
    // The stick's ends are its own markers: one on the cloth would put the stick through it.
    const auto on_cloth = [&s](const std::string& name) {
      return std::find(s.layout.names.begin(), s.layout.names.end(), name) != s.layout.names.end();
    };
    for (const auto& [key, name] :
         {std::pair{"end0", stick.end0_marker}, std::pair{"end1", stick.end1_marker}}) {
      if (on_cloth(name))
        st.fail(key, "marker '" + name +
                         "' is on the cloth (in the layout); expected one of the "
                         "stick's own markers");
    }
    stick.radius_m = st.number("radius", stick.radius_m, Range::positive());
    // As in simulation scenarios (core/scenario/scenario.cpp): the stepper has no friction
    // between the cloth and the stick, and a value it would ignore is refused.
    stick.friction = st.number("friction", stick.friction, Range::non_negative());
    if (stick.friction != 0.0)
      st.fail("friction",
              "friction between the cloth and the stick is not implemented; expected 0, found " +
                  format_number(stick.friction));
    s.stick = stick;
  }
  if (root.has("solver"))
    parse_solver(root.object("solver"), &s.solver);
  else
    s.solver.time_step = 0.0;

  if (!root.has("parameters"))
    root.fail("parameters", "missing: values or fit bounds of \"alpha\" and \"delta\"");
  s.parameters = parse_parameters(root, s);

  if (root.has("fit")) {
    const JsonObject f = root.object("fit");
    f.reject_unknown(
        {"grid", "threads", "max_refinement_iterations", "profile_tolerance", "noise_replicas"});
    s.fit.grid_points =
        f.integer("grid", 0, Range::between(2, static_cast<double>(kMaxGridPoints)));
    s.fit.threads = f.integer("threads", 0, Range::between(0, 1024));  // as --threads
    s.fit.max_refinement_iterations =
        f.integer("max_refinement_iterations", s.fit.max_refinement_iterations,
                  Range::between(0, kMaxRefinementIterations));
    s.fit.profile_tolerance =
        f.number("profile_tolerance", s.fit.profile_tolerance, Range::between(1e-6, 10.0));
    s.fit.noise_replicas =
        f.integer("noise_replicas", s.fit.noise_replicas, Range::between(0, 1000));
    if (s.fit.noise_replicas == 1)  // one run has no spread to measure (it reported sd 0)
      f.fail("noise_replicas",
             "expected 0 (none) or 2 to 1000: a standard deviation needs two runs, found 1");
  }
  if (root.has("synth")) {
    if (!root.raw("synth").is_object())
      root.fail("synth", "expected an object");
    s.synth = root.raw("synth");
  }
  return s;
}

RecordingScenario load_recording_scenario(const std::string& path) {
  return parse_recording_scenario(read_json_file(path), path);
}

int parse_refinement(const JsonObject& o, const std::string& key, int fallback,
                     const RecordingScenario& scenario) {
  const mocap::MarkerLayout& layout = scenario.layout;
  const int k = o.integer(key, fallback, Range::at_least(1));
  const double nodes = (static_cast<double>(k) * (layout.rows - 1) + 1) *
                       (static_cast<double>(k) * (layout.columns - 1) + 1);
  if (nodes > static_cast<double>(mesh::kMaxGridNodes)) {
    o.fail(key, "expected at most " + std::to_string(mesh::kMaxGridNodes) + " mesh nodes, found " +
                    format_number(nodes) + " with " + std::to_string(k) + " on the " +
                    std::to_string(layout.rows) + " × " + std::to_string(layout.columns) +
                    " marker grid");
  }
  // As for a scenario's grid: a mesh two nodes across has no interior node, and nothing would
  // hold its quads' shear (mesh::first_quad_without_interior_node).
  if (k * (layout.rows - 1) + 1 < 3 || k * (layout.columns - 1) + 1 < 3) {
    o.fail(key, "expected a mesh at least 3 nodes across, found " +
                    std::to_string(k * (layout.rows - 1) + 1) + " × " +
                    std::to_string(k * (layout.columns - 1) + 1) + " with " + std::to_string(k) +
                    " on the " + std::to_string(layout.rows) + " × " +
                    std::to_string(layout.columns) +
                    " marker grid (a mesh without interior nodes has no constraint on its "
                    "quads' shear)");
  }
  std::string field;
  const std::string problem =
      mesh::grid_spacing_problem(scenario.width_m, scenario.height_m, k * (layout.columns - 1) + 1,
                                 k * (layout.rows - 1) + 1, &field);
  if (!problem.empty())
    o.fail(key, "refines the cloth's " + field + " too far: " + problem);
  return k;
}

mocap::Take load_take(const RecordingScenario& scenario) {
  read_recording_truth(scenario);
  return mocap::read_motive_csv(scenario.recording_path, scenario.read_options);
}

}  // namespace clothfit::fitting
