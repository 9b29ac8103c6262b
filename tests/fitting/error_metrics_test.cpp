// e_n and s_n (DESIGN.md §3) on hand-computed cases, including missing markers.
#include "fitting/error_metrics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace clothfit::fitting {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(MarkerGridWeights, CornersEdgesAndInteriorOnA3x3Grid) {
  // 2 × 2 cells of 0.1 × 0.2 m: cell area 0.02 m².
  const std::vector<double> w = marker_grid_weights(3, 3, 0.2, 0.4);
  ASSERT_EQ(w.size(), 9u);
  EXPECT_DOUBLE_EQ(w[0], 0.005);  // corner: a quarter cell
  EXPECT_DOUBLE_EQ(w[1], 0.01);   // edge: half a cell
  EXPECT_DOUBLE_EQ(w[4], 0.02);   // interior: one cell
  double total = 0.0;
  for (double x : w)
    total += x;
  EXPECT_DOUBLE_EQ(total, 0.2 * 0.4);  // the sheet's area
}

TEST(FrameError, EqualWeightsGiveTheRmsDistanceAndThePopulationSpread) {
  Eigen::MatrixX3d simulated = Eigen::MatrixX3d::Zero(2, 3);
  Eigen::MatrixX3d recorded(2, 3);
  recorded << 0.03, 0.0, 0.04,  // distance 0.05
      0.0, 0.01, 0.0;           // distance 0.01
  const std::vector<double> w{1.0, 1.0};
  const FrameError e = frame_error(simulated, recorded, w);
  EXPECT_EQ(e.visible, 2);
  EXPECT_NEAR(e.error_m, std::sqrt((0.05 * 0.05 + 0.01 * 0.01) / 2), 1e-15);
  EXPECT_NEAR(e.spread_m, 0.02, 1e-15);  // distances 0.05 and 0.01: mean 0.03, std 0.02
}

// Only the distances count, not where the markers are: the frames above simulate at the origin,
// where the difference and the sum of the two positions have the same length. (Found missing by
// scripts/mutate.py: s_n computed from |simulated + recorded| passed every test.)
TEST(FrameError, ErrorAndSpreadDoNotDependOnWhereTheFrameIs) {
  Eigen::MatrixX3d simulated = Eigen::MatrixX3d::Zero(2, 3);
  Eigen::MatrixX3d recorded(2, 3);
  recorded << 0.03, 0.0, 0.04, 0.0, 0.01, 0.0;
  const Eigen::RowVector3d offset(1.5, -2.0, 0.75);  // a Motive origin is anywhere in the room
  simulated.rowwise() += offset;
  recorded.rowwise() += offset;
  const FrameError e = frame_error(simulated, recorded, std::vector<double>{1.0, 1.0});
  EXPECT_NEAR(e.error_m, std::sqrt((0.05 * 0.05 + 0.01 * 0.01) / 2), 1e-15);
  EXPECT_NEAR(e.spread_m, 0.02, 1e-15);
}

TEST(FrameError, WeightsFavourTheHeavierMarker) {
  Eigen::MatrixX3d simulated = Eigen::MatrixX3d::Zero(2, 3);
  Eigen::MatrixX3d recorded(2, 3);
  recorded << 0.1, 0.0, 0.0, 0.0, 0.0, 0.0;
  const FrameError e = frame_error(simulated, recorded, std::vector<double>{3.0, 1.0});
  EXPECT_NEAR(e.error_m, std::sqrt(3.0 * 0.01 / 4.0), 1e-15);
}

TEST(FrameError, MissingMarkersAreLeftOutOfBothSums) {
  Eigen::MatrixX3d simulated = Eigen::MatrixX3d::Zero(3, 3);
  Eigen::MatrixX3d recorded(3, 3);
  recorded << 0.0, 0.02, 0.0,  //
      kNaN, kNaN, kNaN,        // missing: its huge simulated error must not count
      0.0, 0.0, 0.02;
  simulated.row(1) << 5.0, 5.0, 5.0;
  const FrameError e = frame_error(simulated, recorded, std::vector<double>{1.0, 100.0, 1.0});
  EXPECT_EQ(e.visible, 2);
  EXPECT_NEAR(e.error_m, 0.02, 1e-15);
  EXPECT_NEAR(e.spread_m, 0.0, 1e-12);
}

// s_n is the spread of the distances about their mean, computed about the mean: as E[d²] − E[d]²
// it was the difference of two nearly equal numbers, off by the rounding of d² (~1e-17 m² at a
// 10 cm error) and so by up to ~1e-9 m, whatever the true spread.
TEST(FrameError, EqualDistancesHaveNoSpread) {
  Eigen::MatrixX3d recorded(7, 3);
  recorded << 0.1, 0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.1, -0.1, 0.0, 0.0, 0.0, -0.1, 0.0, 0.0, 0.0,
      -0.1, 0.1, 0.0, 0.0;
  const Eigen::MatrixX3d simulated = Eigen::MatrixX3d::Zero(7, 3);
  const FrameError e = frame_error(simulated, recorded, std::vector<double>(7, 1.0));
  EXPECT_NEAR(e.error_m, 0.1, 1e-16);
  EXPECT_LT(e.spread_m, 1e-15);  // E[d²] − E[d]²: 1.3e-9
}

TEST(FrameError, ASpreadFarBelowTheMeanIsResolved) {
  // A rigid 1 m offset with the markers 0 … 4 nm further off: spread √2 nm.
  Eigen::MatrixX3d recorded(5, 3);
  for (int k = 0; k < 5; ++k)
    recorded.row(k) << 1.0 + k * 1e-9, 0.0, 0.0;
  const Eigen::MatrixX3d simulated = Eigen::MatrixX3d::Zero(5, 3);
  const FrameError e = frame_error(simulated, recorded, std::vector<double>(5, 1.0));
  EXPECT_NEAR(e.spread_m, std::sqrt(2.0) * 1e-9, 1e-15);  // E[d²] − E[d]²: 0
}

TEST(FrameError, NoVisibleMarkerGivesNaNAndSummaryIgnoresTheFrame) {
  Eigen::MatrixX3d simulated = Eigen::MatrixX3d::Zero(1, 3);
  Eigen::MatrixX3d recorded = Eigen::MatrixX3d::Constant(1, 3, kNaN);
  const FrameError none = frame_error(simulated, recorded, std::vector<double>{1.0});
  EXPECT_EQ(none.visible, 0);
  EXPECT_TRUE(std::isnan(none.error_m));
  const std::vector<FrameError> frames{{0.01, 0.002, 4}, none, {0.03, 0.004, 3}};
  const ErrorSummary s = summarize_errors(frames);
  EXPECT_EQ(s.frames, 2);
  EXPECT_NEAR(s.sum_error_m, 0.04, 1e-15);
  EXPECT_NEAR(s.mean_error_m, 0.02, 1e-15);
  EXPECT_NEAR(s.mean_spread_m, 0.003, 1e-15);
}

}  // namespace
}  // namespace clothfit::fitting
