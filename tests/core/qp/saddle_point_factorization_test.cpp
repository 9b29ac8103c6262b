#include "core/qp/saddle_point_factorization.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <vector>

#include "core/constraints/inextensibility_constraints.hpp"
#include "core/mesh/quad_mesh.hpp"

namespace clothfit::qp {
namespace {

// The equality block of a Newton-projection QP on a grid (as the time stepper builds it): the two
// corners of the first row held (their coordinates dropped), D the lumped masses, K = K_node ⊗ I₃
// from multipliers λ ≥ 0, A_E the inextensibility Jacobian at a (flat or waved) sheet.
QpProblem grid_newton_qp(int nodes_x, int nodes_y, double wave, unsigned seed) {
  const mesh::QuadMesh mesh = mesh::make_grid_mesh(0.42, 0.594, nodes_x, nodes_y);
  const constraints::InextensibilityConstraints c(mesh);
  const int n = mesh.num_nodes();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Eigen::VectorXd phi = mesh.rest_positions;
  for (int i = 0; i < n; ++i)
    phi[3 * i + 2] += wave * std::sin(7.0 * phi[3 * i]) * std::cos(5.0 * phi[3 * i + 1]);
  constraints::SparseRowMatrix jacobian = c.make_jacobian();
  Eigen::VectorXd values;
  c.evaluate(phi, &values, &jacobian);
  Eigen::SparseMatrix<double> node_curvature = c.make_curvature();
  Eigen::VectorXd lambda(c.size());
  for (int i = 0; i < c.size(); ++i)
    lambda[i] = 1e-4 * uniform(rng);
  c.curvature(lambda, &node_curvature);

  std::vector<int> free_index(3 * n, 0);
  for (int node : {0, nodes_x - 1}) {
    for (int d = 0; d < 3; ++d)
      free_index[3 * node + d] = -1;
  }
  int num_free = 0;
  for (int k = 0; k < 3 * n; ++k) {
    if (free_index[k] >= 0)
      free_index[k] = num_free++;
  }
  QpProblem p;
  const Eigen::VectorXd area = mesh::lumped_areas(mesh);
  p.mass.resize(num_free);
  for (int k = 0; k < 3 * n; ++k) {
    if (free_index[k] >= 0)
      p.mass[free_index[k]] = 0.1042 * area[k / 3];
  }
  std::vector<Eigen::Triplet<double>> triplets;
  for (int r = 0; r < jacobian.rows(); ++r) {
    for (constraints::SparseRowMatrix::InnerIterator it(jacobian, r); it; ++it) {
      if (free_index[it.col()] >= 0)
        triplets.emplace_back(r, free_index[it.col()], it.value());
    }
  }
  p.equality_jacobian.resize(jacobian.rows(), num_free);
  p.equality_jacobian.setFromTriplets(triplets.begin(), triplets.end());
  p.equality_jacobian.makeCompressed();
  triplets.clear();
  for (int col = 0; col < node_curvature.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(node_curvature, col); it; ++it) {
      for (int d = 0; d < 3; ++d) {
        const int vr = free_index[3 * it.row() + d], vc = free_index[3 * col + d];
        if (vr >= 0 && vc >= 0)
          triplets.emplace_back(vr, vc, it.value());
      }
    }
  }
  p.curvature.resize(num_free, num_free);
  p.curvature.setFromTriplets(triplets.begin(), triplets.end());
  p.curvature.makeCompressed();
  p.linear = Eigen::VectorXd::Zero(num_free);
  p.equality_offset = values;
  p.inequality_jacobian.resize(0, num_free);
  return p;
}

// The regularised KKT matrix [D + K, A_Eᵀ; A_E, −εI] as a dense matrix.
Eigen::MatrixXd dense_kkt(const QpProblem& p, double epsilon) {
  const int n = p.num_variables(), m = p.num_equalities();
  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m, n + m);
  const Eigen::SparseMatrix<double> k = p.curvature.selfadjointView<Eigen::Lower>();
  kkt.topLeftCorner(n, n) = Eigen::MatrixXd(k);
  kkt.topLeftCorner(n, n).diagonal() += p.mass;
  const Eigen::MatrixXd a = Eigen::MatrixXd(p.equality_jacobian);
  kkt.bottomLeftCorner(m, n) = a;
  kkt.topRightCorner(n, m) = a.transpose();
  kkt.bottomRightCorner(m, m).diagonal().setConstant(-epsilon);
  return kkt;
}

double mean_delassus(const QpProblem& p) {
  double sum = 0.0;
  for (int r = 0; r < p.num_equalities(); ++r) {
    for (SparseRowMatrix::InnerIterator it(p.equality_jacobian, r); it; ++it)
      sum += it.value() * it.value() / p.mass[it.col()];
  }
  return sum / p.num_equalities();
}

TEST(SaddlePointFactorization, GridNewtonSystemsMatchADenseSolve) {
  // Waved sheets (A_E of full rank) with a moderate regularisation: the factorisation alone must
  // solve the regularised system to round-off.
  for (const auto& [nx, ny] : {std::pair{4, 5}, std::pair{7, 9}}) {
    const QpProblem p = grid_newton_qp(nx, ny, 0.05, 1);
    const double relative = 1e-6;
    SaddlePointFactorization f;
    ASSERT_TRUE(f.factorize(p, relative, 0));
    const int n = p.num_variables(), m = p.num_equalities();
    const Eigen::VectorXd r_x = Eigen::VectorXd::Random(n) * 1e-4, r_y = Eigen::VectorXd::Random(m);
    Eigen::VectorXd x, y;
    f.solve(r_x, r_y, &x, &y);
    Eigen::VectorXd rhs(n + m), z(n + m);
    rhs << r_x, r_y;
    z << x, y;
    const Eigen::MatrixXd kkt = dense_kkt(p, relative * mean_delassus(p));
    const Eigen::VectorXd expected = kkt.lu().solve(rhs);
    EXPECT_LT((z - expected).norm(), 1e-8 * expected.norm()) << nx << "x" << ny;
  }
}

TEST(SaddlePointFactorization, RefactoringTheSamePatternKeepsNothingOfTheLastValues) {
  // The matrix's values are written over, not zeroed first: a factorisation reused for a new
  // problem with the same pattern must give exactly what a fresh one gives.
  const QpProblem first = grid_newton_qp(7, 9, 0.05, 1), second = grid_newton_qp(7, 9, 0.03, 2);
  // Same pattern, other values.
  ASSERT_EQ(first.curvature.nonZeros(), second.curvature.nonZeros());
  ASSERT_NE(first.curvature.valuePtr()[0], second.curvature.valuePtr()[0]);
  SaddlePointFactorization reused, fresh;
  ASSERT_TRUE(reused.factorize(first, 1e-6, 0));
  ASSERT_TRUE(reused.factorize(second, 1e-6, 0));
  ASSERT_TRUE(fresh.factorize(second, 1e-6, 0));
  const int n = second.num_variables(), m = second.num_equalities();
  const Eigen::VectorXd r_x = Eigen::VectorXd::Random(n) * 1e-4, r_y = Eigen::VectorXd::Random(m);
  Eigen::VectorXd x_reused, y_reused, x_fresh, y_fresh;
  reused.solve(r_x, r_y, &x_reused, &y_reused);
  fresh.solve(r_x, r_y, &x_fresh, &y_fresh);
  EXPECT_EQ(x_reused, x_fresh);
  EXPECT_EQ(y_reused, y_fresh);
}

TEST(SaddlePointFactorization, InertiaSaysWhetherTheCurvatureKeepsTheQpConvex) {
  // m_E negative pivots exactly when D + K is positive definite on the null space of A_E (here:
  // on all of it or on none of it). An indefinite K is what the exact curvature of a compressed
  // sheet gives (StepperOptions::exact_curvature).
  QpProblem p = grid_newton_qp(7, 9, 0.05, 1);
  SaddlePointFactorization f;
  ASSERT_TRUE(f.factorize(p, 1e-10, 0));
  EXPECT_TRUE(f.convex());
  const auto set_curvature = [&p](double times_mass) {
    p.curvature.resize(p.num_variables(), p.num_variables());
    p.curvature.setIdentity();
    p.curvature.diagonal() = times_mass * p.mass;
  };
  set_curvature(-0.5);  // D + K = D / 2
  ASSERT_TRUE(f.factorize(p, 1e-10, 0));
  EXPECT_TRUE(f.convex());
  set_curvature(-2.0);  // D + K = −D
  ASSERT_TRUE(f.factorize(p, 1e-10, 0));
  EXPECT_FALSE(f.convex());
}

TEST(SaddlePointFactorization, RefinementRecoversTheUnregularisedSolutionOnAFlatSheet) {
  // A flat sheet's A_E is rank deficient but consistent for r_y in its range: refinement against
  // the unregularised system drives its residual down to round-off.
  const QpProblem p = grid_newton_qp(7, 9, 0.0, 2);
  const int n = p.num_variables();
  const Eigen::VectorXd x_star = Eigen::VectorXd::Random(n) * 1e-3;
  const Eigen::VectorXd r_y = p.equality_jacobian * x_star;
  const Eigen::VectorXd r_x = Eigen::VectorXd::Random(n) * 1e-5;
  const auto residual = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
    const Eigen::SparseMatrix<double> k = p.curvature.selfadjointView<Eigen::Lower>();
    Eigen::VectorXd stationarity = r_x - p.mass.cwiseProduct(x) - k * x;
    stationarity -= p.equality_jacobian.transpose() * y;
    const Eigen::VectorXd feasibility = r_y - p.equality_jacobian * x;
    return std::max(stationarity.lpNorm<Eigen::Infinity>() / r_x.lpNorm<Eigen::Infinity>(),
                    feasibility.lpNorm<Eigen::Infinity>() / r_y.lpNorm<Eigen::Infinity>());
  };
  SaddlePointFactorization plain, refined;
  ASSERT_TRUE(plain.factorize(p, 1e-10, 0));
  ASSERT_TRUE(refined.factorize(p, 1e-10, 2));
  Eigen::VectorXd x0, y0, x2, y2;
  plain.solve(r_x, r_y, &x0, &y0);
  refined.solve(r_x, r_y, &x2, &y2);
  EXPECT_LT(residual(x2, y2), 1e-8);
  EXPECT_LE(residual(x2, y2), residual(x0, y0));
}

TEST(SaddlePointFactorization, SolveColumnsMatchesOneSolvePerColumn) {
  // The active-set solver solves for its seeded rows together (r_y = 0); with and without
  // refinement each column must be what solve() gives for it alone. (A waved sheet and a moderate
  // regularisation: on a nearly flat one the unpivoted LDLᵀ is unstable for small ε — see the
  // known bug in qp_solver_agreement_test — and the summation order alone moves y.)
  for (const int refinement : {0, 3}) {
    const QpProblem p = grid_newton_qp(7, 9, 0.05, 5);
    SaddlePointFactorization f;
    ASSERT_TRUE(f.factorize(p, 1e-6, refinement));
    const int n = p.num_variables(), m = p.num_equalities();
    const EqualitySystem::RowMajorMatrix r_x = EqualitySystem::RowMajorMatrix::Random(n, 9);
    EqualitySystem::RowMajorMatrix x, y;
    f.solve_columns(r_x, &x, &y);
    ASSERT_EQ(x.rows(), n);
    ASSERT_EQ(y.rows(), m);
    for (int j = 0; j < 9; ++j) {
      Eigen::VectorXd xj, yj;
      f.solve(r_x.col(j), Eigen::VectorXd::Zero(m), &xj, &yj);
      EXPECT_LT((x.col(j) - xj).norm(), 1e-10 * xj.norm()) << "refinement " << refinement;
      EXPECT_LT((y.col(j) - yj).norm(), 1e-10 * yj.norm()) << "refinement " << refinement;
    }
  }
}

TEST(SaddlePointFactorization, NewPatternIsAnalysedAgain) {
  // One object used for two meshes in turn (as an active-set solver reused across scenarios).
  SaddlePointFactorization f;
  for (int round = 0; round < 2; ++round) {
    for (const auto& [nx, ny] : {std::pair{4, 5}, std::pair{5, 4}, std::pair{6, 6}}) {
      const QpProblem p = grid_newton_qp(nx, ny, 0.05, 3 + round);
      ASSERT_TRUE(f.factorize(p, 1e-6, 0));
      const int n = p.num_variables(), m = p.num_equalities();
      const Eigen::VectorXd r_x = Eigen::VectorXd::Random(n) * 1e-4;
      const Eigen::VectorXd r_y = Eigen::VectorXd::Random(m);
      Eigen::VectorXd x, y;
      f.solve(r_x, r_y, &x, &y);
      ASSERT_EQ(x.size(), n);
      ASSERT_EQ(y.size(), m);
      Eigen::VectorXd rhs(n + m), z(n + m);
      rhs << r_x, r_y;
      z << x, y;
      const Eigen::VectorXd expected = dense_kkt(p, 1e-6 * mean_delassus(p)).lu().solve(rhs);
      EXPECT_LT((z - expected).norm(), 1e-8 * expected.norm()) << nx << "x" << ny;
    }
  }
}

}  // namespace
}  // namespace clothfit::qp
