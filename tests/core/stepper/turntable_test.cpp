// Friction against a moving obstacle, measured relative to its surface: a square sheet lying at
// rest, centred, on a horizontal turntable (a plane turning about the vertical z axis at ω from
// t = 0). Lying flat, the inextensible sheet can only move rigidly; by symmetry it turns about the
// axis, and while it slips every node's friction μ m_i g' acts along its slip, i.e. tangentially:
//   I dΩ/dt = μ g' Σ m_i r_i   (I = Σ m_i r_i², lumped node masses m_i at distances r_i),
// so Ω = β t with β = μ g' Σ m_i r_i / I until Ω = ω at t* = ω / β; then it turns with the table
// (a rigid sheet turning about its centre of mass needs no net force). With implicit Euler the
// angle after n steps is β Δt² n(n+1)/2 while it slips.
// The friction's displacement per step, μ g' Δt² = 4.9e-5 m here, is only five times the
// projection's default increment tolerance ε2 = 1e-5 m, and steps that stop that early leave
// part of it out: with the defaults the sheet reaches ω at 1.14 t* (measured 2026-11-25). The
// test runs with ε2 = 1e-7 m, where the comparison measures the friction and not the stopping
// test: the angle within 2 % of the rigid body's while it slips (measured within 1 %), ω reached
// within 3 % of t* (measured 0.987 t*), then the table's ω. Friction taken against the absolute
// instead of the relative velocity never turns the sheet; friction bounds ×1.1 fail it too.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "core/mesh/quad_mesh.hpp"
#include "core/scenario/simulation_run.hpp"

namespace clothfit::scenario {
namespace {

constexpr double kOmega = 2.0;   // rad/s, the table's
constexpr double kMu = 0.05;     // friction coefficient
constexpr double kSide = 0.2;    // m, the sheet's
constexpr double kRho = 0.1042;  // kg/m², ρ = δ

Scenario turntable(double seconds) {
  const double degrees = kOmega * 10.0 * 180.0 / std::numbers::pi;  // the angle at t = 10 s
  nlohmann::json j = {
      {"name", "turntable"},
      {"cloth",
       {{"mesh",
         {{"type", "grid"}, {"width", kSide}, {"height", kSide}, {"nodes_x", 5}, {"nodes_y", 5}}},
        {"placement", {{"translation", {-kSide / 2, -kSide / 2, 0.0}}}},
        {"density", kRho},
        {"virtual_density", kRho},
        {"damping", 0.0}}},
      {"time", {{"duration", seconds}, {"time_step", 0.01}}},
      {"solver", {{"increment_tolerance", 1e-7}}},
      {"obstacles",
       {{{"type", "plane"},
         {"name", "table"},
         {"friction", kMu},
         {"motion",
          {{"rotation",
            {{"axis", {0, 0, 1}},
             {"pivot", {0, 0, 0}},
             {"keyframes",
              {{{"time", 0.0}, {"angle_deg", 0.0}},
               {{"time", 10.0}, {"angle_deg", degrees}}}}}}}}}}}};
  return parse_scenario(j, "turntable.json");
}

// The sheet's angle about z: the mean over its nodes off the axis of the angle each turned.
double turned(const Eigen::VectorXd& phi, const Eigen::VectorXd& start) {
  double sum = 0.0;
  int count = 0;
  for (Eigen::Index i = 0; i < phi.size() / 3; ++i) {
    const Eigen::Vector2d a = start.segment<2>(3 * i), b = phi.segment<2>(3 * i);
    if (a.norm() < 1e-9)
      continue;
    sum += std::atan2(a.x() * b.y() - a.y() * b.x(), a.dot(b));
    ++count;
  }
  return sum / count;
}

TEST(Turntable, SheetIsSpunUpByFrictionRelativeToTheTurningSurface) {
  const Scenario s = turntable(0.8);
  const Eigen::VectorXd area = mesh::lumped_areas(s.model.mesh);
  double first = 0.0, second = 0.0;  // Σ m r and Σ m r² (ρ cancels)
  for (int i = 0; i < s.model.mesh.num_nodes(); ++i) {
    const double r = s.initial_positions.segment<2>(3 * i).norm();
    first += area[i] * r;
    second += area[i] * r * r;
  }
  const double beta = kMu * forces::kGravity * first / second;
  const double dt = s.model.options.time_step;
  const double lock_time = kOmega / beta;
  ASSERT_GT(lock_time, 0.2);  // many steps of slipping
  ASSERT_LT(lock_time, 0.4);  // and of turning with the table after it

  std::vector<double> angles{0.0};  // after each step
  const RunSummary run = run_simulation(s, [&](const auto& state, const auto* report) {
    if (report != nullptr)
      angles.push_back(turned(state.positions, s.initial_positions));
  });
  ASSERT_TRUE(run.ok()) << run.message;
  ASSERT_EQ(angles.size(), 81u);
  // Ω over step n (the angle turned per step is atan(Ω Δt) for a rigid rotation by Ω Δt).
  const auto omega = [&](int n) { return std::tan(angles[n] - angles[n - 1]) / dt; };
  int locked = 0;
  while (locked + 1 < static_cast<int>(angles.size()) && omega(locked + 1) < 0.99 * kOmega)
    ++locked;
  const double reached = (locked + 1) * dt;
  EXPECT_NEAR(reached / lock_time, 1.0, 0.03)
      << "β = " << beta << " rad/s², t* = " << lock_time << " s";
  for (int n = 5; n < locked && n * dt < lock_time - dt; ++n) {
    const double rigid = beta * dt * dt * n * (n + 1) / 2.0;
    EXPECT_NEAR(angles[n] / rigid, 1.0, 0.02) << "step " << n;
  }
  for (int n = locked + 10; n < static_cast<int>(angles.size()); ++n)
    EXPECT_NEAR(omega(n), kOmega, 1e-3 * kOmega) << "step " << n;
}

}  // namespace
}  // namespace clothfit::scenario
