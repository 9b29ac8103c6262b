// A projection that diverges, or ends at the iteration cap with the sheet out of shape, ends its
// step as failed, naming why (the worst constraint, the row a QP could not meet), instead of going
// on from garbage.
// The cases: the bundled stick hit with the stick raised to the sheet's held top edge (an
// inextensible sheet held by its top corners cannot give way 12 cm at the height of its corners,
// so the stick's rows become infeasible; after six projections of step 13 at the iteration cap, a
// QP asks a node to move 1.3 km; before the guard the run went on from such iterates for minutes,
// and with the whole top edge held ‖C‖∞ reached 1e129), held corners pulled apart, a plane rising
// through them. And cases the guards must let converge: held corners jumping far, pushed together
// fast, a stick hitting below the edge.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/io/json_object.hpp"
#include "core/scenario/scenario.hpp"
#include "core/stepper/time_stepper.hpp"
#include "support/test_paths.hpp"

namespace clothfit::stepper {
namespace {

// The stick hit with both stick ends at height z (the sheet's top edge is at 1.6 m).
scenario::Scenario stick_hit_at(double z) {
  const std::string path = (testing::source_dir() / "datasets/examples/stick_hit.json").string();
  nlohmann::json j = read_json_file(path);
  j["stick"]["end0"]["position"][2] = z;
  j["stick"]["end1"]["position"][2] = z;
  return scenario::parse_scenario(j, path);
}

TEST(Divergence, AStickThroughTheHeldEdgeFailsTheStepAndSaysWhy) {
  const scenario::Scenario s = stick_hit_at(1.6);
  TimeStepper stepper(s.model);
  std::vector<IterationRecord> records;
  stepper.set_iteration_observer([&records](const IterationRecord& r) { records.push_back(r); });
  SimulationState state = stepper.initial_state(s.initial_positions);
  StepReport report;
  for (int n = 0; n < 20; ++n) {
    records.clear();
    const SimulationState before = state;
    report = stepper.step(&state);
    if (report.status == StepStatus::kFailed) {
      // The state did not advance, and what it holds is still a sheet where it was.
      EXPECT_EQ(state.positions, before.positions);
      break;
    }
    ASSERT_EQ(report.status, StepStatus::kConverged) << "step " << n + 1 << ": " << report.message;
  }
  ASSERT_EQ(report.status, StepStatus::kFailed);
  EXPECT_EQ(state.step, 12);  // the stick meets the edge in step 13
  EXPECT_NE(report.message.find("the projection diverged: QP "), std::string::npos)
      << report.message;
  EXPECT_NE(report.message.find("times the cloth's size"), std::string::npos) << report.message;
  // Why follows: the QP's rows could not all be met, and the one it could not meet is the stick's.
  EXPECT_NE(report.message.find("; the QP had no feasible point: the stick against the cloth edge "
                                "between nodes "),
            std::string::npos)
      << report.message;
  EXPECT_GT(report.infeasible_qps, 0);
  EXPECT_NE(report.message.find(report.infeasible_row), std::string::npos) << report.message;
  // Before failing, the step was projected again at the cap and with smaller proximities ω
  // (self-collision retries): its counts are those of every projection it ran, one record each.
  EXPECT_GT(report.collision_retries, 0);
  EXPECT_GT(records.back().attempt, report.collision_retries);  // cap retries among them
  EXPECT_GT(report.iterations, 2 * s.model.options.max_iterations);
  EXPECT_EQ(static_cast<int>(records.size()), report.iterations);
  int refactored = 0;
  for (const IterationRecord& r : records)
    refactored += r.refactored ? 1 : 0;
  // The QP that diverged has no record (records follow an accepted QP) but factored.
  EXPECT_LE(refactored, report.factorizations);
  EXPECT_GE(refactored + 1, report.factorizations);
}

// hanging.json with its two held corners pulled 10 cm apart each from t = 0.2 s to 0.5 s: further
// apart than the sheet's top edge allows. Before the guards 80 of the 100 steps ended at the cap
// and the run went on; now step 24 ends at the cap with the top edge stretched 15 % and fails.
TEST(Divergence, HeldCornersPulledApartFailTheStep) {
  const std::string path = (testing::source_dir() / "datasets/examples/hanging.json").string();
  nlohmann::json j = read_json_file(path);
  const auto corner = [](int column, double dx) {
    return nlohmann::json{{"nodes", {{0, column}}},
                          {"path",
                           {{{"time", 0.2}, {"offset", {0.0, 0.0, 0.0}}},
                            {{"time", 0.5}, {"offset", {dx, 0.0, 0.0}}}}}};
  };
  j["held"] = {corner(0, -0.1), corner(6, 0.1)};
  const scenario::Scenario s = scenario::parse_scenario(j, path);
  TimeStepper stepper(s.model);
  SimulationState state = stepper.initial_state(s.initial_positions);
  StepReport report;
  for (int n = 0; n < 100; ++n) {
    report = stepper.step(&state);
    if (report.status == StepStatus::kFailed)
      break;
  }
  ASSERT_EQ(report.status, StepStatus::kFailed);
  EXPECT_GT(state.step, 15);  // the corners are still within the sheet's reach at first
  EXPECT_LT(state.step, 50);
  EXPECT_NE(report.message.find("the sheet is out of shape at the iteration cap"),
            std::string::npos)
      << report.message;
  EXPECT_NE(report.message.find("(the boundary edge between nodes "), std::string::npos)
      << report.message;
}

// A held corner pushed 30 cm towards the other in 0.02 s (15 cm per step) along the straight edge
// between them: nearly singular, so the first QPs ask for steps of hundreds of metres, which the
// line search shortens, and every step converges. A guard on the QP's own step (100 sizes, as
// before 2026-12-02 the second) failed such runs.
TEST(Divergence, HeldCornersPushedTogetherFastConverge) {
  const std::string path = (testing::source_dir() / "datasets/examples/hanging.json").string();
  nlohmann::json j = read_json_file(path);
  j["held"] = {{{"nodes", {{0, 0}}},
                {"path",
                 {{{"time", 0.1}, {"offset", {0.0, 0.0, 0.0}}},
                  {{"time", 0.12}, {"offset", {0.3, 0.0, 0.0}}}}}},
               {{"nodes", {{0, 6}}}}};
  const scenario::Scenario s = scenario::parse_scenario(j, path);
  TimeStepper stepper(s.model);
  double largest_qp_step = 0.0, largest_step = 0.0;
  stepper.set_iteration_observer([&](const IterationRecord& r) {
    largest_step = std::max(largest_step, r.increment);
    largest_qp_step = std::max(largest_qp_step, r.increment / r.step_scale);
  });
  SimulationState state = stepper.initial_state(s.initial_positions);
  for (int n = 0; n < 30; ++n) {
    const StepReport report = stepper.step(&state);
    ASSERT_EQ(report.status, StepStatus::kConverged) << "step " << n + 1 << ": " << report.message;
  }
  const double size = std::hypot(0.42, 0.594);  // the rest shape's diagonal
  EXPECT_GT(largest_qp_step, 1000.0 * size);
  EXPECT_GT(largest_step, 10.0 * size);
  EXPECT_LT(largest_step, 100.0 * size);
}

// hanging.json with a frictionless plane rising from z = 0 to 1.2 m between t = 0.5 s and 1.5 s,
// through the held corners (z = 1): once it is more than an edge above them, the nodes next to the
// corners cannot be both above it and attached. No QP moves a node far, but the projection ends
// at the cap with the sheet stretched; before the out-of-shape guard 67 of the 200 steps ended at
// the cap, with violations up to 1e3, and the run went on. Now the first step at the cap that
// leaves the sheet out of shape fails, naming the worst row and the infeasible contact.
TEST(Divergence, APlaneRisingThroughTheHeldCornersFailsTheStepOutOfShape) {
  const std::string path = (testing::source_dir() / "datasets/examples/hanging.json").string();
  nlohmann::json j = read_json_file(path);
  j["obstacles"] = {{{"type", "plane"},
                     {"name", "lift"},
                     {"motion",
                      {{"translation",
                        {{"keyframes",
                          {{{"time", 0.5}, {"offset", {0.0, 0.0, 0.0}}},
                           {{"time", 1.5}, {"offset", {0.0, 0.0, 1.2}}}}}}}}}}};
  const scenario::Scenario s = scenario::parse_scenario(j, path);
  TimeStepper stepper(s.model);
  SimulationState state = stepper.initial_state(s.initial_positions);
  StepReport report;
  int capped = 0;
  for (int n = 0; n < 200; ++n) {
    const SimulationState before = state;
    report = stepper.step(&state);
    if (report.status == StepStatus::kFailed) {
      EXPECT_EQ(state.positions, before.positions);
      break;
    }
    // Steps at the cap go on while the sheet keeps its shape.
    EXPECT_LE(report.max_violation, 0.1) << "step " << n + 1;
    capped += report.status == StepStatus::kIterationCap ? 1 : 0;
  }
  ASSERT_EQ(report.status, StepStatus::kFailed);
  // The plane passes the corners at t = 1.33 s and an edge (0.07 m) above them at 1.39 s.
  EXPECT_GT(state.step, 125);
  EXPECT_LT(state.step, 145);
  EXPECT_LT(capped, 10);
  EXPECT_GT(report.max_violation, 0.1);
  EXPECT_NE(report.message.find("the sheet is out of shape at the iteration cap: a violation of "),
            std::string::npos)
      << report.message;
  EXPECT_NE(report.message.find("obstacle 'lift' at node "), std::string::npos) << report.message;
}

// Held nodes moved far in one step drag the sheet with them: the QPs then move nodes by hundreds of
// metres, which is no divergence (the cloth's size includes the held targets).
TEST(Divergence, HeldCornersJumpingFarConverge) {
  const std::string path = (testing::source_dir() / "datasets/examples/hanging.json").string();
  nlohmann::json j = read_json_file(path);
  j["held"][0]["path"] = {{{"time", 0.3}, {"offset", {0.0, 0.0, 0.0}}},
                          {{"time", 0.31}, {"offset", {200.0, 0.0, 0.0}}}};
  const scenario::Scenario s = scenario::parse_scenario(j, path);
  TimeStepper stepper(s.model);
  SimulationState state = stepper.initial_state(s.initial_positions);
  for (int n = 0; n < 35; ++n) {
    const StepReport report = stepper.step(&state);
    ASSERT_EQ(report.status, StepStatus::kConverged) << "step " << n + 1 << ": " << report.message;
  }
  EXPECT_GT(state.positions.reshaped(3, state.positions.size() / 3).row(0).minCoeff(), 150.0);
}

// The guard is far from any step that converges: the bundled hit (0.4 m below the top edge) and
// one 0.2 m below it converge at every step of the strike.
TEST(Divergence, HitsBelowTheEdgeConverge) {
  for (const double z : {1.2, 1.4}) {
    const scenario::Scenario s = stick_hit_at(z);
    TimeStepper stepper(s.model);
    SimulationState state = stepper.initial_state(s.initial_positions);
    for (int n = 0; n < 30; ++n) {
      const StepReport report = stepper.step(&state);
      ASSERT_EQ(report.status, StepStatus::kConverged)
          << "z = " << z << ", step " << n + 1 << ": " << report.message;
    }
  }
}

}  // namespace
}  // namespace clothfit::stepper
