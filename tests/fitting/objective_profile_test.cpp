// Profile intervals widened by the samples of the search (objective_profile.hpp): what the slice
// through the optimum misses along a valley, and when an interval reaches a bound.
#include <gtest/gtest.h>

#include "fitting/objective_profile.hpp"
#include "support/model_parameters_fixture.hpp"

namespace clothfit::fitting {
namespace {

using testing::alpha_delta_mu_parameters;

TEST(WidenToSamples, CoversEverySampleWithinTheThresholdAndNoOther) {
  const ModelParameters p = alpha_delta_mu_parameters();
  // Slices through the optimum (0.3, μ 1.0) gave [0.28, 0.32] and [0.9, 1.1]; a valley sample at
  // (0.4, 1.3) scores within the threshold, (0.1, 0.5) does not.
  std::vector<ParameterInterval> intervals{{0, 0.28, 0.32, false, false},
                                           {2, 0.9, 1.1, false, false}};
  const std::vector<ObjectiveSample> samples{{{0.3, 0.08, 1.0}, 10.0},
                                             {{0.4, 0.08, 1.3}, 10.4},
                                             {{0.1, 0.08, 0.5}, 10.6},
                                             {{0.25, 0.08, 0.95}, 10.2}};
  widen_to_samples(p, samples, 10.5, &intervals);
  EXPECT_DOUBLE_EQ(intervals[0].lower, 0.25);
  EXPECT_DOUBLE_EQ(intervals[0].upper, 0.4);
  EXPECT_DOUBLE_EQ(intervals[1].lower, 0.9);  // the slice already reached further
  EXPECT_DOUBLE_EQ(intervals[1].upper, 1.3);
  EXPECT_TRUE(intervals[0].pinned());
  EXPECT_TRUE(intervals[1].pinned());
}

TEST(ExtendToPoint, TheSlicesOfThePointBeforeAreStretchedToTheReportedOne) {
  // The last profile, around α 0.3, μ 1.0, found a lower objective at α 0.36 (μ unchanged) and a
  // third at μ 2.0, the bound: the intervals must contain the reported point, not shrink to it.
  const ModelParameters p = alpha_delta_mu_parameters();
  std::vector<ParameterInterval> intervals{{0, 0.28, 0.32, false, false},
                                           {2, 0.9, 1.1, false, false}};
  extend_to_point(p, {0.36, 0.08, 1.0}, &intervals);
  EXPECT_DOUBLE_EQ(intervals[0].lower, 0.28);
  EXPECT_DOUBLE_EQ(intervals[0].upper, 0.36);
  EXPECT_DOUBLE_EQ(intervals[1].lower, 0.9);
  EXPECT_DOUBLE_EQ(intervals[1].upper, 1.1);
  EXPECT_TRUE(intervals[0].pinned());
  extend_to_point(p, {0.2, 0.08, 2.0}, &intervals);
  EXPECT_DOUBLE_EQ(intervals[0].lower, 0.2);
  EXPECT_DOUBLE_EQ(intervals[1].upper, 2.0);
  EXPECT_TRUE(intervals[1].upper_at_bound);
  EXPECT_FALSE(intervals[1].pinned());
}

TEST(WidenToSamples, ASampleAtABoundMakesTheIntervalReachIt) {
  // μ flat above the sticking threshold: a sample at the upper bound scores as well as the
  // optimum, so the recording does not pin μ down from above.
  const ModelParameters p = alpha_delta_mu_parameters();
  std::vector<ParameterInterval> intervals{{2, 1.1, 1.3, false, false}};
  widen_to_samples(p, {{{0.3, 0.08, 2.0}, 10.1}, {{0.3, 0.08, 1.2}, 10.0}}, 10.5, &intervals);
  EXPECT_DOUBLE_EQ(intervals[0].upper, 2.0);
  EXPECT_TRUE(intervals[0].upper_at_bound);
  EXPECT_FALSE(intervals[0].pinned());
}

}  // namespace
}  // namespace clothfit::fitting
