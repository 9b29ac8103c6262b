#include "fitting/synthetic_recording.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "core/io/input_error.hpp"
#include "core/io/json_object.hpp"
#include "core/mesh/quad_mesh.hpp"
#include "core/scenario/scenario.hpp"
#include "core/stepper/time_stepper.hpp"
#include "fitting/contact_proximity.hpp"
#include "fitting/marker_corruption.hpp"
#include "fitting/parameter_sweep.hpp"
#include "fitting/synthetic_motion.hpp"

namespace clothfit::fitting {
namespace {

// A piecewise-linear path from keyframes [{"time": t, "position": [x, y, z]}, ...].
PathFunction parse_keyframe_path(const JsonObject& parent, const std::string& key) {
  const std::size_t n = parent.array_size(key);
  if (n == 0)
    parent.fail(key, "expected at least one keyframe {\"time\", \"position\"}");
  std::vector<double> times;
  std::vector<Eigen::Vector3d> positions;
  for (std::size_t k = 0; k < n; ++k) {
    const JsonObject frame = parent.element(key, k);
    frame.reject_unknown({"time", "position"});
    const double t = frame.number("time", Range::non_negative());
    if (!times.empty() && t <= times.back())
      frame.fail("time", "expected times increasing from keyframe to keyframe");
    times.push_back(t);
    positions.push_back(frame.vector3("position"));
  }
  stepper::Trajectory path(std::move(times), std::move(positions));
  return [path](double t) { return path.position(t); };
}

SynthMotion parse_keyframe_motion(const JsonObject& m, const RecordingScenario& scenario) {
  m.reject_unknown({"kind", "held", "stick"});
  SynthMotion motion;
  const JsonObject held = m.object("held");
  // A path for a marker the scenario does not hold would be ignored: the marker moves freely.
  for (const auto& item : m.raw("held").items()) {
    const auto& names = scenario.held_markers;
    if (std::find(names.begin(), names.end(), item.key()) == names.end()) {
      std::string list;
      for (const std::string& name : names)
        list += (list.empty() ? "" : ", ") + name;
      held.fail(item.key(), "is not a held marker of the scenario (its \"held\": " +
                                (list.empty() ? std::string("none") : list) +
                                "); a keyframe path moves only a held marker");
    }
  }
  for (const std::string& name : scenario.held_markers) {
    if (!held.has(name))
      held.fail(name, "missing: a keyframe path for every held marker");
    motion.held_markers.push_back(name);
    motion.held.push_back(parse_keyframe_path(held, name));
  }
  if (m.has("stick")) {
    const JsonObject stick = m.object("stick");
    stick.reject_unknown({"end0", "end1"});
    motion.stick_end0 = parse_keyframe_path(stick, "end0");
    motion.stick_end1 = parse_keyframe_path(stick, "end1");
  }
  return motion;
}

TremorOptions parse_tremor(const JsonObject& m) {
  TremorOptions tremor;
  tremor.rms_m = m.number("tremor", tremor.rms_m, Range::non_negative());
  return tremor;
}

// A generated "putting a tablecloth" motion (synthetic_motion.hpp): the table's near edge at
// x = table_near_edge_x and its top at table_top_z, the sheet hanging in a plane x = const
// centred on y = centre_y.
SynthMotion tablecloth_motion(const JsonObject& m, const RecordingScenario& scenario,
                              double duration_s) {
  m.reject_unknown(
      {"kind", "seed", "table_top_z", "table_near_edge_x", "centre_y", "clearance", "tremor"});
  TableclothMotionOptions options;
  options.seed = static_cast<std::uint64_t>(m.integer("seed", 1, Range::at_least(0)));
  options.duration_s = duration_s;
  options.table.top_z_m = m.number("table_top_z", options.table.top_z_m, Range::any());
  options.table.near_edge_x_m =
      m.number("table_near_edge_x", options.table.near_edge_x_m, Range::any());
  options.sheet_centre_y_m = m.number("centre_y", 0.0, Range::any());
  options.start_clearance_m =
      m.number("clearance", options.start_clearance_m, Range::non_negative());
  options.sheet_width_m = scenario.width_m;
  options.sheet_height_m = scenario.height_m;
  options.tremor = parse_tremor(m);
  // The motion's own checks (make_tablecloth_motion) name its C++ fields; these name the file's.
  if (!(duration_s >= 2.5)) {
    m.fail("kind",
           "a tablecloth motion needs synth.duration ≥ 2.5 s (lowering and dragging), "
           "found " +
               format_number(duration_s) + " s");
  }
  if (!(options.start_clearance_m < 1.0))
    m.fail("clearance",
           "expected less than 1 m, found " + format_number(options.start_clearance_m));
  std::shared_ptr<const TableclothMotion> motion;
  try {
    motion = std::make_shared<const TableclothMotion>(make_tablecloth_motion(options));
  } catch (const std::invalid_argument& e) {
    m.fail("", e.what());
  }
  SynthMotion out;
  out.held_markers = scenario.held_markers;
  out.held = {[motion](double t) { return motion->corner0.position(t); },
              [motion](double t) { return motion->corner1.position(t); }};
  return out;
}

// A generated hitting motion: nearly still corners and a stick striking `strikes` times.
SynthMotion hitting_motion(const JsonObject& m, const RecordingScenario& scenario,
                           double duration_s) {
  m.reject_unknown({"kind", "seed", "top_centre", "width_direction", "corner_spacing",
                    "stick_length", "strikes", "min_speed", "max_speed", "tremor"});
  HittingMotionOptions options;
  options.seed = static_cast<std::uint64_t>(m.integer("seed", 1, Range::at_least(0)));
  options.duration_s = duration_s;
  if (m.has("top_centre"))
    options.top_centre_m = m.vector3("top_centre");
  if (m.has("width_direction"))
    options.width_direction = m.vector3("width_direction");
  options.sheet_width_m = scenario.width_m;
  options.sheet_height_m = scenario.height_m;
  options.corner_spacing_m =
      m.number("corner_spacing", options.corner_spacing_m, Range::positive());
  options.stick_length_m = m.number("stick_length", options.stick_length_m, Range::positive());
  options.strike_count = m.integer("strikes", options.strike_count, Range::at_least(1));
  options.min_strike_speed_m_s =
      m.number("min_speed", options.min_strike_speed_m_s, Range::positive());
  options.max_strike_speed_m_s =
      m.number("max_speed", options.max_strike_speed_m_s, Range::positive());
  options.tremor = parse_tremor(m);
  // The motion's own checks (make_hitting_motion) name its C++ fields; these name the file's.
  const double needed_s = 2.0 + 2.5 * options.strike_count;
  if (!(duration_s >= needed_s)) {
    m.fail("strikes", std::to_string(options.strike_count) +
                          (options.strike_count == 1 ? " strike needs" : " strikes need") +
                          " synth.duration ≥ " + format_number(needed_s) +
                          " s (2 s + 2.5 s per strike), found " + format_number(duration_s) + " s");
  }
  if (options.corner_spacing_m > scenario.width_m - 0.01) {
    m.fail("corner_spacing", "expected at most the cloth's width less 1 cm, " +
                                 format_number(scenario.width_m - 0.01) + " m, found " +
                                 format_number(options.corner_spacing_m) + " m");
  }
  if (m.has("width_direction")) {
    const Eigen::Vector3d d = options.width_direction;
    if (d.z() != 0.0 || !(d.head<2>().norm() > 0.0)) {
      m.fail("width_direction", "expected a horizontal direction [x, y, 0], found [" +
                                    format_number(d.x()) + ", " + format_number(d.y()) + ", " +
                                    format_number(d.z()) + "]");
    }
    if (std::abs(d.norm() - 1.0) >= 1e-9)  // a unit vector is kept as given, bit for bit
      options.width_direction = d.normalized();
  }
  if (options.min_strike_speed_m_s < 0.5)
    m.fail("min_speed", "expected at least 0.5 m/s, found " +
                            format_number(options.min_strike_speed_m_s) + " m/s");
  if (options.max_strike_speed_m_s < options.min_strike_speed_m_s) {
    m.fail("max_speed", "expected at least min_speed (" +
                            format_number(options.min_strike_speed_m_s) + " m/s), found " +
                            format_number(options.max_strike_speed_m_s) + " m/s");
  }
  std::shared_ptr<const HittingMotion> motion;
  try {
    motion = std::make_shared<const HittingMotion>(make_hitting_motion(options));
  } catch (const std::invalid_argument& e) {
    m.fail("", e.what());
  }
  SynthMotion out;
  out.held_markers = scenario.held_markers;
  out.held = {[motion](double t) { return motion->corner0.position(t); },
              [motion](double t) { return motion->corner1.position(t); }};
  out.stick_end0 = [motion](double t) { return motion->stick.end0(t); };
  out.stick_end1 = [motion](double t) { return motion->stick.end1(t); };
  return out;
}

}  // namespace

SynthSettings parse_synth_settings(const RecordingScenario& scenario) {
  if (scenario.synth.is_null()) {
    throw InputError(InputLocation{scenario.source_path, 0, 0, "synth"},
                     "missing: `clothfit synth` needs the \"synth\" object (the motion to record)");
  }
  const JsonObject o(scenario.synth, scenario.source_path, "synth");
  o.reject_unknown({"duration", "frame_rate", "refinement", "substeps", "settle", "noise",
                    "gap_rate", "occlusion_rate", "seed", "motion"});
  SynthSettings s;
  s.duration_s = o.number("duration", Range::positive());
  s.frame_rate_hz = o.number("frame_rate", s.frame_rate_hz, Range::positive());
  s.refinement = parse_refinement(o, "refinement", std::max(4, 2 * scenario.refinement), scenario);
  s.substeps = o.integer("substeps", s.substeps, Range::at_least(1));
  s.settle_s = o.number("settle", s.settle_s, Range::positive());
  const double steps = (s.settle_s + s.duration_s) * s.frame_rate_hz * s.substeps;
  if (!(steps <= static_cast<double>(scenario::kMaxSteps))) {
    o.fail("duration", "expected at most " + std::to_string(scenario::kMaxSteps) +
                           " steps ((settle + duration) × frame_rate × substeps), found " +
                           format_number(steps));
  }
  s.noise_m = o.number("noise", s.noise_m, Range::non_negative());
  s.gap_rate_hz = o.number("gap_rate", s.gap_rate_hz, Range::non_negative());
  s.occlusion_rate_hz = o.number("occlusion_rate", s.occlusion_rate_hz, Range::non_negative());
  s.seed = static_cast<std::uint64_t>(o.integer("seed", 1, Range::at_least(0)));
  if (scenario.held_markers.size() != 2 || scenario.held_markers[0] != scenario.layout.name(0, 0) ||
      scenario.held_markers[1] != scenario.layout.name(0, scenario.layout.columns - 1)) {
    o.fail("",
           "a synthetic recording starts with the sheet hanging from its two top corners: "
           "\"held\" must be the layout's top corners (the default)");
  }
  const JsonObject m = o.object("motion");
  s.motion_json = scenario.synth["motion"];
  const std::string kind = m.choice("kind", {"keyframes", "tablecloth", "hitting"});
  if (kind == "keyframes")
    s.motion = parse_keyframe_motion(m, scenario);
  else if (kind == "tablecloth")
    s.motion = tablecloth_motion(m, scenario, s.duration_s);
  else
    s.motion = hitting_motion(m, scenario, s.duration_s);
  if (scenario.stick.has_value() != static_cast<bool>(s.motion.stick_end0)) {
    o.fail("motion", scenario.stick ? "the scenario has a \"stick\": the motion must move it"
                                    : "the motion moves a stick but the scenario has no \"stick\"");
  }
  return s;
}

std::vector<double> parse_truth(const std::string& text, const ModelParameters& parameters) {
  std::vector<double> values = parse_parameter_values(text, parameters, parameters.start_values());
  for (const ParameterSpec& spec : parameters.specs()) {
    const std::string key = spec.name + "=";
    const bool given =
        text.compare(0, key.size(), key) == 0 || text.find("," + key) != std::string::npos;
    if (spec.fitted && !given)
      throw std::invalid_argument("no true value for " + spec.name + " (fitted in the scenario)");
  }
  return values;
}

SyntheticRecording make_synthetic_recording(const RecordingScenario& scenario,
                                            const SynthSettings& settings,
                                            const std::vector<double>& truth,
                                            std::ostream* progress) {
  using Clock = std::chrono::steady_clock;
  const mocap::MarkerLayout& layout = scenario.layout;
  const int k = settings.refinement;
  const int node_rows = k * (layout.rows - 1) + 1;
  const int node_cols = k * (layout.columns - 1) + 1;
  stepper::SimulationModel model;
  model.mesh = mesh::make_grid_mesh(scenario.width_m, scenario.height_m, node_cols, node_rows);
  model.material.density = scenario.density;
  model.material.bending = scenario.bending;
  model.obstacles = scenario.obstacles;
  model.options = scenario.solver;
  const double frame_dt = 1.0 / settings.frame_rate_hz;
  model.options.time_step = frame_dt / settings.substeps;
  scenario.parameters.apply(truth, &model);

  // The sheet hangs flat below the held corners' first positions, its top edge horizontal and
  // centred between them; during the first half of the settling time the corners move to their
  // first positions (smoothstep), then everything rests until the recording starts.
  const Eigen::Vector3d c0 = settings.motion.held[0](0.0);
  const Eigen::Vector3d c1 = settings.motion.held[1](0.0);
  Eigen::Vector3d u = c1 - c0;
  u.z() = 0.0;
  if (u.norm() < 1e-6)
    throw InputError(InputLocation{scenario.source_path, 0, 0, "synth.motion"},
                     "the held corners start at the same horizontal position");
  u.normalize();
  const Eigen::Vector3d middle = 0.5 * (c0 + c1);
  Eigen::VectorXd hanging(3 * model.mesh.num_nodes());
  for (int r = 0; r < node_rows; ++r) {
    for (int c = 0; c < node_cols; ++c) {
      const double along = scenario.width_m * c / (node_cols - 1) - 0.5 * scenario.width_m;
      const double down = scenario.height_m * r / (node_rows - 1);
      hanging.segment<3>(3 * (r * node_cols + c)) =
          middle + along * u - down * Eigen::Vector3d::UnitZ();
    }
  }
  const double settle = settings.settle_s;
  const double dt = model.options.time_step;
  const long steps = std::lround((settle + settings.duration_s) / dt);
  auto schedule = [&](const PathFunction& path, const Eigen::Vector3d& from) {
    std::vector<double> times;
    std::vector<Eigen::Vector3d> positions;
    for (long n = 0; n <= steps; ++n) {
      const double tau = n * dt;
      times.push_back(tau);
      if (tau >= settle) {
        positions.push_back(path(tau - settle));
      } else {
        const double s = settle > 0 ? std::min(1.0, tau / (0.5 * settle)) : 1.0;
        const double w = s * s * (3 - 2 * s);
        positions.push_back((1 - w) * from + w * path(0.0));
      }
    }
    return stepper::Trajectory(std::move(times), std::move(positions));
  };
  const int top_right = node_cols - 1;
  model.held.push_back({0, schedule(settings.motion.held[0], hanging.segment<3>(0))});
  model.held.push_back(
      {top_right, schedule(settings.motion.held[1], hanging.segment<3>(3 * top_right))});
  if (settings.motion.stick_end0) {
    const Eigen::Vector3d rest0 = settings.motion.stick_end0(0.0);
    const Eigen::Vector3d rest1 = settings.motion.stick_end1(0.0);
    stepper::Stick stick;
    stick.end0 = schedule(settings.motion.stick_end0, rest0);
    stick.end1 = schedule(settings.motion.stick_end1, rest1);
    stick.radius = scenario.stick->radius_m;
    stick.friction = scenario.stick->friction;
    model.stick = std::move(stick);
  }

  // Markers: the layout's cells, then the stick's ends.
  std::vector<mocap::MarkerInfo> markers;
  std::vector<int> marker_nodes;
  for (int i = 0; i < layout.rows; ++i) {
    for (int j = 0; j < layout.columns; ++j) {
      markers.push_back({layout.name(i, j), "", mocap::MarkerKind::kMarker});
      marker_nodes.push_back(k * i * node_cols + k * j);
    }
  }
  if (model.stick) {
    markers.push_back({scenario.stick->end0_marker, "", mocap::MarkerKind::kMarker});
    markers.push_back({scenario.stick->end1_marker, "", mocap::MarkerKind::kMarker});
  }
  const std::size_t cloth_markers = marker_nodes.size();
  const std::size_t frames =
      static_cast<std::size_t>(std::lround(settings.duration_s * settings.frame_rate_hz)) + 1;
  const std::size_t m = markers.size();
  std::vector<double> clean(frames * m * 3);
  std::vector<std::uint8_t> near_contact(frames * m, 0);

  stepper::TimeStepper stepper(model);
  stepper::SimulationState state = stepper.initial_state(hanging);
  const long settle_steps = std::lround(settle / dt);
  const auto start = Clock::now();
  long unconverged = 0, iterations = 0;
  // A marker near a contact (contact_proximity.hpp) is likelier to be occluded; the stick's own
  // markers are while it is near the sheet.
  auto sample = [&](std::size_t frame) {
    if (model.stick) {
      Eigen::Vector3d::Map(clean.data() + 3 * (frame * m + cloth_markers)) =
          model.stick->end0.position(state.time);
      Eigen::Vector3d::Map(clean.data() + 3 * (frame * m + cloth_markers + 1)) =
          model.stick->end1.position(state.time);
    }
    for (std::size_t c = 0; c < cloth_markers; ++c) {
      const Eigen::Vector3d p = state.positions.segment<3>(3 * marker_nodes[c]);
      Eigen::Vector3d::Map(clean.data() + 3 * (frame * m + c)) = p;
      const ContactProximity near = contact_proximity(model, p, state.time);
      if (near.obstacle || near.stick)
        near_contact[frame * m + c] = 1;
      if (near.stick)
        near_contact[frame * m + cloth_markers] = near_contact[frame * m + cloth_markers + 1] = 1;
    }
  };
  for (long n = 1; n <= steps; ++n) {
    if (n - 1 == settle_steps)
      sample(0);
    const stepper::StepReport report = stepper.step(&state);
    iterations += report.iterations;
    if (report.status == stepper::StepStatus::kFailed)
      throw std::runtime_error("the simulation failed at t = " + std::to_string(state.time) +
                               " s: " + report.message);
    if (report.status == stepper::StepStatus::kIterationCap)
      ++unconverged;
    const long after = n - settle_steps;
    if (after > 0 && after % settings.substeps == 0) {
      const auto frame = static_cast<std::size_t>(after / settings.substeps);
      if (frame < frames)
        sample(frame);
      if (progress && frame % static_cast<std::size_t>(settings.frame_rate_hz) == 0) {
        char line[128];
        std::snprintf(line, sizeof line, "synth: %.1f/%.1f s recorded\n",
                      frame / settings.frame_rate_hz, settings.duration_s);
        *progress << line << std::flush;
      }
    }
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();

  MarkerCorruptionOptions corruption;
  corruption.noise_sigma_m = settings.noise_m;
  corruption.gap_rate_hz = settings.gap_rate_hz;
  corruption.occlusion_rate_hz = settings.occlusion_rate_hz;
  corruption.protected_markers = scenario.held_markers;
  if (model.stick) {
    corruption.protected_markers.push_back(scenario.stick->end0_marker);
    corruption.protected_markers.push_back(scenario.stick->end1_marker);
  }
  corruption.complete_first_frame = true;  // the initial state needs every marker
  corruption.seed = settings.seed;
  corruption.take_name = scenario.name;
  std::vector<std::string> names;
  for (const mocap::MarkerInfo& marker : markers)
    names.push_back(marker.name);
  CorruptedRecording corrupted =
      corrupt_markers(names, clean, frames, settings.frame_rate_hz, near_contact, corruption);

  nlohmann::json truth_json;
  nlohmann::json parameters = nlohmann::json::object();
  for (std::size_t i = 0; i < truth.size(); ++i)
    parameters[scenario.parameters.specs()[i].name] = truth[i];
  truth_json["parameters"] = parameters;
  truth_json["scenario"] = scenario.source_path;
  truth_json["fabric"] = scenario.fabric;
  truth_json["density"] = scenario.density;
  truth_json["mesh"] = {node_rows, node_cols};
  truth_json["refinement"] = k;
  truth_json["time_step"] = dt;
  truth_json["frame_rate"] = settings.frame_rate_hz;
  truth_json["duration"] = settings.duration_s;
  truth_json["settle"] = settle;
  truth_json["noise"] = settings.noise_m;
  truth_json["gap_rate"] = settings.gap_rate_hz;
  truth_json["occlusion_rate"] = settings.occlusion_rate_hz;
  truth_json["seed"] = settings.seed;
  truth_json["motion"] = settings.motion_json;
  truth_json["simulation"] = {{"wall_seconds", wall},
                              {"q", wall / (steps * dt)},
                              {"mean_iterations", double(iterations) / steps},
                              {"unconverged_steps", unconverged}};
  const MarkerCorruptionStatistics& stats = corrupted.statistics;
  truth_json["corruption"] = {{"samples", stats.samples},
                              {"samples_removed", stats.samples_removed},
                              {"random_gaps", stats.random_gaps},
                              {"occlusion_bursts", stats.occlusion_bursts},
                              {"longest_gap_frames", stats.longest_gap_frames},
                              {"measured_noise_m", stats.noise_std_m}};
  return SyntheticRecording{std::move(corrupted.take), std::move(truth_json)};
}

}  // namespace clothfit::fitting
