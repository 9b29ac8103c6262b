// The first `frames` frames of the bundled polyester_tablecloth_high recording (α, δ fixed, μ at
// its truth 1.0 unless swept), read from datasets/recordings in the source tree: the sheet hangs
// from its corners until about frame 65 and is then laid on the table.
#pragma once

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "fitting/recording_setup.hpp"
#include "support/test_paths.hpp"

namespace clothfit::testing {

struct TableRecording {
  fitting::RecordingScenario scenario;
  fitting::RecordingSetup setup;
};

inline std::unique_ptr<TableRecording> table_recording(int frames) {
  const auto dir = source_dir() / "datasets/recordings";
  std::ifstream file(dir / "polyester_tablecloth_high.json");
  nlohmann::json j = nlohmann::json::parse(file);
  j["recording"] = (dir / "polyester_tablecloth_high.csv").string();
  j.erase("truth");
  j["frames"] = {{"first", 0}, {"count", frames}};
  auto r = std::make_unique<TableRecording>();
  r->scenario = fitting::parse_recording_scenario(j, "polyester_tablecloth_high.json");
  r->setup = fitting::build_recording_setup(r->scenario, fitting::load_take(r->scenario));
  return r;
}

}  // namespace clothfit::testing
