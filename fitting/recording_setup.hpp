// RecordingSetup: everything a simulation of a recording needs, built once from a
// RecordingScenario and its take and shared (read-only) by every evaluation of a fit: the grid
// mesh of the marker layout refined k times, which node carries which marker and its error weight,
// the recorded marker positions per frame, the held nodes driven by their (gap-filled) markers,
// the stick, and the initial state projected from frame 0.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "core/stepper/simulation_model.hpp"
#include "fitting/recording_scenario.hpp"
#include "mocap/take.hpp"

namespace clothfit::fitting {

// The stick's two ends over the recording's time (gaps filled linearly), m.
struct StickTrajectories {
  stepper::Trajectory end0;
  stepper::Trajectory end1;
  double radius_m = 0.0075;
  double friction = 0.0;
  double mean_length_m = 0.0;
};

struct RecordingSetup {
  std::string name;
  int marker_rows = 0, marker_columns = 0;
  std::vector<std::string> marker_names;  // (cells) row-major layout order
  std::vector<int> marker_nodes;          // (cells) mesh node of each marker
  std::vector<double> marker_weights;     // (cells) w_i of e_n, m²
  std::size_t frames = 0;                 // simulated frames (frame 0 is the initial state)
  double frame_interval_s = 0.01;         // 1 / frame rate
  // Recorded marker positions, (frames × cells × 3) row-major, m, NaN where missing.
  std::vector<double> recorded_m;
  std::size_t marker_gaps = 0;     // missing (frame, marker) samples among the cells
  stepper::SimulationModel model;  // held nodes, obstacles, options; parameters not yet applied
  std::optional<StickTrajectories> stick;
  Eigen::VectorXd initial_positions;  // (3N) φ⁰, m
  double initial_projection_m = 0.0;  // largest node move of the initial projection, m
  std::string initial_settling;       // how the settling between the markers ended
  // How far the initial state's marker nodes ended from the first frame's recorded markers: the
  // largest distance (m) and that marker's name. A few millimetres where the markers resolve the
  // sheet; centimetres where the recorded sheet is folded or bunched between two markers and the
  // projection made the mesh's nodes there meet their rest lengths by moving markers apart.
  double initial_marker_offset_m = 0.0;
  std::string initial_marker_offset_name;
  // The first frame's marker deepest inside an obstacle (its h < 0 at t = 0), if any: a misplaced
  // obstacle, which the initial state moves the sheet out of (the offset above then comes from it,
  // not from a folded sheet). depth_m is h's magnitude, a distance for signed-distance obstacles.
  std::string inside_marker_name, inside_obstacle_name;
  double inside_depth_m = 0.0;
  bool inside_depth_is_distance = true;

  Eigen::Map<const Eigen::MatrixX3d, 0, Eigen::Stride<1, 3>> recorded(std::size_t frame) const {
    return {recorded_m.data() + 3 * frame * marker_nodes.size(),
            static_cast<Eigen::Index>(marker_nodes.size()), 3, Eigen::Stride<1, 3>()};
  }
  double duration_s() const { return static_cast<double>(frames - 1) * frame_interval_s; }
};

// Builds the setup; the model's α, δ, μ are the parameters' start values. Throws InputError /
// mocap::MocapInputError for a take that does not fit the scenario (markers missing from the
// take, too few frames, a held marker gap that cannot be filled, an initial state that cannot be
// projected).
RecordingSetup build_recording_setup(const RecordingScenario& scenario, const mocap::Take& take);

// Above this initial_marker_offset_m the fit and sweep commands warn that the simulation starts
// away from the recording (2 cm: twenty times a capture's marker noise; the bundled recordings
// start within 1.2 cm but for the table drag, 6.9 cm).
inline constexpr double kInitialMarkerOffsetWarning_m = 0.02;

// The warning for a setup whose first frame has a marker inside an obstacle by more than
// kInitialMarkerOffsetWarning_m (any depth for an obstacle whose h is no distance), or whose
// initial state starts more than that from a recorded marker; else empty.
std::string initial_state_warning(const RecordingSetup& setup);

}  // namespace clothfit::fitting
