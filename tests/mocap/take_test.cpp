// Take: construction checks, marker lookup, frame times; gap statistics.
#include "mocap/take.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "mocap/gap_statistics.hpp"
#include "mocap/mocap_input_error.hpp"
#include "tests/mocap/motive_csv_test_support.hpp"

namespace clothfit::mocap {
namespace {

using testing::make_take;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(Take, FrameNumbersAndTimes) {
  const Take take = make_take(
      5, {"A"}, [](std::size_t f, std::size_t) { return Eigen::Vector3d(f, 0, 0); }, 120.0, 16);
  EXPECT_EQ(take.frame_count(), 5u);
  EXPECT_EQ(take.frame_number(4), 20);
  EXPECT_DOUBLE_EQ(take.time_s(0), 16.0 / 120.0);
  EXPECT_DOUBLE_EQ(take.time_s(4), 20.0 / 120.0);
  EXPECT_DOUBLE_EQ(take.duration_s(), 5.0 / 120.0);
  EXPECT_EQ(take.position(3, 0), Eigen::Vector3d(3, 0, 0));
  EXPECT_EQ(take.positions_m().size(), 15u);
}

TEST(Take, RejectsInconsistentArrays) {
  TakeInfo info;
  const std::vector<MarkerInfo> one{{"A", "", MarkerKind::kMarker}};
  EXPECT_THROW(Take(info, 100.0, 0, 2, one, std::vector<double>(5, 0.0)), std::invalid_argument);
  EXPECT_THROW(Take(info, 0.0, 0, 1, one, std::vector<double>(3, 0.0)), std::invalid_argument);
  EXPECT_THROW(Take(info, kNaN, 0, 1, one, std::vector<double>(3, 0.0)), std::invalid_argument);
  // Half-missing samples and infinities.
  EXPECT_THROW(Take(info, 100.0, 0, 1, one, {1.0, kNaN, 2.0}), std::invalid_argument);
  EXPECT_THROW(Take(info, 100.0, 0, 1, one, {1.0, 1.0 / 0.0 * 1.0, 2.0}), std::invalid_argument);
  // Two markers of the same kind and name; the same name with another kind is fine.
  EXPECT_THROW(
      Take(info, 100.0, 0, 1, {{"A", "", MarkerKind::kMarker}, {"A", "", MarkerKind::kMarker}},
           std::vector<double>(6, 0.0)),
      std::invalid_argument);
  EXPECT_NO_THROW(Take(info, 100.0, 0, 1,
                       {{"A", "", MarkerKind::kMarker}, {"A", "", MarkerKind::kRigidBodyMarker}},
                       std::vector<double>(6, 0.0)));
  // Rigid body arrays of the wrong length.
  RigidBodyTrack body;
  body.name = "S";
  body.position_m = {0, 0, 0};
  body.orientation_xyzw = {0, 0, 0};
  EXPECT_THROW(Take(info, 100.0, 0, 1, one, std::vector<double>(3, 0.0), {body}),
               std::invalid_argument);
}

TEST(Take, FindsMarkersByNameAndKind) {
  TakeInfo info;
  info.source = "t.csv";
  const Take take(info, 100.0, 0, 1,
                  {{"S:M1", "", MarkerKind::kRigidBodyMarker},
                   {"S:M1", "", MarkerKind::kMarker},
                   {"S:M2", "", MarkerKind::kRigidBodyMarker}},
                  std::vector<double>(9, 0.0));
  EXPECT_EQ(take.find_marker("S:M1"), 1u);  // the `Marker` first
  EXPECT_EQ(take.find_marker("S:M1", MarkerKind::kRigidBodyMarker), 0u);
  EXPECT_EQ(take.find_marker("S:M2"), 2u);  // only a rigid-body marker has this name
  EXPECT_FALSE(take.find_marker("S:M3").has_value());
  try {
    take.marker_index("S:M3");
    ADD_FAILURE() << "expected an error";
  } catch (const MocapInputError& e) {
    EXPECT_EQ(e.location().field, "marker 'S:M3'");
    EXPECT_NE(e.problem().find("'S:M1'"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("t.csv: marker 'S:M3': no such marker", 0), 0u);
  }
}

TEST(GapStatistics, CountsGapsIncludingLeadingAndTrailingOnes) {
  // Visible pattern over 10 frames: A "..XX.XXX.." , B all visible, C never.
  const std::string pattern = "..XX.XXX..";
  const Take take = make_take(10, {"A", "B", "C"}, [&](std::size_t f, std::size_t m) {
    const bool seen = m == 1 || (m == 0 && pattern[f] == 'X');
    return seen ? std::optional<Eigen::Vector3d>(Eigen::Vector3d(1, 2, 3)) : std::nullopt;
  });
  const std::vector<MarkerGapStatistics> stats = gap_statistics(take);
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(stats[0].visible_frames, 5u);
  EXPECT_DOUBLE_EQ(stats[0].visible_fraction, 0.5);
  EXPECT_EQ(stats[0].gap_count, 3u);
  EXPECT_EQ(stats[0].longest_gap_frames, 2u);
  EXPECT_EQ(stats[0].first_visible_frame, 2u);
  EXPECT_EQ(stats[0].last_visible_frame, 7u);
  EXPECT_EQ(stats[1].gap_count, 0u);
  EXPECT_EQ(stats[1].longest_gap_frames, 0u);
  EXPECT_DOUBLE_EQ(stats[1].visible_fraction, 1.0);
  EXPECT_EQ(stats[2].gap_count, 1u);
  EXPECT_EQ(stats[2].longest_gap_frames, 10u);
  EXPECT_EQ(stats[2].first_visible_frame, 10u);  // frame_count: never visible
}

// Randomised invariant: gaps and visible frames partition the frames.
TEST(GapStatistics, GapsAndVisibleFramesAddUp) {
  unsigned state = 12345u;
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return (state >> 16) & 0x7fffu;
  };
  for (int trial = 0; trial < 20; ++trial) {
    const std::size_t frames = 1 + next() % 200;
    std::vector<bool> seen(frames);
    for (std::size_t f = 0; f < frames; ++f)
      seen[f] = next() % 4 != 0;
    const Take take = make_take(frames, {"A"}, [&](std::size_t f, std::size_t) {
      return seen[f] ? std::optional<Eigen::Vector3d>(Eigen::Vector3d::Zero()) : std::nullopt;
    });
    const MarkerGapStatistics s = marker_gap_statistics(take, 0);
    std::size_t missing = 0;
    std::size_t starts = 0;
    for (std::size_t f = 0; f < frames; ++f) {
      missing += seen[f] ? 0 : 1;
      starts += (!seen[f] && (f == 0 || seen[f - 1])) ? 1 : 0;
    }
    EXPECT_EQ(s.visible_frames + missing, frames);
    EXPECT_EQ(s.gap_count, starts);
    EXPECT_LE(s.longest_gap_frames, missing);
    EXPECT_GE(s.longest_gap_frames * s.gap_count, missing);
  }
}

}  // namespace
}  // namespace clothfit::mocap
