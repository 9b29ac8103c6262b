// The active set on QPs whose contact rows are linearly dependent (paper Remark 5.2): a dependent
// row swapped in by Goldfarb and Idnani's dual step, and an infeasible QP reported as such,
// against hand-solved problems and against the interior-point solver on crowded random QPs.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <climits>
#include <random>
#include <string>
#include <vector>

#include "core/qp/active_set_solver.hpp"
#include "core/qp/interior_point_solver.hpp"
#include "core/qp/qp_kkt.hpp"
#include "tests/core/qp/random_qp.hpp"

namespace clothfit::qp {
namespace {

SparseRowMatrix sparse(const Eigen::MatrixXd& dense) {
  return dense.sparseView();
}

// min ½‖x‖² − fᵀx (D = I) subject to c + G x ≥ 0.
QpProblem contact_problem(const Eigen::VectorXd& f, const Eigen::MatrixXd& g,
                          const Eigen::VectorXd& c) {
  QpProblem p;
  p.mass = Eigen::VectorXd::Ones(f.size());
  p.linear = f;
  p.equality_jacobian.resize(0, f.size());
  p.equality_offset.resize(0);
  p.inequality_jacobian = sparse(g);
  p.inequality_offset = c;
  return p;
}

TEST(DegenerateQp, OppositeRowsThatCannotBothHoldAreInfeasible) {
  // x₀ ≥ 1 and −x₀ ≥ 0: the second is −1 times the first, and no x satisfies both. From x = 0
  // the first enters (x₀ = 1); the second is then violated and dependent with a coefficient of
  // −1, so no working row can make room for it.
  Eigen::MatrixXd g(2, 3);
  g << 1, 0, 0, -1, 0, 0;
  const QpProblem p = contact_problem(Eigen::Vector3d(0, 0.5, 0), g, Eigen::Vector2d(-1, 0));
  ActiveSetSolver solver;
  QpSolution s;
  const QpSummary summary = solver.solve(p, {}, &s);
  EXPECT_EQ(summary.termination, QpTermination::kInfeasible) << summary.message;
  EXPECT_NE(summary.message.find("contact row 1"), std::string::npos) << summary.message;
  EXPECT_EQ(summary.infeasible_row, 1);
  EXPECT_NEAR(summary.infeasible_residual, -1.0, 1e-12);  // 0 − x₀ at x₀ = 1
  EXPECT_EQ(summary.dependent_rows, 1);
  // The solution without the row set aside.
  EXPECT_NEAR(s.x[0], 1.0, 1e-12);
  EXPECT_NEAR(s.x[1], 0.5, 1e-12);
  EXPECT_EQ(to_string(summary.termination), "infeasible");
}

TEST(DegenerateQp, ADependentRowThatHoldsAtTheEndIsNotInfeasible) {
  // x₀ ≥ 1 and −x₀ ≥ −2 (x₀ ≤ 2) are dependent but compatible; pulled to x₀ = 3 the second
  // binds, and the first, set aside or not, holds.
  Eigen::MatrixXd g(2, 3);
  g << 1, 0, 0, -1, 0, 0;
  const QpProblem p = contact_problem(Eigen::Vector3d(3, 0, 0), g, Eigen::Vector2d(-1, 2));
  ActiveSetSolver solver;
  QpSolution s;
  const QpSummary summary = solver.solve(p, std::vector<int>{0}, &s);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_EQ(summary.infeasible_row, -1);
  EXPECT_NEAR(s.x[0], 2.0, 1e-12);
}

TEST(DegenerateQp, TheDualStepLetsTheRowWhoseMultiplierReachesZeroFirstLeave) {
  // Rows x₀ ≥ 1 and x₁ ≥ 1 seeded, then x₀ + 3x₁ ≥ 6 (row 0 + 3 × row 1 in gradient), pulled
  // towards f = (0.9, 0, 0): with rows 0 and 1 working, x = (1, 1, 0) and their multipliers are
  // x − f = 0.1 and 1. Row 2 is violated (1 + 3 − 6 = −2) and dependent with α = (1, 3). Its
  // multiplier can rise to t = min(0.1/1, 1/3) = 0.1, where row 0's reaches 0: row 0 leaves
  // (the paper's rule, the largest |α|, would send row 1) and row 1 keeps 1 − 3t = 0.7. With
  // rows 1 and 2 working row 1's multiplier is −5.3, so it leaves by the ratio test, and the
  // optimum lies on x₀ + 3x₁ = 6 alone: x = f + s (1, 3, 0) with 0.9 + 10s = 6, s = 0.51,
  // x = (1.41, 1.53, 0), rows 0 and 1 slack, row 2's multiplier s.
  Eigen::MatrixXd g(3, 3);
  g << 1, 0, 0, 0, 1, 0, 1, 3, 0;
  const QpProblem p = contact_problem(Eigen::Vector3d(0.9, 0, 0), g, Eigen::Vector3d(-1, -1, -6));
  ActiveSetSolver solver;
  QpSolution s;
  const QpSummary summary = solver.solve(p, std::vector<int>{0, 1}, &s);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_EQ(summary.dependent_rows, 1);
  EXPECT_EQ(summary.iterations, 2);  // row 2 swapped in for row 0, then row 1 out
  EXPECT_NEAR(s.x[0], 1.41, 1e-12);
  EXPECT_NEAR(s.x[1], 1.53, 1e-12);
  ASSERT_EQ(s.active_inequalities, std::vector<int>{2});
  EXPECT_NEAR(s.inequality_multipliers[2], 0.51, 1e-12);
  EXPECT_LT(kkt_residual(p, s).max(), 1e-12);
}

// Crowded random QPs (60 contact rows on 30 nodes, most of them touching one node; every third
// made an unbounded pinned row) whose pinned rows are moved off the solution by up to 1 mm: 29
// stay feasible (one of them, trial 24, meets dependent contact rows on its way) and 11 have no
// feasible point. Ipopt decides which. The active set must solve the feasible ones as Ipopt does
// and call the others infeasible, in a few working-set changes (the Schur path: 74 at most), by
// the Schur complement and with the working rows factored from the start alike. With the paper's
// rule for dependent rows (the largest coefficient leaves) trial 24 and all eleven infeasible
// problems ran to the change limit (2000) on the Schur path.
TEST(DegenerateQp, CrowdedProblemsAreSolvedOrFoundInfeasibleAsIpoptFindsThem) {
  std::mt19937 rng(99);
  int feasible = 0, infeasible = 0, feasible_with_dependent_rows = 0;
  for (int trial = 0; trial < 40; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    testing::RandomQpOptions options;
    options.num_nodes = 30;
    options.num_equalities = 50;
    options.num_inequalities = 60;
    options.active_fraction = 0.5;
    const QpProblem p =
        testing::with_pinned_rows(testing::make_random_qp(options, rng), false, 1e-3, rng);

    InteriorPointSolver reference;
    QpSolution expected;
    const QpSummary reference_summary = reference.solve(p, {}, &expected);
    if (reference_summary.ok())
      ++feasible;
    else
      ++infeasible;
    // The Schur path (where the dependence guard acts), and the working rows factored from the
    // start (which hands dependent, inconsistent rows back to the Schur path).
    for (const int factor_from : {INT_MAX, 0}) {
      SCOPED_TRACE(factor_from == 0 ? "factored" : "Schur complement");
      QpSolverOptions solver_options;
      solver_options.factor_working_rows_from = factor_from;
      ActiveSetSolver solver(solver_options);
      QpSolution s;
      const QpSummary summary = solver.solve(p, {}, &s);
      EXPECT_LT(summary.iterations, 200) << summary.message;
      if (reference_summary.ok()) {
        if (factor_from == INT_MAX)
          feasible_with_dependent_rows += summary.dependent_rows > 0 ? 1 : 0;
        ASSERT_TRUE(summary.ok()) << summary.message;
        EXPECT_LT(kkt_residual(p, s).max(), 1e-8);
        EXPECT_LT((s.x - expected.x).lpNorm<Eigen::Infinity>(),
                  1e-6 * expected.x.lpNorm<Eigen::Infinity>());
      } else {
        EXPECT_NE(reference_summary.message.find("Infeasible"), std::string::npos)
            << reference_summary.message;
        EXPECT_EQ(summary.termination, QpTermination::kInfeasible) << summary.message;
      }
    }
  }
  // Both kinds, and feasible problems that exercise the dependence guard.
  EXPECT_GE(feasible, 20);
  EXPECT_GE(infeasible, 5);
  EXPECT_GE(feasible_with_dependent_rows, 1);
}

}  // namespace
}  // namespace clothfit::qp
