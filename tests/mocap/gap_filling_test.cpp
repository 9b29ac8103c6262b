// Gap filling by linear interpolation: exact on linear motion, bounded gap length, leading and
// trailing gaps refused with the marker's name.
#include "mocap/gap_filling.hpp"

#include <gtest/gtest.h>

#include "mocap/mocap_input_error.hpp"
#include "tests/mocap/motive_csv_test_support.hpp"

namespace clothfit::mocap {
namespace {

using testing::make_take;
using testing::motive_fixture;

// Marker moving along p(f) = (1 + 0.5 f, 2 - f, 0.25 f²) with the samples of `pattern` ('.' =
// missing).
Take pattern_take(const std::string& pattern) {
  return make_take(pattern.size(), {"held", "other"}, [&](std::size_t f, std::size_t m) {
    const double t = static_cast<double>(f);
    if (m == 0 && pattern[f] == '.')
      return std::optional<Eigen::Vector3d>();
    return std::optional<Eigen::Vector3d>(Eigen::Vector3d(1 + 0.5 * t, 2 - t, 0.25 * t * t));
  });
}

MocapInputError fill_error(const Take& take, const std::vector<std::string>& names,
                           const GapFillingOptions& options = {}) {
  try {
    fill_gaps_linear(take, names, options);
  } catch (const MocapInputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an error";
  return MocapInputError({}, "");
}

TEST(GapFilling, InterpolatesLinearlyBetweenTheNeighbouringSamples) {
  const Take take = pattern_take("XX...XX.X");
  const FilledMarkers filled = fill_gaps_linear(take, std::vector<std::string>{"held"});
  ASSERT_EQ(filled.marker_count(), 1u);
  EXPECT_EQ(filled.names[0], "held");
  EXPECT_EQ(filled.frame_count, 9u);
  EXPECT_EQ(filled.filled_frames[0], 4u);
  // Measured samples are copied unchanged.
  for (std::size_t f : {0u, 1u, 5u, 6u, 8u})
    EXPECT_EQ(filled.position(f, 0), take.position(f, 0));
  // Frames 2-4 lie on the chord from frame 1 to frame 5: x and y are linear, so exact; z is the
  // chord of the parabola: z(1) + (f - 1)/4 · (z(5) - z(1)).
  for (std::size_t f = 2; f <= 4; ++f) {
    const double t = static_cast<double>(f);
    EXPECT_DOUBLE_EQ(filled.position(f, 0).x(), 1 + 0.5 * t);
    EXPECT_DOUBLE_EQ(filled.position(f, 0).y(), 2 - t);
    EXPECT_DOUBLE_EQ(filled.position(f, 0).z(), 0.25 + (t - 1) / 4 * (6.25 - 0.25));
  }
  EXPECT_DOUBLE_EQ(filled.position(7, 0).z(), 0.5 * (0.25 * 36 + 0.25 * 64));
  // The take itself keeps its gap.
  EXPECT_FALSE(take.visible(3, 0));
}

TEST(GapFilling, SelectsMarkersInTheOrderGiven) {
  const Take take = pattern_take("X.X");
  const std::vector<std::size_t> order{1, 0};
  const FilledMarkers filled = fill_gaps_linear(take, order);
  EXPECT_EQ(filled.names, (std::vector<std::string>{"other", "held"}));
  EXPECT_EQ(filled.take_markers, order);
  EXPECT_EQ(filled.position(1, 0), take.position(1, 1));
  EXPECT_EQ(filled.filled_frames, (std::vector<std::size_t>{0, 1}));
}

TEST(GapFilling, GapLongerThanTheLimitIsAnError) {
  const Take take = pattern_take("XX...XX");
  GapFillingOptions options;
  options.max_gap_frames = 3;
  EXPECT_NO_THROW(fill_gaps_linear(take, std::vector<std::string>{"held"}, options));
  options.max_gap_frames = 2;
  const MocapInputError e = fill_error(take, {"held"}, options);
  EXPECT_EQ(e.location().field, "marker 'held'");
  EXPECT_NE(e.problem().find("gap of 3 frames (frames 2 to 4)"), std::string::npos) << e.what();
}

TEST(GapFilling, LeadingAndTrailingGapsAreNotExtrapolated) {
  const MocapInputError leading = fill_error(pattern_take("..XXX"), {"held"});
  EXPECT_EQ(leading.location().field, "marker 'held'");
  EXPECT_NE(leading.problem().find("missing at the start of the take (frames 0 to 1)"),
            std::string::npos)
      << leading.what();
  const MocapInputError trailing = fill_error(pattern_take("XXX.."), {"held"});
  EXPECT_NE(trailing.problem().find("missing at the end of the take (frames 3 to 4)"),
            std::string::npos)
      << trailing.what();
  EXPECT_EQ(std::string(trailing.what()).rfind("synthetic: marker 'held': ", 0), 0u);
  const MocapInputError never = fill_error(pattern_take("....."), {"held"});
  EXPECT_NE(never.problem().find("never visible"), std::string::npos);
  const MocapInputError unknown = fill_error(pattern_take("XXX"), {"nobody"});
  EXPECT_EQ(unknown.location().field, "marker 'nobody'");
}

TEST(GapFilling, RealTakeGaps) {
  const auto path = motive_fixture(testing::kFixture123);
  CLOTHFIT_REQUIRE_FIXTURE(path);
  const Take take = read_motive_csv(path);
  // Rigid-body marker 1 is missing at frame 4 only: filled with the mean of frames 3 and 5.
  const std::size_t m = *take.find_marker("ernesto_body:Marker1", MarkerKind::kRigidBodyMarker);
  const FilledMarkers filled = fill_gaps_linear(take, std::vector<std::size_t>{m});
  EXPECT_EQ(filled.filled_frames[0], 1u);
  EXPECT_TRUE(
      filled.position(4, 0).isApprox(0.5 * (take.position(3, m) + take.position(5, m)), 1e-15));
  EXPECT_NEAR(filled.position(4, 0).x(), 0.5 * (3.833362 + 3.833348), 1e-12);

  const auto path122 = motive_fixture(testing::kFixture122);
  CLOTHFIT_REQUIRE_FIXTURE(path122);
  const Take take122 = read_motive_csv(path122);
  // "Unlabeled 30388" vanishes at frame 163 for good; "Unlabeled 30390" starts at frame 172.
  const MocapInputError trailing = fill_error(take122, {"Unlabeled 30388"});
  EXPECT_NE(trailing.problem().find("frames 163 to 226"), std::string::npos) << trailing.what();
  const MocapInputError leading = fill_error(take122, {"Unlabeled 30390"});
  EXPECT_NE(leading.problem().find("frames 0 to 171"), std::string::npos) << leading.what();
}

}  // namespace
}  // namespace clothfit::mocap
