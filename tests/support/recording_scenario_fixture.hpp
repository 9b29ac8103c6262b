// A recording scenario for the fitting tests: a DIN A2 polyester sheet with the paper's 4 × 5
// marker layout (refinement 2: fitted on 7 × 9), α and δ free within [0.02, 1] and [0.02, 0.2],
// and a synthetic keyframe motion whose held markers the test adds (synth.motion.held).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace clothfit::testing {

inline nlohmann::json din_a2_recording_scenario(const std::string& name, double duration,
                                                double settle, int seed) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "recording": "unused.csv",
    "cloth": {"width": 0.42, "height": 0.594, "material": "polyester"},
    "layout": {"rows": 5, "columns": 4,
               "markers": [["A1","A2","A3","A4"], ["B1","B2","B3","B4"], ["C1","C2","C3","C4"],
                           ["D1","D2","D3","D4"], ["E1","E2","E3","E4"]]},
    "parameters": {"alpha": {"min": 0.02, "max": 1.0}, "delta": {"min": 0.02, "max": 0.2}},
    "synth": {"motion": {"kind": "keyframes"}}
  })");
  j["name"] = name;
  j["synth"]["duration"] = duration;
  j["synth"]["settle"] = settle;
  j["synth"]["seed"] = seed;
  return j;
}

}  // namespace clothfit::testing
