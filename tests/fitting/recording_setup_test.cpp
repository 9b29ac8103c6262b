// The initial state of a recording's simulation: how far it starts from the first frame's
// markers, and the warning when a fold between two markers moved them apart.
#include "fitting/recording_setup.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/io/input_error.hpp"

namespace clothfit::fitting {
namespace {

// A 0.2 × 0.2 m sheet with 3 × 3 markers (0.1 m apart), lying flat and still at z = 1 m, held
// by A1 and A3. With `fold`, the last row of markers lies 5 cm from the middle one instead of
// 10 cm: the cloth between them is bunched up, as on a table. A time_step > 0 sets the solver's.
// With `b2_missing` > 0 the take has 8 frames, B2 is missing from the first b2_missing of them,
// and gaps of up to 3 frames are filled.
RecordingSetup flat_sheet_setup(bool fold, double time_step = 0.0, std::size_t b2_missing = 0) {
  nlohmann::json json = nlohmann::json::parse(R"({
    "recording": "take.csv",
    "cloth": {"width": 0.2, "height": 0.2, "material": "polyester"},
    "layout": {"rows": 3, "columns": 3,
               "markers": [["A1", "A2", "A3"], ["B1", "B2", "B3"], ["C1", "C2", "C3"]]},
    "parameters": {"alpha": {"min": 0.1, "max": 1}, "delta": 0.08}
  })");
  if (time_step > 0.0)
    json["solver"] = {{"time_step", time_step}};
  if (b2_missing > 0)
    json["recording_options"] = {{"max_gap_frames", 3}};
  const RecordingScenario scenario = parse_recording_scenario(json, "dir/s.json");
  std::vector<mocap::MarkerInfo> markers;
  std::vector<double> frame;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      markers.push_back({std::string(1, char('A' + i)) + char('1' + j), "", {}});
      const double y = fold && i == 2 ? -0.15 : -0.1 * i;
      frame.insert(frame.end(), {0.1 * j, y, 1.0});
    }
  }
  const std::size_t frames = b2_missing > 0 ? 8 : 2;
  std::vector<double> positions;
  for (std::size_t f = 0; f < frames; ++f) {
    positions.insert(positions.end(), frame.begin(), frame.end());
    if (f < b2_missing)
      std::fill_n(positions.end() - 3 * 5, 3, std::nan(""));  // B2, the fifth marker
  }
  const mocap::Take take({}, 100.0, 0, frames, markers, positions);
  return build_recording_setup(scenario, take);
}

TEST(RecordingSetup, AFlatSheetStartsOnItsMarkers) {
  const RecordingSetup setup = flat_sheet_setup(false);
  EXPECT_LT(setup.initial_marker_offset_m, 1e-4);
  EXPECT_EQ(initial_state_warning(setup), "");
}

TEST(RecordingSetup, AFoldBetweenMarkersIsMeasuredAndWarnedAbout) {
  const RecordingSetup setup = flat_sheet_setup(true);
  // The inextensible sheet through the markers cannot bunch up between two of them on this mesh
  // without moving them: the folded row ends centimetres from where it was recorded.
  EXPECT_GT(setup.initial_marker_offset_m, kInitialMarkerOffsetWarning_m);
  EXPECT_LT(setup.initial_marker_offset_m, 0.06);
  EXPECT_EQ(setup.initial_marker_offset_name.substr(0, 1), "C");
  const std::string warning = initial_state_warning(setup);
  EXPECT_NE(warning.find("marker " + setup.initial_marker_offset_name), std::string::npos)
      << warning;
  EXPECT_NE(warning.find("folded or bunched"), std::string::npos) << warning;
}

// A marker missing at the first frame starts where it is first seen within the gap-filling
// limit; missing for longer, the setup is refused, naming it.
TEST(RecordingSetup, AMarkerMissingAtTheStartIsTakenFromItsFirstFrameWithinTheGapLimit) {
  EXPECT_LT(flat_sheet_setup(false, 0.0, 3).initial_marker_offset_m, 1e-4);
  try {
    flat_sheet_setup(false, 0.0, 4);
    ADD_FAILURE() << "no error for a marker missing from the first 4 frames";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().field, "layout");
    EXPECT_NE(std::string(e.what()).find(
                  "marker 'B2' is missing at the first frame and for the next 3 frames"),
              std::string::npos)
        << e.what();
  }
}

// A time step that divides the frame interval but would make the run's step count overflow (it
// ran no step at all) is refused, naming the field.
TEST(RecordingSetup, TimeStepsBeyondTheStepLimitAreRefused) {
  EXPECT_EQ(flat_sheet_setup(false, 0.005).model.options.time_step, 0.005);
  try {
    flat_sheet_setup(false, 1e-300);
    ADD_FAILURE() << "no error for a time step of 1e-300 s";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().field, "solver.time_step");
    EXPECT_NE(std::string(e.what()).find("at most 100000000 steps"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace clothfit::fitting
