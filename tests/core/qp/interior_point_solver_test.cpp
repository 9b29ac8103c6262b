#include "core/qp/interior_point_solver.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "core/qp/qp_kkt.hpp"
#include "tests/core/qp/random_qp.hpp"

namespace clothfit::qp {
namespace {

// Relative KKT accuracy demanded of every converged solve (qp_kkt.hpp scales).
constexpr double kKktTolerance = 1e-8;
// Distance to a known solution, relative to the length scale L.
constexpr double kSolutionTolerance = 1e-6;
// Contact forces γ_i ‖a_i‖₂ against known ones, relative to the force scale F. Looser than x:
// the multipliers amplify the interior point's residual complementarity (~tol) by the condition
// number of the active rows, which reaches ~1e5 on the crowded problems.
constexpr double kForceTolerance = 1e-4;

SparseRowMatrix dense_to_sparse(const Eigen::MatrixXd& dense) {
  SparseRowMatrix sparse = dense.sparseView();
  sparse.makeCompressed();
  return sparse;
}

Eigen::VectorXd row_norms(const SparseRowMatrix& matrix) {
  Eigen::VectorXd norms(matrix.rows());
  for (int i = 0; i < matrix.rows(); ++i) {
    norms[i] = matrix.row(i).norm();
  }
  return norms;
}

QpProblem make_problem(const Eigen::VectorXd& mass, const Eigen::VectorXd& linear,
                       const Eigen::MatrixXd& a_e, const Eigen::VectorXd& c_e,
                       const Eigen::MatrixXd& a_i, const Eigen::VectorXd& c_i) {
  QpProblem problem;
  problem.mass = mass;
  problem.linear = linear;
  problem.equality_jacobian = dense_to_sparse(a_e);
  problem.equality_offset = c_e;
  problem.inequality_jacobian = dense_to_sparse(a_i);
  problem.inequality_offset = c_i;
  return problem;
}

// The hand-solved QP of qp_kkt_test.cpp:
//   min ½ (x1² + 2 x2² + 4 x3²) − 0.2 x1   s.t.  x1 + x2 + x3 = 1,  x1 ≥ 0.8,  x3 ≥ −5,
// solution x = (0.8, 2/15, 1/15), λ = −4/15, γ = (1/3, 0), row 0 active.
QpProblem hand_problem() {
  Eigen::MatrixXd a_e(1, 3);
  a_e << 1.0, 1.0, 1.0;
  Eigen::MatrixXd a_i(2, 3);
  a_i << 1.0, 0.0, 0.0, 0.0, 0.0, 1.0;
  return make_problem(Eigen::Vector3d(1.0, 2.0, 4.0), Eigen::Vector3d(0.2, 0.0, 0.0), a_e,
                      Eigen::VectorXd::Constant(1, -1.0), a_i, Eigen::Vector2d(-0.8, 5.0));
}

void expect_solution_near(const QpSolution& solution, const QpSolution& expected,
                          double tolerance) {
  ASSERT_EQ(solution.x.size(), expected.x.size());
  EXPECT_LT((solution.x - expected.x).lpNorm<Eigen::Infinity>(), tolerance);
  ASSERT_EQ(solution.equality_multipliers.size(), expected.equality_multipliers.size());
  ASSERT_EQ(solution.inequality_multipliers.size(), expected.inequality_multipliers.size());
  if (expected.equality_multipliers.size() > 0) {
    EXPECT_LT(
        (solution.equality_multipliers - expected.equality_multipliers).lpNorm<Eigen::Infinity>(),
        tolerance);
  }
  if (expected.inequality_multipliers.size() > 0) {
    EXPECT_LT((solution.inequality_multipliers - expected.inequality_multipliers)
                  .lpNorm<Eigen::Infinity>(),
              tolerance);
  }
}

TEST(InteriorPointSolver, Name) {
  InteriorPointSolver solver;
  EXPECT_EQ(solver.name(), "interior-point");
}

TEST(InteriorPointSolver, HandSolvedQpWithActiveAndInactiveContact) {
  InteriorPointSolver solver;
  QpSolution solution;
  const QpSummary summary = solver.solve(hand_problem(), {}, &solution);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_GT(summary.iterations, 0);
  QpSolution expected;
  expected.x = Eigen::Vector3d(0.8, 2.0 / 15.0, 1.0 / 15.0);
  expected.equality_multipliers = Eigen::VectorXd::Constant(1, -4.0 / 15.0);
  expected.inequality_multipliers = Eigen::Vector2d(1.0 / 3.0, 0.0);
  expect_solution_near(solution, expected, 1e-8);
  EXPECT_EQ(solution.active_inequalities, std::vector<int>{0});
  EXPECT_GE(solution.inequality_multipliers.minCoeff(), 0.0);
  EXPECT_LT(kkt_residual(hand_problem(), solution).max(), kKktTolerance);
}

// Everything already satisfied (a rigidly falling sheet in the stepper's damped mode, its one
// contact row far from active): the solution is x = 0 or within round-off of it, and relative KKT
// residuals compare round-off with round-off. The solve must report success with x ≈ 0. (In the
// stepper, Ipopt diverged on such a QP of the 7 × 9 sphere example, offsets ~7e-57, and on one of
// the 15 × 15 sphere succeeded but a second pass rescaled to its ~1e-26 m solution overflowed into
// a "failure"; the 1e-27 case reproduces the latter.)
class AlreadySatisfiedQp : public ::testing::TestWithParam<double> {};

TEST_P(AlreadySatisfiedQp, SolvesToZero) {
  QpSolverOptions options;
  options.refinement_steps = 0;
  options.equality_regularization = 1e-10;
  InteriorPointSolver solver(options);
  Eigen::MatrixXd a_e(2, 4);
  a_e << 1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, -1.0;
  Eigen::MatrixXd a_i(1, 4);
  a_i << 0.0, 0.0, 0.0, 1.0;
  const double offset = GetParam();
  const QpProblem problem =
      make_problem(Eigen::Vector4d(1.0, 2.0, 1.0, 3.0), Eigen::Vector4d::Zero(), a_e,
                   Eigen::Vector2d(offset, -offset), a_i, Eigen::VectorXd::Constant(1, 0.05));
  QpSolution solution;
  const QpSummary summary = solver.solve(problem, {}, &solution);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_LT(solution.x.lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_TRUE(solution.active_inequalities.empty());
}

INSTANTIATE_TEST_SUITE_P(InteriorPointSolver, AlreadySatisfiedQp,
                         ::testing::Values(0.0, 1e-57, 1e-27));

// Signs checked on the smallest cases: a contact x ≥ 1 pushed by f = 0 needs γ = +1 (force
// along +a); an equality x = 1 with f = 0 needs λ = −1 (D x − f + λ = 0).
TEST(InteriorPointSolver, MultiplierSignsOnOneVariable) {
  InteriorPointSolver solver;
  const Eigen::VectorXd one = Eigen::VectorXd::Constant(1, 1.0);
  const Eigen::MatrixXd a = Eigen::MatrixXd::Constant(1, 1, 1.0);
  const Eigen::MatrixXd none(0, 1);
  QpSolution contact;
  ASSERT_TRUE(
      solver
          .solve(make_problem(one, Eigen::VectorXd::Zero(1), none, Eigen::VectorXd(0), a, -one), {},
                 &contact)
          .ok());
  EXPECT_NEAR(contact.x[0], 1.0, 1e-9);
  EXPECT_NEAR(contact.inequality_multipliers[0], 1.0, 1e-9);
  EXPECT_EQ(contact.active_inequalities, std::vector<int>{0});

  QpSolution equality;
  ASSERT_TRUE(
      solver
          .solve(make_problem(one, Eigen::VectorXd::Zero(1), a, -one, none, Eigen::VectorXd(0)), {},
                 &equality)
          .ok());
  EXPECT_NEAR(equality.x[0], 1.0, 1e-9);
  EXPECT_NEAR(equality.equality_multipliers[0], -1.0, 1e-9);
  EXPECT_TRUE(equality.active_inequalities.empty());
}

TEST(InteriorPointSolver, UnconstrainedQpIsDInverseF) {
  InteriorPointSolver solver;
  const Eigen::Vector3d mass(1e-3, 2e-3, 5e-4);
  const Eigen::Vector3d linear(1e-6, -3e-6, 2e-7);
  QpSolution solution;
  const QpSummary summary =
      solver.solve(make_problem(mass, linear, Eigen::MatrixXd(0, 3), Eigen::VectorXd(0),
                                Eigen::MatrixXd(0, 3), Eigen::VectorXd(0)),
                   {}, &solution);
  ASSERT_TRUE(summary.ok()) << summary.message;
  const Eigen::VectorXd expected = linear.cwiseQuotient(mass);
  EXPECT_LT((solution.x - expected).lpNorm<Eigen::Infinity>(),
            1e-10 * expected.lpNorm<Eigen::Infinity>());
}

// Equality-only QP against the closed form. Stationarity D x − f + A_Eᵀ λ = 0 gives
// x = D⁻¹ (f − A_Eᵀ λ); substituting into c_E + A_E x = 0 gives
// (A_E D⁻¹ A_Eᵀ) λ = c_E + A_E D⁻¹ f.
TEST(InteriorPointSolver, EqualityOnlyQpMatchesClosedForm) {
  std::mt19937 rng(7);
  InteriorPointSolver solver;
  for (int trial = 0; trial < 5; ++trial) {
    testing::RandomQpOptions options;
    options.num_inequalities = 0;
    options.num_equalities = 30;
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    const QpProblem& p = qp.problem;
    const Eigen::MatrixXd a = Eigen::MatrixXd(p.equality_jacobian);
    const Eigen::VectorXd d_inv = p.mass.cwiseInverse();
    const Eigen::MatrixXd delassus = a * d_inv.asDiagonal() * a.transpose();
    const Eigen::VectorXd lambda =
        delassus.ldlt().solve(p.equality_offset + a * d_inv.cwiseProduct(p.linear));
    const Eigen::VectorXd x = d_inv.cwiseProduct(p.linear - a.transpose() * lambda);
    // The closed form reproduces the generator's solution (checks the derivation's sign) ...
    const double length = x.lpNorm<Eigen::Infinity>();
    ASSERT_LT((x - qp.solution.x).lpNorm<Eigen::Infinity>(), 1e-10 * length);
    // ... and Ipopt reproduces the closed form.
    QpSolution solution;
    const QpSummary summary = solver.solve(p, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message;
    EXPECT_LT((solution.x - x).lpNorm<Eigen::Infinity>(), 1e-9 * length) << "trial " << trial;
    EXPECT_LT((solution.equality_multipliers - lambda).lpNorm<Eigen::Infinity>(),
              1e-8 * lambda.lpNorm<Eigen::Infinity>())
        << "trial " << trial;
    EXPECT_EQ(solution.inequality_multipliers.size(), 0);
  }
}

struct RandomCase {
  const char* name;
  testing::RandomQpOptions options;
};

std::vector<RandomCase> random_cases() {
  std::vector<RandomCase> cases;
  testing::RandomQpOptions base;
  cases.push_back({"default", base});
  testing::RandomQpOptions small = base;
  small.num_nodes = 6;
  small.num_equalities = 8;
  small.num_inequalities = 6;
  cases.push_back({"small", small});
  testing::RandomQpOptions flat = base;
  flat.flat = true;
  flat.active_fraction = 0.6;
  cases.push_back({"flat sheet on contacts", flat});
  testing::RandomQpOptions dependent = base;
  dependent.num_duplicate_equalities = 6;
  cases.push_back({"rank-deficient equalities", dependent});
  testing::RandomQpOptions unit = base;
  unit.mass_scale = 1.0;
  unit.step_scale = 1.0;
  unit.position_scale = 1.0;
  unit.violated_at_zero_fraction = 1.0;
  cases.push_back({"unit scales, all active rows violated at 0", unit});
  testing::RandomQpOptions crowded = base;
  crowded.num_nodes = 30;
  crowded.num_equalities = 60;
  crowded.num_inequalities = 50;
  crowded.active_fraction = 0.5;
  cases.push_back({"crowded", crowded});
  return cases;
}

TEST(InteriorPointSolver, RandomQpsReachKnownSolutions) {
  std::mt19937 rng(12345);
  InteriorPointSolver solver;  // one solver for every size: reuse is part of the test
  int solved = 0;
  for (const RandomCase& random_case : random_cases()) {
    for (int trial = 0; trial < 10; ++trial) {
      const testing::RandomQp qp = testing::make_random_qp(random_case.options, rng);
      SCOPED_TRACE(std::string(random_case.name) + ", trial " + std::to_string(trial));
      QpSolution solution;
      const QpSummary summary = solver.solve(qp.problem, {}, &solution);
      ASSERT_TRUE(summary.ok()) << summary.message;
      const QpKktResidual r = kkt_residual(qp.problem, solution);
      EXPECT_LT(r.max(), kKktTolerance)
          << "stationarity " << r.stationarity << " equality " << r.equality << " inequality "
          << r.inequality << " dual " << r.dual << " complementarity " << r.complementarity;
      EXPECT_LT((solution.x - qp.solution.x).lpNorm<Eigen::Infinity>(),
                kSolutionTolerance * r.length_scale);
      EXPECT_EQ(solution.active_inequalities, qp.solution.active_inequalities);
      if (random_case.options.num_duplicate_equalities == 0) {
        // Independent rows: the multipliers are unique too.
        EXPECT_LT((solution.inequality_multipliers - qp.solution.inequality_multipliers)
                      .cwiseProduct(row_norms(qp.problem.inequality_jacobian))
                      .lpNorm<Eigen::Infinity>(),
                  kForceTolerance * r.force_scale);
      }
      EXPECT_GE(solution.inequality_multipliers.minCoeff(), 0.0);
      ++solved;
    }
  }
  EXPECT_GE(solved, 60);
}

// The curvature QP of qp_kkt_test.cpp with contacts: D = diag(1, 2), K = [1 −1; −1 1],
//   min ½ xᵀ (D + K) x   s.t.  x1 + x2 = 1,  x1 ≥ 0.7,  x2 ≥ −5.
// Without the contact x = (4/7, 3/7), so x1 = 0.7 is active: x = (0.7, 0.3), (D + K) x = (1.1,
// 0.2); row 2 of stationarity gives λ = −0.2, row 1 gives γ1 = 1.1 + λ = 0.9 > 0; x2 ≥ −5 is
// inactive.
QpProblem curvature_problem() {
  Eigen::MatrixXd a_e(1, 2);
  a_e << 1.0, 1.0;
  Eigen::MatrixXd a_i(2, 2);
  a_i << 1.0, 0.0, 0.0, 1.0;
  QpProblem problem =
      make_problem(Eigen::Vector2d(1.0, 2.0), Eigen::Vector2d::Zero(), a_e,
                   Eigen::VectorXd::Constant(1, -1.0), a_i, Eigen::Vector2d(-0.7, 5.0));
  problem.curvature.resize(2, 2);
  problem.curvature.insert(0, 0) = 1.0;
  problem.curvature.insert(1, 0) = -1.0;
  problem.curvature.insert(1, 1) = 1.0;
  problem.curvature.makeCompressed();
  return problem;
}

TEST(InteriorPointSolver, HandSolvedQpWithCurvature) {
  InteriorPointSolver solver;
  QpSolution solution;
  const QpProblem problem = curvature_problem();
  const QpSummary summary = solver.solve(problem, {}, &solution);
  ASSERT_TRUE(summary.ok()) << summary.message;
  QpSolution expected;
  expected.x = Eigen::Vector2d(0.7, 0.3);
  expected.equality_multipliers = Eigen::VectorXd::Constant(1, -0.2);
  expected.inequality_multipliers = Eigen::Vector2d(0.9, 0.0);
  expect_solution_near(solution, expected, 1e-8);
  EXPECT_EQ(solution.active_inequalities, std::vector<int>{0});
  EXPECT_LT(kkt_residual(problem, solution).max(), kKktTolerance);
}

// Unconstrained with K: x = (D + K)⁻¹ f. K couples nodes, so without K in the Hessian (or in the
// gradient) the answer would be D⁻¹ f.
TEST(InteriorPointSolver, UnconstrainedQpWithCurvatureIsHessianInverseF) {
  std::mt19937 rng(17);
  InteriorPointSolver solver;
  for (const double curvature_scale : {0.01, 1.0, 1e4}) {
    testing::RandomQpOptions options;
    options.num_nodes = 8;
    options.num_equalities = 0;
    options.num_inequalities = 0;
    options.num_curvature_terms = 6;
    options.curvature_scale = curvature_scale;
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    const Eigen::MatrixXd lower = Eigen::MatrixXd(qp.problem.curvature);
    Eigen::MatrixXd hessian = lower + lower.transpose();
    hessian.diagonal() = lower.diagonal() + qp.problem.mass;
    const Eigen::VectorXd expected = hessian.llt().solve(qp.problem.linear);
    QpSolution solution;
    const QpSummary summary = solver.solve(qp.problem, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message;
    EXPECT_LT((solution.x - expected).lpNorm<Eigen::Infinity>(),
              1e-9 * expected.lpNorm<Eigen::Infinity>())
        << "curvature scale " << curvature_scale;
    EXPECT_GT(
        (expected - qp.problem.linear.cwiseQuotient(qp.problem.mass)).lpNorm<Eigen::Infinity>(),
        1e-3 * expected.lpNorm<Eigen::Infinity>());
  }
}

// Equality-only QP with K against the dense KKT system
//   [D + K  A_Eᵀ] [x]   [  f ]
//   [A_E    0   ] [λ] = [−c_E].
TEST(InteriorPointSolver, EqualityOnlyQpWithCurvatureMatchesKktSystem) {
  std::mt19937 rng(23);
  InteriorPointSolver solver;
  for (int trial = 0; trial < 5; ++trial) {
    testing::RandomQpOptions options;
    options.num_inequalities = 0;
    options.num_equalities = 30;
    options.num_curvature_terms = 10 + trial;
    options.curvature_scale = trial % 2 == 0 ? 1.0 : 50.0;
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    const QpProblem& p = qp.problem;
    const int n = p.num_variables();
    const int m = p.num_equalities();
    const Eigen::MatrixXd lower = Eigen::MatrixXd(p.curvature);
    Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m, n + m);
    kkt.topLeftCorner(n, n) = lower + lower.transpose();
    kkt.topLeftCorner(n, n).diagonal() = lower.diagonal() + p.mass;
    kkt.topRightCorner(n, m) = Eigen::MatrixXd(p.equality_jacobian).transpose();
    kkt.bottomLeftCorner(m, n) = Eigen::MatrixXd(p.equality_jacobian);
    Eigen::VectorXd rhs(n + m);
    rhs << p.linear, -p.equality_offset;
    const Eigen::VectorXd z = kkt.partialPivLu().solve(rhs);
    const double length = z.head(n).lpNorm<Eigen::Infinity>();
    ASSERT_LT((z.head(n) - qp.solution.x).lpNorm<Eigen::Infinity>(), 1e-10 * length);
    QpSolution solution;
    const QpSummary summary = solver.solve(p, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message;
    EXPECT_LT((solution.x - z.head(n)).lpNorm<Eigen::Infinity>(), 1e-9 * length)
        << "trial " << trial;
    EXPECT_LT((solution.equality_multipliers - z.tail(m)).lpNorm<Eigen::Infinity>(),
              1e-7 * z.tail(m).lpNorm<Eigen::Infinity>())
        << "trial " << trial;
  }
}

// Random QPs with K reach their known solutions, from K ≪ D to K ≫ D, with the padding of
// m_E ≥ n and with rank-deficient equality rows. The solution is determined only to
// ~(‖K‖/‖D‖) × the relative KKT residual, because F scales with K while the directions K does not
// see are held by D alone (at 1e4 D, KKT < 1e-8 allowed x errors of 7e-5 L), so the tolerance on x
// is kSolutionTolerance or K's scale × kKktTolerance, whichever is larger: 1e-5 L at 1e3 D, where
// a trial that clang's draw order produces came within 1.8e-6 L.
TEST(InteriorPointSolver, RandomQpsWithCurvatureReachKnownSolutions) {
  std::mt19937 rng(5150);
  InteriorPointSolver solver;
  std::vector<RandomCase> cases = random_cases();
  testing::RandomQpOptions many_rows;  // m_E = 30 + 12 duplicates ≥ n = 30: padded
  many_rows.num_nodes = 10;
  many_rows.num_equalities = 20;
  many_rows.num_duplicate_equalities = 12;
  many_rows.num_inequalities = 8;
  many_rows.active_fraction = 0.25;
  cases.push_back({"more equality rows than variables", many_rows});
  constexpr double kScales[] = {0.01, 1.0, 100.0, 1e3};
  int second_passes = 0;
  for (RandomCase& random_case : cases) {
    random_case.options.num_curvature_terms = random_case.options.num_nodes / 2;
    for (int trial = 0; trial < 8; ++trial) {
      random_case.options.curvature_scale = kScales[trial % 4];
      const testing::RandomQp qp = testing::make_random_qp(random_case.options, rng);
      SCOPED_TRACE(std::string(random_case.name) + " with K, trial " + std::to_string(trial));
      QpSolution solution;
      const QpSummary summary = solver.solve(qp.problem, {}, &solution);
      ASSERT_TRUE(summary.ok()) << summary.message;
      if (summary.message.find("second pass") != std::string::npos) {
        ++second_passes;
      }
      const QpKktResidual r = kkt_residual(qp.problem, solution);
      EXPECT_LT(r.max(), kKktTolerance)
          << "stationarity " << r.stationarity << " equality " << r.equality << " inequality "
          << r.inequality << " dual " << r.dual << " complementarity " << r.complementarity;
      const double tolerance =
          std::max(kSolutionTolerance, random_case.options.curvature_scale * kKktTolerance);
      EXPECT_LT((solution.x - qp.solution.x).lpNorm<Eigen::Infinity>(), tolerance * r.length_scale);
      EXPECT_EQ(solution.active_inequalities, qp.solution.active_inequalities);
      EXPECT_GE(solution.inequality_multipliers.minCoeff(), 0.0);
    }
  }
  // The stiff cases need the second pass (σ from (D + K)⁻¹ f is ~100 L there).
  EXPECT_GT(second_passes, 0);
}

// Constraint forces ~100 × larger than D x* (the generator sizes them like (D + K) x* with
// K ≈ 100 D): the unconstrained step (D + K)⁻¹ f overestimates the solution's length up to
// ~100-fold; where the first pass ends above 10 × tol the second pass, rescaled to the first
// solution's length, must bring every problem to the tolerances.
TEST(InteriorPointSolver, StiffCurvatureIsSolvedWithTheRescaledSecondPass) {
  std::mt19937 rng(77);
  InteriorPointSolver solver;
  int second_passes = 0;
  for (int trial = 0; trial < 12; ++trial) {
    testing::RandomQpOptions options;
    options.num_curvature_terms = 10;
    options.curvature_scale = 100.0;
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    QpSolution solution;
    const QpSummary summary = solver.solve(qp.problem, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message << ", trial " << trial;
    if (summary.message.find("second pass") != std::string::npos) {
      ++second_passes;
    }
    const QpKktResidual r = kkt_residual(qp.problem, solution);
    EXPECT_LT(r.max(), kKktTolerance) << "trial " << trial;
    EXPECT_LT((solution.x - qp.solution.x).lpNorm<Eigen::Infinity>(),
              kSolutionTolerance * r.length_scale)
        << "trial " << trial;
  }
  EXPECT_GT(second_passes, 0);
}

TEST(InteriorPointSolver, NonFiniteCurvatureIsReportedNotThrown) {
  QpProblem problem = curvature_problem();
  problem.curvature.coeffRef(1, 0) = std::numeric_limits<double>::quiet_NaN();
  InteriorPointSolver solver;
  QpSolution solution;
  const QpSummary summary = solver.solve(problem, {}, &solution);
  EXPECT_EQ(summary.termination, QpTermination::kNumericalFailure) << summary.message;
  EXPECT_EQ(solution.x.size(), 2);
  QpSolution hand;
  EXPECT_TRUE(solver.solve(hand_problem(), {}, &hand).ok());
}

TEST(InteriorPointSolver, DuplicatedEqualityRows) {
  // x1 + x2 = 1 three times (once doubled), x3 = 0.5, a contact x1 ≥ 0.7 and a free x4;
  // D = I, f = (0, 0, 0, 0.3). Solution x = (0.7, 0.3, 0.5, 0.3); rows 0–2 share λ1 + λ2 + 2 λ3
  // = −0.3 (row 1 of stationarity) in any split, and row 0 gives γ = 0.7 − 0.3 = 0.4.
  Eigen::MatrixXd a_e(4, 4);
  a_e << 1, 1, 0, 0,  //
      1, 1, 0, 0,     //
      2, 2, 0, 0,     //
      0, 0, 1, 0;
  const Eigen::Vector4d c_e(-1.0, -1.0, -2.0, -0.5);
  Eigen::MatrixXd a_i(1, 4);
  a_i << 1, 0, 0, 0;
  const QpProblem problem = make_problem(Eigen::Vector4d::Ones(), Eigen::Vector4d(0, 0, 0, 0.3),
                                         a_e, c_e, a_i, Eigen::VectorXd::Constant(1, -0.7));
  InteriorPointSolver solver;
  QpSolution solution;
  const QpSummary summary = solver.solve(problem, {}, &solution);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_LT((solution.x - Eigen::Vector4d(0.7, 0.3, 0.5, 0.3)).lpNorm<Eigen::Infinity>(), 1e-8);
  EXPECT_LT(kkt_residual(problem, solution).max(), kKktTolerance);
  EXPECT_EQ(solution.active_inequalities, std::vector<int>{0});
  const Eigen::VectorXd& lambda = solution.equality_multipliers;
  EXPECT_NEAR(lambda[0] + lambda[1] + 2.0 * lambda[2], -0.3, 1e-8);
  EXPECT_NEAR(lambda[3], -0.5, 1e-8);
  EXPECT_NEAR(solution.inequality_multipliers[0], 0.4, 1e-8);
}

// Ipopt refuses more equality rows than variables, and treats as many as a square system whose
// objective it ignores; the solver pads the problem so that consistent duplicates still work.
TEST(InteriorPointSolver, MoreEqualityRowsThanVariables) {
  // x1 + x2 = 1 three times (one doubled) on two variables, D = diag(1, 3), f = 0:
  // x1 = 3 x2 → x = (0.75, 0.25).
  Eigen::MatrixXd a_e(3, 2);
  a_e << 1, 1, 1, 1, 2, 2;
  const QpProblem problem =
      make_problem(Eigen::Vector2d(1.0, 3.0), Eigen::Vector2d::Zero(), a_e,
                   Eigen::Vector3d(-1, -1, -2), Eigen::MatrixXd(0, 2), Eigen::VectorXd(0));
  InteriorPointSolver solver;
  QpSolution solution;
  const QpSummary summary = solver.solve(problem, {}, &solution);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_LT((solution.x - Eigen::Vector2d(0.75, 0.25)).lpNorm<Eigen::Infinity>(), 1e-9);
  EXPECT_LT(kkt_residual(problem, solution).max(), kKktTolerance);
}

TEST(InteriorPointSolver, RankDeficientRandomQps) {
  std::mt19937 rng(99);
  InteriorPointSolver solver;
  for (int trial = 0; trial < 10; ++trial) {
    testing::RandomQpOptions options;
    options.num_duplicate_equalities = 10;
    options.flat = trial % 2 == 0;
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    QpSolution solution;
    const QpSummary summary = solver.solve(qp.problem, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message << " trial " << trial;
    const QpKktResidual r = kkt_residual(qp.problem, solution);
    EXPECT_LT(r.max(), kKktTolerance) << "trial " << trial;
    EXPECT_LT((solution.x - qp.solution.x).lpNorm<Eigen::Infinity>(),
              kSolutionTolerance * r.length_scale)
        << "trial " << trial;
  }
}

// Duplicated equality rows on many random QPs. On 7 of 800 such QPs (with and without pinned
// rows) Ipopt reported success with multipliers of the duplicates that cancel at 1e14–2e16 times
// the objective's forces; they inflate kkt_residual's force scale F until a wrong x (off by up to
// 1.1 L) passes it. The solver now solves those again without the dependent rows (header); the
// solutions must be the known ones, with F not far above the forces F₀ of the objective.
TEST(InteriorPointSolver, DuplicatedRowsNeverLeaveMultipliersThatCancel) {
  std::mt19937 rng(20000);
  InteriorPointSolver solver;
  int retried = 0;
  for (int trial = 0; trial < 200; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    testing::RandomQpOptions options;
    options.num_duplicate_equalities = 5;
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    QpSolution solution;
    const QpSummary summary = solver.solve(qp.problem, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message;
    retried += summary.message.find("left out as dependent") != std::string::npos ? 1 : 0;
    const QpKktResidual r = kkt_residual(qp.problem, solution);
    EXPECT_LT(r.max(), kKktTolerance);
    EXPECT_LE(r.force_scale, InteriorPointSolver::kMaxMultiplierGrowth * r.objective_force_scale);
    EXPECT_LT((solution.x - qp.solution.x).lpNorm<Eigen::Infinity>(),
              kSolutionTolerance * r.length_scale);
  }
  EXPECT_GT(retried, 0);  // the retry ran (on 2 of these 200 QPs when written)
}

// A flat sheet with more equality rows than in-plane degrees of freedom minus the three in-plane
// rigid motions (2N − 3 = 37 < 44 rows): rank 37, the dependence hidden rather than duplicated.
// Before mumps_permuting_scaling = 0 about a quarter of these ended in Restoration_Failed.
TEST(InteriorPointSolver, FlatSheetWithRigidMotionDependencies) {
  std::mt19937 rng(2024);
  InteriorPointSolver solver;
  for (int trial = 0; trial < 20; ++trial) {
    testing::RandomQpOptions options;
    options.num_nodes = 20;
    options.num_equalities = 40;
    options.num_duplicate_equalities = 4;
    options.num_inequalities = 20;
    options.active_fraction = 0.3;
    options.flat = true;
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    QpSolution solution;
    const QpSummary summary = solver.solve(qp.problem, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message << " trial " << trial;
    const QpKktResidual r = kkt_residual(qp.problem, solution);
    EXPECT_LT(r.max(), kKktTolerance) << "trial " << trial;
    EXPECT_LT((solution.x - qp.solution.x).lpNorm<Eigen::Infinity>(),
              kSolutionTolerance * r.length_scale)
        << "trial " << trial;
  }
}

TEST(InteriorPointSolver, InfeasibleProblemIsReportedNotThrown) {
  // x1 ≥ 1 and −x1 ≥ 0.
  Eigen::MatrixXd a_i(2, 1);
  a_i << 1, -1;
  const QpProblem problem =
      make_problem(Eigen::VectorXd::Ones(1), Eigen::VectorXd::Zero(1), Eigen::MatrixXd(0, 1),
                   Eigen::VectorXd(0), a_i, Eigen::Vector2d(-1.0, 0.0));
  InteriorPointSolver solver;
  QpSolution solution;
  const QpSummary summary = solver.solve(problem, {}, &solution);
  EXPECT_FALSE(summary.ok());
  EXPECT_EQ(summary.termination, QpTermination::kNumericalFailure);
  EXPECT_NE(summary.message.find("Ipopt"), std::string::npos) << summary.message;
  EXPECT_EQ(solution.x.size(), 1);
  EXPECT_EQ(solution.inequality_multipliers.size(), 2);
  // The solver is still usable afterwards.
  QpSolution hand;
  EXPECT_TRUE(solver.solve(hand_problem(), {}, &hand).ok());
}

TEST(InteriorPointSolver, InconsistentEqualitiesAreReported) {
  Eigen::MatrixXd a_e(2, 2);
  a_e << 1, 0, 1, 0;  // x1 = 0 and x1 = 1
  const QpProblem problem =
      make_problem(Eigen::Vector2d::Ones(), Eigen::Vector2d::Zero(), a_e, Eigen::Vector2d(0, -1),
                   Eigen::MatrixXd(0, 2), Eigen::VectorXd(0));
  InteriorPointSolver solver;
  QpSolution solution;
  const QpSummary summary = solver.solve(problem, {}, &solution);
  EXPECT_FALSE(summary.ok()) << summary.message;
  EXPECT_EQ(solution.x.size(), 2);
  // Ipopt's verdict stands, and the retry without the dependent row is reported as failing the
  // whole QP (x1 = 0 alone leaves x1 = 1 violated).
  EXPECT_NE(summary.message.find("Infeasible_Problem_Detected"), std::string::npos)
      << summary.message;
  EXPECT_NE(summary.message.find("again without 1 of 2 equality rows"), std::string::npos)
      << summary.message;
}

// Damped mode (refinement_steps = 0): the inconsistent rows x1 = 0 and x1 = 1 (D = I, f = 0) are
// solved as the regularised system [1 1 1; 1 −ε 0; 1 0 −ε] (x1, λ1, λ2) = (0, 0, 1) with
// ε = reg · mean(diag A D⁻¹ Aᵀ) = reg: λ1 = x1 / ε, λ2 = (x1 − 1) / ε, x1 = 1 / (2 + ε); x2 = 0.
TEST(InteriorPointSolver, DampedModeSolvesInconsistentEqualitiesAsRegularisedSystem) {
  Eigen::MatrixXd a_e(2, 2);
  a_e << 1, 0, 1, 0;
  const QpProblem problem =
      make_problem(Eigen::Vector2d::Ones(), Eigen::Vector2d::Zero(), a_e, Eigen::Vector2d(0, -1),
                   Eigen::MatrixXd(0, 2), Eigen::VectorXd(0));
  for (const double regularization : {1e-10, 1e-3}) {
    QpSolverOptions options;
    options.refinement_steps = 0;
    options.equality_regularization = regularization;
    InteriorPointSolver solver(options);
    QpSolution solution;
    const QpSummary summary = solver.solve(problem, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message;
    EXPECT_NE(summary.message.find("damped QP"), std::string::npos) << summary.message;
    const double x1 = 1.0 / (2.0 + regularization);
    EXPECT_NEAR(solution.x[0], x1, 1e-9);
    EXPECT_NEAR(solution.x[1], 0.0, 1e-12);
    EXPECT_NEAR(solution.equality_multipliers[0] * regularization, x1, 1e-9);
    EXPECT_NEAR(solution.equality_multipliers[1] * regularization, x1 - 1.0, 1e-9);
  }
}

// Damped mode with K and contacts against the regularised KKT system solved densely: an
// equality-only random QP, then the same with its active contacts as extra (undamped) rows fixed
// by the solver's own active set.
TEST(InteriorPointSolver, DampedModeMatchesTheRegularisedKktSystem) {
  std::mt19937 rng(31);
  QpSolverOptions options;
  options.refinement_steps = 0;
  options.equality_regularization = 1e-4;
  InteriorPointSolver solver(options);
  for (int trial = 0; trial < 6; ++trial) {
    testing::RandomQpOptions random;
    random.num_curvature_terms = trial % 2 == 0 ? 10 : 0;
    random.num_duplicate_equalities = trial % 3;
    const testing::RandomQp qp = testing::make_random_qp(random, rng);
    const QpProblem& p = qp.problem;
    QpSolution solution;
    const QpSummary summary = solver.solve(p, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message;
    const std::vector<int>& active = solution.active_inequalities;
    const int n = p.num_variables();
    const int m = p.num_equalities();
    const int k = static_cast<int>(active.size());
    double mean_delassus = 0.0;
    const Eigen::MatrixXd a = Eigen::MatrixXd(p.equality_jacobian);
    for (int r = 0; r < m; ++r) {
      mean_delassus += (a.row(r).array().square() / p.mass.transpose().array()).sum();
    }
    const double epsilon = options.equality_regularization * mean_delassus / m;
    Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m + k, n + m + k);
    if (p.has_curvature()) {
      const Eigen::MatrixXd lower = Eigen::MatrixXd(p.curvature);
      kkt.topLeftCorner(n, n) = lower + lower.transpose();
      kkt.topLeftCorner(n, n).diagonal() = lower.diagonal();
    }
    kkt.topLeftCorner(n, n).diagonal() += p.mass;
    kkt.block(0, n, n, m) = a.transpose();
    kkt.block(n, 0, m, n) = a;
    kkt.block(n, n, m, m).diagonal().setConstant(-epsilon);
    Eigen::VectorXd rhs(n + m + k);
    rhs << p.linear, -p.equality_offset, Eigen::VectorXd::Zero(k);
    for (int b = 0; b < k; ++b) {
      const Eigen::RowVectorXd g = Eigen::RowVectorXd(p.inequality_jacobian.row(active[b]));
      kkt.block(n + m + b, 0, 1, n) = g;
      kkt.block(0, n + m + b, n, 1) = -g.transpose();  // D x − f + A_Eᵀ λ − A_Iᵀ γ = 0
      rhs[n + m + b] = -p.inequality_offset[active[b]];
    }
    const Eigen::VectorXd z = kkt.partialPivLu().solve(rhs);
    const double length = z.head(n).lpNorm<Eigen::Infinity>();
    EXPECT_LT((solution.x - z.head(n)).lpNorm<Eigen::Infinity>(), 1e-7 * length)
        << "trial " << trial;
    // Visibly damped: the exact QP's solution is elsewhere.
    EXPECT_GT((solution.x - qp.solution.x).lpNorm<Eigen::Infinity>(), 1e-5 * length)
        << "trial " << trial;
  }
}

TEST(InteriorPointSolver, IterationLimitIsReported) {
  QpSolverOptions options;
  options.interior_point_max_iterations = 1;
  InteriorPointSolver solver(options);
  QpSolution solution;
  const QpSummary summary = solver.solve(hand_problem(), {}, &solution);
  EXPECT_EQ(summary.termination, QpTermination::kIterationLimit) << summary.message;
  EXPECT_EQ(solution.x.size(), 3);
}

// The guard against Ipopt successes that are not: a tolerance far looser than
// kMaxConvergedKktResidual lets Ipopt stop early, and the solver says so.
TEST(InteriorPointSolver, SuccessWithLargeKktResidualIsReported) {
  QpSolverOptions options;
  options.interior_point_tolerance = 1e-2;
  InteriorPointSolver solver(options);
  std::mt19937 rng(3);
  const testing::RandomQp qp = testing::make_random_qp({}, rng);
  QpSolution solution;
  const QpSummary summary = solver.solve(qp.problem, {}, &solution);
  EXPECT_EQ(summary.termination, QpTermination::kNumericalFailure) << summary.message;
  EXPECT_NE(summary.message.find("KKT residual"), std::string::npos) << summary.message;
  EXPECT_GT(kkt_residual(qp.problem, solution).max(),
            InteriorPointSolver::kMaxConvergedKktResidual);
}

TEST(InteriorPointSolver, NonFiniteDataIsReportedNotThrown) {
  QpProblem problem = hand_problem();
  problem.linear[1] = std::numeric_limits<double>::quiet_NaN();
  InteriorPointSolver solver;
  QpSolution solution;
  const QpSummary summary = solver.solve(problem, {}, &solution);
  EXPECT_EQ(summary.termination, QpTermination::kNumericalFailure) << summary.message;
  EXPECT_EQ(solution.x.size(), 3);
}

TEST(InteriorPointSolver, EmptyProblem) {
  const QpProblem problem =
      make_problem(Eigen::VectorXd(0), Eigen::VectorXd(0), Eigen::MatrixXd(0, 0),
                   Eigen::VectorXd(0), Eigen::MatrixXd(0, 0), Eigen::VectorXd(0));
  InteriorPointSolver solver;
  QpSolution solution;
  EXPECT_TRUE(solver.solve(problem, {}, &solution).ok());
  EXPECT_EQ(solution.x.size(), 0);
}

TEST(InteriorPointSolver, PrintsNothing) {
  std::mt19937 rng(5);
  testing::RandomQpOptions options;
  options.num_duplicate_equalities = 4;
  const testing::RandomQp qp = testing::make_random_qp(options, rng);
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  {
    InteriorPointSolver solver;
    QpSolution solution;
    solver.solve(qp.problem, {}, &solution);
    solver.solve(hand_problem(), {}, &solution);
    QpProblem broken = hand_problem();
    broken.linear[0] = std::numeric_limits<double>::infinity();
    solver.solve(broken, {}, &solution);
  }
  const std::string out = ::testing::internal::GetCapturedStdout();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "");
}

}  // namespace
}  // namespace clothfit::qp
