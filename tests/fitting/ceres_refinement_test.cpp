// The Ceres refinement's cost in simulations (ceres_refinement.hpp): every simulation is a whole
// run of the recording, so the refinement must not run a point twice, and the projected line
// search Ceres uses with bounds must not ask for gradients (2p simulations each) at its trials.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>

#include "fitting/ceres_refinement.hpp"
#include "fitting/recording_setup.hpp"
#include "fitting/synthetic_recording.hpp"
#include "support/recording_scenario_fixture.hpp"

namespace clothfit::fitting {
namespace {

nlohmann::json short_swing_scenario() {
  nlohmann::json j = testing::din_a2_recording_scenario("short-swing", 1.0, 0.5, 3);
  for (const auto& [marker, x0] : {std::pair{"A1", -0.205}, std::pair{"A4", 0.205}}) {
    j["synth"]["motion"]["held"][marker] = {{{"time", 0.0}, {"position", {x0, 0.0, 1.5}}},
                                            {{"time", 0.4}, {"position", {x0 + 0.05, 0.08, 1.52}}},
                                            {{"time", 1.0}, {"position", {x0, 0.0, 1.5}}}};
  }
  return j;
}

// The short swing recorded at α = 0.2, δ = 0.08, and its objective.
struct ShortSwing {
  RecordingScenario scenario = parse_recording_scenario(short_swing_scenario(), "test");
  SyntheticRecording recording =
      make_synthetic_recording(scenario, parse_synth_settings(scenario),
                               parse_truth("alpha=0.2,delta=0.08", scenario.parameters), nullptr);
  RecordingSetup setup = build_recording_setup(scenario, recording.take);
  RecordingObjective objective{setup, scenario.parameters};
};

// Whether the evaluator ran the point (α, δ).
bool sampled(const ParallelEvaluator& evaluator, const std::vector<double>& point) {
  for (const ObjectiveSample& s : evaluator.samples()) {
    if (std::abs(s.values[0] - point[0]) < 1e-12 && std::abs(s.values[1] - point[1]) < 1e-12)
      return true;
  }
  return false;
}

TEST(CeresRefinement, RunsEachPointOnceAndItsLineSearchNeedsNoGradients) {
  const ShortSwing swing;
  const RecordingScenario& scenario = swing.scenario;
  ParallelEvaluator evaluator(swing.objective, 2, nullptr);
  RefinementOptions options;
  options.max_iterations = 6;
  // δ starts at its upper bound: one-sided differences there, the projected line search on.
  const RefinementResult result =
      refine_with_ceres(evaluator, scenario.parameters, {0.4, 0.2}, options, nullptr);
  ASSERT_GE(result.successful_steps, 2) << result.termination;  // it moved
  EXPECT_LT(result.objective, evaluator.samples().front().objective);

  // The differences at the start: α central, by 1 % (relative_step) of its interval [0.02, 1];
  // δ backward from its upper bound, by 1 % of [0.02, 0.2].
  EXPECT_TRUE(sampled(evaluator, {0.4 + 0.0098, 0.2}));
  EXPECT_TRUE(sampled(evaluator, {0.4 - 0.0098, 0.2}));
  EXPECT_TRUE(sampled(evaluator, {0.4, 0.2 - 0.0018}));

  std::set<std::vector<double>> points;
  for (const ObjectiveSample& s : evaluator.samples())
    EXPECT_TRUE(points.insert(s.values).second) << "a point was simulated twice";
  // The start, 2p = 4 differences at each accepted point (the start included; at most 3 of them
  // at a bound), and one run per trial point: each step's candidate or line search trial.
  const long most = 1 + 4L * result.successful_steps + result.successful_steps +
                    result.unsuccessful_steps + result.line_search_steps;
  EXPECT_LE(evaluator.evaluations(), most)
      << "successful " << result.successful_steps << ", unsuccessful " << result.unsuccessful_steps
      << ", line search " << result.line_search_steps;
}

// From a corner of the bounds the differences stay inside them: forward from α's lower bound,
// backward from δ's upper one.
TEST(CeresRefinement, DifferencesAtTheBoundsStayInside) {
  const ShortSwing swing;
  ParallelEvaluator evaluator(swing.objective, 2, nullptr);
  RefinementOptions options;
  options.max_iterations = 1;
  refine_with_ceres(evaluator, swing.scenario.parameters, {0.02, 0.2}, options, nullptr);
  EXPECT_TRUE(sampled(evaluator, {0.02 + 0.0098, 0.2}));
  EXPECT_TRUE(sampled(evaluator, {0.02, 0.2 - 0.0018}));
  for (const ObjectiveSample& s : evaluator.samples()) {
    EXPECT_GE(s.values[0], 0.02);
    EXPECT_LE(s.values[1], 0.2);
  }
}

// Below a finite-difference step the objective is mostly noise (README "The objective's noise"),
// so the refinement tries no point within a tenth of that step (1e-3 of the bound intervals) of
// the point it steps from, and ends at its first rejected step instead of shrinking the step
// until the noise lets one pass (the build before, whose line search went on to 1e-8, ran points
// 8e-5 apart here). The samples come in order: each accepted point, then its differences (α by
// ±1 % of its interval, 0.0098, first), then the trial points stepping from it. Differences of
// two accepted points may fall close to each other; trial points may not to their start.
TEST(CeresRefinement, TriesNoStepWithinATenthOfTheDifferenceStepAndEndsAtTheFirstRejection) {
  const ShortSwing swing;
  ParallelEvaluator evaluator(swing.objective, 2, nullptr);
  RefinementOptions options;  // 20 iterations, differences by 1 %, shortest step 0.1 of that
  const RefinementResult result =
      refine_with_ceres(evaluator, swing.scenario.parameters, {0.4, 0.2}, options, nullptr);
  ASSERT_GE(result.successful_steps, 2) << result.termination;  // it moved

  // α in [0.02, 1], δ in [0.02, 0.2], in units of their intervals.
  const auto unit = [](const std::vector<double>& v) {
    return std::array<double, 2>{(v[0] - 0.02) / 0.98, (v[1] - 0.02) / 0.18};
  };
  const auto distance = [&unit](const std::vector<double>& a, const std::vector<double>& b) {
    const std::array<double, 2> y = unit(a), z = unit(b);
    return std::max(std::abs(y[0] - z[0]), std::abs(y[1] - z[1]));
  };
  const std::vector<ObjectiveSample>& samples = evaluator.samples();
  // Whether sample k + 1 is the α difference of sample k (which is then an accepted point).
  const auto differenced = [&samples](std::size_t k) {
    return k + 1 < samples.size() &&
           std::abs(std::abs(samples[k + 1].values[0] - samples[k].values[0]) - 0.0098) < 1e-12 &&
           samples[k + 1].values[1] == samples[k].values[1];
  };
  std::size_t from = 0;  // the accepted point the samples after it step from
  int trials = 0;
  for (std::size_t k = 1; k < samples.size(); ++k) {
    const bool difference = distance(samples[k].values, samples[from].values) < 0.0101 &&
                            (samples[k].values[0] == samples[from].values[0] ||
                             samples[k].values[1] == samples[from].values[1]) &&
                            k <= from + 4;
    if (!difference) {
      ++trials;
      EXPECT_GE(distance(samples[k].values, samples[from].values), 0.999e-3)
          << "sample " << k << " steps from sample " << from;
    }
    if (differenced(k))
      from = k;
  }
  EXPECT_GE(trials, result.successful_steps - 1);  // each accepted step was a trial first
  EXPECT_LE(result.unsuccessful_steps, 1) << result.termination;
  if (result.iterations < options.max_iterations) {
    EXPECT_NE(result.termination.find(result.unsuccessful_steps == 1
                                          ? "did not lower the objective as predicted"
                                          : "a step shorter than"),
              std::string::npos)
        << result.termination;
  }
}

// No iterations asked for: the start is scored once and given back as it is.
TEST(CeresRefinement, ZeroIterationsScoreTheStartOnly) {
  const ShortSwing swing;
  ParallelEvaluator evaluator(swing.objective, 1, nullptr);
  RefinementOptions options;
  options.max_iterations = 0;
  const RefinementResult result =
      refine_with_ceres(evaluator, swing.scenario.parameters, {0.3, 0.1}, options, nullptr);
  EXPECT_EQ(result.termination, "no refinement");
  EXPECT_EQ(evaluator.evaluations(), 1);
  EXPECT_EQ(result.values, (std::vector<double>{0.3, 0.1}));
  EXPECT_EQ(result.objective, evaluator.samples().front().objective);
  EXPECT_EQ(result.successful_steps, 0);
}

}  // namespace
}  // namespace clothfit::fitting
