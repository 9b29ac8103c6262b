// The truth of a synthetic recording: the parameter values it was made with, read from the truth
// file a recording scenario names ("truth", README "Recording scenarios").
//
// The format is the one `clothfit synth` writes (TAKE.truth.json, or --truth-out) and the bundled
// datasets/recordings/*.truth.json hold: a JSON object whose "parameters" object gives each
// parameter's true value by name,
//
//   {"parameters": {"alpha": 0.2, "delta": 0.08, "mu.table": 1.0}, "scenario": …, "seed": 1, …}
//
// The other fields (how the recording was made) are informational and not read. The names must be
// parameters of the scenario ("alpha", "delta", "mu.<obstacle>"), fixed or fitted; every fitted
// parameter needs a value (the fit simulates the truth and compares its objective with the fit's,
// which a truth made up partly of fitted values would not tell); each value is a finite number
// ≥ 0, as in the scenario's "parameters".
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "fitting/recording_scenario.hpp"

namespace clothfit::fitting {

// The true values by parameter name, from `json`, the content of the truth file `truth_path` of
// `scenario`. Throws InputError naming truth_path and the field (e.g. "parameters.alpha"), what
// was expected and what was found, and which scenario named the file.
std::map<std::string, double> parse_recording_truth(const nlohmann::json& json,
                                                    const std::string& truth_path,
                                                    const RecordingScenario& scenario);

// Reads and checks scenario.truth_path (as parse_recording_truth; a file that cannot be read or
// parsed is an InputError naming it too). Empty when the scenario names no truth file.
std::map<std::string, double> read_recording_truth(const RecordingScenario& scenario);

}  // namespace clothfit::fitting
