// The e_n / s_n plot of a run: the frames a run kept become times n·Δt (frame 0, the initial
// state, is not scored), invisible frames break the lines, the legend's means count the visible
// frames only, and contact at frame n is shaded over the steps that led to it, (t_n − Δt, t_n].
#include "fitting/error_plot.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace clothfit::fitting {
namespace {

// Five frames (n = 1 … 5) at 0.02 s: n = 3 has no visible marker; contact at n = 2, 3 and 5.
Evaluation five_frames() {
  Evaluation e;
  e.frames = {
      {0.01, 0.002, 9}, {0.02, 0.004, 9}, {0.0, 0.0, 0}, {0.03, 0.006, 8}, {0.04, 0.008, 9}};
  e.contact = {false, true, true, false, true};
  return e;
}

TEST(ErrorPlot, FrameSeriesTimesTheKeptFramesFromTheFirstStep) {
  const FrameSeries s = frame_series(five_frames(), 0.02);
  ASSERT_EQ(s.time_s.size(), 5u);
  for (std::size_t k = 0; k < 5; ++k)
    EXPECT_DOUBLE_EQ(s.time_s[k], 0.02 * static_cast<double>(k + 1)) << k;
  EXPECT_DOUBLE_EQ(s.error_m[0], 0.01);
  EXPECT_DOUBLE_EQ(s.spread_m[4], 0.008);
  EXPECT_TRUE(std::isnan(s.error_m[2]));  // no marker visible
  EXPECT_TRUE(std::isnan(s.spread_m[2]));
  EXPECT_EQ(s.contact, (std::vector<bool>{false, true, true, false, true}));
  EXPECT_DOUBLE_EQ(s.frame_interval_s, 0.02);

  Evaluation without_contact = five_frames();  // a run that kept no contact flags
  without_contact.contact.clear();
  EXPECT_EQ(frame_series(without_contact, 0.02).contact, std::vector<bool>(5, false));
}

TEST(ErrorPlot, ShadesEachRunOfContactFramesOverTheStepsThatLedToIt) {
  const LinePlot plot = error_plot(frame_series(five_frames(), 0.02), "");
  ASSERT_EQ(plot.shaded.size(), 2u);
  EXPECT_DOUBLE_EQ(plot.shaded[0].from, 0.02);  // frames 2 and 3: from t_1 to t_3
  EXPECT_DOUBLE_EQ(plot.shaded[0].to, 0.06);
  EXPECT_DOUBLE_EQ(plot.shaded[1].from, 0.08);  // frame 5, the last: from t_4 to t_5
  EXPECT_DOUBLE_EQ(plot.shaded[1].to, 0.10);
  EXPECT_EQ(plot.shaded_label, "contact");
  EXPECT_EQ(plot.title, "Error e_n and spread s_n per frame");
  EXPECT_EQ(error_plot(frame_series(five_frames(), 0.02), "take 3").title, "take 3");
}

TEST(ErrorPlot, LinesInCentimetresBrokenWhereNoMarkerIsVisibleAndMeansOfTheVisible) {
  const LinePlot plot = error_plot(frame_series(five_frames(), 0.02), "");
  ASSERT_EQ(plot.series.size(), 2u);
  const LineSeries& e = plot.series[0];
  const LineSeries& s = plot.series[1];
  ASSERT_EQ(e.y.size(), 5u);
  EXPECT_DOUBLE_EQ(e.x[3], 0.08);
  EXPECT_DOUBLE_EQ(e.y[3], 3.0);
  EXPECT_DOUBLE_EQ(s.y[3], 0.6);
  EXPECT_TRUE(std::isnan(e.y[2]));
  EXPECT_FALSE(e.dashed);
  EXPECT_TRUE(s.dashed);
  EXPECT_EQ(e.label, "e_n (mean ē = 2.50 cm)");  // (1 + 2 + 3 + 4) / 4
  EXPECT_EQ(s.label, "s_n (mean s̄ = 0.50 cm)");
  EXPECT_EQ(plot.x_label, "time (s)");
}

}  // namespace
}  // namespace clothfit::fitting
