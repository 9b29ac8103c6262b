// Bending (DESIGN.md §1, κ > 0): the operator K = L_intᵀ M_int⁻¹ L_int against closed forms, the
// unconstrained step that carries it implicitly against the equation it solves, and a bent sheet
// that flattens with bending stiffness and stays bent without it. Bending had no test before
// 2026-11-27.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>

#include "core/forces/bending_matrix.hpp"
#include "core/forces/unconstrained_step.hpp"
#include "core/stepper/time_stepper.hpp"

namespace clothfit::forces {
namespace {

// Coordinate `d` of every node of the stacked positions `phi` (3N), as K acts on it.
Eigen::VectorXd coordinate(const Eigen::VectorXd& phi, int d) {
  return Eigen::Map<const Eigen::VectorXd, 0, Eigen::InnerStride<3>>(phi.data() + d,
                                                                     phi.size() / 3);
}

// The lumped area of the interior nodes, where K has its rows.
double interior_area(const mesh::QuadMesh& mesh) {
  const Eigen::VectorXd area = mesh::lumped_areas(mesh);
  double sum = 0.0;
  for (int i = 0; i < mesh.num_nodes(); ++i)
    sum += mesh.is_boundary_node[i] ? 0.0 : area[i];
  return sum;
}

TEST(BendingMatrix, IsSymmetricPositiveSemidefiniteAndZeroOnAffineShapes) {
  const mesh::QuadMesh mesh = mesh::make_grid_mesh(0.42, 0.594, 7, 9);
  const Eigen::MatrixXd k = Eigen::MatrixXd(bending_matrix(mesh));
  EXPECT_LT((k - k.transpose()).cwiseAbs().maxCoeff(), 1e-14 * k.cwiseAbs().maxCoeff());
  const Eigen::VectorXd eigenvalues =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(k).eigenvalues();
  EXPECT_GT(eigenvalues.minCoeff(), -1e-10 * eigenvalues.maxCoeff());
  // A flat sheet, however placed, has no bending energy: K f = 0 for f affine in x and y.
  const Eigen::VectorXd x = coordinate(mesh.rest_positions, 0);
  const Eigen::VectorXd y = coordinate(mesh.rest_positions, 1);
  const Eigen::VectorXd one = Eigen::VectorXd::Ones(mesh.num_nodes());
  for (const Eigen::VectorXd& f : {one, x, y, Eigen::VectorXd(0.3 * one - 1.7 * x + 2.9 * y)})
    EXPECT_LT((k * f).norm(), 1e-12 * k.norm() * f.norm());
}

// ½ zᵀ K z is ½ ∫ (Δz)² over the interior nodes' area, exactly (to rounding) for quadratics on a
// uniform grid (the bilinear elements' Laplacian of x² is exact): a cylinder z = ½ c x² or ½ c y²
// gives ½ c² A_int, a bowl ½ c (x² + y²) 2 c² A_int. A saddle z = c x y has Δz = 0 and no energy:
// this bending measures mean curvature, not twist.
TEST(BendingMatrix, EnergyOfQuadraticShapesIsHalfTheSquaredLaplacianOverTheInteriorArea) {
  const double c = 3.0;  // 1/m
  for (const auto& [width, height, nodes_x, nodes_y] :
       {std::tuple{0.42, 0.594, 7, 9}, std::tuple{1.3, 1.3, 14, 14}, std::tuple{0.2, 0.9, 5, 31}}) {
    const mesh::QuadMesh mesh = mesh::make_grid_mesh(width, height, nodes_x, nodes_y);
    const Eigen::SparseMatrix<double> k = bending_matrix(mesh);
    const Eigen::VectorXd x = coordinate(mesh.rest_positions, 0);
    const Eigen::VectorXd y = coordinate(mesh.rest_positions, 1);
    const double a = interior_area(mesh);
    const auto energy = [&k](const Eigen::VectorXd& z) { return 0.5 * z.dot(k * z); };
    SCOPED_TRACE(std::to_string(nodes_x) + " x " + std::to_string(nodes_y));
    EXPECT_NEAR(energy(0.5 * c * x.cwiseProduct(x)), 0.5 * c * c * a, 1e-10 * c * c * a);
    EXPECT_NEAR(energy(0.5 * c * y.cwiseProduct(y)), 0.5 * c * c * a, 1e-10 * c * c * a);
    EXPECT_NEAR(energy(0.5 * c * (x.cwiseProduct(x) + y.cwiseProduct(y))), 2.0 * c * c * a,
                1e-10 * c * c * a);
    EXPECT_NEAR(energy(c * x.cwiseProduct(y)), 0.0, 1e-10 * c * c * a);
  }
}

// The step solves (ρM + Δt α M + Δt² κ K) φ0 = (ρM + Δt α M) φⁿ + Δt ρ M φ̇ⁿ − Δt² δ g M ẑ per
// coordinate (unconstrained_step.hpp); checked on random states, with and without bending.
TEST(UnconstrainedStep, SolvesTheImplicitEulerEquationWithAndWithoutBending) {
  const mesh::QuadMesh mesh = mesh::make_grid_mesh(0.42, 0.594, 7, 9);
  const Eigen::SparseMatrix<double> k = bending_matrix(mesh);
  const Eigen::VectorXd m = mesh::lumped_areas(mesh);
  const int n = mesh.num_nodes();
  const double dt = 0.01;
  for (double kappa : {0.0, 1e-4, 1e-2}) {
    ClothMaterial material;
    material.density = 0.1042;
    material.virtual_density = 0.08;
    material.damping = 0.2;
    material.bending = kappa;
    const UnconstrainedStep step(mesh, material, dt);
    std::srand(7);
    const Eigen::VectorXd phi = mesh.rest_positions + 0.05 * Eigen::VectorXd::Random(3 * n);
    const Eigen::VectorXd velocity = Eigen::VectorXd::Random(3 * n);
    Eigen::VectorXd phi0;
    step.compute(phi, velocity, &phi0);
    const double damped = material.density + dt * material.damping;
    for (int d = 0; d < 3; ++d) {
      const Eigen::VectorXd p = coordinate(phi, d), p0 = coordinate(phi0, d);
      const Eigen::VectorXd v = coordinate(velocity, d);
      Eigen::VectorXd rhs = damped * m.cwiseProduct(p) + dt * material.density * m.cwiseProduct(v);
      if (d == 2)
        rhs -= dt * dt * material.virtual_density * kGravity * m;
      const Eigen::VectorXd lhs = damped * m.cwiseProduct(p0) + dt * dt * kappa * (k * p0);
      EXPECT_LT((lhs - rhs).norm(), 1e-13 * rhs.norm())
          << "kappa " << kappa << ", coordinate " << d;
    }
  }
}

// A 7 × 9 sheet rolled into a third of a cylinder (radius 0.2 m, edges along the roll keeping
// their length), free, without gravity (δ = 0), α = 0.5: with κ = 1e-3 N·m it unrolls — its bending
// energy falls below 1 % of the start within 2 s (slowest mode ≈ e^(−α t / 2ρ)); with κ = 0 nothing
// pushes it and it stays rolled.
TEST(Bending, ARolledSheetUnrollsWithStiffnessAndStaysRolledWithout) {
  const mesh::QuadMesh flat = mesh::make_grid_mesh(0.42, 0.594, 7, 9);
  const double radius = 0.2, h = 0.42 / 6.0;
  const double step_angle = 2.0 * std::asin(h / (2.0 * radius));  // chords of length h
  Eigen::VectorXd rolled = flat.rest_positions;
  for (int i = 0; i < flat.num_nodes(); ++i) {
    const double angle = step_angle * std::round(flat.rest_position(i).x() / h);
    rolled[3 * i] = radius * std::sin(angle);
    rolled[3 * i + 2] = radius * (1.0 - std::cos(angle));
  }
  const Eigen::SparseMatrix<double> k = bending_matrix(flat);
  const auto bending_energy = [&k](const Eigen::VectorXd& phi) {
    double e = 0.0;
    for (int d = 0; d < 3; ++d) {
      const Eigen::VectorXd c = coordinate(phi, d);
      e += 0.5 * c.dot(k * c);
    }
    return e;
  };
  const double start = bending_energy(rolled);
  ASSERT_GT(start, 0.0);
  for (double kappa : {1e-3, 0.0}) {
    stepper::SimulationModel model;
    model.mesh = flat;
    model.material.density = 0.1042;
    model.material.virtual_density = 0.0;
    model.material.damping = 0.5;
    model.material.bending = kappa;
    stepper::TimeStepper stepper(model);
    stepper::SimulationState state = stepper.initial_state(rolled);
    for (int n = 0; n < 200; ++n) {
      const stepper::StepReport report = stepper.step(&state);
      ASSERT_EQ(report.status, stepper::StepStatus::kConverged) << report.message;
    }
    const double end = bending_energy(state.positions);
    std::printf("kappa %g: bending energy after 2 s / at the start = %.3g\n", kappa, end / start);
    if (kappa > 0.0) {
      EXPECT_LT(end, 0.01 * start) << "kappa " << kappa;
    } else {
      EXPECT_GT(end, 0.9 * start);
    }
  }
}

}  // namespace
}  // namespace clothfit::forces
