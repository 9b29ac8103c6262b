#include "core/qp/updatable_cholesky.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <vector>

namespace clothfit::qp {
namespace {

// The Gram matrix of n random normal rows of `columns` entries (SPD for columns ≥ n).
Eigen::MatrixXd random_gram(unsigned seed, int n, int columns) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd g(n, columns);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < columns; ++j)
      g(i, j) = normal(rng);
  }
  return g * g.transpose();
}

TEST(UpdatableCholesky, AppendsAndRemovesToMatchADirectFactorisation) {
  const int n = 12;
  const Eigen::MatrixXd s = random_gram(7, n, 20);  // SPD
  std::vector<int> rows;                            // rows of s currently in the factor, in order
  UpdatableCholesky chol;
  Eigen::VectorXd l;
  auto add = [&](int r) {
    Eigen::VectorXd off(rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k)
      off[k] = s(rows[k], r);
    ASSERT_TRUE(chol.append(off, s(r, r), 1e-12, &l));
    rows.push_back(r);
  };
  auto check = [&] {
    Eigen::MatrixXd sub(rows.size(), rows.size());
    for (std::size_t a = 0; a < rows.size(); ++a) {
      for (std::size_t b = 0; b < rows.size(); ++b)
        sub(a, b) = s(rows[a], rows[b]);
    }
    const Eigen::MatrixXd f = chol.factor();
    EXPECT_LT((f * f.transpose() - sub).cwiseAbs().maxCoeff(), 1e-10 * sub.cwiseAbs().maxCoeff());
    EXPECT_TRUE(f.isLowerTriangular());
    EXPECT_GT(f.diagonal().minCoeff(), 0.0);
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(rows.size(), 1, 2);
    Eigen::VectorXd x;
    chol.solve(b, &x);
    EXPECT_LT((sub * x - b).norm(), 1e-9 * b.norm() * sub.norm());
  };
  for (int r : {3, 0, 7, 5, 11, 2})
    add(r);
  check();
  chol.remove(2);  // row 7
  rows.erase(rows.begin() + 2);
  check();
  chol.remove(0);
  rows.erase(rows.begin());
  check();
  chol.remove(static_cast<int>(rows.size()) - 1);
  rows.pop_back();
  check();
  add(9);
  add(1);
  check();
}

// The factor is built by forward substitutions four columns per pass (below a 4 × 4 triangle);
// every entry must still take its subtractions one at a time in the order of the one-column form,
// so that the active set's results do not depend on that blocking: the same bits, for every size
// (the remainders of 4 included).
TEST(UpdatableCholesky, AppendingGivesTheOneColumnAtATimeFactorBitForBit) {
  const int n = 23;
  const Eigen::MatrixXd s = random_gram(11, n, 40);
  Eigen::MatrixXd reference = Eigen::MatrixXd::Zero(n, n);  // the one-column form, row by row
  UpdatableCholesky chol;
  Eigen::VectorXd l;
  for (int r = 0; r < n; ++r) {
    Eigen::VectorXd y = s.row(r).head(r).transpose();
    for (int j = 0; j < r; ++j) {
      const double yj = y[j] / reference(j, j);
      y[j] = yj;
      for (int i = j + 1; i < r; ++i)
        y[i] -= reference(i, j) * yj;
    }
    reference.row(r).head(r) = y.transpose();
    reference(r, r) = std::sqrt(s(r, r) - y.squaredNorm());
    ASSERT_TRUE(chol.append(s.row(r).head(r).transpose(), s(r, r), 1e-12, &l));
    ASSERT_EQ(l.size(), r);
    for (int j = 0; j < r; ++j)
      ASSERT_EQ(l[j], y[j]) << "row " << r << ", column " << j;  // exact
    const Eigen::MatrixXd factor = chol.factor();
    ASSERT_EQ(factor(r, r), reference(r, r)) << "row " << r;
  }
}

TEST(UpdatableCholesky, RejectsALinearlyDependentRow) {
  // Rows g0, g1 and g2 = g0 + 2 g1 of a Gram matrix.
  Eigen::MatrixXd g(3, 4);
  g << 1, 2, 0, 1, 0, 1, 3, 1, 1, 4, 6, 3;
  const Eigen::MatrixXd s = g * g.transpose();
  UpdatableCholesky chol;
  Eigen::VectorXd l;
  ASSERT_TRUE(chol.append(Eigen::VectorXd(0), s(0, 0), 1e-12, &l));
  ASSERT_TRUE(chol.append(Eigen::VectorXd::Constant(1, s(0, 1)), s(1, 1), 1e-12, &l));
  EXPECT_FALSE(chol.append(Eigen::Vector2d(s(0, 2), s(1, 2)), s(2, 2), 1e-10 * s(2, 2), &l));
  EXPECT_EQ(chol.size(), 2);
  // L⁻ᵀ l gives the combination coefficients (1, 2).
  Eigen::VectorXd alpha;
  chol.solve_transposed(l, &alpha);
  EXPECT_NEAR(alpha[0], 1.0, 1e-9);
  EXPECT_NEAR(alpha[1], 2.0, 1e-9);
}

}  // namespace
}  // namespace clothfit::qp
