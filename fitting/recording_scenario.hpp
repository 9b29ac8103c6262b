// RecordingScenario: ties a motion-capture recording to the simulator (DESIGN.md §3): which take,
// which cloth, which marker sits where on it, which markers are held, which obstacles and stick,
// the solver settings, and for α, δ and each μ a value or fit bounds. Read from a JSON file whose
// fields are documented in README.md ("Recording scenarios"); every mistake is an InputError
// naming the file, the field and what was expected.
//
// Parsing does not read the take (a synthetic recording is described before it exists): call
// load_take() for that.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/io/json_object.hpp"
#include "core/stepper/simulation_model.hpp"
#include "fitting/model_parameters.hpp"
#include "mocap/gap_filling.hpp"
#include "mocap/length_unit.hpp"
#include "mocap/marker_layout.hpp"
#include "mocap/motive_csv_reader.hpp"
#include "mocap/take.hpp"
#include "mocap/up_axis.hpp"

namespace clothfit::fitting {

// The stick: the rigid segment between two recorded markers (paper §7.4).
struct StickSpec {
  std::string end0_marker;
  std::string end1_marker;
  double radius_m = 0.0075;  // τ0 of the stick
  double friction = 0.0;     // μ between cloth and stick; 0 (the stepper has no stick friction)
};

// The most Ceres iterations a fit may ask for (fit.max_refinement_iterations, --refine-iterations),
// bounded like every other count a user gives: each iteration runs the simulation at least once
// per fitted parameter (the refinement usually ends earlier, at its first rejected step or when
// Ceres converges).
inline constexpr int kMaxRefinementIterations = 1000;

struct FitSettings {
  int grid_points = 0;  // per fitted parameter; 0: 5 for ≤ 2 parameters, 4 for more
  int threads = 0;      // 0: all hardware threads
  int max_refinement_iterations = 20;  // Ceres iterations after the grid search (0: grid only)
  double profile_tolerance = 0.05;  // interval where the objective is within this fraction of min
  int noise_replicas = 6;  // perturbed replicas measuring the noise (objective_noise.hpp); 0: none
};

struct RecordingScenario {
  std::string name;  // defaults to the file name without extension
  std::string description;
  std::string experiment;   // free label, e.g. "tablecloth" or "hitting" (used by tables)
  std::string condition;    // free label, e.g. "low" or "high" friction
  std::string source_path;  // the JSON file

  std::string recording_path;  // the take, resolved against the scenario file's folder
  std::string truth_path;      // optional truth JSON of a synthetic recording (resolved; load_take
                               // checks it)
  mocap::MotiveCsvReadOptions read_options;
  mocap::GapFillingOptions gap_filling;  // for held markers and stick ends
  // Held markers and stick ends are smoothed by a centred moving average over this many frames
  // (odd; 1 = raw): marker noise of 1 mm at 100 Hz is a velocity noise of 0.14 m/s the
  // simulation would otherwise be driven with.
  int driver_smoothing_frames = 5;
  long first_frame = 0;  // first frame (index into the take) simulated
  long frame_count = 0;  // frames used; 0: up to the end of the take

  std::string fabric;  // material name of the paper's Table 1, or empty when density was given
  double width_m = 0.42;
  double height_m = 0.594;
  double density = 0.1042;  // ρ, kg/m²
  double bending = 0.0;     // κ
  mocap::MarkerLayout layout;
  int refinement = 2;                     // k: mesh (k(rows−1)+1) × (k(columns−1)+1) nodes
  std::vector<std::string> held_markers;  // default: the two top corners of the layout

  std::vector<std::shared_ptr<const obstacles::Obstacle>> obstacles;
  std::optional<StickSpec> stick;
  // solver.time_step as given (> 0), or 0 when the file gives none: the take's frame interval.
  stepper::StepperOptions solver;
  ModelParameters parameters;
  FitSettings fit;
  nlohmann::json synth;  // the "synth" object (read by `clothfit synth`), null when absent
};

RecordingScenario parse_recording_scenario(const nlohmann::json& json, const std::string& path);
RecordingScenario load_recording_scenario(const std::string& path);

// Reads `key` of `o`: how many times the mesh refines the marker grid of `scenario` (≥ 1), checked
// to keep the mesh within mesh::kMaxGridNodes nodes and its quads of the cloth's size from being
// degenerate (mesh::grid_spacing_problem).
int parse_refinement(const JsonObject& o, const std::string& key, int fallback,
                     const RecordingScenario& scenario);

// Reads the scenario's take (errors are mocap::MocapInputError naming the take file). First checks
// the scenario's truth file, when it names one (read_recording_truth, recording_truth.hpp; an
// InputError naming the truth file): like the take it is made after the scenario is written (by
// `clothfit synth`), so parsing does not read it, and a fit must refuse a bad one before it
// simulates anything rather than after.
mocap::Take load_take(const RecordingScenario& scenario);

}  // namespace clothfit::fitting
