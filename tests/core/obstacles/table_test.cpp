#include "core/obstacles/table.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "finite_difference.hpp"
#include "support/random_vector.hpp"

namespace clothfit::obstacles {
namespace {

constexpr double kTight = 1e-12;
constexpr double kFd = 1e-6;

// Top face centred at (1, 2, 0.75), 1.2 m × 0.8 m, 4 cm thick, edges rounded by 1 cm.
TableGeometry table_geometry(double edge_radius = 0.01) {
  TableGeometry g;
  g.top_centre_m = Eigen::Vector3d(1.0, 2.0, 0.75);
  g.size_x_m = 1.2;
  g.size_y_m = 0.8;
  g.thickness_m = 0.04;
  g.edge_radius_m = edge_radius;
  return g;
}

void expect_value_and_gradient(const Obstacle& o, const Eigen::Vector3d& x, double h,
                               const Eigen::Vector3d& grad) {
  const ValueAndGradient vg = o.evaluate(x, 0.0);
  EXPECT_NEAR(vg.value, h, kTight) << "at " << x.transpose();
  EXPECT_LT((vg.gradient - grad).norm(), 1e-12) << "at " << x.transpose();
}

TEST(Table, ValuesAboveOnAndInsideTheTop) {
  const Table t(table_geometry(), ObstacleOptions{});
  expect_value_and_gradient(t, {1.0, 2.0, 0.80}, 0.05, {0, 0, 1});    // above the centre
  expect_value_and_gradient(t, {1.5, 2.3, 0.75}, 0.0, {0, 0, 1});     // on the top, off centre
  expect_value_and_gradient(t, {1.0, 2.0, 0.74}, -0.01, {0, 0, 1});   // inside, near the top
  expect_value_and_gradient(t, {1.0, 2.0, 0.72}, -0.01, {0, 0, -1});  // inside, near the bottom
  // Mid-slab: equally near the top and the bottom; either normal, unit length.
  const ValueAndGradient mid = t.evaluate({1.0, 2.0, 0.73}, 0.0);
  EXPECT_NEAR(mid.value, -0.02, kTight);
  EXPECT_NEAR(std::abs(mid.gradient.z()), 1.0, kTight);
  expect_value_and_gradient(t, {1.0, 2.0, 0.5}, 0.21, {0, 0, -1});  // under the table
  EXPECT_EQ(t.type(), "table");
  EXPECT_TRUE(t.is_signed_distance());
}

TEST(Table, ValuesBeyondTheEdgesWhereClothHangs) {
  const Table t(table_geometry(), ObstacleOptions{});
  // Beside the +x side, at mid-thickness: 0.1 m from the side.
  expect_value_and_gradient(t, {1.7, 2.1, 0.73}, 0.1, {1, 0, 0});
  // Beside the −y side.
  expect_value_and_gradient(t, {0.8, 1.55, 0.74}, 0.05, {0, -1, 0});
  // Above and beyond the +x top edge: distance to the rounded edge. Inner box half extents
  // (0.59, 0.39, 0.01) about the slab centre (1, 2, 0.73); q = (0.63, 0, 0.06) → beyond the
  // inner box by (0.04, 0, 0.05), |·| = 0.0640312, minus ρ = 0.01.
  const double n = std::hypot(0.04, 0.05);
  expect_value_and_gradient(t, {1.63, 2.0, 0.79}, n - 0.01, {0.04 / n, 0, 0.05 / n});
  // A hanging node well below the −x edge: beyond by (0.06, 0, 0.42).
  const double m = std::hypot(0.06, 0.42);
  expect_value_and_gradient(t, {0.35, 2.1, 0.30}, m - 0.01, {-0.06 / m, 0, -0.42 / m});
  // Off a top corner, diagonally: beyond by (0.03, 0.04, 0.12) in (+x, −y, +z).
  const double k = std::sqrt(0.03 * 0.03 + 0.04 * 0.04 + 0.12 * 0.12);
  expect_value_and_gradient(t, {1.62, 1.57, 0.86}, k - 0.01, {0.03 / k, -0.04 / k, 0.12 / k});
}

TEST(Table, RoundedEdgeSurfaceIsAtZeroAndNormalTurnsSmoothly) {
  // Walk over the +x top edge on the rounded surface: h = 0 and ∇h turns from ẑ to x̂.
  const double rho = 0.01;
  const Table t(table_geometry(rho), ObstacleOptions{});
  const Eigen::Vector3d edge_centre(1.0 + 0.6 - rho, 2.0, 0.75 - rho);  // axis of the rounding
  Eigen::Vector3d previous = Eigen::Vector3d::UnitZ();
  for (int k = 0; k <= 20; ++k) {
    const double phi = 0.5 * std::numbers::pi * k / 20.0;  // 0: top, π/2: side
    const Eigen::Vector3d n(std::sin(phi), 0, std::cos(phi));
    const ValueAndGradient vg = t.evaluate(edge_centre + rho * n, 0.0);
    EXPECT_NEAR(vg.value, 0.0, kTight);
    EXPECT_LT((vg.gradient - n).norm(), 1e-12);
    EXPECT_LT((vg.gradient - previous).norm(), 0.08);  // steps of π/40 rad
    previous = vg.gradient;
  }
}

TEST(Table, SharpBoxEdgesStillHaveUnitGradients) {
  // Dimensions exact in binary, so that points exactly on an edge can be written down.
  TableGeometry g;
  g.top_centre_m = Eigen::Vector3d(0.0, 0.0, 1.0);
  g.size_x_m = 2.0;
  g.size_y_m = 1.0;
  g.thickness_m = 0.5;
  g.edge_radius_m = 0.0;
  const Table t(g, ObstacleOptions{});
  // Exactly on the +x top edge, on a top corner and on a vertical edge: h = 0 and a unit
  // gradient (the x face, by the documented tie rule x before y before z).
  expect_value_and_gradient(t, {1.0, 0.25, 1.0}, 0.0, {1, 0, 0});
  expect_value_and_gradient(t, {1.0, 0.5, 1.0}, 0.0, {1, 0, 0});
  expect_value_and_gradient(t, {-1.0, -0.5, 0.75}, 0.0, {-1, 0, 0});
  expect_value_and_gradient(t, {0.25, -0.5, 0.5}, 0.0, {0, -1, 0});  // bottom edge
  // Outside, near the edge, the gradient points from the edge.
  expect_value_and_gradient(t, {1.03, 0.0, 1.04}, 0.05, {0.6, 0, 0.8});
}

TEST(Table, YawTurnsTheTableAboutTheVertical) {
  TableGeometry g = table_geometry();
  g.yaw_rad = 0.4;
  const Table turned(g, ObstacleOptions{});
  const Table straight(table_geometry(), ObstacleOptions{});
  const Eigen::Matrix3d rz = Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  std::mt19937 rng(5);
  for (int i = 0; i < 200; ++i) {
    const Eigen::Vector3d y =
        testing::random_point(rng, Eigen::Vector3d(0.0, 1.2, 0.4), Eigen::Vector3d(2.0, 2.8, 1.0));
    const Eigen::Vector3d x = g.top_centre_m + rz * (y - g.top_centre_m);
    const ValueAndGradient expected = straight.evaluate(y, 0.0);
    const ValueAndGradient got = turned.evaluate(x, 0.0);
    EXPECT_NEAR(got.value, expected.value, 1e-12);
    EXPECT_LT((got.gradient - rz * expected.gradient).norm(), 1e-10);
  }
}

TEST(Table, GradientMatchesFiniteDifferencesAwayFromKinks) {
  for (const double rho : {0.0, 0.01}) {
    TableGeometry g = table_geometry(rho);
    g.yaw_rad = -0.3;
    const Table t(g, ObstacleOptions{});
    std::mt19937 rng(6);
    int checked = 0;
    for (int i = 0; i < 800; ++i) {
      // Around the slab, mostly close to it: the top, the edges, the hanging region below.
      const Eigen::Vector3d x = testing::random_point(rng, Eigen::Vector3d(0.2, 1.4, 0.60),
                                                      Eigen::Vector3d(1.8, 2.6, 0.85));
      // Kinks lie inside the inner box, where the two largest per-axis distances tie (and, for
      // ρ = 0, on the surface edges); stay 1e-4 away from them.
      const Eigen::Matrix3d rz =
          Eigen::AngleAxisd(g.yaw_rad, Eigen::Vector3d::UnitZ()).toRotationMatrix();
      const Eigen::Vector3d q =
          rz.transpose() * (x - g.top_centre_m + 0.5 * g.thickness_m * Eigen::Vector3d::UnitZ());
      Eigen::Vector3d d = q.cwiseAbs() -
                          0.5 * Eigen::Vector3d(g.size_x_m, g.size_y_m, g.thickness_m) +
                          Eigen::Vector3d::Constant(rho);
      if (d.maxCoeff() < 1e-4) {
        std::sort(d.data(), d.data() + 3);
        if (d[2] - d[1] < 1e-4)
          continue;
      }
      // Within 1e-3 of a sharp edge h curves like 1/h: covered with a finer step below.
      if (rho == 0.0 && std::abs(t.value(x, 0.0)) < 1e-3)
        continue;
      const Eigen::Vector3d fd = testing::central_difference_gradient(
          [&](const Eigen::Vector3d& y) { return t.value(y, 0.0); }, x);
      const Eigen::Vector3d grad = t.gradient(x, 0.0);
      EXPECT_LT((grad - fd).norm(), kFd) << "rho " << rho << " at " << x.transpose();
      EXPECT_NEAR(grad.norm(), 1.0, kTight);
      ++checked;
    }
    EXPECT_GT(checked, 700);
  }
}

TEST(Table, GradientMatchesFiniteDifferencesJustOutsideTheRoundedEdges) {
  // 1e-4 outside the rounded edge of every kind (top edges, vertical edges, bottom edges) and the
  // corners: smooth there.
  const double rho = 0.01;
  const Table t(table_geometry(rho), ObstacleOptions{});
  const Eigen::Vector3d slab_centre(1.0, 2.0, 0.73);
  const Eigen::Vector3d inner(0.59, 0.39, 0.01);
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 200; ++i) {
    // A random direction with at least two clearly nonzero components and a point on the inner
    // box's edge or corner in the matching octant.
    Eigen::Vector3d dir = clothfit::testing::random_vector3(u, rng);
    const int flat = i % 4;  // 0, 1, 2: that component is zero (an edge); 3: a corner
    if (flat < 3)
      dir[flat] = 0.0;
    if ((dir.cwiseAbs().array() < 0.1).count() > (flat < 3 ? 1 : 0))
      continue;
    dir.normalize();
    Eigen::Vector3d base = inner.cwiseProduct(dir.cwiseSign());
    if (flat < 3)
      base[flat] = 0.5 * u(rng) * inner[flat];
    const Eigen::Vector3d x = slab_centre + base + (rho + 1e-4) * dir;
    EXPECT_NEAR(t.value(x, 0.0), 1e-4, kTight);
    const Eigen::Vector3d fd = testing::central_difference_gradient(
        [&](const Eigen::Vector3d& y) { return t.value(y, 0.0); }, x);
    EXPECT_LT((t.gradient(x, 0.0) - fd).norm(), kFd) << x.transpose();
    EXPECT_LT((t.gradient(x, 0.0) - dir).norm(), 1e-10);
  }
}

}  // namespace
}  // namespace clothfit::obstacles
