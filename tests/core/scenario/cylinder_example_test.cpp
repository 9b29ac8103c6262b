// Issue 3, paper §6.1 (Fig. 1): datasets/examples/cylinder.json — a sheet falls onto a horizontal
// cylinder 30 cm off its centre. With μ = 0.2 it has slid off by t = 2 s (lying on the floor, no
// node near the cylinder); with μ = 0.55 it rests on the cylinder at t = 2 s (much of it on the
// surface, its centre of mass above the cylinder's lowest line, no longer moving).
//
// The example runs on its own 14 × 14 mesh (1–2 s per run since 2026-11-26). Until then the test
// ran a 10 × 10 copy, which did not see a change that made the 14 × 14 sheet slide off at μ = 0.55
// (225e4a4, reverted; docs/performance-log.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "core/io/json_object.hpp"
#include "core/scenario/simulation_run.hpp"
#include "support/test_paths.hpp"

namespace clothfit::scenario {
namespace {

constexpr double kOnSurfaceMetres = 0.03;  // a node within this of the cylinder is on it
constexpr double kRestingFraction = 0.4;   // resting: at least this share of the nodes on it
constexpr double kSettledMetres = 0.02;    // resting: the centre of mass moved less than this …
constexpr double kSettledWindow = 0.5;     // … over the last 0.5 s
constexpr double kFloorHeight = 0.1;       // slid off: centre of mass below this (m), on the floor

struct Outcome {
  double on_cylinder = 0.0;  // share of the nodes within kOnSurfaceMetres of the cylinder at 2 s
  Eigen::Vector3d centre_of_mass = Eigen::Vector3d::Zero();  // at 2 s, m (node average)
  double settling = 0.0;  // distance the centre of mass moved over the last kSettledWindow, m
  double cylinder_bottom = 0.0;  // height of the cylinder's lowest line, m
  RunSummary run;
};

Outcome run_cylinder(double mu) {
  const std::string path =
      (clothfit::testing::source_dir() / "datasets/examples/cylinder.json").string();
  nlohmann::json j = read_json_file(path);
  nlohmann::json& cylinder = j["obstacles"][0];
  EXPECT_EQ(cylinder["name"], "cylinder");
  cylinder["friction"] = mu;
  const Scenario s = parse_scenario(j, path);

  const auto ends = cylinder["ends"];
  const Eigen::Vector3d a(ends[0][0].get<double>(), ends[0][1].get<double>(),
                          ends[0][2].get<double>());
  const Eigen::Vector3d b(ends[1][0].get<double>(), ends[1][1].get<double>(),
                          ends[1][2].get<double>());
  const double radius = cylinder["radius"].get<double>();
  const Eigen::Vector3d axis = (b - a).normalized();
  const auto surface_distance = [&](const Eigen::Vector3d& p) {
    const Eigen::Vector3d d = p - a;
    return (d - d.dot(axis) * axis).norm() - radius;
  };

  Outcome out;
  out.cylinder_bottom = a.z() - radius;
  const int n = s.model.mesh.num_nodes();
  const auto centre = [&](const Eigen::VectorXd& phi) {
    return Eigen::Vector3d(phi.reshaped(3, n).rowwise().mean());
  };
  const double dt = s.model.options.time_step;
  const long window_start = std::lround((s.duration - kSettledWindow) / dt);
  Eigen::Vector3d centre_at_window_start = Eigen::Vector3d::Zero();
  Eigen::VectorXd last;
  out.run = run_simulation(s, [&](const stepper::SimulationState& state, const auto*) {
    if (state.step == window_start)
      centre_at_window_start = centre(state.positions);
    last = state.positions;
  });
  int on = 0;
  for (int i = 0; i < n; ++i)
    on += surface_distance(last.segment<3>(3 * i)) < kOnSurfaceMetres ? 1 : 0;
  out.on_cylinder = double(on) / n;
  out.centre_of_mass = centre(last);
  out.settling = (out.centre_of_mass - centre_at_window_start).norm();
  std::printf(
      "μ = %.2f: %.0f %% of the nodes on the cylinder, centre of mass at height %.3f m, "
      "moved %.3f m over the last %.1f s; %ld of %ld steps at the iteration cap\n",
      mu, 100 * out.on_cylinder, out.centre_of_mass.z(), out.settling, kSettledWindow,
      out.run.unconverged_steps, out.run.steps);
  return out;
}

// Steps may hit the projection's iteration cap when the sheet lands (friction cycling, a property
// of the stepper, not of this scenario); none may fail, and the run must reach t = 2 s.
void expect_completed(const RunSummary& run) {
  EXPECT_NE(run.status, stepper::StepStatus::kFailed) << run.message;
  EXPECT_EQ(run.steps, 200);
}

TEST(CylinderExample, LowFrictionSlidesOffByTwoSeconds) {
  const Outcome o = run_cylinder(0.2);
  expect_completed(o.run);
  EXPECT_EQ(o.on_cylinder, 0.0);
  EXPECT_LT(o.centre_of_mass.z(), kFloorHeight);
  ::testing::Test::RecordProperty("on_cylinder", std::to_string(o.on_cylinder));
}

TEST(CylinderExample, PapersFrictionRestsOnTheCylinderAtTwoSeconds) {
  const Outcome o = run_cylinder(0.55);
  expect_completed(o.run);
  EXPECT_GT(o.on_cylinder, kRestingFraction);
  EXPECT_GT(o.centre_of_mass.z(), o.cylinder_bottom);
  EXPECT_LT(o.settling, kSettledMetres);
  ::testing::Test::RecordProperty("on_cylinder", std::to_string(o.on_cylinder));
}

}  // namespace
}  // namespace clothfit::scenario
