#include "core/qp/saddle_point_ordering.hpp"

#include <Eigen/OrderingMethods>
#include <algorithm>
#include <map>

namespace clothfit::qp {

std::vector<int> saddle_point_ordering(const Eigen::SparseMatrix<double>& curvature,
                                       const SparseRowMatrix& equality_jacobian) {
  const int n = static_cast<int>(equality_jacobian.cols());
  const int m = static_cast<int>(equality_jacobian.rows());
  // Rows touching each variable (ascending, since rows are visited in order).
  std::vector<std::vector<int>> rows_of(n);
  for (int r = 0; r < m; ++r) {
    for (SparseRowMatrix::InnerIterator it(equality_jacobian, r); it; ++it)
      rows_of[it.col()].push_back(r);
  }
  std::map<std::vector<int>, int> group_of_pattern;
  std::vector<int> group(n);
  int num_groups = 0;
  for (int v = 0; v < n; ++v) {
    if (rows_of[v].empty()) {
      group[v] = num_groups++;
      continue;
    }
    const auto [it, inserted] = group_of_pattern.emplace(rows_of[v], num_groups);
    if (inserted)
      ++num_groups;
    group[v] = it->second;
  }

  // Pattern of K + A_Eᵀ A_E between groups, and AMD on it.
  std::vector<Eigen::Triplet<double>> triplets;
  for (int g = 0; g < num_groups; ++g)
    triplets.emplace_back(g, g, 1.0);
  const auto connect = [&triplets](int a, int b) {
    if (a != b) {
      triplets.emplace_back(a, b, 1.0);
      triplets.emplace_back(b, a, 1.0);
    }
  };
  for (int c = 0; c < curvature.outerSize(); ++c) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(curvature, c); it; ++it)
      connect(group[it.row()], group[c]);
  }
  std::vector<int> row_groups;
  for (int r = 0; r < m; ++r) {
    row_groups.clear();
    for (SparseRowMatrix::InnerIterator it(equality_jacobian, r); it; ++it)
      row_groups.push_back(group[it.col()]);
    std::sort(row_groups.begin(), row_groups.end());
    row_groups.erase(std::unique(row_groups.begin(), row_groups.end()), row_groups.end());
    for (std::size_t a = 0; a < row_groups.size(); ++a) {
      for (std::size_t b = a + 1; b < row_groups.size(); ++b)
        connect(row_groups[a], row_groups[b]);
    }
  }
  Eigen::SparseMatrix<double> graph(num_groups, num_groups);
  graph.setFromTriplets(triplets.begin(), triplets.end());
  std::vector<int> position(num_groups);
  if (num_groups > 0) {
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> amd;
    Eigen::AMDOrdering<int>()(graph, amd);
    for (int i = 0; i < num_groups; ++i)
      position[amd.indices()[i]] = i;
  }

  // Each group's variables, then the rows whose first group it is; rows touching nothing last.
  std::vector<int> start(num_groups + 2, 0);
  std::vector<int> slot_of(n + m);
  for (int v = 0; v < n; ++v)
    slot_of[v] = position[group[v]];
  for (int r = 0; r < m; ++r) {
    int first = num_groups;
    for (SparseRowMatrix::InnerIterator it(equality_jacobian, r); it; ++it)
      first = std::min(first, position[group[it.col()]]);
    slot_of[n + r] = first;
  }
  for (int i = 0; i < n + m; ++i)
    ++start[slot_of[i] + 1];
  for (int g = 0; g <= num_groups; ++g)
    start[g + 1] += start[g];
  std::vector<int> ordering(n + m);
  for (int i = 0; i < n + m; ++i)  // variables before rows within a slot: i ascending
    ordering[start[slot_of[i]]++] = i;
  return ordering;
}

}  // namespace clothfit::qp
