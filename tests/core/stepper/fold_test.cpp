// Issue 4: datasets/examples/fold.json — a sheet released nearly upright above a table lands on its
// lower edge and folds onto itself. With self-collisions: no two non-adjacent triangles intersect
// (exact test) at any step, non-adjacent elements end at least 0.5·τ0 apart, and the kinetic
// energy decays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/scenario/simulation_run.hpp"
#include "self_collision_checks.hpp"
#include "support/test_paths.hpp"

namespace clothfit::scenario {
namespace {

// `duration`: simulated seconds (0: the example's own).
void expect_clean_fold(const std::string& example, double duration = 0.0) {
  Scenario s = load_scenario((testing::source_dir() / "datasets/examples" / example).string());
  if (duration > 0.0)
    s.duration = duration;
  ASSERT_TRUE(s.model.self_collisions.enabled);
  const double tau0 = s.model.self_collisions.thickness;
  testing::SelfCollisionChecks checks(s.model.mesh);
  int intersections = 0, max_active = 0, retries = 0;
  double energy_peak = 0.0, min_sep = 0.0;
  std::vector<double> energies;
  const RunSummary run = run_simulation(
      s, [&](const stepper::SimulationState& state, const stepper::StepReport* report) {
        const int pairs = checks.intersecting_triangle_pairs(state.positions);
        EXPECT_EQ(pairs, 0) << "t = " << state.time;
        intersections += pairs;
        if (report == nullptr)
          return;
        EXPECT_EQ(report->status, stepper::StepStatus::kConverged)
            << "t = " << state.time << ": " << report->message;
        max_active = std::max(max_active, report->active_collision_rows);
        retries += report->collision_retries;
        const double e =
            testing::kinetic_energy(s.model.mesh, s.model.material.density, state.velocities);
        energies.push_back(e);
        energy_peak = std::max(energy_peak, e);
        min_sep = checks.min_separation(state.positions, 4 * tau0);
      });
  EXPECT_TRUE(run.ok()) << run.message;
  EXPECT_EQ(intersections, 0);
  EXPECT_GT(max_active, 0);  // it did fold onto itself
  EXPECT_GE(min_sep, 0.5 * tau0);
  // Decaying: the mean kinetic energy over the last 0.5 s is below 0.2 % of the peak and below
  // its mean from 0.5 s to 1 s.
  const auto mean = [&](double from, double to) {
    double sum = 0.0;
    int count = 0;
    for (std::size_t k = 0; k < energies.size(); ++k) {
      const double t = (k + 1) * s.model.options.time_step;
      if (t > from && t <= to + 1e-9) {
        sum += energies[k];
        ++count;
      }
    }
    return sum / std::max(count, 1);
  };
  const double early = mean(0.5, 1.0), late = mean(s.duration - 0.5, s.duration);
  EXPECT_LT(late, 2e-3 * energy_peak);
  EXPECT_LT(late, early);
  std::printf("mean KE [0.5, 1] s %.3g J, last 0.5 s %.3g J\n", early, late);
  ::testing::Test::RecordProperty("min_separation_m", std::to_string(min_sep));
  ::testing::Test::RecordProperty("collision_retries", std::to_string(retries));
  ::testing::Test::RecordProperty("q", std::to_string(run.q));
}

TEST(Fold, SheetFoldsOntoItselfWithoutIntersections) {
  expect_clean_fold("fold.json");
}

TEST(Fold, TubeFromObjCollapsesWithoutIntersections) {
  // 3 s instead of the example's 1.5 s: the collapsed tube can rest at 1.0 s or tip over at
  // 1.2 s and rest by 2.8 s, depending on rounding alone (measured with two builds that differed
  // only in the summation order of the LDLᵀ's kernels); the energy of its last 0.5 s then measures
  // jitter, not when the tipping happened.
  expect_clean_fold("tube_drop.json", 3.0);
}

}  // namespace
}  // namespace clothfit::scenario
