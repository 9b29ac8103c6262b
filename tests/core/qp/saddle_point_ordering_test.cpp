#include "core/qp/saddle_point_ordering.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/constraints/inextensibility_constraints.hpp"
#include "core/mesh/quad_mesh.hpp"
#include "core/qp/supernodal_ldlt.hpp"

namespace clothfit::qp {
namespace {

bool is_permutation_of_range(std::vector<int> ordering, int size) {
  if (static_cast<int>(ordering.size()) != size)
    return false;
  std::sort(ordering.begin(), ordering.end());
  for (int i = 0; i < size; ++i) {
    if (ordering[i] != i)
      return false;
  }
  return true;
}

// The Newton-projection QP pattern of a grid: K = K_node ⊗ I₃ and the inextensibility Jacobian.
struct GridPattern {
  Eigen::SparseMatrix<double> curvature;
  SparseRowMatrix jacobian;
};

GridPattern grid_pattern(int nodes_x, int nodes_y) {
  const mesh::QuadMesh mesh = mesh::make_grid_mesh(0.4, 0.6, nodes_x, nodes_y);
  const constraints::InextensibilityConstraints c(mesh);
  const Eigen::SparseMatrix<double> node = c.make_curvature();
  std::vector<Eigen::Triplet<double>> triplets;
  for (int col = 0; col < node.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(node, col); it; ++it) {
      for (int d = 0; d < 3; ++d)
        triplets.emplace_back(3 * static_cast<int>(it.row()) + d, 3 * col + d, 1.0);
    }
  }
  GridPattern p;
  p.curvature.resize(3 * mesh.num_nodes(), 3 * mesh.num_nodes());
  p.curvature.setFromTriplets(triplets.begin(), triplets.end());
  p.curvature.makeCompressed();
  p.jacobian = c.make_jacobian();
  return p;
}

TEST(SaddlePointOrdering, GridKeepsEachNodesCoordinatesTogetherAndRowsAfterAVariable) {
  const GridPattern p = grid_pattern(7, 9);
  const int n = static_cast<int>(p.jacobian.cols()), m = static_cast<int>(p.jacobian.rows());
  const std::vector<int> ordering = saddle_point_ordering(p.curvature, p.jacobian);
  ASSERT_TRUE(is_permutation_of_range(ordering, n + m));
  std::vector<int> position(n + m);
  for (int i = 0; i < n + m; ++i)
    position[ordering[i]] = i;
  // x, y, z of a node are touched by the same rows: one group, consecutive.
  for (int node = 0; node < n / 3; ++node) {
    EXPECT_EQ(position[3 * node + 1], position[3 * node] + 1) << "node " << node;
    EXPECT_EQ(position[3 * node + 2], position[3 * node] + 2) << "node " << node;
  }
  // Every row comes after at least one of its variables.
  for (int r = 0; r < m; ++r) {
    int first_variable = n + m;
    for (SparseRowMatrix::InnerIterator it(p.jacobian, r); it; ++it)
      first_variable = std::min(first_variable, position[it.col()]);
    EXPECT_LT(first_variable, position[n + r]) << "row " << r;
  }
}

TEST(SaddlePointOrdering, GridFactorHasFewerSupernodesThanAmdOnTheWholeMatrix) {
  const GridPattern p = grid_pattern(13, 17);
  const int n = static_cast<int>(p.jacobian.cols()), m = static_cast<int>(p.jacobian.rows());
  std::vector<Eigen::Triplet<double>> triplets;
  for (int i = 0; i < n + m; ++i)
    triplets.emplace_back(i, i, 1.0);
  for (int c = 0; c < n; ++c) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(p.curvature, c); it; ++it) {
      if (it.row() > c)
        triplets.emplace_back(static_cast<int>(it.row()), c, 1.0);
    }
  }
  for (int r = 0; r < m; ++r) {
    for (SparseRowMatrix::InnerIterator it(p.jacobian, r); it; ++it)
      triplets.emplace_back(n + r, static_cast<int>(it.col()), 1.0);
  }
  Eigen::SparseMatrix<double> lower(n + m, n + m);
  lower.setFromTriplets(triplets.begin(), triplets.end());
  lower.makeCompressed();
  SupernodalLdlt grouped, amd;
  grouped.analyze(lower, saddle_point_ordering(p.curvature, p.jacobian));
  amd.analyze(lower);
  EXPECT_LT(2 * grouped.num_supernodes(), amd.num_supernodes());
}

TEST(SaddlePointOrdering, RandomPatternsGivePermutations) {
  std::mt19937 rng(4);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 1 + trial * 5, m = trial * 3;
    std::uniform_int_distribution<int> column(0, n - 1);
    std::vector<Eigen::Triplet<double>> a, k;
    for (int r = 0; r < m; ++r) {
      if (r % 7 == 6)
        continue;  // an empty row
      for (int e = 0; e < 4; ++e)
        a.emplace_back(r, column(rng), 1.0);
    }
    for (int e = 0; e < n; ++e) {
      const int i = column(rng), j = column(rng);
      k.emplace_back(std::max(i, j), std::min(i, j), 1.0);
    }
    SparseRowMatrix jacobian(m, n);
    jacobian.setFromTriplets(a.begin(), a.end());
    Eigen::SparseMatrix<double> curvature(trial % 2 == 0 ? n : 0, trial % 2 == 0 ? n : 0);
    if (trial % 2 == 0)
      curvature.setFromTriplets(k.begin(), k.end());
    const std::vector<int> ordering = saddle_point_ordering(curvature, jacobian);
    EXPECT_TRUE(is_permutation_of_range(ordering, n + m)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace clothfit::qp
