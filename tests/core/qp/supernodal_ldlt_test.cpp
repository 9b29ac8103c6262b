#include "core/qp/supernodal_ldlt.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

namespace clothfit::qp {
namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

// A random sparse quasi-definite matrix [H, Aᵀ; A, −εI] (lower triangle): H = D + B Bᵀ with D
// positive diagonal and B sparse (so H ≻ 0), A (m × n) sparse with `per_row` entries per row.
SparseMatrix random_quasi_definite(std::mt19937& rng, int n, int m, int per_row, double epsilon) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0), positive(0.2, 5.0);
  std::uniform_int_distribution<int> column(0, n - 1);
  Eigen::MatrixXd h = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i)
    h(i, i) = positive(rng);
  for (int t = 0; t < n / 2; ++t) {  // sparse rank-1 terms b bᵀ over 2–3 variables
    Eigen::VectorXd b = Eigen::VectorXd::Zero(n);
    for (int e = 0; e < 2 + t % 2; ++e)
      b[column(rng)] = uniform(rng);
    h += b * b.transpose();
  }
  std::vector<Eigen::Triplet<double>> triplets;
  for (int c = 0; c < n; ++c) {
    for (int r = c; r < n; ++r) {
      if (h(r, c) != 0.0 || r == c)
        triplets.emplace_back(r, c, h(r, c));
    }
  }
  for (int r = 0; r < m; ++r) {
    std::vector<int> columns;
    while (static_cast<int>(columns.size()) < std::min(per_row, n)) {
      const int c = column(rng);
      if (std::find(columns.begin(), columns.end(), c) == columns.end())
        columns.push_back(c);
    }
    for (int c : columns)
      triplets.emplace_back(n + r, c, uniform(rng));
    triplets.emplace_back(n + r, n + r, -epsilon);
  }
  SparseMatrix lower(n + m, n + m);
  lower.setFromTriplets(triplets.begin(), triplets.end());
  lower.makeCompressed();
  return lower;
}

Eigen::MatrixXd dense_symmetric(const SparseMatrix& lower) {
  const SparseMatrix full = lower.selfadjointView<Eigen::Lower>();
  return Eigen::MatrixXd(full);
}

double relative_residual(const SparseMatrix& lower, const Eigen::VectorXd& x,
                         const Eigen::VectorXd& b) {
  const SparseMatrix full = lower.selfadjointView<Eigen::Lower>();
  return (full * x - b).lpNorm<Eigen::Infinity>() /
         (Eigen::MatrixXd(full).cwiseAbs().rowwise().sum().maxCoeff() *
              x.lpNorm<Eigen::Infinity>() +
          b.lpNorm<Eigen::Infinity>());
}

TEST(SupernodalLdlt, QuasiDefiniteSolvesMatchDenseAndInertiaIsNM) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 5 + trial * 3, m = (trial * 2) % (n - 1) + 1;
    const SparseMatrix lower = random_quasi_definite(rng, n, m, 2 + trial % 7, 1e-3);
    SupernodalLdlt ldlt;
    ldlt.analyze(lower);
    ASSERT_TRUE(ldlt.factorize(lower)) << "trial " << trial;
    EXPECT_EQ(ldlt.num_negative_pivots(), m) << "trial " << trial;
    Eigen::VectorXd b = Eigen::VectorXd::Random(n + m), x = b;
    ldlt.solve_in_place(&x);
    const Eigen::VectorXd dense = dense_symmetric(lower).lu().solve(b);
    EXPECT_LT(relative_residual(lower, x, b), 1e-13) << "trial " << trial;
    EXPECT_LT((x - dense).lpNorm<Eigen::Infinity>(), 1e-8 * dense.lpNorm<Eigen::Infinity>())
        << "trial " << trial;
  }
}

TEST(SupernodalLdlt, AgreesWithSimplicialLdltOnRandomSpdMatrices) {
  // The algorithm it replaced (Eigen's SimplicialLDLT) as the oracle.
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 10 + 17 * trial;
    const SparseMatrix lower = random_quasi_definite(rng, n, 0, 0, 0.0);
    SupernodalLdlt ldlt;
    ldlt.analyze(lower);
    ASSERT_TRUE(ldlt.factorize(lower));
    EXPECT_EQ(ldlt.num_negative_pivots(), 0);
    Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> oracle(lower);
    ASSERT_EQ(oracle.info(), Eigen::Success);
    const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
    Eigen::VectorXd x = b;
    ldlt.solve_in_place(&x);
    const Eigen::VectorXd expected = oracle.solve(b);
    EXPECT_LT((x - expected).lpNorm<Eigen::Infinity>(), 1e-11 * expected.lpNorm<Eigen::Infinity>());
    // The determinant is ordering-independent: compare log|det| through the pivots.
    EXPECT_NEAR(ldlt.pivots().array().abs().log().sum(), oracle.vectorD().array().abs().log().sum(),
                1e-9 * n);
  }
}

TEST(SupernodalLdlt, ManyRightHandSidesAtOnceMatchOneByOne) {
  // The matrix solve combines whole rows in its sweeps; column j must equal the vector solve of
  // column j (to round-off: the sums are ordered differently), for 1 and for many columns.
  std::mt19937 rng(17);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = 8 + 11 * trial, m = trial % 2 == 0 ? 0 : n / 2;
    const SparseMatrix lower = random_quasi_definite(rng, n, m, 3, 1e-3);
    SupernodalLdlt ldlt;
    ldlt.analyze(lower);
    ASSERT_TRUE(ldlt.factorize(lower));
    for (int columns : {1, 7, 40}) {
      const SupernodalLdlt::RowMajorMatrix b =
          SupernodalLdlt::RowMajorMatrix::Random(n + m, columns);
      SupernodalLdlt::RowMajorMatrix x = b;
      ldlt.solve_in_place(&x);
      for (int j = 0; j < columns; ++j) {
        Eigen::VectorXd expected = b.col(j);
        ldlt.solve_in_place(&expected);
        EXPECT_LT((x.col(j) - expected).lpNorm<Eigen::Infinity>(),
                  1e-12 * expected.lpNorm<Eigen::Infinity>())
            << "trial " << trial << ", " << columns << " columns, column " << j;
      }
    }
  }
}

TEST(SupernodalLdlt, SparseRightHandSidesMatchTheDenseSolve) {
  // A contact or friction row touches one node: its right-hand side is zero outside three
  // unknowns, and the forward sweep skips the supernodes whose values are all still zero. Unit
  // vectors at every unknown (a leaf's, a separator's, the root's) and a few two-entry columns,
  // one at a time and all together, must solve like a dense right-hand side does.
  std::mt19937 rng(23);
  for (int trial = 0; trial < 6; ++trial) {
    const int n = 30 + 20 * trial, m = n / 3;
    const SparseMatrix lower = random_quasi_definite(rng, n, m, 3, 1e-3);
    SupernodalLdlt ldlt;
    ldlt.analyze(lower);
    ASSERT_TRUE(ldlt.factorize(lower));
    ASSERT_GT(ldlt.num_supernodes(), 3);
    const Eigen::MatrixXd inverse = dense_symmetric(lower).inverse();
    const int size = n + m;
    SupernodalLdlt::RowMajorMatrix b = SupernodalLdlt::RowMajorMatrix::Zero(size, size + 5);
    for (int i = 0; i < size; ++i)
      b(i, i) = 1.0;
    for (int j = size; j < size + 5; ++j) {
      b((7 * j) % size, j) = 0.5;
      b((11 * j + 3) % size, j) = -2.0;
    }
    SupernodalLdlt::RowMajorMatrix x = b;
    ldlt.solve_in_place(&x);
    // The two-entry columns alone: most supernodes are all zero in every column then.
    SupernodalLdlt::RowMajorMatrix few = b.rightCols(5);
    ldlt.solve_in_place(&few);
    for (int j = 0; j < 5; ++j) {
      const Eigen::VectorXd expected = inverse * b.col(size + j);
      EXPECT_LT((few.col(j) - expected).lpNorm<Eigen::Infinity>(),
                1e-9 * expected.lpNorm<Eigen::Infinity>())
          << "trial " << trial << ", two-entry column " << j;
    }
    for (int j = 0; j < b.cols(); ++j) {
      const Eigen::VectorXd expected = inverse * b.col(j);
      Eigen::VectorXd single = b.col(j);
      ldlt.solve_in_place(&single);
      const double scale = expected.lpNorm<Eigen::Infinity>();
      EXPECT_LT((x.col(j) - expected).lpNorm<Eigen::Infinity>(), 1e-9 * scale)
          << "trial " << trial << ", column " << j;
      EXPECT_LT((single - expected).lpNorm<Eigen::Infinity>(), 1e-9 * scale)
          << "trial " << trial << ", column " << j;
    }
  }
}

TEST(SupernodalLdlt, RefactorizesNewValuesWithTheSamePattern) {
  std::mt19937 rng(5);
  SparseMatrix lower = random_quasi_definite(rng, 60, 40, 4, 1e-6);
  SupernodalLdlt ldlt;
  ldlt.analyze(lower);
  std::uniform_real_distribution<double> scale(0.5, 2.0);
  for (int round = 0; round < 5; ++round) {
    // New values, same pattern: scale the off-diagonal entries of A; H and −εI stay as they are.
    for (int c = 0; c < 60; ++c) {
      for (SparseMatrix::InnerIterator it(lower, c); it; ++it) {
        if (it.row() >= 60)
          it.valueRef() *= scale(rng);
      }
    }
    ASSERT_TRUE(ldlt.factorize(lower));
    Eigen::VectorXd b = Eigen::VectorXd::Random(100), x = b;
    ldlt.solve_in_place(&x);
    // ε = 1e-6 makes the growth ‖A‖²/ε large: no worse than the algorithm it replaced.
    const Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> oracle(lower);
    const double oracle_residual = relative_residual(lower, oracle.solve(b), b);
    EXPECT_LT(relative_residual(lower, x, b), std::max(1e-13, 10.0 * oracle_residual))
        << "round " << round;
  }
}

TEST(SupernodalLdlt, GivenOrderingAndAmalgamationSettingsGiveTheSameSolution) {
  std::mt19937 rng(9);
  const SparseMatrix lower = random_quasi_definite(rng, 90, 50, 5, 1e-4);
  const Eigen::VectorXd b = Eigen::VectorXd::Random(140);
  SupernodalLdlt reference;
  reference.analyze(lower);
  ASSERT_TRUE(reference.factorize(lower));
  Eigen::VectorXd expected = b;
  reference.solve_in_place(&expected);

  std::vector<int> natural(140), reversed(140);
  std::iota(natural.begin(), natural.end(), 0);
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  SupernodalLdltOptions no_merging;
  no_merging.always_merge_columns = 0;
  no_merging.max_zero_fraction = 0.0;
  SupernodalLdltOptions heavy_merging;
  heavy_merging.max_merged_columns = 1000;
  heavy_merging.always_merge_columns = 1000;
  for (const auto& [ordering, options] :
       {std::pair{natural, SupernodalLdltOptions{}}, std::pair{reversed, SupernodalLdltOptions{}},
        std::pair{std::vector<int>{}, no_merging}, std::pair{std::vector<int>{}, heavy_merging}}) {
    SupernodalLdlt ldlt(options);
    ldlt.analyze(lower, ordering);
    ASSERT_TRUE(ldlt.factorize(lower));
    EXPECT_EQ(ldlt.num_negative_pivots(), 50);
    Eigen::VectorXd x = b;
    ldlt.solve_in_place(&x);
    EXPECT_LT((x - expected).lpNorm<Eigen::Infinity>(), 1e-9 * expected.lpNorm<Eigen::Infinity>());
  }
  // Merging everything into one supernode per tree makes fewer, larger supernodes.
  SupernodalLdlt merged(heavy_merging), separate(no_merging);
  merged.analyze(lower);
  separate.analyze(lower);
  EXPECT_LT(merged.num_supernodes(), separate.num_supernodes());
  EXPECT_GE(merged.factor_nonzeros(), separate.factor_nonzeros());
}

// Multiply–adds of a column-by-column LDLᵀ on the filled pattern of `lower` in its natural
// order: entry (i, j) of L, i ≥ j, takes one for every earlier column p with L(i, p) and L(j, p)
// nonzero.
double counted_multiply_adds(const SparseMatrix& lower) {
  const int n = static_cast<int>(lower.rows());
  std::vector<std::vector<char>> filled(n, std::vector<char>(n, 0));
  for (int c = 0; c < n; ++c) {
    for (SparseMatrix::InnerIterator it(lower, c); it; ++it)
      filled[it.row()][c] = 1;
  }
  for (int j = 0; j < n; ++j) {  // symbolic elimination: L(i, j) L(k, j) fills L(i, k)
    for (int i = j + 1; i < n; ++i) {
      if (!filled[i][j])
        continue;
      for (int k = j + 1; k <= i; ++k)
        filled[i][k] |= filled[k][j];
    }
  }
  double total = 0.0;
  for (int j = 0; j < n; ++j) {
    for (int i = j; i < n; ++i) {
      if (!filled[i][j])
        continue;
      for (int p = 0; p < j; ++p)
        total += filled[i][p] && filled[j][p] ? 1.0 : 0.0;
    }
  }
  return total;
}

TEST(SupernodalLdlt, MultiplyAddsOfAFactorisationMatchACountOverTheFilledPattern) {
  // A dense matrix (one supernode, (n³ − n)/6 multiply–adds) and an arrow matrix: `blocks` dense
  // diagonal blocks coupled only through a dense border of `border` rows, eliminated in their
  // natural order without amalgamation, so that every supernode but the last has rows below it.
  SupernodalLdltOptions no_merging;
  no_merging.always_merge_columns = 0;
  no_merging.max_zero_fraction = 0.0;
  const auto arrow = [](int blocks, int size, int border) {
    const int n = blocks * size + border;
    std::vector<Eigen::Triplet<double>> triplets;
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c <= r; ++c) {
        const bool same_block = r < blocks * size && r / size == c / size;
        if (r == c || same_block || r >= blocks * size)
          triplets.emplace_back(r, c, r == c ? 2.0 * n : 1.0 / (1 + r + c));
      }
    }
    SparseMatrix lower(n, n);
    lower.setFromTriplets(triplets.begin(), triplets.end());
    lower.makeCompressed();
    return lower;
  };
  for (const auto& [blocks, size, border, supernodes] :
       {std::tuple{1, 60, 0, 1}, std::tuple{4, 20, 10, 4}, std::tuple{6, 12, 30, 6}}) {
    const SparseMatrix lower = arrow(blocks, size, border);
    std::vector<int> natural(lower.rows());
    std::iota(natural.begin(), natural.end(), 0);
    SupernodalLdlt ldlt(no_merging);
    ldlt.analyze(lower, natural);
    ASSERT_TRUE(ldlt.factorize(lower));
    // The last block has the border as parent and joins it.
    EXPECT_EQ(ldlt.num_supernodes(), supernodes) << blocks << " blocks";
    const double counted = counted_multiply_adds(lower);
    EXPECT_NEAR(ldlt.factor_multiply_adds(), counted, 0.03 * counted) << blocks << " blocks";
  }
}

TEST(SupernodalLdlt, DiagonalAndEmptyMatrices) {
  SparseMatrix diagonal(4, 4);
  for (int i = 0; i < 4; ++i)
    diagonal.insert(i, i) = i % 2 == 0 ? 2.0 : -4.0;
  diagonal.makeCompressed();
  SupernodalLdlt ldlt;
  ldlt.analyze(diagonal);
  ASSERT_TRUE(ldlt.factorize(diagonal));
  Eigen::VectorXd x(4);
  x << 2.0, 4.0, 6.0, 8.0;
  ldlt.solve_in_place(&x);
  EXPECT_DOUBLE_EQ(x[0], 1.0);
  EXPECT_DOUBLE_EQ(x[1], -1.0);
  EXPECT_DOUBLE_EQ(x[2], 3.0);
  EXPECT_DOUBLE_EQ(x[3], -2.0);
  EXPECT_EQ(ldlt.num_negative_pivots(), 2);

  SparseMatrix empty(0, 0);
  empty.makeCompressed();
  SupernodalLdlt none;
  none.analyze(empty);
  EXPECT_TRUE(none.factorize(empty));
  Eigen::VectorXd nothing(0);
  none.solve_in_place(&nothing);
  EXPECT_EQ(none.num_supernodes(), 0);
}

TEST(SupernodalLdlt, ZeroOrNonFinitePivotIsReportedNotThrown) {
  // [1 1; 1 1] is singular: the second pivot is exactly 0 in either order.
  SparseMatrix singular(2, 2);
  singular.insert(0, 0) = 1.0;
  singular.insert(1, 0) = 1.0;
  singular.insert(1, 1) = 1.0;
  singular.makeCompressed();
  SupernodalLdlt ldlt;
  ldlt.analyze(singular);
  EXPECT_FALSE(ldlt.factorize(singular));

  std::mt19937 rng(1);
  SparseMatrix lower = random_quasi_definite(rng, 20, 10, 3, 1e-3);
  SupernodalLdlt other;
  other.analyze(lower);
  ASSERT_TRUE(other.factorize(lower));
  lower.coeffRef(3, 3) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(other.factorize(lower));
}

}  // namespace
}  // namespace clothfit::qp
