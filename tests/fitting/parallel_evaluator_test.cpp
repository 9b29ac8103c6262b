// The parallel evaluator (parallel_evaluator.hpp): results in the order of the points, successful
// runs kept as samples, failed runs counted with the first one's values and message.
#include "fitting/parallel_evaluator.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>

#include "support/table_recording_fixture.hpp"

namespace clothfit::fitting {
namespace {

using testing::table_recording;

TEST(ParallelEvaluator, CountsFailedRunsAndKeepsTheFirstOnesValuesAndMessage) {
  const auto recording = table_recording(10);  // the sheet hanging
  const RecordingObjective objective(recording->setup, recording->scenario.parameters);
  ParallelEvaluator evaluator(objective, 2, nullptr);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // δ = NaN makes gravity, and with it the positions, non-finite: the run fails at its first step.
  const std::vector<Evaluation> results = evaluator.evaluate(
      {{0.2, 0.08, 1.0}, {0.2, nan, 1.0}, {0.3, 0.08, 1.0}, {0.2, nan, 0.5}}, "test");
  ASSERT_EQ(results.size(), 4u);
  EXPECT_TRUE(results[0].ok) << results[0].message;
  EXPECT_FALSE(results[1].ok);
  EXPECT_TRUE(results[2].ok) << results[2].message;
  EXPECT_FALSE(results[3].ok);
  EXPECT_EQ(evaluator.evaluations(), 4);
  EXPECT_EQ(evaluator.failures(), 2);
  EXPECT_EQ(evaluator.samples().size(), 2u);  // the failed runs are not samples of the search
  const std::string& first = evaluator.first_failure();
  EXPECT_EQ(first.rfind("alpha=0.2, delta=nan, mu.table=1: ", 0), 0u) << first;
  EXPECT_NE(first.find(results[1].message), std::string::npos) << first;
  EXPECT_FALSE(results[1].message.empty());

  ParallelEvaluator clean(objective, 1, nullptr);
  clean.evaluate({{0.2, 0.08, 1.0}}, "test");
  EXPECT_EQ(clean.failures(), 0);
  EXPECT_TRUE(clean.first_failure().empty());
}

// Each result reaches the observer with its call's label and index as it completes; a stop flag
// raised there keeps further runs from starting (one thread: the next one), and the runs that did
// not start are neither counted nor samples.
TEST(ParallelEvaluator, ReportsEachResultAndStopsWhenAsked) {
  const auto recording = table_recording(10);
  const RecordingObjective objective(recording->setup, recording->scenario.parameters);
  ParallelEvaluator evaluator(objective, 1, nullptr);
  std::atomic<bool> stop{false};
  std::vector<std::size_t> seen;
  evaluator.set_stop_flag(&stop);
  evaluator.set_result_observer(
      [&](const std::string& label, std::size_t index, const Evaluation& result) {
        EXPECT_EQ(label, "test");
        EXPECT_TRUE(result.ok) << result.message;
        seen.push_back(index);
        if (seen.size() == 2)
          stop = true;
      });
  const std::vector<std::vector<double>> points = {
      {0.2, 0.08, 1.0}, {0.3, 0.08, 1.0}, {0.4, 0.08, 1.0}, {0.5, 0.08, 1.0}};
  const std::vector<Evaluation> results = evaluator.evaluate(points, "test");
  EXPECT_EQ(seen, (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(evaluator.stopped());
  EXPECT_TRUE(results[1].ok);
  EXPECT_FALSE(results[2].ok);
  EXPECT_EQ(evaluator.evaluations(), 2);
  EXPECT_EQ(evaluator.failures(), 0);  // not started is not failed
  EXPECT_EQ(evaluator.samples().size(), 2u);

  stop = false;
  evaluator.set_result_observer({});
  evaluator.evaluate(points, "test");
  EXPECT_FALSE(evaluator.stopped());
  EXPECT_EQ(evaluator.evaluations(), 6);
}

}  // namespace
}  // namespace clothfit::fitting
