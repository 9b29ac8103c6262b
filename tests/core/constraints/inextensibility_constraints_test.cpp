#include "core/constraints/inextensibility_constraints.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <random>
#include <sstream>
#include <string>

#include "core/mesh/obj_reader.hpp"
#include "support/finite_difference.hpp"

namespace clothfit::constraints {
namespace {

constexpr double kJacobianTolerance = 1e-7;  // relative, central differences with h = 1e-6

Eigen::VectorXd perturbed(const Eigen::VectorXd& x, double amplitude, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-amplitude, amplitude);
  Eigen::VectorXd y = x;
  for (Eigen::Index i = 0; i < y.size(); ++i)
    y[i] += u(rng);
  return y;
}

void expect_jacobian_matches_finite_differences(const mesh::QuadMesh& mesh, unsigned seed) {
  const InextensibilityConstraints c(mesh);
  const Eigen::VectorXd phi = perturbed(mesh.rest_positions, 0.05, seed);
  SparseRowMatrix jacobian = c.make_jacobian();
  Eigen::VectorXd values;
  c.evaluate(phi, &values, &jacobian);
  const auto f = [&](const Eigen::VectorXd& x) {
    Eigen::VectorXd v;
    c.evaluate(x, &v, nullptr);
    return v;
  };
  const Eigen::MatrixXd numeric = testing::finite_difference_jacobian(f, phi);
  EXPECT_LT(testing::relative_max_error(Eigen::MatrixXd(jacobian), numeric), kJacobianTolerance);
}

// A closed tube (a cylinder without caps) of quads: non-trivial topology, curved rest shape.
const char* kTubeObj = R"(# tube: 6 around, 3 rings
v 0.1 0 0
v 0.05 0.0866 0
v -0.05 0.0866 0
v -0.1 0 0
v -0.05 -0.0866 0
v 0.05 -0.0866 0
v 0.1 0 0.1
v 0.05 0.0866 0.1
v -0.05 0.0866 0.1
v -0.1 0 0.1
v -0.05 -0.0866 0.1
v 0.05 -0.0866 0.1
v 0.1 0 0.2
v 0.05 0.0866 0.2
v -0.05 0.0866 0.2
v -0.1 0 0.2
v -0.05 -0.0866 0.2
v 0.05 -0.0866 0.2
f 1 2 8 7
f 2 3 9 8
f 3 4 10 9
f 4 5 11 10
f 5 6 12 11
f 6 1 7 12
f 7 8 14 13
f 8 9 15 14
f 9 10 16 15
f 10 11 17 16
f 11 12 18 17
f 12 7 13 18
)";

TEST(InextensibilityConstraints, CountsMatchThePaperFor7x9) {
  const InextensibilityConstraints c(mesh::make_grid_mesh(0.42, 0.594, 7, 9));
  EXPECT_EQ(c.num_metric(), 3 * 5 * 7);
  EXPECT_EQ(c.size(), 133);
  EXPECT_EQ(c.num_variables(), 189);
}

TEST(InextensibilityConstraints, VanishAtRestAndUnderRigidMotions) {
  const mesh::QuadMesh mesh = mesh::make_grid_mesh(0.42, 0.594, 7, 9);
  const InextensibilityConstraints c(mesh);
  Eigen::VectorXd values;
  c.evaluate(mesh.rest_positions, &values, nullptr);
  EXPECT_LT(values.lpNorm<Eigen::Infinity>(), 1e-13);
  const Eigen::Matrix3d r =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  Eigen::VectorXd moved = mesh.rest_positions;
  for (int i = 0; i < mesh.num_nodes(); ++i) {
    moved.segment<3>(3 * i) = r * mesh.rest_position(i) + Eigen::Vector3d(5, -3, 2);
  }
  c.evaluate(moved, &values, nullptr);
  EXPECT_LT(values.lpNorm<Eigen::Infinity>(), 1e-12);
}

TEST(InextensibilityConstraints, AFoldAlongAGridLineIsAnIsometry) {
  // Folding by 90° along the row y = y_3 moves every quad rigidly: every constraint stays zero.
  const mesh::QuadMesh mesh = mesh::make_grid_mesh(0.6, 0.8, 7, 9);
  const InextensibilityConstraints c(mesh);
  const double fold_y = 0.3;
  Eigen::VectorXd folded = mesh.rest_positions;
  for (int i = 0; i < mesh.num_nodes(); ++i) {
    const Eigen::Vector3d p = mesh.rest_position(i);
    if (p.y() > fold_y)
      folded.segment<3>(3 * i) = Eigen::Vector3d(p.x(), fold_y, p.y() - fold_y);
  }
  Eigen::VectorXd values;
  c.evaluate(folded, &values, nullptr);
  EXPECT_LT(values.lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LT(c.max_violation(folded), 1e-12);
}

TEST(InextensibilityConstraints, StretchingIsDetectedWithTheDocumentedScale) {
  // Scaling by (1 + s) scales every metric entry by (1 + s)², every edge length by (1 + s).
  const mesh::QuadMesh mesh = mesh::make_grid_mesh(0.42, 0.594, 7, 9);
  const InextensibilityConstraints c(mesh);
  const double s = 0.01;
  EXPECT_NEAR(c.max_violation(mesh.rest_positions * (1 + s)), (1 + s) * (1 + s) - 1, 1e-12);
  Eigen::VectorXd values;
  c.evaluate(mesh.rest_positions * (1 + s), &values, nullptr);
  // E_k and G_k rows move by (1+s)² − 1, F_k rows stay 0.
  EXPECT_NEAR(values[0], (1 + s) * (1 + s) - 1, 1e-12);
  EXPECT_NEAR(values[1], 0.0, 1e-12);
  EXPECT_NEAR(values[2], (1 + s) * (1 + s) - 1, 1e-12);
}

TEST(InextensibilityConstraints, TheWorstRowIsFoundAndNamed) {
  // 3 × 3 nodes, 0.1 m apart: node 4 is the one interior node (rows 0–2), the 8 boundary edges
  // follow. Corner 0 pulled 1 cm along −x stretches edge 0–1 by 10 %; edge 0–3 turns and
  // lengthens by 0.5 %, and node 4's metric sees the stretch only through its far corner.
  const mesh::QuadMesh mesh = mesh::make_grid_mesh(0.2, 0.2, 3, 3);
  const InextensibilityConstraints c(mesh);
  ASSERT_EQ(c.num_metric(), 3);
  EXPECT_EQ(c.describe(0), "E at node 4");
  EXPECT_EQ(c.describe(1), "F at node 4");
  EXPECT_EQ(c.describe(2), "G at node 4");
  Eigen::VectorXd phi = mesh.rest_positions;
  phi[0] -= 0.01;
  Eigen::VectorXd values;
  c.evaluate(phi, &values, nullptr);
  const int worst = c.worst_row_of(values);
  EXPECT_GE(worst, c.num_metric());
  const std::string name = c.describe(worst);
  EXPECT_TRUE(name == "the boundary edge between nodes 0 and 1" ||
              name == "the boundary edge between nodes 1 and 0")
      << name;
  EXPECT_NEAR(c.max_violation_of(values), 0.1, 1e-12);
  // At rest every row is 0: the first is as good as any.
  c.evaluate(mesh.rest_positions, &values, nullptr);
  EXPECT_EQ(c.worst_row_of(values), 0);
}

TEST(InextensibilityConstraints, FlatSheetJacobianIsRankDeficientAsDesignSays) {
  // DESIGN.md §2 traps: 7×9 flat has rank 118 of 133.
  const mesh::QuadMesh mesh = mesh::make_grid_mesh(0.42, 0.594, 7, 9);
  const InextensibilityConstraints c(mesh);
  SparseRowMatrix jacobian = c.make_jacobian();
  Eigen::VectorXd values;
  c.evaluate(mesh.rest_positions, &values, &jacobian);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd{Eigen::MatrixXd(jacobian)};
  const Eigen::VectorXd sigma = svd.singularValues();
  int rank = 0;
  for (Eigen::Index i = 0; i < sigma.size(); ++i)
    rank += sigma[i] > 1e-9 * sigma[0];
  EXPECT_EQ(rank, 118);
  // Away from flat it has full row rank.
  c.evaluate(perturbed(mesh.rest_positions, 0.02, 3), &values, &jacobian);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd2{Eigen::MatrixXd(jacobian)};
  EXPECT_GT(svd2.singularValues().minCoeff(), 1e-6 * svd2.singularValues()[0]);
}

TEST(InextensibilityConstraints, GridJacobianMatchesFiniteDifferences) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    expect_jacobian_matches_finite_differences(mesh::make_grid_mesh(0.42, 0.594, 5, 6), seed);
  }
  // Non-square cells.
  expect_jacobian_matches_finite_differences(mesh::make_grid_mesh(1.3, 0.2, 4, 7), 11);
}

TEST(InextensibilityConstraints, ObjMeshJacobianMatchesFiniteDifferences) {
  std::istringstream in(kTubeObj);
  const mesh::QuadMesh tube = mesh::read_obj_quad_mesh(in, "tube.obj");
  const InextensibilityConstraints c(tube);
  // 6 interior nodes (middle ring) × 3 + 12 boundary edges (two rings of 6).
  EXPECT_EQ(c.size(), 6 * 3 + 12);
  Eigen::VectorXd values;
  c.evaluate(tube.rest_positions, &values, nullptr);
  EXPECT_LT(values.lpNorm<Eigen::Infinity>(), 1e-12);
  for (unsigned seed = 5; seed <= 7; ++seed)
    expect_jacobian_matches_finite_differences(tube, seed);
}

// The Newton projection's curvature model K(λ) (N × N, K ⊗ I₃ over the coordinates) is the exact
// Hessian Σ λ_i ∇²C_i when only rows with a semidefinite Q_i carry tension (λ ≥ 0 on E, G and the
// boundary edges, λ_F = 0); with shear multipliers it adds |λ_F| (Q_E + Q_G), which bounds the
// indefinite shear part from below. Checked against central differences of ∇Cᵀλ.
Eigen::MatrixXd hessian_by_finite_differences(const InextensibilityConstraints& c,
                                              const Eigen::VectorXd& phi,
                                              const Eigen::VectorXd& lambda) {
  const auto gradient = [&](const Eigen::VectorXd& x) {
    SparseRowMatrix jacobian = c.make_jacobian();
    Eigen::VectorXd values;
    c.evaluate(x, &values, &jacobian);
    return Eigen::VectorXd(jacobian.transpose() * lambda);
  };
  return testing::finite_difference_jacobian(gradient, phi);
}

Eigen::MatrixXd curvature_over_coordinates(const InextensibilityConstraints& c,
                                           const Eigen::VectorXd& lambda, bool exact = false) {
  Eigen::SparseMatrix<double> k = c.make_curvature();
  c.curvature(lambda, &k, exact);
  const Eigen::MatrixXd nodes = Eigen::MatrixXd(k).selfadjointView<Eigen::Lower>();
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(3 * nodes.rows(), 3 * nodes.cols());
  for (Eigen::Index a = 0; a < nodes.rows(); ++a) {
    for (Eigen::Index b = 0; b < nodes.cols(); ++b)
      out.block<3, 3>(3 * a, 3 * b) = nodes(a, b) * Eigen::Matrix3d::Identity();
  }
  return out;
}

void expect_curvature_is_the_tension_hessian(const mesh::QuadMesh& mesh, unsigned seed) {
  const InextensibilityConstraints c(mesh);
  const Eigen::VectorXd phi = perturbed(mesh.rest_positions, 0.03, seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.1, 1.0);
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(c.size());
  for (int i = 0; i < c.size(); ++i) {
    const bool shear = i < c.num_metric() && i % 3 == 1;
    lambda[i] = shear ? 0.0 : u(rng);
  }
  const Eigen::MatrixXd exact = hessian_by_finite_differences(c, phi, lambda);
  EXPECT_LT(testing::relative_max_error(curvature_over_coordinates(c, lambda), exact),
            kJacobianTolerance);
  // Compression is left out: a negative λ on an E row adds nothing.
  Eigen::VectorXd compressed = Eigen::VectorXd::Zero(c.size());
  compressed[0] = -1.0;
  EXPECT_EQ(curvature_over_coordinates(c, compressed).cwiseAbs().maxCoeff(), 0.0);
}

TEST(InextensibilityConstraints, CurvatureIsTheExactHessianOfTensionRows) {
  expect_curvature_is_the_tension_hessian(mesh::make_grid_mesh(0.42, 0.594, 5, 6), 21);
  expect_curvature_is_the_tension_hessian(mesh::make_grid_mesh(1.3, 0.2, 4, 7), 22);
  std::istringstream in(kTubeObj);
  expect_curvature_is_the_tension_hessian(mesh::read_obj_quad_mesh(in, "tube.obj"), 23);
}

TEST(InextensibilityConstraints, ShearCurvatureIsBoundedFromBelow) {
  // λ on one shear row only: K = 2λ_F Q_F + |λ_F| (Q_E + Q_G) of that node ⪰ 0, and it is the
  // exact Hessian of λ_F F plus the PSD |λ_F| (Q_E + Q_G).
  const mesh::QuadMesh mesh = mesh::make_grid_mesh(0.42, 0.594, 5, 6);
  const InextensibilityConstraints c(mesh);
  const Eigen::VectorXd phi = perturbed(mesh.rest_positions, 0.03, 31);
  for (double lambda_f : {0.7, -0.7}) {
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(c.size());
    lambda[1] = lambda_f;  // F of the first interior node
    Eigen::VectorXd tension = Eigen::VectorXd::Zero(c.size());
    tension[0] = tension[2] = std::abs(lambda_f) / 2.0;  // |λ_F| (Q_E + Q_G) = ∇² of this λ
    const Eigen::MatrixXd expected = hessian_by_finite_differences(c, phi, lambda) +
                                     hessian_by_finite_differences(c, phi, tension);
    const Eigen::MatrixXd k = curvature_over_coordinates(c, lambda);
    EXPECT_LT(testing::relative_max_error(k, expected), kJacobianTolerance);
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(k).eigenvalues().minCoeff(), -1e-12);
  }
}

TEST(InextensibilityConstraints, ExactCurvatureIsTheHessianForAnyMultipliers) {
  // Compression and shear of either sign (StepperOptions::exact_curvature): Σ λ_i ∇²C_i itself,
  // which is indefinite once some row is compressed.
  const auto check = [](const mesh::QuadMesh& mesh, unsigned seed) {
    const InextensibilityConstraints c(mesh);
    const Eigen::VectorXd phi = perturbed(mesh.rest_positions, 0.03, seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    Eigen::VectorXd lambda(c.size());
    for (int i = 0; i < c.size(); ++i)
      lambda[i] = u(rng);
    const Eigen::MatrixXd k = curvature_over_coordinates(c, lambda, true);
    EXPECT_LT(testing::relative_max_error(k, hessian_by_finite_differences(c, phi, lambda)),
              kJacobianTolerance);
    EXPECT_LT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(k).eigenvalues().minCoeff(), 0.0);
  };
  check(mesh::make_grid_mesh(0.42, 0.594, 5, 6), 41);
  std::istringstream in(kTubeObj);
  check(mesh::read_obj_quad_mesh(in, "tube.obj"), 42);
}

}  // namespace
}  // namespace clothfit::constraints
