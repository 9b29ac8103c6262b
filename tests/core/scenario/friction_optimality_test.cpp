// The friction of the curved-obstacle examples (issue 3), on 7 × 9 sheets: few steps may end with a
// friction force along the slip. The active set solves the friction rows as bounded multipliers;
// its guard against cycling (a row may return from its bound only ActiveSetSolver::kMaxReturns
// times per QP) keeps a row at its bound once that is spent, even when its slip has since
// reversed, and the QP's solution is then not optimal for that row (QpSummary::
// rows_left_at_bound). Before the ratio test in ActiveSetSolver, with kMaxReturns = 2, the last QP
// of 23 of the cylinder's 200 steps (44 rows) and 24 of the sphere's 250 (258 rows) ended so; now
// none (a few are allowed: which rows cycle depends on rounding). The same runs count the
// working-set changes of each step's first QP, which the corner warm start cut by two thirds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/io/json_object.hpp"
#include "core/scenario/simulation_run.hpp"
#include "support/test_paths.hpp"

namespace clothfit::scenario {
namespace {

struct StepsAgainstSlip {
  int steps = 0;  // steps ending with a friction row against its slip
  int rows = 0;   // such rows, summed over the steps
  int total_steps = 0;
  long first_qp_changes = 0;     // working-set changes in the steps' first QPs, summed
  long changes = 0;              // working-set changes in all QPs, summed
  long friction_changes = 0;     // of them, friction rows moved to their bound or back
  double max_cone_excess = 0.0;  // StepReport::friction_cone_excess, max over the steps
  int steps_beyond_disk = 0;     // steps whose friction_cone_excess exceeds 1 %
};

StepsAgainstSlip run_coarse(const std::string& example) {
  const std::string path = (testing::source_dir() / "datasets/examples" / example).string();
  nlohmann::json j = clothfit::read_json_file(path);
  j["cloth"]["mesh"]["nodes_x"] = 7;
  j["cloth"]["mesh"]["nodes_y"] = 9;
  const Scenario s = parse_scenario(j, path);
  StepsAgainstSlip result;
  const RunSummary run = run_simulation(s, [&](const auto&, const stepper::StepReport* report) {
    if (report == nullptr)
      return;
    ++result.total_steps;
    result.steps += report->friction_rows_against_slip > 0 ? 1 : 0;
    result.rows += report->friction_rows_against_slip;
    result.first_qp_changes += report->first_qp_working_set_changes;
    result.changes += report->qp_working_set_changes;
    result.friction_changes += report->friction_rows_to_bound + report->friction_rows_returned;
    result.max_cone_excess = std::max(result.max_cone_excess, report->friction_cone_excess);
    result.steps_beyond_disk += report->friction_cone_excess > 0.01 ? 1 : 0;
  });
  EXPECT_TRUE(run.ok()) << run.message;
  return result;
}

TEST(FrictionOptimality, CylinderStepsRarelyEndWithFrictionAlongTheSlip) {
  const StepsAgainstSlip r = run_coarse("cylinder.json");
  EXPECT_EQ(r.total_steps, 200);
  EXPECT_LE(r.steps, 3) << r.rows << " rows";
  RecordProperty("steps_against_slip", std::to_string(r.steps));
  // The warm start of a step's first QP (ContactSet: a contact that ended at a corner of its box
  // starts there): 28.6 working-set changes per first QP, 84.2 without it.
  EXPECT_LT(static_cast<double>(r.first_qp_changes) / r.total_steps, 45.0);
  // Most changes move friction rows to their bound and back (74 % measured on 2026-11-26): the
  // sheet slides over the cylinder, and each contact's two rows re-decide their state.
  EXPECT_GT(r.friction_changes, r.changes / 2);
  EXPECT_LE(r.friction_changes, r.changes);
  // The friction box's corners: a force of √2 b where a contact slides diagonally to the tangent
  // basis of its step, which on the cylinder turns with the normal (README "Friction"; on a plane
  // none, ramp_test.cpp). 189 of the 200 steps end with some contact beyond the disk by more
  // than 1 % (2026-11-26). A friction model without corners would change these two lines.
  EXPECT_NEAR(r.max_cone_excess, std::sqrt(2.0) - 1.0, 1e-9);
  EXPECT_GT(r.steps_beyond_disk, r.total_steps / 2);
  RecordProperty("steps_beyond_friction_disk", std::to_string(r.steps_beyond_disk));
}

TEST(FrictionOptimality, SphereStepsRarelyEndWithFrictionAlongTheSlip) {
  const StepsAgainstSlip r = run_coarse("sphere.json");
  EXPECT_EQ(r.total_steps, 250);
  EXPECT_LE(r.steps, 3) << r.rows << " rows";
  RecordProperty("steps_against_slip", std::to_string(r.steps));
  // 15.1 working-set changes per first QP, 57.3 without the corner warm start.
  EXPECT_LT(static_cast<double>(r.first_qp_changes) / r.total_steps, 30.0);
}

}  // namespace
}  // namespace clothfit::scenario
