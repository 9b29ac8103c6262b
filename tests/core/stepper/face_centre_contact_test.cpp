// Contacts at quad centres (an obstacle's `face_centres`): a coarse sheet dropped onto a rod
// thinner than its quads. No node is over the rod, so node contacts alone let the sheet fall
// through it; with the quad centres constrained, the middle column of quads rests on the rod and
// the sheet hangs over it like a towel on a rail. (Found missing by scripts/mutate.py: no test ran
// a face-centre contact, so the quads they are made of could be indexed wrongly unnoticed.)
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/scenario/simulation_run.hpp"

namespace clothfit::scenario {
namespace {

constexpr double kRodRadius = 0.02;  // m
constexpr double kRodHeight = 0.5;   // m, of its axis

// A 0.6 × 0.6 m sheet of 4 × 4 nodes (0.2 m apart) 3 cm above a rod along y under its centre
// line: the middle column of quads has its centres over the rod's axis, the nearest nodes are
// 0.1 m to either side of it.
Scenario towel_on_a_rail(bool face_centres) {
  const nlohmann::json j = {
      {"cloth",
       {{"mesh",
         {{"type", "grid"}, {"width", 0.6}, {"height", 0.6}, {"nodes_x", 4}, {"nodes_y", 4}}},
        {"placement", {{"translation", {-0.3, -0.3, kRodHeight + kRodRadius + 0.03}}}},
        {"material", "polyester"},
        {"virtual_density", 0.08},
        {"damping", 0.2}}},
      {"time", {{"duration", 1.0}, {"time_step", 0.01}}},
      {"obstacles",
       {{{"type", "cylinder"},
         {"name", "rod"},
         {"ends", {{0, -1, kRodHeight}, {0, 1, kRodHeight}}},
         {"radius", kRodRadius},
         {"friction", 0.5},
         {"face_centres", face_centres}}}}};
  return parse_scenario(j, "towel_on_a_rail.json");
}

struct Drop {
  RunSummary run;
  double centre_of_mass_z = 0.0;  // at the end, m
  double lowest_rod_value = 1e9;  // h of the rod at the middle quads' centres, over all frames, m
  bool every_step_converged = true;
};

Eigen::Vector3d quad_centre(const Eigen::VectorXd& positions, const mesh::Quad& q) {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (int v : q)
    centre += 0.25 * positions.segment<3>(3 * v);
  return centre;
}

Drop drop(bool face_centres) {
  const Scenario s = towel_on_a_rail(face_centres);
  const mesh::QuadMesh& mesh = s.model.mesh;
  std::vector<mesh::Quad> over_the_rod;  // the middle column of quads
  for (const mesh::Quad& q : mesh.quads) {
    if (std::abs(quad_centre(mesh.rest_positions, q).x()) < 1e-9)
      over_the_rod.push_back(q);
  }
  Drop d;
  d.run = run_simulation(
      s, [&](const stepper::SimulationState& state, const stepper::StepReport* report) {
        if (report != nullptr && report->status != stepper::StepStatus::kConverged)
          d.every_step_converged = false;
        for (const mesh::Quad& q : over_the_rod) {
          d.lowest_rod_value =
              std::min(d.lowest_rod_value,
                       s.model.obstacles[0]->value(quad_centre(state.positions, q), state.time));
        }
        d.centre_of_mass_z = 0.0;
        for (int i = 0; i < mesh.num_nodes(); ++i)
          d.centre_of_mass_z += state.positions[3 * i + 2] / mesh.num_nodes();
      });
  return d;
}

TEST(FaceCentreContacts, ACoarseSheetRestsOnARodBetweenItsNodes) {
  const Drop with = drop(true);
  ASSERT_TRUE(with.run.ok()) << with.run.message;
  EXPECT_TRUE(with.every_step_converged);
  const double epsilon1 = towel_on_a_rail(true).model.options.contact_tolerance;
  EXPECT_GE(with.lowest_rod_value, -epsilon1);
  // Resting on the rod: the middle quads' centres touch it, the sides hang at most 0.2 m lower
  // (each side is one 0.2 m quad wide beyond the middle column's nodes).
  EXPECT_LT(with.lowest_rod_value, 1e-3);
  EXPECT_GT(with.centre_of_mass_z, kRodHeight - 0.2);
  EXPECT_LT(with.centre_of_mass_z, kRodHeight + kRodRadius);

  // Node contacts alone: the rod passes between the nodes and the sheet falls through it.
  const Drop without = drop(false);
  ASSERT_TRUE(without.run.ok()) << without.run.message;
  EXPECT_LT(without.centre_of_mass_z, kRodHeight - 1.0);
}

}  // namespace
}  // namespace clothfit::scenario
