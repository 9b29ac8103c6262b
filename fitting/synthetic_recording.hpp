// Synthetic recordings (`clothfit synth`): the recording scenario's motion simulated with known
// ("true") α, δ, μ on a finer mesh and a smaller Δt than a fit uses, sampled at the frame rate at
// the marker nodes, then corrupted like a real capture (Gaussian noise, random gaps, occlusion
// bursts near contacts) — data to test that a fit recovers what made it (DESIGN.md §4: never fit
// data made by the very configuration that fits it).
//
// The motion comes from the scenario's "synth" object (README.md, "`clothfit synth`: synthetic
// recordings"): the held markers' paths (explicit keyframes or a generated human-like motion) and,
// optionally, the stick's ends. The sheet starts hanging flat from the held markers' first
// positions and settles for `settle` seconds before the recording starts.
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/stepper/trajectory.hpp"
#include "fitting/recording_scenario.hpp"
#include "mocap/take.hpp"

namespace clothfit::fitting {

// A prescribed position over recording time (t = 0: the first frame), m.
using PathFunction = std::function<Eigen::Vector3d(double)>;

struct SynthMotion {
  std::vector<std::string> held_markers;  // layout names, each with a path
  std::vector<PathFunction> held;
  PathFunction stick_end0, stick_end1;  // empty without a stick
};

struct SynthSettings {
  double duration_s = 4.0;
  double frame_rate_hz = 100.0;
  int refinement = 4;  // fine mesh refinement k (≥ 4 and above the fit's)
  int substeps = 2;    // simulation steps per frame
  double settle_s = 1.0;
  double noise_m = 0.001;          // Gaussian marker noise per coordinate
  double gap_rate_hz = 0.05;       // random dropouts per marker per second
  double occlusion_rate_hz = 2.0;  // occlusion bursts per marker per second near contacts
  std::uint64_t seed = 1;
  SynthMotion motion;
  nlohmann::json motion_json;  // as given, for the truth file
};

// Parses scenario.synth (InputError naming "synth.<field>").
SynthSettings parse_synth_settings(const RecordingScenario& scenario);

// Parses "alpha=0.2,delta=0.08,mu.table=0.5" against the scenario's parameters; every parameter
// must be given (or have a fixed value in the scenario). Throws std::invalid_argument.
std::vector<double> parse_truth(const std::string& text, const ModelParameters& parameters);

struct SyntheticRecording {
  mocap::Take take;
  nlohmann::json truth;  // the truth JSON (parameters and how the recording was made)
};

SyntheticRecording make_synthetic_recording(const RecordingScenario& scenario,
                                            const SynthSettings& settings,
                                            const std::vector<double>& truth,
                                            std::ostream* progress);

}  // namespace clothfit::fitting
