// The Ceres refinement's cost in simulations (ceres_refinement.hpp): every simulation is a whole
// run of the recording, so the refinement must not run a point twice, and the projected line
// search Ceres uses with bounds must not ask for gradients (2p simulations each) at its trials.
#include <gtest/gtest.h>

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

TEST(CeresRefinement, RunsEachPointOnceAndItsLineSearchNeedsNoGradients) {
  const RecordingScenario scenario = parse_recording_scenario(short_swing_scenario(), "test");
  const SynthSettings settings = parse_synth_settings(scenario);
  const std::vector<double> truth = parse_truth("alpha=0.2,delta=0.08", scenario.parameters);
  const SyntheticRecording recording = make_synthetic_recording(scenario, settings, truth, nullptr);
  const RecordingSetup setup = build_recording_setup(scenario, recording.take);
  const RecordingObjective objective(setup, scenario.parameters);
  ParallelEvaluator evaluator(objective, 2, nullptr);
  RefinementOptions options;
  options.max_iterations = 6;
  // δ starts at its upper bound: one-sided differences there, the projected line search on.
  const RefinementResult result =
      refine_with_ceres(evaluator, scenario.parameters, {0.4, 0.2}, options, nullptr);
  ASSERT_GE(result.successful_steps, 2) << result.termination;  // it moved
  EXPECT_LT(result.objective, evaluator.samples().front().objective);

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

}  // namespace
}  // namespace clothfit::fitting
