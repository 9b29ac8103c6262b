#include "fitting/recording_setup.hpp"

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
#include "mocap/stick.hpp"

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

}  // namespace

RecordingSetup build_recording_setup(const RecordingScenario& scenario, const mocap::Take& take) {
  RecordingSetup setup;
  setup.name = scenario.name;
  const mocap::MarkerLayout& layout = scenario.layout;
  setup.marker_rows = layout.rows;
  setup.marker_columns = layout.columns;
  setup.marker_names = layout.names;
  const std::vector<std::size_t> take_index = mocap::resolve_marker_layout(layout, take);

  if (scenario.first_frame >= static_cast<long>(take.frame_count()))
    fail(scenario, "frames.first",
         "the recording has only " + std::to_string(take.frame_count()) + " frames");
  const std::size_t first = static_cast<std::size_t>(scenario.first_frame);
  std::size_t frames = take.frame_count() - first;
  if (scenario.frame_count > 0) {
    if (static_cast<std::size_t>(scenario.frame_count) > frames)
      fail(scenario, "frames.count",
           "the recording has only " + std::to_string(frames) + " frames from frame " +
               std::to_string(first));
    frames = static_cast<std::size_t>(scenario.frame_count);
  }
  if (frames < 2)
    fail(scenario, "recording", "expected a recording of at least 2 frames");
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

  // Held nodes follow their markers, gaps filled linearly.
  const mocap::FilledMarkers held =
      mocap::fill_gaps_linear(take, scenario.held_markers, scenario.gap_filling);
  for (std::size_t h = 0; h < scenario.held_markers.size(); ++h) {
    const auto cell = static_cast<std::size_t>(
        std::find(layout.names.begin(), layout.names.end(), scenario.held_markers[h]) -
        layout.names.begin());
    std::vector<Eigen::Vector3d> samples(frames);
    for (std::size_t f = 0; f < frames; ++f)
      samples[f] = held.position(first + f, h);
    setup.model.held.push_back(
        {setup.marker_nodes[cell], trajectory_of(std::move(samples), setup.frame_interval_s,
                                                 scenario.driver_smoothing_frames)});
  }
  if (scenario.stick) {
    const mocap::StickTrack track = mocap::stick_from_markers(
        take, scenario.stick->end0_marker, scenario.stick->end1_marker, scenario.gap_filling);
    std::vector<Eigen::Vector3d> e0(frames), e1(frames);
    for (std::size_t f = 0; f < frames; ++f) {
      e0[f] = track.segment(first + f).end0_m;
      e1[f] = track.segment(first + f).end1_m;
    }
    const int smoothing = scenario.driver_smoothing_frames;
    setup.stick =
        StickTrajectories{trajectory_of(std::move(e0), setup.frame_interval_s, smoothing),
                          trajectory_of(std::move(e1), setup.frame_interval_s, smoothing),
                          scenario.stick->radius_m, scenario.stick->friction, track.mean_length_m};
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
    if (f >= frames || !take.visible(first + f, take_index[c]))
      fail(scenario, "layout",
           "marker '" + layout.names[c] + "' is missing at the first frame and for the next " +
               std::to_string(scenario.gap_filling.max_gap_frames) +
               " frames: no initial position for it");
    markers.row(static_cast<Eigen::Index>(c)) = take.position(first + f, take_index[c]);
  }
  for (std::size_t h = 0; h < scenario.held_markers.size(); ++h) {
    const auto cell = static_cast<Eigen::Index>(
        std::find(layout.names.begin(), layout.names.end(), scenario.held_markers[h]) -
        layout.names.begin());
    markers.row(cell) = setup.model.held[h].target.position(0.0).transpose();
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

std::string initial_state_warning(const RecordingSetup& setup) {
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
