// The Ceres refinement's cost in simulations (ceres_refinement.hpp): every simulation is a whole
// run of the recording, so the refinement must not run a point twice, and the projected line
// search Ceres uses with bounds must not ask for gradients (2p simulations each) at its trials.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

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
