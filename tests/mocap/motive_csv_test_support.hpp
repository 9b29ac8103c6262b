// Helpers shared by the clothfit_mocap tests: read CSV text, catch the reader's error, locate the
// real Motive exports in ../shared/fixtures/motive/.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "mocap/mocap_input_error.hpp"
#include "mocap/motive_csv_reader.hpp"
#include "support/test_paths.hpp"

namespace clothfit::mocap::testing {

inline constexpr const char* kTestCsvName = "test.csv";

inline Take read_csv_text(const std::string& text, const MotiveCsvReadOptions& options = {}) {
  std::istringstream in(text);
  return read_motive_csv(in, kTestCsvName, options);
}

// The error reading `text` raises; a test failure (and an empty error) when it reads fine.
inline MocapInputError read_csv_error(const std::string& text,
                                      const MotiveCsvReadOptions& options = {}) {
  try {
    read_csv_text(text, options);
  } catch (const MocapInputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a MocapInputError reading:\n" << text;
  return MocapInputError({}, "");
}

// A take of `frames` frames at `rate_hz` with markers `names` (kind Marker); sample(f, m) gives
// the position or std::nullopt for a missing sample.
template <class Sample>
Take make_take(std::size_t frames, const std::vector<std::string>& names, Sample sample,
               double rate_hz = 100.0, std::int64_t first_frame = 0) {
  std::vector<MarkerInfo> markers;
  for (const std::string& name : names)
    markers.push_back({name, "", MarkerKind::kMarker});
  std::vector<double> positions;
  positions.reserve(frames * names.size() * 3);
  for (std::size_t f = 0; f < frames; ++f) {
    for (std::size_t m = 0; m < names.size(); ++m) {
      const std::optional<Eigen::Vector3d> p = sample(f, m);
      for (int a = 0; a < 3; ++a) {
        positions.push_back(p ? (*p)[a] : std::numeric_limits<double>::quiet_NaN());
      }
    }
  }
  TakeInfo info;
  info.source = "synthetic";
  return Take(std::move(info), rate_hz, first_frame, frames, std::move(markers),
              std::move(positions));
}

// Path of a real export in the shared fixtures folder.
inline std::filesystem::path motive_fixture(const char* name) {
  return clothfit::testing::shared_dir() / "fixtures" / "motive" / name;
}
inline constexpr const char* kFixture122 = "format-1.22-gaps-60hz.csv";
inline constexpr const char* kFixture123 = "format-1.23-dropout-120hz.csv";

// A small valid 1.23 file: markers A and B, 3 frames at 100 Hz, metres; B is missing at frame 1.
// Lines: 1 header, 2 empty, 3 Type, 4 Name, 5 ID, 6 quantity, 7 axis, 8-10 frames 0-2.
inline std::string small_csv() {
  return "Format Version,1.23,Take Name,small,Export Frame Rate,100,Total Exported Frames,3,"
         "Length Units,Meters\n"
         "\n"
         ",Type,Marker,Marker,Marker,Marker,Marker,Marker\n"
         ",Name,A,A,A,B,B,B\n"
         ",ID,1,1,1,2,2,2\n"
         ",,Position,Position,Position,Position,Position,Position\n"
         "Frame,Time (Seconds),X,Y,Z,X,Y,Z\n"
         "0,0.00,1,2,3,4,5,6\n"
         "1,0.01,1.5,2.5,3.5,,,\n"
         "2,0.02,2,3,4,7,8,9\n";
}

}  // namespace clothfit::mocap::testing

// Skips the test when a shared fixture is absent.
#define CLOTHFIT_REQUIRE_FIXTURE(path)                                      \
  do {                                                                      \
    std::string clothfit_skip_reason;                                       \
    if (!clothfit::testing::have_shared_file(path, clothfit_skip_reason)) { \
      GTEST_SKIP() << clothfit_skip_reason;                                 \
    }                                                                       \
  } while (false)
