// Issue 3, paper §6.3: datasets/examples/needles.json — a sheet dropped onto the needle field
// (c1 = 20, c2 = 0.075). At every recorded state no needle pierces a cloth face: for every peak o
// and every cloth triangle, the needle's axis — the vertical segment from o down to its base on the
// saddle height z0, which lies inside the needle's solid — does not meet the triangle (exact
// segment–triangle test). A face that a peak has poked through, or that has slid onto a needle's
// shaft, meets that segment. The sheet comes to rest hanging on the tips, above the pits. The same
// check on a run whose needle field is not known as one (no peak and axis rows, node constraints
// only) finds piercings, so it can fail.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "core/collision/triangle_triangle_intersection.hpp"
#include "core/obstacles/needle_field.hpp"
#include "core/scenario/simulation_run.hpp"
#include "core/stepper/self_collision_checks.hpp"
#include "support/test_paths.hpp"

namespace clothfit::scenario {
namespace {

// Kinetic energy at the end of a 3 s run (the example's 2 s and one more): the sheet is at rest.
// When it settles depends on slip events on the tips that move with any change of rounding: at
// 2 s the energy was 7.9e-6 J with the defaults and 1.4e-4 J with refactor_contraction 0.7 (a slip
// at 1.4 s), and with
// ε2 = 1e-7 it was 1.8e-5 J; at 3 s all six variants measured (three refactoring thresholds in
// one build, ε2 = 1e-6 and 1e-7, and this build) were below 4.1e-6 J.
constexpr double kRestEnergyJoules = 1e-5;
constexpr double kRestSeconds = 3.0;
constexpr double kHangingFraction = 0.75;  // mean node height above z0, as a fraction of the
                                           // spike height: it hangs on the tips

// The needle field's h without being a NeedleField: CollisionSet sees no needles, only the node
// constraints h(p) ≥ 0 of ContactSet remain.
class NeedleSurfaceOnly final : public obstacles::Obstacle {
 public:
  explicit NeedleSurfaceOnly(std::shared_ptr<const obstacles::Obstacle> field)
      : Obstacle(field->options()), m_field(std::move(field)) {}
  std::unique_ptr<Obstacle> clone() const override {
    return std::make_unique<NeedleSurfaceOnly>(m_field);
  }
  std::string_view type() const override { return "needle-surface"; }
  bool is_signed_distance() const override { return false; }
  obstacles::ValueAndGradient evaluate_rest(const Eigen::Vector3d& x) const override {
    return m_field->evaluate_rest(x);
  }
  Eigen::Vector3d surface_point_rest(const Eigen::Vector3d& x) const override {
    return m_field->surface_point_rest(x);
  }

 private:
  std::shared_ptr<const obstacles::Obstacle> m_field;
};

Scenario load_needles() {
  return load_scenario((testing::source_dir() / "datasets/examples/needles.json").string());
}

// Counts (needle, triangle) pairs where the needle's axis meets the triangle.
class PiercingCheck {
 public:
  PiercingCheck(const Scenario& s, const obstacles::NeedleField& field) : m_mesh(s.model.mesh) {
    // Every peak the sheet could reach: its starting rectangle grown by the sheet's size.
    Eigen::AlignedBox2d reach;
    for (int i = 0; i < m_mesh.num_nodes(); ++i)
      reach.extend(Eigen::Vector2d(s.initial_positions.segment<2>(3 * i)));
    const double size = (reach.max() - reach.min()).maxCoeff();
    reach.min().array() -= size;
    reach.max().array() += size;
    m_peaks = field.peaks(reach, 0.0);
    m_base_z = field.geometry().origin_m.z();
  }

  int count(const Eigen::VectorXd& phi) const {
    int pierced = 0;
    const auto x = [&](int i) -> Eigen::Vector3d { return phi.segment<3>(3 * i); };
    for (const Eigen::Vector3d& tip : m_peaks) {
      const Eigen::Vector3d base(tip.x(), tip.y(), m_base_z);
      for (const auto& t : m_mesh.triangles) {
        if (collision::segment_intersects_triangle(base, tip, x(t[0]), x(t[1]), x(t[2])))
          ++pierced;
      }
    }
    return pierced;
  }
  int peaks() const { return static_cast<int>(m_peaks.size()); }

 private:
  const mesh::QuadMesh& m_mesh;
  std::vector<Eigen::Vector3d> m_peaks;
  double m_base_z = 0.0;
};

TEST(NeedlesExample, NoNeedlePiercesTheSheetAndItRestsOnThePeaks) {
  Scenario s = load_needles();
  s.duration = kRestSeconds;
  ASSERT_EQ(s.model.obstacles.size(), 1u);
  const auto field =
      std::dynamic_pointer_cast<const obstacles::NeedleField>(s.model.obstacles.front());
  ASSERT_TRUE(field);
  const PiercingCheck check(s, *field);
  ASSERT_GT(check.peaks(), 9);
  int pierced = 0, non_finite = 0;
  Eigen::VectorXd last_positions, last_velocities;
  const RunSummary run = run_simulation(
      s, [&](const stepper::SimulationState& state, const stepper::StepReport* report) {
        if (!state.positions.allFinite()) {
          ++non_finite;
          return;
        }
        const int now = check.count(state.positions);
        EXPECT_EQ(now, 0) << "t = " << state.time;
        pierced += now;
        if (report != nullptr) {
          EXPECT_EQ(report->status, stepper::StepStatus::kConverged)
              << "t = " << state.time << ": " << report->message;
        }
        last_positions = state.positions;
        last_velocities = state.velocities;
      });
  EXPECT_TRUE(run.ok()) << run.message;
  EXPECT_EQ(non_finite, 0);
  EXPECT_EQ(pierced, 0);
  ASSERT_EQ(run.steps, 300);

  // At rest, hanging on the tips: every node above the saddle height z0 (nothing went down into
  // the pits, whose bottoms are 0.667 m below it), the mean height near the tips.
  const double z0 = field->geometry().origin_m.z();
  const double height = field->geometry().peak_height_m();
  double lowest = 1e9, mean = 0.0;
  const int n = s.model.mesh.num_nodes();
  for (int i = 0; i < n; ++i) {
    lowest = std::min(lowest, last_positions[3 * i + 2] - z0);
    mean += (last_positions[3 * i + 2] - z0) / n;
  }
  const double energy =
      testing::kinetic_energy(s.model.mesh, s.model.material.density, last_velocities);
  std::printf("at %.0f s: lowest node %.3f m, mean %.3f m above z0 (tips at %.3f m), KE %.3g J\n",
              kRestSeconds, lowest, mean, height, energy);
  EXPECT_GT(lowest, 0.0);
  EXPECT_GT(mean, kHangingFraction * height);
  EXPECT_LT(mean, height);
  EXPECT_LT(energy, kRestEnergyJoules);
  RecordProperty("q", std::to_string(run.q));
}

TEST(NeedlesExample, WithoutNeedleRowsTheCheckFindsPiercings) {
  Scenario s = load_needles();
  const auto field =
      std::dynamic_pointer_cast<const obstacles::NeedleField>(s.model.obstacles.front());
  ASSERT_TRUE(field);
  s.model.obstacles.front() = std::make_shared<NeedleSurfaceOnly>(field);
  s.duration = 0.5;
  const PiercingCheck check(s, *field);
  int pierced = 0;
  run_simulation(s, [&](const stepper::SimulationState& state, const stepper::StepReport*) {
    pierced += check.count(state.positions);
  });
  std::printf("%d (needle, face, state) piercings in 0.5 s with node constraints only\n", pierced);
  EXPECT_GT(pierced, 0);
}

}  // namespace
}  // namespace clothfit::scenario
