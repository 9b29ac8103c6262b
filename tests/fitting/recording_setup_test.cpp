// The initial state of a recording's simulation: how far it starts from the first frame's
// markers, and the warning when a fold between two markers moved them apart; which frames are
// simulated, and which gaps of the driving markers that makes matter.
#include "fitting/recording_setup.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/io/input_error.hpp"
#include "mocap/mocap_input_error.hpp"

namespace clothfit::fitting {
namespace {

// A 0.2 × 0.2 m sheet with 3 × 3 markers (0.1 m apart), lying flat and still at z = 1 m, held
// by A1 and A3. With `fold`, the last row of markers lies 5 cm from the middle one instead of
// 10 cm: the cloth between them is bunched up, as on a table. A time_step > 0 sets the solver's.
// With `b2_missing` > 0 the take has 8 frames, B2 is missing from the first b2_missing of them,
// and gaps of up to 3 frames are filled; a frame_count > 0 sets frames.count; `extra` fields are
// added to the scenario.
RecordingSetup flat_sheet_setup(bool fold, double time_step = 0.0, std::size_t b2_missing = 0,
                                int frame_count = 0,
                                const nlohmann::json& extra = nlohmann::json::object()) {
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
  if (frame_count > 0)
    json["frames"] = {{"count", frame_count}};
  json.update(extra);
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

// A recorded marker inside an obstacle is a misplaced obstacle, and the warning says so: a sphere
// inside a hanging sheet was reported as the sheet "folded or bunched between markers".
TEST(RecordingSetup, AMarkerInsideAnObstacleIsWarnedAboutAsSuch) {
  const nlohmann::json ball = {
      {"obstacles",
       {{{"type", "sphere"}, {"name", "ball"}, {"centre", {0.1, -0.1, 1.0}}, {"radius", 0.05}}}}};
  const RecordingSetup setup = flat_sheet_setup(false, 0.0, 0, 0, ball);
  EXPECT_EQ(setup.inside_marker_name, "B2");
  EXPECT_EQ(setup.inside_obstacle_name, "ball");
  EXPECT_NEAR(setup.inside_depth_m, 0.05, 1e-12);
  const std::string warning = initial_state_warning(setup);
  EXPECT_NE(warning.find("the first frame's marker B2 lies inside obstacle 'ball' by 5.0 cm"),
            std::string::npos)
      << warning;
  EXPECT_EQ(warning.find("folded"), std::string::npos) << warning;
  // Below the flat sheet the same ball warns of nothing.
  nlohmann::json below = ball;
  below["obstacles"][0]["centre"] = {0.1, -0.1, 0.9};
  EXPECT_EQ(initial_state_warning(flat_sheet_setup(false, 0.0, 0, 0, below)), "");
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
  // A run of 2 frames searches one frame after the first, and says so.
  try {
    flat_sheet_setup(false, 0.0, 2, 2);
    ADD_FAILURE() << "no error for a marker missing from both frames of the run";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("marker 'B2' is missing at the first frame and for the "
                                         "next 1 frame, the rest of the simulated frames"),
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

// Marker `marker`'s samples missing from frame `from` to frame `to`.
struct Gap {
  std::string marker;
  std::size_t from = 0, to = 0;
};

// The sheet of flat_sheet_setup recorded for `frames` frames while it slides along x by 0.1 mm a
// frame, with a stick's markers S0 and S1 (0.2 m apart) 0.5 m above it, and the samples of `gaps`
// missing.
mocap::Take sliding_sheet_take(std::size_t frames, const std::vector<Gap>& gaps) {
  std::vector<mocap::MarkerInfo> markers;
  std::vector<Eigen::Vector3d> at_rest;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      markers.push_back({std::string(1, char('A' + i)) + char('1' + j), "", {}});
      at_rest.emplace_back(0.1 * j, -0.1 * i, 1.0);
    }
  }
  markers.push_back({"S0", "", {}});
  at_rest.emplace_back(0.0, 0.0, 1.5);
  markers.push_back({"S1", "", {}});
  at_rest.emplace_back(0.2, 0.0, 1.5);
  std::vector<double> positions;
  for (std::size_t f = 0; f < frames; ++f) {
    for (std::size_t m = 0; m < markers.size(); ++m) {
      Eigen::Vector3d p = at_rest[m] + Eigen::Vector3d(1e-4 * static_cast<double>(f), 0, 0);
      for (const Gap& gap : gaps) {
        if (gap.marker == markers[m].name && gap.from <= f && f <= gap.to)
          p.setConstant(std::nan(""));
      }
      positions.insert(positions.end(), {p.x(), p.y(), p.z()});
    }
  }
  return mocap::Take({}, 100.0, 0, frames, markers, positions);
}

// The scenario of flat_sheet_setup with the stick S0–S1, simulating frames first … first +
// count − 1 of its take and filling gaps of up to 3 frames.
RecordingScenario sliding_sheet_scenario(long first, long count) {
  nlohmann::json json = nlohmann::json::parse(R"({
    "recording": "take.csv",
    "cloth": {"width": 0.2, "height": 0.2, "material": "polyester"},
    "layout": {"rows": 3, "columns": 3,
               "markers": [["A1", "A2", "A3"], ["B1", "B2", "B3"], ["C1", "C2", "C3"]]},
    "recording_options": {"max_gap_frames": 3},
    "stick": {"end0": "S0", "end1": "S1"},
    "parameters": {"alpha": {"min": 0.1, "max": 1}, "delta": 0.08}
  })");
  json["frames"]["first"] = first;
  if (count > 0)
    json["frames"]["count"] = count;
  return parse_recording_scenario(json, "dir/s.json");
}

// The gap-filling error building the setup raises, or "(no error)".
std::string gap_error(long first, long count, const std::vector<Gap>& gaps) {
  try {
    build_recording_setup(sliding_sheet_scenario(first, count), sliding_sheet_take(60, gaps));
  } catch (const mocap::MocapInputError& e) {
    return e.what();
  }
  return "(no error)";
}

// frames.first and frames.count limit the gap check to the frames simulated: a gap of a held
// marker or a stick end too long to fill, or at the start or end of the take, outside them made a
// fit of other frames fail ("marker 'A1': gap of 10 frames (frames 40 to 49) is longer than the
// longest gap filled").
TEST(RecordingSetup, GapsOutsideTheSimulatedFramesAreNotFilledNorChecked) {
  const std::vector<Gap> elsewhere = {{"A1", 40, 49}, {"A3", 0, 9}, {"S0", 45, 59}, {"S1", 30, 39}};
  const RecordingSetup setup =
      build_recording_setup(sliding_sheet_scenario(15, 10), sliding_sheet_take(60, elsewhere));
  EXPECT_EQ(setup.frames, 10u);
  ASSERT_EQ(setup.model.held.size(), 2u);
  EXPECT_NEAR(setup.model.held[0].target.position(0.0).x(), 1e-4 * 15, 1e-12);  // A1 at frame 15
  ASSERT_TRUE(setup.stick.has_value());
  EXPECT_NEAR(setup.stick->end1.position(0.0).x(), 0.2 + 1e-4 * 15, 1e-12);
  EXPECT_NEAR(setup.stick->mean_length_m, 0.2, 1e-12);
  // The same gaps inside the frames simulated are refused as before.
  const std::string error = gap_error(35, 20, elsewhere);
  EXPECT_NE(error.find("marker 'A1': gap of 10 frames (frames 40 to 49) is longer than the "
                       "longest gap filled, 3 frames"),
            std::string::npos)
      << error;
  EXPECT_NE(gap_error(0, 20, elsewhere).find("marker 'A3': missing at the start of the take"),
            std::string::npos);
  EXPECT_NE(gap_error(50, 0, elsewhere).find("marker 'S0': missing at the end of the take"),
            std::string::npos);
}

// A gap reaching into the simulated frames from before or after them is filled from the visible
// samples beyond them, and checked over its whole length.
TEST(RecordingSetup, AGapReachingIntoTheSimulatedFramesIsFilledFromBeyondThem) {
  const RecordingSetup setup = build_recording_setup(
      sliding_sheet_scenario(15, 10), sliding_sheet_take(60, {{"A1", 13, 15}, {"S1", 24, 26}}));
  EXPECT_NEAR(setup.model.held[0].target.position(0.0).x(), 1e-4 * 15, 1e-12);
  EXPECT_NEAR(setup.stick->end1.position(9 * 0.01).x(), 0.2 + 1e-4 * 24, 1e-12);
  const std::string error = gap_error(15, 10, {{"A1", 12, 15}});
  EXPECT_NE(error.find("marker 'A1': gap of 4 frames (frames 12 to 15)"), std::string::npos)
      << error;
  EXPECT_NE(gap_error(15, 10, {{"S1", 24, 27}}).find("marker 'S1': gap of 4 frames"),
            std::string::npos);
  EXPECT_NE(gap_error(15, 10, {{"A3", 0, 15}})
                .find("marker 'A3': missing at the start of the take (frames 0 to 15)"),
            std::string::npos);
}

// Too few frames to simulate names frames.first / frames.count and the take's length; a
// frames.first at the take's last frame said only "recording: expected a recording of at least 2
// frames".
TEST(RecordingSetup, TooFewFramesNameFramesFirstAndCountAndTheTakesLength) {
  const auto error = [](long first, long count,
                        std::size_t take_frames = 8) -> std::pair<std::string, std::string> {
    try {
      build_recording_setup(sliding_sheet_scenario(first, count),
                            sliding_sheet_take(take_frames, {}));
    } catch (const InputError& e) {
      return {e.location().field, e.problem()};
    }
    return {"(no error)", ""};
  };
  EXPECT_EQ(error(6, 0).first, "(no error)");
  EXPECT_EQ(error(7, 0),
            (std::pair<std::string, std::string>{
                "frames.first",
                "expected at most 6: frames.count (absent: every frame from frames.first on) must "
                "be at least 2, and the take has 8 frames; found 7"}));
  EXPECT_EQ(error(8, 0), (std::pair<std::string, std::string>{
                             "frames.first",
                             "expected a frame of the take, 0 to 7 (the take has 8 frames), found "
                             "8"}));
  EXPECT_EQ(
      error(5, 4),
      (std::pair<std::string, std::string>{
          "frames.count",
          "expected at most 3 frames from frames.first (5; the take has 8 frames), found 4"}));
  EXPECT_EQ(error(0, 0, 1), (std::pair<std::string, std::string>{
                                "recording", "expected a take of at least 2 frames, found 1"}));
}

}  // namespace
}  // namespace clothfit::fitting
