#include "core/qp/row_response_cache.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/qp/active_set_solver.hpp"
#include "core/qp/qp_kkt.hpp"
#include "random_qp.hpp"

namespace clothfit::qp {
namespace {

SparseRowMatrix sparse(const Eigen::MatrixXd& dense) {
  return dense.sparseView();
}

TEST(RowResponseCache, FindsRowsByTheirExactContent) {
  Eigen::MatrixXd rows(3, 4);
  rows << 1, 0, 2, 0,  //
      0, 1, 0, 0,      //
      1, 0, 2, 0;      // the same as row 0
  const SparseRowMatrix a = sparse(rows);
  RowResponseCache cache;
  EXPECT_EQ(cache.find(a, 0), nullptr);
  cache.insert(a, 0, Eigen::Vector4d(1, 2, 3, 4), Eigen::Vector2d(5, 6));
  ASSERT_NE(cache.find(a, 0), nullptr);
  ASSERT_NE(cache.find(a, 2), nullptr);  // another row number, same content
  EXPECT_EQ(cache.find(a, 2)->u, Eigen::Vector4d(1, 2, 3, 4));
  EXPECT_EQ(cache.find(a, 2)->w, Eigen::Vector2d(5, 6));
  EXPECT_EQ(cache.find(a, 1), nullptr);

  // A row in another matrix with the same columns and values hits; one ulp or one column off
  // misses.
  Eigen::MatrixXd other(3, 4);
  other << 1, 0, 2, 0,                    //
      1, 0, std::nextafter(2.0, 3.0), 0,  //
      0, 1, 2, 0;
  const SparseRowMatrix b = sparse(other);
  EXPECT_NE(cache.find(b, 0), nullptr);
  EXPECT_EQ(cache.find(b, 1), nullptr);
  EXPECT_EQ(cache.find(b, 2), nullptr);

  // Inserting an equal row replaces its response.
  cache.insert(b, 0, Eigen::Vector4d(0, 0, 0, 1), Eigen::Vector2d(0, 1));
  EXPECT_EQ(cache.size(), 1);
  EXPECT_EQ(cache.find(a, 0)->u, Eigen::Vector4d(0, 0, 0, 1));

  cache.clear();
  EXPECT_EQ(cache.size(), 0);
  EXPECT_EQ(cache.find(a, 0), nullptr);
}

TEST(RowResponseCache, StartsOverWhenFull) {
  const int n = RowResponseCache::kMaxEntries + 1;
  const SparseRowMatrix identity = sparse(Eigen::MatrixXd::Identity(n, n));
  RowResponseCache cache;
  const Eigen::VectorXd u = Eigen::VectorXd::Ones(n), w = Eigen::VectorXd::Zero(0);
  for (int r = 0; r < n; ++r)
    cache.insert(identity, r, u, w);
  EXPECT_EQ(cache.size(), 1);
  EXPECT_NE(cache.find(identity, n - 1), nullptr);
  EXPECT_EQ(cache.find(identity, 0), nullptr);
}

TEST(RowResponseCache, KeepsFewerRowsOfLargeProblems) {
  // Responses of 2^20 values: four fit in kMaxDoubles (2^22), the fifth starts over.
  const int n = 1 << 19;
  const SparseRowMatrix identity = sparse(Eigen::MatrixXd::Identity(5, 5));
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(n), w = Eigen::VectorXd::Zero(n);
  RowResponseCache cache;
  for (int r = 0; r < 4; ++r)
    cache.insert(identity, r, u, w);
  EXPECT_EQ(cache.size(), 4);
  cache.insert(identity, 4, u, w);
  EXPECT_EQ(cache.size(), 1);
  EXPECT_NE(cache.find(identity, 4), nullptr);
  EXPECT_EQ(cache.find(identity, 0), nullptr);
}

// The solver keeps responses while the problem says its matrices are unchanged. Solving the same
// QPs again with matrices_unchanged, with the contact rows in reverse order and one row changed,
// must give what a fresh solver gives.
TEST(RowResponseCache, ActiveSetSolverWithReusedResponsesMatchesAFreshSolver) {
  std::mt19937 rng(2026);
  testing::RandomQpOptions options;
  options.num_curvature_terms = 12;
  for (int trial = 0; trial < 20; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    ActiveSetSolver reusing;
    QpSolution first;
    ASSERT_TRUE(reusing.solve(qp.problem, {}, &first).ok());

    // The same rows in reverse order, then one row scaled: the cache hits by content, misses the
    // changed row.
    QpProblem reversed = qp.problem;
    const int m = qp.problem.num_inequalities();
    Eigen::MatrixXd dense = Eigen::MatrixXd(qp.problem.inequality_jacobian).colwise().reverse();
    reversed.inequality_offset = qp.problem.inequality_offset.reverse();
    dense.row(0) *= 1.5;
    reversed.inequality_offset[0] *= 1.5;
    reversed.inequality_jacobian = sparse(dense);
    reversed.matrices_unchanged = true;
    std::vector<int> seeds;
    for (int row : first.active_inequalities)
      seeds.push_back(m - 1 - row);

    QpSolution again, fresh;
    const QpSummary summary = reusing.solve(reversed, QpWarmStart{seeds}, &again);
    ASSERT_TRUE(summary.ok());
    if (!seeds.empty()) {
      EXPECT_GT(summary.reused_responses, 0);
    }
    ActiveSetSolver fresh_solver;
    QpProblem unflagged = reversed;
    unflagged.matrices_unchanged = false;
    ASSERT_TRUE(fresh_solver.solve(unflagged, QpWarmStart{seeds}, &fresh).ok());
    const double scale = std::max(1e-300, fresh.x.lpNorm<Eigen::Infinity>());
    EXPECT_LT((again.x - fresh.x).lpNorm<Eigen::Infinity>(), 1e-12 * scale);
    std::vector<int> working = again.active_inequalities, fresh_working = fresh.active_inequalities;
    std::sort(working.begin(), working.end());
    std::sort(fresh_working.begin(), fresh_working.end());
    EXPECT_EQ(working, fresh_working);
    EXPECT_LT(kkt_residual(reversed, again).max(), 1e-8);
  }
}

}  // namespace
}  // namespace clothfit::qp
