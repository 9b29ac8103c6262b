// A simulation scenario for the scenario-reader tests: a DIN A2 polyester sheet on a 7 × 9 grid,
// 0.1 s, nothing held; tests add or change the fields they are about.
#pragma once

#include <nlohmann/json.hpp>

namespace clothfit::testing {

inline nlohmann::json din_a2_scenario() {
  return {
      {"cloth",
       {{"mesh",
         {{"type", "grid"}, {"width", 0.42}, {"height", 0.594}, {"nodes_x", 7}, {"nodes_y", 9}}},
        {"material", "polyester"}}},
      {"time", {{"duration", 0.1}}}};
}

}  // namespace clothfit::testing
