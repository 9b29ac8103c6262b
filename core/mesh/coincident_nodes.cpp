#include "core/mesh/coincident_nodes.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace clothfit::mesh {

std::vector<Edge> coincident_nodes(const QuadMesh& mesh, double tolerance_m) {
  const int n = mesh.num_nodes();
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const Eigen::VectorXd& x = mesh.rest_positions;
  std::sort(order.begin(), order.end(), [&x](int a, int b) { return x[3 * a] < x[3 * b]; });
  std::vector<Edge> pairs;
  // A window over x; within it, the other two coordinates decide.
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int a = order[i];
    for (std::size_t j = i + 1; j < order.size(); ++j) {
      const int b = order[j];
      if (x[3 * b] - x[3 * a] > tolerance_m)
        break;
      if (std::abs(x[3 * b + 1] - x[3 * a + 1]) <= tolerance_m &&
          std::abs(x[3 * b + 2] - x[3 * a + 2]) <= tolerance_m)
        pairs.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace clothfit::mesh
