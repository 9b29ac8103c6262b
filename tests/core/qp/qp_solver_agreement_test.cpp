// Both QP solvers (through make_qp_solver) on the same random problems: each must satisfy the KKT
// conditions and they must agree with each other and with the known solution. The interior point
// is the oracle for the active-set method.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/qp/qp_kkt.hpp"
#include "core/qp/qp_solver.hpp"
#include "tests/core/qp/random_qp.hpp"

namespace clothfit::qp {
namespace {

// Relative KKT accuracy of both solvers (qp_kkt.hpp scales).
constexpr double kKktTolerance = 1e-8;
// ‖x_active_set − x_interior_point‖∞ relative to the length scale L.
constexpr double kAgreementTolerance = 1e-6;

testing::RandomQpOptions options_for(int trial) {
  testing::RandomQpOptions options;
  switch (trial % 6) {
    case 0:  // the default: 20 nodes, 24 equalities, 16 contacts
      break;
    case 1:  // flat sheet, many active contacts (a cloth lying on a table)
      options.flat = true;
      options.active_fraction = 0.6;
      break;
    case 2:  // rank-deficient equality rows
      options.num_duplicate_equalities = 5;
      break;
    case 3:  // crowded: many contacts, most active rows violated at x = 0
      options.num_nodes = 30;
      options.num_equalities = 50;
      options.num_inequalities = 60;
      options.active_fraction = 0.5;
      options.violated_at_zero_fraction = 0.9;
      break;
    case 4:  // small, unit scales
      options.num_nodes = 6;
      options.num_equalities = 8;
      options.num_inequalities = 8;
      options.mass_scale = 1.0;
      options.step_scale = 1.0;
      options.position_scale = 1.0;
      break;
    case 5:  // flat sheet with rank 37 of 44 equality rows (in-plane rigid motions, duplicates)
      options.num_equalities = 40;
      options.num_duplicate_equalities = 4;
      options.num_inequalities = 20;
      options.active_fraction = 0.3;
      options.flat = true;
      break;
  }
  return options;
}

// Initial working sets: none, the true active set, and a wrong guess (inactive rows and half of
// the active ones), as the previous time step may hand over.
std::vector<std::vector<int>> working_set_guesses(const testing::RandomQp& qp) {
  const std::vector<int>& active = qp.solution.active_inequalities;
  std::vector<int> wrong;
  for (int i = 0; i < qp.problem.num_inequalities(); ++i) {
    const bool is_active = std::find(active.begin(), active.end(), i) != active.end();
    if (!is_active || i % 2 == 0) {
      wrong.push_back(i);
    }
  }
  return {{}, active, wrong};
}

std::string describe(const QpKktResidual& r) {
  return "stationarity " + std::to_string(r.stationarity) + ", equality " +
         std::to_string(r.equality) + ", inequality " + std::to_string(r.inequality) + ", dual " +
         std::to_string(r.dual) + ", complementarity " + std::to_string(r.complementarity);
}

TEST(QpSolverAgreement, ActiveSetAndInteriorPointAgreeOnRandomQps) {
  const std::unique_ptr<QpSolver> active_set = make_qp_solver(QpSolverType::kActiveSet);
  const std::unique_ptr<QpSolver> interior_point = make_qp_solver(QpSolverType::kInteriorPoint);
  ASSERT_EQ(active_set->name(), "active-set");
  ASSERT_EQ(interior_point->name(), "interior-point");

  std::mt19937 rng(31337);
  int infeasible_starts = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const testing::RandomQp qp = testing::make_random_qp(options_for(trial), rng);
    SCOPED_TRACE("trial " + std::to_string(trial));
    if (qp.violated_at_zero > 0) {
      ++infeasible_starts;
    }

    QpSolution reference;
    const QpSummary reference_summary = interior_point->solve(qp.problem, {}, &reference);
    ASSERT_TRUE(reference_summary.ok()) << reference_summary.message;
    const QpKktResidual reference_kkt = kkt_residual(qp.problem, reference);
    EXPECT_LT(reference_kkt.max(), kKktTolerance) << describe(reference_kkt);
    const double length_scale = reference_kkt.length_scale;
    EXPECT_LT((reference.x - qp.solution.x).lpNorm<Eigen::Infinity>(),
              kAgreementTolerance * length_scale);

    for (const std::vector<int>& guess : working_set_guesses(qp)) {
      SCOPED_TRACE("initial working set of " + std::to_string(guess.size()) + " rows");
      QpSolution solution;
      const QpSummary summary = active_set->solve(qp.problem, guess, &solution);
      ASSERT_TRUE(summary.ok()) << summary.message;
      const QpKktResidual kkt = kkt_residual(qp.problem, solution);
      EXPECT_LT(kkt.max(), kKktTolerance) << describe(kkt);
      EXPECT_LT((solution.x - reference.x).lpNorm<Eigen::Infinity>(),
                kAgreementTolerance * length_scale);
      std::vector<int> working = solution.active_inequalities;  // the final working set
      std::sort(working.begin(), working.end());
      EXPECT_EQ(working, reference.active_inequalities);
    }
  }
  // The problems start infeasible at x = 0, as after the unconstrained predictor.
  EXPECT_EQ(infeasible_starts, 100);
}

}  // namespace
}  // namespace clothfit::qp
