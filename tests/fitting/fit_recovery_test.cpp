// Recovery (fitting issue): synthetic recordings made on a 13 × 17 mesh with 1 mm marker noise,
// gaps and occlusions (the shaken sheet made here at Δt = 10 ms, the table drag the bundled
// recording, made at 5 ms) are fitted on the 7 × 9 mesh at Δt = 10 ms; α and δ must come
// back within 10 % and μ within 0.1, the objective at the fit must not exceed the one at the truth,
// and the truth must lie inside the reported intervals. Two recordings: a hanging sheet shaken by
// its corners (α, δ), and a sheet laid on a table, dragged over it and lifted off (α, δ, μ).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/io/json_object.hpp"
#include "fitting/parameter_fitter.hpp"
#include "fitting/parameter_sweep.hpp"
#include "fitting/recording_scenario.hpp"
#include "fitting/recording_setup.hpp"
#include "fitting/synthetic_recording.hpp"
#include "support/recording_scenario_fixture.hpp"
#include "support/test_paths.hpp"

namespace clothfit::fitting {
namespace {

nlohmann::json hanging_shake_scenario() {
  nlohmann::json j = testing::din_a2_recording_scenario("hanging-shake", 4.0, 2.0, 7);
  // Both corners (0.41 m apart: the top edge nearly taut) swing the sheet out of its plane and
  // sideways, then stop: a damped pendulum whose period pins δ/ρ and whose decay pins α/ρ.
  for (const auto& [marker, x0] : {std::pair{"A1", -0.205}, std::pair{"A4", 0.205}}) {
    nlohmann::json path = nlohmann::json::array();
    const double keys[][4] = {{0, 0, 0, 0},
                              {0.5, 0.06, 0.08, 0.03},
                              {1.0, -0.05, -0.06, -0.02},
                              {1.5, 0.02, 0.05, 0.0},
                              {2.2, 0, 0, 0}};
    for (const auto& k : keys)
      path.push_back({{"time", k[0]}, {"position", {x0 + k[1], k[2], 1.5 + k[3]}}});
    j["synth"]["motion"]["held"][marker] = path;
  }
  // Made at the fit's time step (10 ms, one step per frame), so that what is tested is the fitter
  // against a finer mesh, marker noise and gaps. At 5 ms the implicit Euler step's own damping
  // differs, and a smaller α makes up for it: over 18 recordings (three noise seeds × six
  // generating solver settings) α came back at 0.189 on average (0.174–0.214, the truth outside
  // α's interval in 4), at 10 ms at 0.201 (0.181–0.214, inside in all) (docs/fit-recovery.md "The
  // hanging sheet is at the edge").
  j["synth"]["substeps"] = 1;
  return j;
}

TEST(FitRecovery, HangingSheetAlphaAndDeltaFromASyntheticRecording) {
  const RecordingScenario scenario = parse_recording_scenario(hanging_shake_scenario(), "test");
  const SynthSettings settings = parse_synth_settings(scenario);
  const std::vector<double> truth = parse_truth("alpha=0.2,delta=0.08", scenario.parameters);
  const SyntheticRecording recording = make_synthetic_recording(scenario, settings, truth, nullptr);
  ASSERT_GT(recording.truth["corruption"]["samples_removed"].get<int>(), 0);  // it has gaps

  const RecordingSetup setup = build_recording_setup(scenario, recording.take);
  EXPECT_EQ(setup.model.mesh.num_nodes(), 63);  // fitted on 7 × 9
  const RecordingObjective objective(setup, scenario.parameters);
  FitOptions options;
  const FitResult fit = fit_parameters(objective, options);
  ASSERT_TRUE(fit.best.ok) << fit.best.message;

  EXPECT_NEAR(fit.values[0], 0.2, 0.1 * 0.2) << "alpha";
  EXPECT_NEAR(fit.values[1], 0.08, 0.1 * 0.08) << "delta";
  const Evaluation at_truth = objective.evaluate(truth);
  EXPECT_LE(fit.objective, at_truth.objective);
  ASSERT_EQ(fit.intervals.size(), 2u);
  for (const ParameterInterval& interval : fit.intervals) {
    const double t = truth[static_cast<std::size_t>(interval.parameter)];
    EXPECT_LE(interval.lower, t) << scenario.parameters.specs()[interval.parameter].name;
    EXPECT_GE(interval.upper, t) << scenario.parameters.specs()[interval.parameter].name;
    EXPECT_TRUE(interval.pinned());
  }
  // The synthetic recording's marker noise (1 mm) and the coarser mesh bound the error from
  // below; a fit that matches the motion stays at the centimetre level of the paper's fits.
  EXPECT_LT(fit.best.errors.mean_error_m, 0.02);
}

// The bundled table-drag recording (datasets/recordings/polyester_table_drag.*): a sheet laid on a
// table (the hands lower it while moving forward, so most of its lower part is laid out behind
// them; its tail bunches up between the last two rows of markers), dragged 22 cm over it (the part
// on the table slides against μ), lifted off with a swing and left to swing out (α, δ). The fit
// starts at 2.5 s, when the sheet rests on the table. μ comes back low (0.33–0.34): the initial
// state flattens the fold the markers do not resolve, and the 7 × 9 mesh biases μ low by itself
// (docs/fit-recovery.md, "Where the bias comes from"); the tolerance of 0.1 holds both.
// The test reads the bundled take instead of making it again in memory: how a sheet lands is
// decided by perturbations far below a marker's noise (README "What the fits recover"), so a
// recording remade by a build that rounds differently lands elsewhere, and its μ moved by more than
// this test's tolerance (a build with fused multiply–adds made one that fitted μ 0.271) while the
// fits of the bundled take stay put (μ 0.333 and 0.339 with the two builds; docs/testing.md
// "Fragile tests").
TEST(FitRecovery, TableDragAlphaDeltaAndMuFromTheBundledRecording) {
  const RecordingScenario scenario = load_recording_scenario(
      (testing::source_dir() / "datasets/recordings/polyester_table_drag.json").string());
  ASSERT_EQ(scenario.first_frame, 250);
  const nlohmann::json truth_file = read_json_file(scenario.truth_path);
  ASSERT_GT(truth_file["corruption"]["samples_removed"].get<int>(), 0);  // it has gaps
  const std::vector<double> truth =
      parse_truth("alpha=0.2,delta=0.08,mu.table=0.4", scenario.parameters);
  for (const auto& [name, value] : truth_file["parameters"].items()) {  // the take's own truth
    const int index = scenario.parameters.find(name);
    ASSERT_GE(index, 0) << name;
    ASSERT_EQ(value.get<double>(), truth[static_cast<std::size_t>(index)]) << name;
  }

  const RecordingSetup setup = build_recording_setup(scenario, load_take(scenario));
  EXPECT_EQ(setup.model.mesh.num_nodes(), 63);
  const RecordingObjective objective(setup, scenario.parameters);
  // The scenario's fit.grid: 5 per parameter (4, the default for three, ended in a local minimum
  // 8 % above the truth's objective).
  const FitResult fit = fit_parameters(objective, fit_options_from(scenario.fit, nullptr));
  ASSERT_TRUE(fit.best.ok) << fit.best.message;

  EXPECT_NEAR(fit.values[0], 0.2, 0.1 * 0.2) << "alpha";
  EXPECT_NEAR(fit.values[1], 0.08, 0.1 * 0.08) << "delta";
  EXPECT_NEAR(fit.values[2], 0.4, 0.1) << "mu.table";
  const Evaluation at_truth = objective.evaluate(truth);
  EXPECT_LE(fit.objective, at_truth.objective);
  ASSERT_EQ(fit.intervals.size(), 3u);
  for (const ParameterInterval& interval : fit.intervals) {
    const double t = truth[static_cast<std::size_t>(interval.parameter)];
    const std::string& name = scenario.parameters.specs()[interval.parameter].name;
    EXPECT_LE(interval.lower, t) << name;
    EXPECT_GE(interval.upper, t) << name;
    EXPECT_TRUE(interval.pinned()) << name;
  }
  // The sliding sheet makes the motion stable: perturbed replicas differ by about 1 %, where a
  // sheet that buckles as it lands on the table gives 2–17 % (the bundled tablecloth recordings).
  EXPECT_TRUE(fit.noise.measured());
  EXPECT_LT(fit.noise.relative(), 0.03);

  // A sweep of μ over 0 … 2 in steps of 0.1 at the true α, δ has its minimum within one step of
  // the truth (paper Fig. 7 is such a sweep).
  ParallelEvaluator evaluator(objective, 0, nullptr);
  const GridAxis mu{2, linspace(0.0, 2.0, 21)};
  const SweepResult sweep = run_sweep(evaluator, truth, {mu});
  ASSERT_EQ(sweep.evaluations.size(), 21u);
  const auto lowest = std::min_element(
      sweep.evaluations.begin(), sweep.evaluations.end(),
      [](const Evaluation& a, const Evaluation& b) { return a.objective < b.objective; });
  const double mu_at_minimum =
      mu.values[static_cast<std::size_t>(lowest - sweep.evaluations.begin())];
  EXPECT_NEAR(mu_at_minimum, 0.4, 0.1 + 1e-9);
}

}  // namespace
}  // namespace clothfit::fitting
