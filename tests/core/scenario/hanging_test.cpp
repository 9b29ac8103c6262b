// The bundled hanging example (issue 2): inextensible edges, convergence at every step, the sheet
// hangs below its corners, and the result does not depend much on the mesh.
#include <gtest/gtest.h>

#include <cmath>

#include "core/io/json_object.hpp"
#include "core/scenario/simulation_run.hpp"
#include "support/test_paths.hpp"

namespace clothfit::scenario {
namespace {

constexpr double kEdgeTolerance = 1e-3;        // boundary edges within 0.1 % of rest length
constexpr double kMeshStabilityMetres = 0.02;  // shared nodes of 7×9 and 13×17 within 2 cm

std::string hanging_path() {
  return (testing::source_dir() / "datasets/examples/hanging.json").string();
}

double max_boundary_edge_error(const mesh::QuadMesh& mesh, const Eigen::VectorXd& phi) {
  double worst = 0.0;
  for (const mesh::Edge& e : mesh.boundary_edges) {
    const double rest = (mesh.rest_position(e[0]) - mesh.rest_position(e[1])).norm();
    const double now = (phi.segment<3>(3 * e[0]) - phi.segment<3>(3 * e[1])).norm();
    worst = std::max(worst, std::abs(now / rest - 1.0));
  }
  return worst;
}

TEST(HangingExample, StaysInextensibleAndConvergesAtEveryStep) {
  const Scenario s = load_scenario(hanging_path());
  ASSERT_EQ(s.model.mesh.num_nodes(), 63);
  ASSERT_EQ(s.model.held.size(), 2u);
  long steps = 0;
  double worst_edge = 0.0;
  Eigen::VectorXd last;
  const RunSummary run = run_simulation(
      s, [&](const stepper::SimulationState& state, const stepper::StepReport* report) {
        ASSERT_TRUE(state.positions.allFinite()) << "step " << state.step;
        worst_edge = std::max(worst_edge, max_boundary_edge_error(s.model.mesh, state.positions));
        if (report != nullptr) {
          ++steps;
          EXPECT_EQ(report->status, stepper::StepStatus::kConverged)
              << "step " << state.step << ": " << report->message;
        }
        last = state.positions;
      });
  EXPECT_TRUE(run.ok()) << run.message;
  EXPECT_EQ(steps, 400);
  EXPECT_LT(worst_edge, kEdgeTolerance);
  // The sheet ends below the held corners: every free node lower than the highest held node.
  double held_z = -1e9;
  for (const stepper::HeldNode& h : s.model.held)
    held_z = std::max(held_z, last[3 * h.node + 2]);
  const int far_corner = s.model.mesh.grid_node(8, 3);
  EXPECT_LT(last[3 * far_corner + 2], held_z - 0.5);  // it hangs: 0.594 m long
  for (int i = 0; i < s.model.mesh.num_nodes(); ++i)
    EXPECT_LE(last[3 * i + 2], held_z + 1e-9);
}

// The hanging example on a finer grid, with the held corners at the same places.
Scenario refined_hanging(int nodes_x, int nodes_y) {
  nlohmann::json j = read_json_file(hanging_path());
  j["cloth"]["mesh"]["nodes_x"] = nodes_x;
  j["cloth"]["mesh"]["nodes_y"] = nodes_y;
  j["held"][0]["nodes"] = nlohmann::json::array({{0, 0}, {0, nodes_x - 1}});
  j["time"]["duration"] = 3.0;
  return parse_scenario(j, hanging_path());
}

TEST(HangingExample, CoarseAndFineMeshesAgreeAfterThreeSeconds) {
  const Scenario coarse = refined_hanging(7, 9);
  const Scenario fine = refined_hanging(13, 17);
  Eigen::VectorXd coarse_end, fine_end;
  ASSERT_TRUE(run_simulation(coarse, [&](const auto& state, const auto*) {
                coarse_end = state.positions;
              }).ok());
  ASSERT_TRUE(run_simulation(fine, [&](const auto& state, const auto*) {
                fine_end = state.positions;
              }).ok());
  double worst = 0.0;
  for (int r = 0; r < 9; ++r) {
    for (int c = 0; c < 7; ++c) {
      const int a = coarse.model.mesh.grid_node(r, c);
      const int b = fine.model.mesh.grid_node(2 * r, 2 * c);
      worst = std::max(worst, (coarse_end.segment<3>(3 * a) - fine_end.segment<3>(3 * b)).norm());
    }
  }
  RecordProperty("max_shared_node_distance_m", std::to_string(worst));
  EXPECT_LT(worst, kMeshStabilityMetres);
}

}  // namespace
}  // namespace clothfit::scenario
