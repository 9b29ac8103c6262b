#include "core/qp/qp_kkt.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <random>

#include "tests/core/qp/random_qp.hpp"

namespace clothfit::qp {
namespace {

// Hand-solved QP (3 variables, one equality, one active and one inactive inequality):
//   min ½ (x1² + 2 x2² + 4 x3²) − 0.2 x1   s.t.  x1 + x2 + x3 = 1,  x1 ≥ 0.8,  x3 ≥ −5.
// Without the contact x1 = 0.2 − λ would be 0.2 + 16/35 < 0.8, so x1 = 0.8 is active; then
// 2 x2 = 4 x3 = −λ and x2 + x3 = 0.2 give x = (0.8, 2/15, 1/15), λ = −4/15, and row 1 of
// D x − f + A_Eᵀλ − A_Iᵀγ = 0 gives γ1 = 0.8 − 0.2 − 4/15 = 1/3 > 0; x3 = 1/15 > −5 is inactive.
QpProblem hand_problem() {
  QpProblem problem;
  problem.mass = Eigen::Vector3d(1.0, 2.0, 4.0);
  problem.linear = Eigen::Vector3d(0.2, 0.0, 0.0);
  problem.equality_jacobian.resize(1, 3);
  problem.equality_jacobian.insert(0, 0) = 1.0;
  problem.equality_jacobian.insert(0, 1) = 1.0;
  problem.equality_jacobian.insert(0, 2) = 1.0;
  problem.equality_offset = Eigen::VectorXd::Constant(1, -1.0);
  problem.inequality_jacobian.resize(2, 3);
  problem.inequality_jacobian.insert(0, 0) = 1.0;
  problem.inequality_jacobian.insert(1, 2) = 1.0;
  problem.inequality_offset = Eigen::Vector2d(-0.8, 5.0);
  problem.equality_jacobian.makeCompressed();
  problem.inequality_jacobian.makeCompressed();
  return problem;
}

QpSolution hand_solution() {
  QpSolution solution;
  solution.x = Eigen::Vector3d(0.8, 2.0 / 15.0, 1.0 / 15.0);
  solution.equality_multipliers = Eigen::VectorXd::Constant(1, -4.0 / 15.0);
  solution.inequality_multipliers = Eigen::Vector2d(1.0 / 3.0, 0.0);
  solution.active_inequalities = {0};
  return solution;
}

// The scales of the hand solution: F = ‖D x‖∞ = 0.8 (f: 0.2, |A_E|ᵀ|λ|: 4/15, |A_I|ᵀ|γ|: 1/3);
// L = max(‖x‖∞ = 0.8, |c_E| / ‖a_E‖₂ = 1/√3, max(0, 0.8) / 1) = 0.8.
constexpr double kHandForceScale = 0.8;
constexpr double kHandLengthScale = 0.8;
constexpr double kDelta = 1e-3;

TEST(QpKkt, HandSolutionHasZeroResiduals) {
  const QpKktResidual r = kkt_residual(hand_problem(), hand_solution());
  EXPECT_NEAR(r.force_scale, kHandForceScale, 1e-15);
  EXPECT_NEAR(r.length_scale, kHandLengthScale, 1e-15);
  EXPECT_LT(r.stationarity, 1e-15);
  EXPECT_LT(r.equality, 1e-15);
  EXPECT_EQ(r.inequality, 0.0);
  EXPECT_EQ(r.dual, 0.0);
  EXPECT_LT(r.complementarity, 1e-15);
  EXPECT_LT(r.max(), 1e-15);
}

// The hand QP with its equality row duplicated and multipliers −4/15 + μ and −μ: the same
// stationarity, but |A_E|ᵀ|λ| = |μ − 4/15| + μ raises F (to 2μ − 4/15 for μ = 1e6) while F₀,
// the forces of the objective, stays ‖D x‖∞ = 0.8.
TEST(QpKkt, CancellingMultipliersRaiseTheForceScaleButNotTheObjectives) {
  QpProblem problem = hand_problem();
  problem.equality_jacobian.resize(2, 3);
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 3; ++col)
      problem.equality_jacobian.insert(row, col) = 1.0;
  }
  problem.equality_jacobian.makeCompressed();
  problem.equality_offset = Eigen::Vector2d(-1.0, -1.0);
  QpSolution solution = hand_solution();
  constexpr double kCancelling = 1e6;
  solution.equality_multipliers = Eigen::Vector2d(-4.0 / 15.0 + kCancelling, -kCancelling);
  const QpKktResidual r = kkt_residual(problem, solution);
  EXPECT_NEAR(r.objective_force_scale, kHandForceScale, 1e-15);
  EXPECT_NEAR(r.force_scale, 2.0 * kCancelling - 4.0 / 15.0, 1e-9);
  EXPECT_LT(r.stationarity, 1e-15);
  const QpKktResidual plain = kkt_residual(hand_problem(), hand_solution());
  EXPECT_EQ(plain.objective_force_scale, plain.force_scale);  // D x is the largest force there
}

TEST(QpKkt, PerturbedFreeCoordinateGivesStationarityAndEqualityResiduals) {
  QpSolution solution = hand_solution();
  solution.x[1] += kDelta;  // r_stat = (0, 2δ, 0), r_E = δ, contacts untouched
  const QpKktResidual r = kkt_residual(hand_problem(), solution);
  EXPECT_NEAR(r.stationarity, 2.0 * kDelta / kHandForceScale, 1e-14);
  EXPECT_NEAR(r.equality, kDelta / std::sqrt(3.0) / kHandLengthScale, 1e-14);
  EXPECT_EQ(r.inequality, 0.0);
  EXPECT_EQ(r.dual, 0.0);
  EXPECT_LT(r.complementarity, 1e-15);
  EXPECT_NEAR(r.max(), 2.0 * kDelta / kHandForceScale, 1e-14);
}

TEST(QpKkt, PenetratingContactGivesViolationAndComplementarity) {
  QpSolution solution = hand_solution();
  solution.x[0] -= kDelta;  // s1 = −δ; r_stat = (−δ, 0, 0); r_E = −δ
  const QpKktResidual r = kkt_residual(hand_problem(), solution);
  const double force_scale = 0.8 - kDelta;  // D1 x1 is still the largest force term
  EXPECT_NEAR(r.force_scale, force_scale, 1e-15);
  EXPECT_NEAR(r.length_scale, kHandLengthScale, 1e-15);  // from c_I,1 = −0.8
  EXPECT_NEAR(r.stationarity, kDelta / force_scale, 1e-14);
  EXPECT_NEAR(r.equality, kDelta / std::sqrt(3.0) / kHandLengthScale, 1e-14);
  EXPECT_NEAR(r.inequality, kDelta / kHandLengthScale, 1e-14);
  EXPECT_EQ(r.dual, 0.0);
  EXPECT_NEAR(r.complementarity, (1.0 / 3.0) * kDelta / (force_scale * kHandLengthScale), 1e-14);
}

TEST(QpKkt, WrongSignedMultiplierOnInactiveRow) {
  QpSolution solution = hand_solution();
  solution.inequality_multipliers[1] = -0.1;  // r_stat = (0, 0, +0.1)
  const QpKktResidual r = kkt_residual(hand_problem(), solution);
  EXPECT_NEAR(r.stationarity, 0.1 / kHandForceScale, 1e-14);
  EXPECT_NEAR(r.dual, 0.1 / kHandForceScale, 1e-14);
  const double slack = 5.0 + 1.0 / 15.0;
  EXPECT_NEAR(r.complementarity, 0.1 * slack / (kHandForceScale * kHandLengthScale), 1e-13);
  EXPECT_EQ(r.inequality, 0.0);
}

TEST(QpKkt, PositiveMultiplierOnInactiveRowBreaksComplementarityOnly) {
  QpSolution solution = hand_solution();
  solution.inequality_multipliers[1] = 0.01;
  const QpKktResidual r = kkt_residual(hand_problem(), solution);
  EXPECT_EQ(r.dual, 0.0);
  EXPECT_NEAR(r.stationarity, 0.01 / kHandForceScale, 1e-14);
  const double slack = 5.0 + 1.0 / 15.0;
  EXPECT_NEAR(r.complementarity, 0.01 * slack / (kHandForceScale * kHandLengthScale), 1e-13);
}

TEST(QpKkt, WrongEqualityMultiplierSign) {
  // λ = +4/15 instead of −4/15: every coordinate of r_stat moves by 8/15.
  QpSolution solution = hand_solution();
  solution.equality_multipliers[0] = 4.0 / 15.0;
  const QpKktResidual r = kkt_residual(hand_problem(), solution);
  EXPECT_NEAR(r.stationarity, (8.0 / 15.0) / kHandForceScale, 1e-14);
  EXPECT_LT(r.equality, 1e-15);
}

TEST(QpKkt, InvariantUnderRowObjectiveAndUnitScaling) {
  const QpProblem problem = hand_problem();
  QpSolution solution = hand_solution();
  solution.x[1] += kDelta;
  solution.x[0] -= 0.5 * kDelta;
  solution.inequality_multipliers[1] = 0.01;
  const QpKktResidual reference = kkt_residual(problem, solution);

  // Row scaling: contact row 1 and the equality row times 10 (their multipliers divided by 10).
  QpProblem rows = problem;
  QpSolution rows_solution = solution;
  rows.inequality_jacobian.coeffRef(1, 2) *= 10.0;
  rows.inequality_offset[1] *= 10.0;
  rows_solution.inequality_multipliers[1] /= 10.0;
  rows.equality_jacobian *= 10.0;
  rows.equality_offset *= 10.0;
  rows_solution.equality_multipliers /= 10.0;
  // Objective times 7 (D, f, λ, γ times 7) and x in a unit three times smaller (x' = 3x, so
  // D' = D / 9, f' = f / 3, A' = A / 3, c and the multipliers unchanged).
  QpProblem both = rows;
  QpSolution both_solution = rows_solution;
  both.mass *= 7.0 / 9.0;
  both.linear *= 7.0 / 3.0;
  both.equality_jacobian /= 3.0;
  both.inequality_jacobian /= 3.0;
  both_solution.x *= 3.0;
  both_solution.equality_multipliers *= 7.0;
  both_solution.inequality_multipliers *= 7.0;

  for (const auto& [p, s] : {std::pair{rows, rows_solution}, std::pair{both, both_solution}}) {
    const QpKktResidual r = kkt_residual(p, s);
    EXPECT_NEAR(r.stationarity, reference.stationarity, 1e-12 * reference.stationarity);
    EXPECT_NEAR(r.equality, reference.equality, 1e-12 * reference.equality);
    EXPECT_NEAR(r.inequality, reference.inequality, 1e-12 * reference.inequality);
    EXPECT_NEAR(r.complementarity, reference.complementarity, 1e-12 * reference.complementarity);
  }
  EXPECT_GT(reference.stationarity, 0.0);
  EXPECT_GT(reference.equality, 0.0);
  EXPECT_GT(reference.inequality, 0.0);
  EXPECT_GT(reference.complementarity, 0.0);
}

TEST(QpKkt, EqualityOnlyProblemAndEmptyRows) {
  QpProblem problem;
  problem.mass = Eigen::Vector2d(2.0, 1.0);
  problem.linear = Eigen::Vector2d(1.0, 0.0);
  problem.equality_jacobian.resize(1, 2);
  problem.equality_jacobian.insert(0, 1) = 1.0;  // x2 = 3
  problem.equality_offset = Eigen::VectorXd::Constant(1, -3.0);
  problem.inequality_jacobian.resize(0, 2);
  problem.inequality_offset.resize(0);
  QpSolution solution;
  solution.x = Eigen::Vector2d(0.5, 3.0);  // 2 x1 = 1; x2 − 0 + λ = 0 → λ = −3
  solution.equality_multipliers = Eigen::VectorXd::Constant(1, -3.0);
  solution.inequality_multipliers.resize(0);
  const QpKktResidual r = kkt_residual(problem, solution);
  EXPECT_EQ(r.max(), 0.0);
  solution.x[0] = 0.6;
  EXPECT_NEAR(kkt_residual(problem, solution).stationarity, 0.2 / 3.0, 1e-15);
}

// Hand-solved QP with a curvature term (2 variables, one equality):
//   min ½ xᵀ (D + K) x   s.t.  x1 + x2 = 1,   D = diag(1, 2),   K = [1 −1; −1 1] (lower: 1, −1, 1).
// D + K = [2 −1; −1 3]; (D + K) x = −λ (1, 1) and x1 + x2 = 1 give (D + K)⁻¹ (1, 1) = (4, 3)/5,
// λ = −5/7, x = (4/7, 3/7).
QpProblem curvature_problem() {
  QpProblem problem;
  problem.mass = Eigen::Vector2d(1.0, 2.0);
  problem.curvature.resize(2, 2);
  problem.curvature.insert(0, 0) = 1.0;
  problem.curvature.insert(1, 0) = -1.0;
  problem.curvature.insert(1, 1) = 1.0;
  problem.curvature.makeCompressed();
  problem.linear = Eigen::Vector2d::Zero();
  problem.equality_jacobian.resize(1, 2);
  problem.equality_jacobian.insert(0, 0) = 1.0;
  problem.equality_jacobian.insert(0, 1) = 1.0;
  problem.equality_jacobian.makeCompressed();
  problem.equality_offset = Eigen::VectorXd::Constant(1, -1.0);
  problem.inequality_jacobian.resize(0, 2);
  problem.inequality_offset.resize(0);
  return problem;
}

QpSolution curvature_solution() {
  QpSolution solution;
  solution.x = Eigen::Vector2d(4.0 / 7.0, 3.0 / 7.0);
  solution.equality_multipliers = Eigen::VectorXd::Constant(1, -5.0 / 7.0);
  solution.inequality_multipliers.resize(0);
  return solution;
}

// F = ‖|D x| + |K| |x|‖∞ = max(4/7 + 1, 6/7 + 1) = 13/7 (D x + K x = (5/7, 5/7) cancels; |A_E|ᵀ|λ|
// = 5/7, f = 0); L = max(‖x‖∞ = 4/7, |c_E| / ‖a_E‖₂ = 1/√2) = 1/√2.
constexpr double kCurvatureForceScale = 13.0 / 7.0;

TEST(QpKkt, CurvatureEntersStationarityAndForceScale) {
  const QpKktResidual r = kkt_residual(curvature_problem(), curvature_solution());
  EXPECT_NEAR(r.force_scale, kCurvatureForceScale, 1e-15);
  EXPECT_NEAR(r.length_scale, 1.0 / std::sqrt(2.0), 1e-15);
  EXPECT_LT(r.max(), 1e-15);

  // Without K the same point is not stationary: r_stat = D x + A_Eᵀ λ = (−1/7, 1/7), F = 6/7.
  QpProblem without = curvature_problem();
  without.curvature.resize(0, 0);
  const QpKktResidual r0 = kkt_residual(without, curvature_solution());
  EXPECT_NEAR(r0.force_scale, 6.0 / 7.0, 1e-15);
  EXPECT_NEAR(r0.stationarity, (1.0 / 7.0) / (6.0 / 7.0), 1e-14);

  // x2 + δ: r_stat = (D + K)(0, δ) = (−δ, 3δ), r_E = δ; F = 13/7 + 3δ.
  QpSolution moved = curvature_solution();
  moved.x[1] += kDelta;
  const QpKktResidual r1 = kkt_residual(curvature_problem(), moved);
  EXPECT_NEAR(r1.force_scale, kCurvatureForceScale + 3.0 * kDelta, 1e-15);
  EXPECT_NEAR(r1.stationarity, 3.0 * kDelta / (kCurvatureForceScale + 3.0 * kDelta), 1e-14);
  EXPECT_NEAR(r1.equality, kDelta / std::sqrt(2.0) / (1.0 / std::sqrt(2.0)), 1e-14);
}

TEST(QpKkt, CurvatureGivenAsLowerTriangleOnly) {
  // An n × n K with no stored entries is no curvature; an entry above the diagonal is ignored.
  QpProblem empty = curvature_problem();
  empty.curvature = Eigen::SparseMatrix<double>(2, 2);
  QpProblem without = curvature_problem();
  without.curvature.resize(0, 0);
  const QpKktResidual r_empty = kkt_residual(empty, curvature_solution());
  const QpKktResidual r_without = kkt_residual(without, curvature_solution());
  EXPECT_EQ(r_empty.stationarity, r_without.stationarity);
  EXPECT_EQ(r_empty.force_scale, r_without.force_scale);

  QpProblem upper = curvature_problem();
  upper.curvature.coeffRef(0, 1) = 100.0;  // not part of the interface
  upper.curvature.makeCompressed();
  const QpKktResidual r_upper = kkt_residual(upper, curvature_solution());
  EXPECT_NEAR(r_upper.force_scale, kCurvatureForceScale, 1e-15);
  EXPECT_LT(r_upper.max(), 1e-15);
}

TEST(QpKkt, InvariantUnderScalingWithCurvature) {
  // Objective times 7 and x in a unit three times smaller: K' = 7 K / 9 like D' = 7 D / 9.
  const QpProblem problem = curvature_problem();
  QpSolution solution = curvature_solution();
  solution.x[0] += kDelta;
  solution.equality_multipliers[0] += 0.5 * kDelta;
  const QpKktResidual reference = kkt_residual(problem, solution);
  QpProblem scaled = problem;
  QpSolution scaled_solution = solution;
  scaled.mass *= 7.0 / 9.0;
  scaled.curvature *= 7.0 / 9.0;
  scaled.linear *= 7.0 / 3.0;
  scaled.equality_jacobian /= 3.0;
  scaled.equality_jacobian *= 10.0;  // and the row times 10
  scaled.equality_offset *= 10.0;
  scaled_solution.x *= 3.0;
  scaled_solution.equality_multipliers *= 7.0 / 10.0;
  const QpKktResidual r = kkt_residual(scaled, scaled_solution);
  EXPECT_GT(reference.stationarity, 0.0);
  EXPECT_GT(reference.equality, 0.0);
  EXPECT_NEAR(r.stationarity, reference.stationarity, 1e-12 * reference.stationarity);
  EXPECT_NEAR(r.equality, reference.equality, 1e-12 * reference.equality);
}

TEST(QpKkt, RandomProblemsWithCurvatureKnownSolutionsHaveRoundOffResiduals) {
  std::mt19937 rng(8128);
  for (int trial = 0; trial < 30; ++trial) {
    testing::RandomQpOptions options;
    options.num_duplicate_equalities = trial % 3;
    options.flat = trial % 2 == 1;
    options.num_curvature_terms = 5 + trial % 7;
    options.curvature_scale = trial % 4 == 0 ? 100.0 : 1.0;
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    ASSERT_TRUE(qp.problem.has_curvature());
    ASSERT_EQ(qp.problem.curvature.rows(), qp.problem.num_variables());
    const QpKktResidual r = kkt_residual(qp.problem, qp.solution);
    EXPECT_LT(r.max(), 1e-13) << "trial " << trial;
    // The known point is stationary only with K: dropping it leaves a residual K x*.
    QpProblem without = qp.problem;
    without.curvature.resize(0, 0);
    EXPECT_GT(kkt_residual(without, qp.solution).stationarity, 1e-3) << "trial " << trial;
    QpSolution moved = qp.solution;
    moved.x += 1e-4 * r.length_scale * Eigen::VectorXd::Random(moved.x.size());
    EXPECT_GT(kkt_residual(qp.problem, moved).max(), 1e-6) << "trial " << trial;
  }
}

TEST(QpKkt, RandomCurvatureIsSymmetricPositiveSemidefiniteLowerTriangle) {
  std::mt19937 rng(6);
  testing::RandomQpOptions options;
  options.num_curvature_terms = 8;
  const testing::RandomQp qp = testing::make_random_qp(options, rng);
  const Eigen::MatrixXd lower = Eigen::MatrixXd(qp.problem.curvature);
  EXPECT_EQ(lower.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().cwiseAbs().maxCoeff(),
            0.0);
  const Eigen::MatrixXd full =
      lower + lower.triangularView<Eigen::StrictlyLower>().transpose().toDenseMatrix();
  const Eigen::VectorXd eigenvalues =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(full).eigenvalues();
  EXPECT_GT(eigenvalues.maxCoeff(), 0.0);
  EXPECT_GT(eigenvalues.minCoeff(), -1e-12 * eigenvalues.maxCoeff());
  // Each term is w (q qᵀ) ⊗ I₃: the three coordinates of a node pair share one value.
  for (int a = 0; a < options.num_nodes; ++a) {
    for (int b = 0; b <= a; ++b) {
      EXPECT_EQ(full(3 * a, 3 * b), full(3 * a + 1, 3 * b + 1));
      EXPECT_EQ(full(3 * a, 3 * b), full(3 * a + 2, 3 * b + 2));
      EXPECT_EQ(full(3 * a, 3 * b + 1), 0.0);
    }
  }
}

TEST(QpKkt, RandomProblemsKnownSolutionsHaveRoundOffResiduals) {
  std::mt19937 rng(20240611);
  for (int trial = 0; trial < 30; ++trial) {
    testing::RandomQpOptions options;
    options.num_duplicate_equalities = trial % 3;
    options.flat = trial % 2 == 1;
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    EXPECT_GT(qp.violated_at_zero, 0) << "trial " << trial;
    const QpKktResidual r = kkt_residual(qp.problem, qp.solution);
    EXPECT_LT(r.max(), 1e-13) << "trial " << trial;
    // A step of 1e-4 L along a random direction is seen.
    QpSolution moved = qp.solution;
    moved.x += 1e-4 * r.length_scale * Eigen::VectorXd::Random(moved.x.size());
    EXPECT_GT(kkt_residual(qp.problem, moved).max(), 1e-6) << "trial " << trial;
  }
}

}  // namespace
}  // namespace clothfit::qp
