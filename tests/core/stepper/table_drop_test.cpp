// Issue 3: a sheet dropped flat onto a table comes to rest on it, with no
// node below the top by more than ε1 and no jitter: its kinetic energy falls below 1e-6 J within
// 2 s.
#include <gtest/gtest.h>

#include "core/forces/cloth_material.hpp"
#include "core/scenario/simulation_run.hpp"

namespace clothfit::scenario {
namespace {

constexpr double kRestEnergyJoules = 1e-6;

TEST(TableDrop, ComesToRestOnTheTopWithoutJitter) {
  // A 0.6 × 0.6 m sheet 5 cm above a 0.8 × 0.8 m table top at z = 0.75.
  const nlohmann::json j = {
      {"cloth",
       {{"mesh",
         {{"type", "grid"}, {"width", 0.6}, {"height", 0.6}, {"nodes_x", 9}, {"nodes_y", 9}}},
        {"placement", {{"translation", {-0.3, -0.3, 0.80}}}},
        {"material", "polyester"},
        {"virtual_density", 0.08},
        {"damping", 0.2}}},
      {"time", {{"duration", 2.5}, {"time_step", 0.01}}},
      {"obstacles",
       {{{"type", "table"}, {"top_centre", {0, 0, 0.75}}, {"size", {0.8, 0.8}}, {"friction", 0.5}},
        {{"type", "plane"}, {"name", "floor"}, {"friction", 0.5}}}}};
  const Scenario s = parse_scenario(j, "table_drop.json");
  const Eigen::VectorXd area = mesh::lumped_areas(s.model.mesh);
  double energy_at_2s = -1.0, deepest = 0.0;
  const RunSummary run = run_simulation(
      s, [&](const stepper::SimulationState& state, const stepper::StepReport* report) {
        if (report == nullptr)
          return;
        EXPECT_EQ(report->status, stepper::StepStatus::kConverged)
            << "t = " << state.time << ": " << report->message;
        for (int i = 0; i < s.model.mesh.num_nodes(); ++i) {
          const Eigen::Vector3d p = state.positions.segment<3>(3 * i);
          const double h = s.model.obstacles[0]->value(p, state.time);
          deepest = std::min(deepest, h);
        }
        if (state.time >= 2.0 && energy_at_2s < 0.0) {
          energy_at_2s = 0.0;
          for (int i = 0; i < s.model.mesh.num_nodes(); ++i) {
            energy_at_2s += 0.5 * s.model.material.density * area[i] *
                            state.velocities.segment<3>(3 * i).squaredNorm();
          }
        }
      });
  EXPECT_TRUE(run.ok()) << run.message;
  EXPECT_GE(deepest, -s.model.options.contact_tolerance);
  EXPECT_GE(energy_at_2s, 0.0);
  EXPECT_LT(energy_at_2s, kRestEnergyJoules);
  RecordProperty("kinetic_energy_at_2s_J", std::to_string(energy_at_2s));
}

}  // namespace
}  // namespace clothfit::scenario
