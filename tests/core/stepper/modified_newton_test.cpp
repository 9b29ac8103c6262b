// The modified Newton projection (StepperOptions::refactor_contraction) keeps a factorisation of an
// earlier iterate's QP matrices while the residual contracts, with the residuals evaluated exactly
// at every iterate. It must converge to the same steps as plain Newton (refactoring at every
// iteration) while factoring less often. The two steppers run in lockstep: every step starts both
// from the plain-Newton state, and their results must agree to the tolerance they converge to.
// (Whole trajectories cannot be compared: a flat sheet falling from rest amplifies tolerance-level
// differences to centimetres within 40 steps, whatever the method. Its first steps are also left
// out of the comparison: while the sheet is flat, ∇C is rank deficient and the step itself is
// ill-determined — plain Newton with ε2 halved moves them by up to 7e-5 m.)
#include <gtest/gtest.h>

#include "core/io/json_object.hpp"
#include "core/obstacles/plane.hpp"
#include "core/scenario/scenario.hpp"
#include "core/stepper/time_stepper.hpp"
#include "support/test_paths.hpp"

namespace clothfit::stepper {
namespace {

// Both converge each step to ‖Δφ‖∞ < ε2 (1e-5 m), plain Newton quadratically, the modified one
// linearly at a rate below refactor_contraction (0.3): their results are within a few ε2.
constexpr double kSameStepInIncrementTolerances = 5.0;

double max_node_distance(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  double worst = 0.0;
  for (Eigen::Index i = 0; i < a.size(); i += 3)
    worst = std::max(worst, (a.segment<3>(i) - b.segment<3>(i)).norm());
  return worst;
}

void expect_same_steps_with_fewer_factorizations(const scenario::Scenario& s, int steps,
                                                 int first_compared_step) {
  SimulationModel newton_model = s.model, modified_model = s.model;
  newton_model.options.refactor_contraction = 0.0;
  newton_model.options.contact_refactor_contraction = 0.0;
  // The Gauss–Newton fallback stops at a point with C = 0 near wherever it began, so the two
  // would differ by where each stagnated: compare the Newton fixed points.
  newton_model.options.newton_fallback_after = modified_model.options.newton_fallback_after = 0;
  ASSERT_GT(modified_model.options.refactor_contraction, 0.0);
  TimeStepper newton(newton_model), modified(modified_model);
  SimulationState state = newton.initial_state(s.initial_positions);
  long newton_iterations = 0, newton_factorizations = 0, modified_factorizations = 0;
  double worst = 0.0;
  for (int n = 0; n < steps; ++n) {
    SimulationState other = state;
    const StepReport a = newton.step(&state);
    const StepReport b = modified.step(&other);
    ASSERT_EQ(a.status, StepStatus::kConverged) << "step " << n << ": " << a.message;
    ASSERT_EQ(b.status, StepStatus::kConverged) << "step " << n << ": " << b.message;
    newton_iterations += a.iterations;
    newton_factorizations += a.factorizations;
    modified_factorizations += b.factorizations;
    if (n >= first_compared_step)
      worst = std::max(worst, max_node_distance(state.positions, other.positions));
  }
  EXPECT_EQ(newton_factorizations, newton_iterations);  // plain Newton factors every iteration
  EXPECT_LT(modified_factorizations, newton_factorizations);
  EXPECT_LT(worst, kSameStepInIncrementTolerances * s.model.options.increment_tolerance);
  ::testing::Test::RecordProperty("factorizations_newton", std::to_string(newton_factorizations));
  ::testing::Test::RecordProperty("factorizations_modified",
                                  std::to_string(modified_factorizations));
  ::testing::Test::RecordProperty("largest_difference_m", std::to_string(worst));
}

TEST(ModifiedNewton, HangingExampleTakesTheSameStepsWithFewerFactorisations) {
  // datasets/examples/hanging.json: released flat, swinging, then shaken by its held corners
  // (they turn around at t = 3.5 s, the hardest step).
  const scenario::Scenario s =
      scenario::load_scenario((testing::source_dir() / "datasets/examples/hanging.json").string());
  expect_same_steps_with_fewer_factorizations(s, 400, 10);
}

TEST(ModifiedNewton, SheetDraggedAcrossATableTakesTheSameSteps) {
  // Lying on the table top (z = 0.75), pulled by one corner at 0.2 m/s; μ = 0.5.
  const nlohmann::json path = {{{"time", 0.0}, {"offset", {0, 0, 0}}},
                               {{"time", 1.0}, {"offset", {-0.2, 0, 0}}}};
  const nlohmann::json j = {
      {"cloth",
       {{"mesh",
         {{"type", "grid"}, {"width", 0.42}, {"height", 0.594}, {"nodes_x", 7}, {"nodes_y", 9}}},
        {"placement", {{"translation", {-0.2, -0.3, 0.7505}}}},
        {"material", "polyester"},
        {"virtual_density", 0.08},
        {"damping", 0.2}}},
      {"time", {{"duration", 1.0}}},
      {"held", {{{"node", {0, 0}}, {"path", path}}}},
      {"obstacles",
       {{{"type", "table"},
         {"top_centre", {0, 0, 0.75}},
         {"size", {1.2, 0.8}},
         {"friction", 0.5}}}}};
  expect_same_steps_with_fewer_factorizations(scenario::parse_scenario(j, "table"), 50, 0);
}

nlohmann::json cylinder_example() {
  return read_json_file((testing::source_dir() / "datasets/examples/cylinder.json").string());
}

// datasets/examples/cylinder.json on 7 × 9 nodes with μ = 0.35: the sheet lands on the cylinder at
// 0.14 s and slides over it.
scenario::Scenario sliding_sheet() {
  nlohmann::json j = cylinder_example();
  j["cloth"]["mesh"]["nodes_x"] = 7;
  j["cloth"]["mesh"]["nodes_y"] = 9;
  j["obstacles"][0]["friction"] = 0.35;
  return scenario::parse_scenario(j, "cylinder");
}

TEST(ModifiedNewton, SheetSlidingOverACylinderTakesTheSameSteps) {
  // The kept factorisation keeps the contact rows' normals too (ContactSet::Linearisation::kKept),
  // with the gradient corrected for them (contact_set_test checks the correction's value; its
  // effect on these steps is below the tolerance), and with contacts active it is kept while the
  // increments, once small, shrink by contact_refactor_contraction.
  expect_same_steps_with_fewer_factorizations(sliding_sheet(), 120, 0);
}

TEST(ModifiedNewton, KeepsTheFactorisationLongerWhileContactsAreActive) {
  // There a new factorisation costs the responses of every row the QP starts from, which a kept
  // one takes from the active set's cache.
  const scenario::Scenario s = sliding_sheet();
  ASSERT_GT(s.model.options.contact_refactor_contraction, s.model.options.refactor_contraction);
  SimulationModel same_threshold = s.model;
  same_threshold.options.contact_refactor_contraction = s.model.options.refactor_contraction;
  const SimulationModel* models[2] = {&s.model, &same_threshold};
  long factorizations[2] = {0, 0};
  for (int index = 0; index < 2; ++index) {
    TimeStepper stepper(*models[index]);
    SimulationState state = stepper.initial_state(s.initial_positions);
    for (int n = 0; n < 120; ++n) {
      const StepReport r = stepper.step(&state);
      ASSERT_EQ(r.status, StepStatus::kConverged) << "step " << n << ": " << r.message;
      factorizations[index] += r.factorizations;
    }
  }
  ::testing::Test::RecordProperty("factorizations", std::to_string(factorizations[0]));
  ::testing::Test::RecordProperty("factorizations_same_threshold",
                                  std::to_string(factorizations[1]));
  EXPECT_LT(factorizations[0], 0.95 * factorizations[1]);  // measured: 246 against 272
}

TEST(ModifiedNewton, AnObstacleTheSheetNeverReachesChangesNoStep) {
  // The longer-kept factorisation is for steps with active contacts only: the hanging example
  // with a floor 10 m below it takes the same steps, factorisations and positions bit for bit,
  // as without one.
  const scenario::Scenario s =
      scenario::load_scenario((testing::source_dir() / "datasets/examples/hanging.json").string());
  ASSERT_TRUE(s.model.obstacles.empty());
  ASSERT_NE(s.model.options.contact_refactor_contraction, s.model.options.refactor_contraction);
  SimulationModel with_floor = s.model;
  obstacles::PlaneGeometry floor;
  floor.point_m = Eigen::Vector3d(0.0, 0.0, -10.0);
  obstacles::ObstacleOptions options;
  options.name = "floor";
  options.friction_coefficient = 0.5;
  with_floor.obstacles.push_back(std::make_shared<obstacles::Plane>(floor, options));
  TimeStepper plain(s.model), floored(with_floor);
  SimulationState a = plain.initial_state(s.initial_positions);
  SimulationState b = floored.initial_state(s.initial_positions);
  for (int n = 0; n < 150; ++n) {
    const StepReport ra = plain.step(&a);
    const StepReport rb = floored.step(&b);
    ASSERT_EQ(rb.status, StepStatus::kConverged) << "step " << n << ": " << rb.message;
    ASSERT_EQ(ra.iterations, rb.iterations) << "step " << n;
    ASSERT_EQ(ra.factorizations, rb.factorizations) << "step " << n;
    ASSERT_EQ(a.positions, b.positions) << "step " << n;
  }
}

TEST(ModifiedNewton, CylinderExampleLandsWhereNewtonDoes) {
  // The example's own 14 × 14 sheet lands on the cylinder at 0.11–0.13 s, steps of 30–47
  // iterations that are ill-determined: the modified iteration ends them up to 1.2 mm from plain
  // Newton's. A rule that kept the matrices while the increments shrank by 0.7 with contacts
  // active, at any increment (225e4a4, reverted), led the step at 0.11 s to a point 9.2 cm away:
  // contact_refactor_contraction applies only once the increments are small.
  const scenario::Scenario s = scenario::parse_scenario(cylinder_example(), "cylinder");
  SimulationModel newton_model = s.model;
  newton_model.options.refactor_contraction = 0.0;
  newton_model.options.contact_refactor_contraction = 0.0;
  TimeStepper newton(newton_model), modified(s.model);
  SimulationState state = newton.initial_state(s.initial_positions);
  double worst = 0.0;
  for (int n = 0; n < 20; ++n) {
    SimulationState other = state;
    ASSERT_NE(newton.step(&state).status, StepStatus::kFailed) << "step " << n;
    ASSERT_NE(modified.step(&other).status, StepStatus::kFailed) << "step " << n;
    worst = std::max(worst, max_node_distance(state.positions, other.positions));
  }
  ::testing::Test::RecordProperty("largest_difference_m", std::to_string(worst));
  EXPECT_LT(worst, 3e-3);
}

}  // namespace
}  // namespace clothfit::stepper
