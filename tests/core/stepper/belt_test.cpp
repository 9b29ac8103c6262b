// A sheet lying on a belt (a plane with high friction translating along x) between two keyframes:
// it moves with the belt during the keyframes' steps, not before, and stops by friction after.
// Summed time steps of 0.01 s end at 0.5000000000000002 and 1.0000000000000007, and the surface
// velocity of the segment after the keyframe was used for the step ending "at" it: the belt
// started and stopped a step early, the sheet moving 1.6 mm in the step before the belt started
// and 2.2 mm instead of 4 mm in its last step.
#include <gtest/gtest.h>

#include <vector>

#include "core/scenario/simulation_run.hpp"

namespace clothfit::scenario {
namespace {

TEST(Belt, TheSheetMovesInTheBeltsStepsOnly) {
  const nlohmann::json j = {
      {"cloth",
       {{"mesh",
         {{"type", "grid"}, {"width", 0.42}, {"height", 0.594}, {"nodes_x", 7}, {"nodes_y", 9}}},
        {"placement", {{"translation", {-0.21, -0.297, 0.002}}}},
        {"material", "polyester"},
        {"virtual_density", 0.08},
        {"damping", 0.2}}},
      {"time", {{"duration", 1.2}, {"time_step", 0.01}}},
      {"obstacles",
       {{{"type", "plane"},
         {"name", "belt"},
         {"point", {0, 0, 0}},
         {"friction", 2.0},
         {"motion",
          {{"translation",
            {{"keyframes",
              {{{"time", 0.5}, {"offset", {0, 0, 0}}},
               {{"time", 1.0}, {"offset", {0.2, 0, 0}}}}}}}}}}}}};
  const Scenario s = parse_scenario(j, "belt.json");
  std::vector<double> mean_x;  // after each step
  const RunSummary run = run_simulation(s, [&](const stepper::SimulationState& state, const auto*) {
    double x = 0.0;
    for (int i = 0; i < s.model.mesh.num_nodes(); ++i)
      x += state.positions[3 * i];
    mean_x.push_back(x / s.model.mesh.num_nodes());
  });
  ASSERT_TRUE(run.ok()) << run.message;
  ASSERT_EQ(mean_x.size(), 121u);  // the initial state and 120 steps
  const auto moved = [&mean_x](int step) { return mean_x[step] - mean_x[step - 1]; };
  for (int step = 1; step <= 50; ++step)
    EXPECT_NEAR(moved(step), 0.0, 1e-6) << "step " << step << ", before the belt starts";
  // The belt moves 4 mm per step from step 51 to step 100; the sheet catches up within a few.
  EXPECT_GT(moved(51), 0.0);
  for (int step = 60; step <= 100; ++step)
    EXPECT_NEAR(moved(step), 0.004, 1e-5) << "step " << step;
  // From 0.4 m/s friction μ g δ/ρ = 15.1 m/s² stops it within three steps: at most
  // v² / (2 μ g δ/ρ) = 5.3 mm further. Then it lies still.
  double after = 0.0;
  for (int step = 101; step <= 103; ++step) {
    EXPECT_GE(moved(step), 0.0) << "step " << step;
    after += moved(step);
  }
  EXPECT_GT(moved(101), moved(102));
  EXPECT_LT(after, 0.0053);
  for (int step = 104; step <= 120; ++step)
    EXPECT_NEAR(moved(step), 0.0, 1e-6) << "step " << step << ", after the sheet stopped";
}

}  // namespace
}  // namespace clothfit::scenario
