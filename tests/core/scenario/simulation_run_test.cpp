// run_simulation's summary (the figures of `clothfit simulate`'s summary.json) against the step
// reports it was built from, and the first step at the iteration cap named in its message.
#include "core/scenario/simulation_run.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "support/test_paths.hpp"

namespace clothfit::scenario {
namespace {

Scenario short_hanging_sheet(double duration_s) {
  Scenario s = load_scenario((testing::source_dir() / "datasets/examples/hanging.json").string());
  s.duration = duration_s;
  return s;
}

std::vector<stepper::StepReport> run_observed(const Scenario& s, RunSummary* summary) {
  std::vector<stepper::StepReport> reports;
  *summary =
      run_simulation(s, [&](const stepper::SimulationState&, const stepper::StepReport* report) {
        if (report != nullptr)
          reports.push_back(*report);
      });
  return reports;
}

TEST(SimulationRun, SumsUpTheStepsItObserved) {
  const Scenario s = short_hanging_sheet(0.2);
  RunSummary run;
  const std::vector<stepper::StepReport> reports = run_observed(s, &run);
  ASSERT_EQ(reports.size(), 20u);
  double iterations = 0.0, factorizations = 0.0, violation = 0.0;
  int max_iterations = 0;
  for (const stepper::StepReport& r : reports) {
    iterations += r.iterations;
    factorizations += r.factorizations;
    max_iterations = std::max(max_iterations, r.iterations);
    violation = std::max(violation, r.max_violation);
  }
  EXPECT_TRUE(run.ok()) << run.message;
  EXPECT_EQ(run.steps, 20);
  EXPECT_DOUBLE_EQ(run.simulated_seconds, 0.2);
  EXPECT_DOUBLE_EQ(run.mean_iterations, iterations / 20);
  EXPECT_DOUBLE_EQ(run.mean_factorizations, factorizations / 20);
  EXPECT_LT(run.mean_factorizations, run.mean_iterations);  // the factorisations are reused
  EXPECT_EQ(run.max_iterations, max_iterations);
  EXPECT_EQ(run.max_constraint_violation, violation);
  EXPECT_GT(run.wall_seconds, 0.0);
  EXPECT_DOUBLE_EQ(run.q, run.wall_seconds / run.simulated_seconds);
  EXPECT_EQ(run.unconverged_steps, 0);
  EXPECT_TRUE(run.message.empty()) << run.message;
}

TEST(SimulationRun, CountsTheStepsAtTheIterationCapAndNamesTheFirst) {
  Scenario s = short_hanging_sheet(0.1);
  s.model.options.max_iterations = 2;  // the hanging sheet takes 2.6 a step on average
  RunSummary run;
  const std::vector<stepper::StepReport> reports = run_observed(s, &run);
  long capped = 0, first = -1;
  for (std::size_t n = 0; n < reports.size(); ++n) {
    if (reports[n].status == stepper::StepStatus::kIterationCap) {
      if (capped++ == 0)
        first = static_cast<long>(n) + 1;
    }
  }
  ASSERT_GE(capped, 2) << "the test needs several capped steps";
  EXPECT_EQ(run.steps, 10);
  EXPECT_EQ(run.unconverged_steps, capped);
  EXPECT_EQ(run.status, stepper::StepStatus::kIterationCap);
  EXPECT_FALSE(run.ok());
  EXPECT_EQ(run.message.rfind("step " + std::to_string(first) + ": ", 0), 0u) << run.message;
  EXPECT_EQ(run.message, "step " + std::to_string(first) + ": " + reports[first - 1].message);
}

// A step at the cap, then one that fails: the failure is the message, the step at the cap after
// it (the failure had replaced it).
TEST(SimulationRun, AFailureIsTheMessageAndAnEarlierCappedStepFollowsIt) {
  // Node 0 jerked 9 cm up within 1 ms while node 2 is fixed 0.2 m away: step 1 ends at the cap,
  // step 2 cannot hold the sheet in shape.
  const Scenario s = parse_scenario(nlohmann::json::parse(R"({
    "cloth": {"mesh": {"type": "grid", "width": 0.2, "height": 0.2, "nodes_x": 3, "nodes_y": 3},
              "placement": {"translation": [0, 0, 1]}, "material": "polyester"},
    "time": {"duration": 0.05, "time_step": 0.01},
    "held": [{"node": 0, "path": [{"time": 0, "offset": [0, 0, 0]},
                                  {"time": 0.012, "offset": [0, 0, 0.012]},
                                  {"time": 0.013, "offset": [0, 0, 0.1]},
                                  {"time": 100, "offset": [0, 0, 0.1]}]},
             {"node": 2}]})"),
                                    "jerk.json");
  RunSummary run;
  const std::vector<stepper::StepReport> reports = run_observed(s, &run);
  ASSERT_EQ(run.status, stepper::StepStatus::kFailed) << run.message;
  ASSERT_EQ(run.steps, 1);
  ASSERT_EQ(run.unconverged_steps, 1);
  EXPECT_EQ(run.message.rfind("step 2 (t = 0.020000 s) failed: ", 0), 0u) << run.message;
  const std::string before = "; before it, step 1: " + reports[0].message;
  ASSERT_GE(run.message.size(), before.size());
  EXPECT_EQ(run.message.substr(run.message.size() - before.size()), before) << run.message;
  EXPECT_DOUBLE_EQ(run.q, run.wall_seconds / 0.01);  // over the one step taken
}

TEST(SimulationRun, StepTimesKeepTheirDigitsBelowAMillisecond) {
  EXPECT_EQ(format_time(0.02), "0.020000");
  EXPECT_EQ(format_time(3.67), "3.670000");
  EXPECT_EQ(format_time(0.0), "0.000000");
  EXPECT_EQ(format_time(3e-7), "3e-07");  // was 0.000000
  EXPECT_EQ(format_time(1.23456789e-4), "0.000123457");
}

}  // namespace
}  // namespace clothfit::scenario
