#include "fitting/recording_setup.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "core/io/input_error.hpp"
#include "core/io/json_object.hpp"
#include "core/mesh/quad_mesh.hpp"
#include "core/scenario/scenario.hpp"
#include "fitting/error_metrics.hpp"
#include "fitting/initial_state.hpp"
#include "mocap/gap_filling.hpp"
#include "mocap/marker_layout.hpp"

namespace clothfit::fitting {
namespace {

[[noreturn]] void fail(const RecordingScenario& s, const std::string& field,
                       const std::string& problem) {
  throw InputError(InputLocation{s.source_path, 0, 0, field}, problem);
}

// Centred moving average over `window` (odd) samples, the window shrinking symmetrically at the
// ends so that the first and last samples stay as recorded.
std::vector<Eigen::Vector3d> smooth(const std::vector<Eigen::Vector3d>& p, int window) {
  const long n = static_cast<long>(p.size());
  std::vector<Eigen::Vector3d> out(p.size());
  for (long i = 0; i < n; ++i) {
    const long half = std::min<long>({window / 2, i, n - 1 - i});
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (long j = i - half; j <= i + half; ++j)
      sum += p[static_cast<std::size_t>(j)];
    out[static_cast<std::size_t>(i)] = sum / static_cast<double>(2 * half + 1);
  }
  return out;
}

// Keyframes at every frame (t = 0 at the first simulated frame), smoothed over `smoothing` frames.
stepper::Trajectory trajectory_of(std::vector<Eigen::Vector3d> positions, double dt,
                                  int smoothing) {
  std::vector<double> times(positions.size());
  for (std::size_t f = 0; f < times.size(); ++f)
    times[f] = static_cast<double>(f) * dt;
  if (smoothing > 1)
    positions = smooth(positions, smoothing);
  return stepper::Trajectory(std::move(times), std::move(positions));
}

// Marker `marker` of `take` at its frames first … first + frames − 1, its gaps filled linearly by
// mocap::fill_gaps_linear (and refused as it refuses them: longer than max_gap_frames, at the
// start or end of the take) — but only the gaps the fit meets: those within these frames or
// reaching into them. A gap is interpolated between its two visible neighbours, so the filling
// reaches back to the last visible frame at or before `first` and on to the first visible frame at
// or after the last one (at most max_gap_frames + 1 frames away, or that gap is too long); a gap
// elsewhere in the take does not matter to the simulation and is not looked at.
std::vector<Eigen::Vector3d> filled_positions(const mocap::Take& take, std::size_t marker,
                                              std::size_t first, std::size_t frames,
                                              const mocap::GapFillingOptions& options) {
  const std::size_t last = first + frames - 1;
  std::size_t from = first;  // last visible frame at or before `first`, else frame 0
  while (from > 0 && !take.visible(from, marker))
    --from;
  std::size_t to = last;  // first visible frame at or after `last`, else the take's last frame
  while (to + 1 < take.frame_count() && !take.visible(to, marker))
    ++to;
  // The marker alone over frames from … to, numbered as in the take (so that errors name the
  // take's frame numbers).
  const std::size_t count = to - from + 1;
  std::vector<double> positions(3 * count);
  for (std::size_t f = 0; f < count; ++f)
    Eigen::Vector3d::Map(positions.data() + 3 * f) = take.position(from + f, marker);
  const mocap::Take part(take.info(), take.frame_rate_hz(), take.frame_number(from), count,
                         {take.marker(marker)}, std::move(positions));
  const std::array<std::size_t, 1> only{0};
  const mocap::FilledMarkers filled = mocap::fill_gaps_linear(part, only, options);
  std::vector<Eigen::Vector3d> out(frames);
  for (std::size_t f = 0; f < frames; ++f)
    out[f] = filled.position(first - from + f, 0);
  return out;
}

}  // namespace

RecordingSetup build_recording_setup(const RecordingScenario& scenario, const mocap::Take& take) {
  RecordingSetup setup;
  setup.name = scenario.name;
  const mocap::MarkerLayout& layout = scenario.layout;
  setup.marker_rows = layout.rows;
  setup.marker_columns = layout.columns;
  setup.marker_names = layout.names;
  const std::vector<std::size_t> take_index = mocap::resolve_marker_layout(layout, take);

  // frames.first and frames.count pick the simulated frames, at least 2 (a frames.count below 2
  // is refused when the scenario is read; absent, it means every frame from frames.first on).
  const std::size_t take_frames = take.frame_count();
  const std::string take_size = "the take has " + std::to_string(take_frames) + " frames";
  if (take_frames < 2)
    fail(scenario, "recording",
         "expected a take of at least 2 frames, found " + std::to_string(take_frames));
  if (scenario.first_frame >= static_cast<long>(take_frames))
    fail(scenario, "frames.first",
         "expected a frame of the take, 0 to " + std::to_string(take_frames - 1) + " (" +
             take_size + "), found " + std::to_string(scenario.first_frame));
  const std::size_t first = static_cast<std::size_t>(scenario.first_frame);
  std::size_t frames = take_frames - first;
  if (scenario.frame_count > 0) {
    if (static_cast<std::size_t>(scenario.frame_count) > frames)
      fail(scenario, "frames.count",
           "expected at most " + std::to_string(frames) + " frames from frames.first (" +
               std::to_string(first) + "; " + take_size + "), found " +
               std::to_string(scenario.frame_count));
    frames = static_cast<std::size_t>(scenario.frame_count);
  }
  if (frames < 2)  // frames.count absent, frames.first the take's last frame
    fail(scenario, "frames.first",
         "expected at most " + std::to_string(take_frames - 2) +
             ": frames.count (absent: every frame from frames.first on) must be at least 2, and " +
             take_size + "; found " + std::to_string(first));
  setup.frames = frames;
  setup.frame_interval_s = 1.0 / take.frame_rate_hz();

  // The mesh: marker (i, j) is node (k·i, k·j); rows run along the height (row 0 at y = 0).
  const int k = scenario.refinement;
  const int node_rows = k * (layout.rows - 1) + 1;
  const int node_cols = k * (layout.columns - 1) + 1;
  setup.model.mesh =
      mesh::make_grid_mesh(scenario.width_m, scenario.height_m, node_cols, node_rows);
  const std::size_t cells = layout.names.size();
  for (int i = 0; i < layout.rows; ++i) {
    for (int j = 0; j < layout.columns; ++j)
      setup.marker_nodes.push_back(k * i * node_cols + k * j);
  }
  setup.marker_weights =
      marker_grid_weights(layout.rows, layout.columns, scenario.width_m, scenario.height_m);

  setup.recorded_m.resize(frames * cells * 3);
  for (std::size_t f = 0; f < frames; ++f) {
    for (std::size_t c = 0; c < cells; ++c) {
      const Eigen::Vector3d p = take.position(first + f, take_index[c]);
      Eigen::Vector3d::Map(setup.recorded_m.data() + 3 * (f * cells + c)) = p;
      if (!p.allFinite())
        ++setup.marker_gaps;
    }
  }

  // Material and solver; the parameters' start values.
  setup.model.material.density = scenario.density;
  setup.model.material.bending = scenario.bending;
  setup.model.options = scenario.solver;
  if (setup.model.options.time_step <= 0.0)
    setup.model.options.time_step = setup.frame_interval_s;
  const double ratio = setup.frame_interval_s / setup.model.options.time_step;
  if (std::abs(ratio - std::round(ratio)) > 1e-9 || std::round(ratio) < 1)
    fail(scenario, "solver.time_step",
         "expected the frame interval (" + std::to_string(setup.frame_interval_s) +
             " s) divided by a whole number");
  if (ratio * static_cast<double>(frames) > static_cast<double>(scenario::kMaxSteps))
    fail(scenario, "solver.time_step",
         "expected at most " + std::to_string(scenario::kMaxSteps) + " steps over the " +
             std::to_string(frames) + " frames, found " + format_number(ratio * frames));
  setup.model.obstacles = scenario.obstacles;
  scenario.parameters.apply(scenario.parameters.start_values(), &setup.model);

  // Held nodes follow their markers, gaps filled linearly (within the simulated frames).
  for (const std::string& name : scenario.held_markers) {
    const auto cell = static_cast<std::size_t>(
        std::find(layout.names.begin(), layout.names.end(), name) - layout.names.begin());
    std::vector<Eigen::Vector3d> samples =
        filled_positions(take, take.marker_index(name), first, frames, scenario.gap_filling);
    setup.model.held.push_back(
        {setup.marker_nodes[cell], trajectory_of(std::move(samples), setup.frame_interval_s,
                                                 scenario.driver_smoothing_frames)});
  }
  if (scenario.stick) {
    const std::size_t end0 = take.marker_index(scenario.stick->end0_marker);
    const std::size_t end1 = take.marker_index(scenario.stick->end1_marker);
    std::vector<Eigen::Vector3d> e0 =
        filled_positions(take, end0, first, frames, scenario.gap_filling);
    std::vector<Eigen::Vector3d> e1 =
        filled_positions(take, end1, first, frames, scenario.gap_filling);
    // The stick's length over the simulated frames where both ends were measured (as
    // mocap::StickTrack::mean_length_m over the whole take).
    double length_sum = 0.0;
    std::size_t measured = 0;
    for (std::size_t f = first; f < first + frames; ++f) {
      if (take.visible(f, end0) && take.visible(f, end1)) {
        length_sum += (take.position(f, end1) - take.position(f, end0)).norm();
        ++measured;
      }
    }
    const double mean_length = measured > 0 ? length_sum / static_cast<double>(measured) : 0.0;
    const int smoothing = scenario.driver_smoothing_frames;
    setup.stick =
        StickTrajectories{trajectory_of(std::move(e0), setup.frame_interval_s, smoothing),
                          trajectory_of(std::move(e1), setup.frame_interval_s, smoothing),
                          scenario.stick->radius_m, scenario.stick->friction, mean_length};
  }

  // Initial state: frame 0, a marker missing there taken from the first frame that has it, if that
  // is at most frame max_gap_frames (a gap of at most max_gap_frames frames, as gap filling
  // bridges: the sheet is taken to be still at the start of a recording).
  Eigen::MatrixX3d markers(static_cast<Eigen::Index>(cells), 3);
  for (std::size_t c = 0; c < cells; ++c) {
    std::size_t f = 0;
    while (f < frames && f < scenario.gap_filling.max_gap_frames &&
           !take.visible(first + f, take_index[c]))
      ++f;
    if (f >= frames || !take.visible(first + f, take_index[c])) {
      // The frames searched after the first: max_gap_frames, fewer when the run ends sooner
      // (frames ≥ 2, so at least one).
      const std::size_t searched = std::min(scenario.gap_filling.max_gap_frames, frames - 1);
      fail(
          scenario, "layout",
          "marker '" + layout.names[c] + "' is missing at the first frame and for the next " +
              std::to_string(searched) + (searched == 1 ? " frame" : " frames") +
              (searched < scenario.gap_filling.max_gap_frames ? ", the rest of the simulated frames"
                                                              : std::string()) +
              ": no initial position for it");
    }
    markers.row(static_cast<Eigen::Index>(c)) = take.position(first + f, take_index[c]);
  }
  for (std::size_t h = 0; h < scenario.held_markers.size(); ++h) {
    const auto cell = static_cast<Eigen::Index>(
        std::find(layout.names.begin(), layout.names.end(), scenario.held_markers[h]) -
        layout.names.begin());
    markers.row(cell) = setup.model.held[h].target.position(0.0).transpose();
  }
  for (const auto& obstacle : setup.model.obstacles) {
    for (std::size_t c = 0; c < cells; ++c) {
      const double h = obstacle->value(markers.row(static_cast<Eigen::Index>(c)).transpose(), 0.0);
      if (h < 0.0 && -h > setup.inside_depth_m) {
        setup.inside_depth_m = -h;
        setup.inside_marker_name = layout.names[c];
        setup.inside_obstacle_name = obstacle->name();
        setup.inside_depth_is_distance = obstacle->is_signed_distance();
      }
    }
  }
  const Eigen::VectorXd guess = interpolate_marker_grid(markers, layout.rows, layout.columns, k);
  const ProjectionResult projected = project_onto_constraints(setup.model, guess);
  if (!projected.converged)
    fail(scenario, "recording",
         "the first frame's markers could not be projected onto an inextensible sheet of " +
             std::to_string(scenario.width_m) + " × " + std::to_string(scenario.height_m) + " m (" +
             projected.message + "); check cloth.width/height, the layout and the held markers");
  // The interpolated guess puts the nodes between markers on chords; let them hang between the
  // projected markers, put the markers back where they were recorded and project again.
  const ProjectionResult settled =
      settle_between_markers(setup.model, projected.positions, setup.marker_nodes);
  Eigen::VectorXd second_guess = settled.positions;
  for (std::size_t c = 0; c < cells; ++c) {
    second_guess.segment<3>(3 * setup.marker_nodes[c]) =
        markers.row(static_cast<Eigen::Index>(c)).transpose();
  }
  const ProjectionResult reprojected = project_onto_constraints(setup.model, second_guess);
  if (reprojected.converged) {
    setup.initial_positions = reprojected.positions;
    setup.initial_projection_m = reprojected.moved_m;
  } else {
    setup.initial_positions = projected.positions;
    setup.initial_projection_m = projected.moved_m;
  }
  setup.initial_settling = settled.message.empty() ? "settled" : settled.message;
  for (std::size_t c = 0; c < cells; ++c) {
    const double offset = (setup.initial_positions.segment<3>(3 * setup.marker_nodes[c]) -
                           markers.row(static_cast<Eigen::Index>(c)).transpose())
                              .norm();
    if (offset > setup.initial_marker_offset_m) {
      setup.initial_marker_offset_m = offset;
      setup.initial_marker_offset_name = layout.names[c];
    }
  }
  return setup;
}

namespace {

std::string short_centimetres(double metres) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", 100.0 * metres);
  return text;
}

}  // namespace

std::string initial_state_warning(const RecordingSetup& setup) {
  // A marker inside an obstacle by more than the offset that warns: the obstacle is misplaced
  // (or the take's units or up axis are wrong), whatever the sheet's shape.
  if (!setup.inside_marker_name.empty() &&
      (setup.inside_depth_m > kInitialMarkerOffsetWarning_m || !setup.inside_depth_is_distance)) {
    const std::string depth = setup.inside_depth_is_distance
                                  ? " by " + short_centimetres(setup.inside_depth_m) + " cm"
                                  : "";
    return "the first frame's marker " + setup.inside_marker_name + " lies inside obstacle '" +
           setup.inside_obstacle_name + "'" + depth +
           ": the initial state moves the sheet out of it, and the fit compares the run with a "
           "recording the obstacle contradicts; check the obstacle's placement (and the take's "
           "units and up axis)";
  }
  if (!(setup.initial_marker_offset_m > kInitialMarkerOffsetWarning_m))
    return {};
  char text[400];
  std::snprintf(text, sizeof text,
                "the simulation starts %.1f cm from marker %s's recorded position: the first "
                "frame's sheet is folded or bunched between markers, and the initial state "
                "(an inextensible sheet through the markers) had to move them apart; the "
                "fitted parameters may be biased (README, Initial state)",
                100.0 * setup.initial_marker_offset_m, setup.initial_marker_offset_name.c_str());
  return text;
}

}  // namespace clothfit::fitting
