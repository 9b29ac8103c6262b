#include "core/constraints/inextensibility_constraints.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <random>
#include <sstream>

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

}  // namespace
}  // namespace clothfit::constraints
