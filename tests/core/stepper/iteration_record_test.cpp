// The iteration observer: one record per projection iteration, describing the iterations the
// step report sums up, and no change to the steps themselves.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/scenario/scenario.hpp"
#include "core/stepper/time_stepper.hpp"
#include "support/test_paths.hpp"

namespace clothfit::stepper {
namespace {

scenario::Scenario example(const char* name) {
  return scenario::load_scenario((testing::source_dir() / "datasets/examples" / name).string());
}

struct Observed {
  std::vector<StepReport> reports;
  std::vector<std::vector<IterationRecord>> records;  // per step
  std::vector<Eigen::VectorXd> positions;             // per step
};

Observed run(const scenario::Scenario& s, int steps, bool observe) {
  TimeStepper stepper(s.model);
  SimulationState state = stepper.initial_state(s.initial_positions);
  Observed out;
  std::vector<IterationRecord> current;
  if (observe)
    stepper.set_iteration_observer([&current](const IterationRecord& r) { current.push_back(r); });
  for (int n = 0; n < steps; ++n) {
    current.clear();
    out.reports.push_back(stepper.step(&state));
    out.records.push_back(current);
    out.positions.push_back(state.positions);
  }
  return out;
}

// What every record of a step must say about the step's report.
void expect_records_describe_reports(const Observed& o, const char* name) {
  for (std::size_t n = 0; n < o.reports.size(); ++n) {
    const StepReport& report = o.reports[n];
    const std::vector<IterationRecord>& records = o.records[n];
    SCOPED_TRACE(std::string(name) + " step " + std::to_string(n + 1));
    ASSERT_EQ(report.status, StepStatus::kConverged) << report.message;
    // Without collision retries, one record per QP of the step, numbered from 0.
    ASSERT_EQ(report.collision_retries, 0);
    ASSERT_EQ(static_cast<int>(records.size()), report.iterations);
    int refactored = 0, gauss_newton = 0, changes = 0, to_bound = 0, returned = 0;
    for (std::size_t j = 0; j < records.size(); ++j) {
      const IterationRecord& r = records[j];
      EXPECT_EQ(r.step, static_cast<long>(n + 1));
      EXPECT_DOUBLE_EQ(r.time, 0.01 * static_cast<double>(n + 1));
      EXPECT_EQ(r.attempt, 0);
      EXPECT_EQ(r.iteration, static_cast<int>(j));
      EXPECT_GE(r.increment, 0.0);  // 0 where the step needs no correction (a free fall)
      // The largest node holds the coordinate whose change is the increment.
      EXPECT_EQ(r.largest_displacement.cwiseAbs().maxCoeff(), r.increment);
      EXPECT_GT(r.step_scale, 0.0);
      EXPECT_LE(r.step_scale, 1.0);
      refactored += r.refactored ? 1 : 0;
      gauss_newton += r.model == ProjectionModel::kGaussNewton ? 1 : 0;
      changes += r.qp_working_set_changes;
      to_bound += r.friction_rows_to_bound;
      returned += r.friction_rows_returned;
      EXPECT_LE(r.friction_rows_to_bound + r.friction_rows_returned, r.qp_working_set_changes);
    }
    EXPECT_TRUE(records.front().refactored);  // a step starts with a fresh factorisation
    EXPECT_EQ(records.front().theta, 0.0);
    EXPECT_EQ(records.back().increment, report.last_increment);
    EXPECT_EQ(refactored, report.factorizations);
    EXPECT_EQ(changes, report.qp_working_set_changes);
    EXPECT_EQ(to_bound, report.friction_rows_to_bound);
    EXPECT_EQ(returned, report.friction_rows_returned);
    EXPECT_EQ(gauss_newton > 0, report.newton_fallback);
    EXPECT_GT(report.observer_seconds, 0.0);
  }
}

TEST(IterationRecord, HangingSheetOneRecordPerIterationAndTheSameSteps) {
  const scenario::Scenario s = example("hanging.json");
  const Observed observed = run(s, 40, true);
  const Observed plain = run(s, 40, false);
  expect_records_describe_reports(observed, "hanging");
  for (std::size_t n = 0; n < plain.reports.size(); ++n) {
    EXPECT_EQ(plain.reports[n].observer_seconds, 0.0);
    // Watching a step does not change it, bit for bit.
    EXPECT_EQ(observed.positions[n], plain.positions[n]) << "step " << n + 1;
  }
  // From the third iteration of a step on, theta is an observed contraction rate.
  bool rate_seen = false;
  for (const auto& step : observed.records)
    for (const IterationRecord& r : step)
      rate_seen = rate_seen || (r.iteration >= 2 && r.theta > 0.0);
  EXPECT_TRUE(rate_seen);
}

TEST(IterationRecord, StickHitRecordsActiveRowsAndTheGaussNewtonFallback) {
  // Up to 0.2 s: the stick comes and pushes the sheet; the step from 0.13 s creeps and finishes
  // as a Gauss–Newton projection.
  const Observed o = run(example("stick_hit.json"), 20, true);
  expect_records_describe_reports(o, "stick_hit");
  int with_rows = 0, with_contact_value = 0, fallbacks = 0;
  for (std::size_t n = 0; n < o.records.size(); ++n) {
    for (const IterationRecord& r : o.records[n]) {
      with_rows += r.active_rows > 0 ? 1 : 0;
      with_contact_value += std::isfinite(r.min_contact) ? 1 : 0;
    }
    fallbacks += o.reports[n].newton_fallback ? 1 : 0;
  }
  EXPECT_GT(with_rows, 0);
  EXPECT_GE(with_contact_value, with_rows);  // a QP with active rows had rows to measure
  EXPECT_GT(fallbacks, 0);

  // The fallback comes where TimeStepper's rule puts it: from newton_fallback_after iterations
  // on, once θ has exceeded 0.99 in three iterations in a row, or else at twice that many.
  const int after = example("stick_hit.json").model.options.newton_fallback_after;
  ASSERT_GT(after, 0);
  int by_stagnation = 0;
  for (std::size_t n = 0; n < o.records.size(); ++n) {
    const std::vector<IterationRecord>& records = o.records[n];
    int expected = -1, stagnant = 0, first_gauss_newton = -1;
    for (const IterationRecord& r : records) {
      stagnant = r.theta > 0.99 ? stagnant + 1 : 0;
      if (expected < 0 && r.iteration >= after && (stagnant >= 3 || r.iteration >= 2 * after))
        expected = r.iteration;
      if (first_gauss_newton < 0 && r.model == ProjectionModel::kGaussNewton)
        first_gauss_newton = r.iteration;
    }
    EXPECT_EQ(first_gauss_newton, expected) << "step " << n + 1;
    by_stagnation += expected >= 0 && expected < 2 * after ? 1 : 0;
  }
  EXPECT_GT(by_stagnation, 0);
}

TEST(IterationRecord, CylinderRecordsFrictionRowsMovingToTheirBound) {
  // The bundled cylinder (14 × 14) up to 0.2 s: the sheet lands (0.11–0.13 s) and starts to slide.
  const Observed o = run(example("cylinder.json"), 20, true);
  expect_records_describe_reports(o, "cylinder");
  int to_bound = 0;
  for (const auto& step : o.records)
    for (const IterationRecord& r : step)
      to_bound += r.friction_rows_to_bound;
  EXPECT_GT(to_bound, 0);
}

TEST(IterationRecord, ModelNames) {
  EXPECT_EQ(to_string(ProjectionModel::kNewton), "newton");
  EXPECT_EQ(to_string(ProjectionModel::kNewtonExactCurvature), "newton-exact");
  EXPECT_EQ(to_string(ProjectionModel::kGaussNewton), "gauss-newton");
}

}  // namespace
}  // namespace clothfit::stepper
