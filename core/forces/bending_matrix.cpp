#include "core/forces/bending_matrix.hpp"

#include <array>
#include <cmath>
#include <vector>

namespace clothfit::forces {

Eigen::SparseMatrix<double> bending_matrix(const mesh::QuadMesh& mesh) {
  const int n = mesh.num_nodes();
  // Element stiffness of a bilinear a × b rectangle-parametrised quad, by 2-point Gauss (exact).
  const double r = 0.5 / std::sqrt(3.0);
  const std::array<double, 2> x{0.5 - r, 0.5 + r};
  std::vector<Eigen::Triplet<double>> triplets;
  Eigen::VectorXd area = Eigen::VectorXd::Zero(n);
  for (const mesh::Quad& q : mesh.quads) {
    const double a = (mesh.rest_position(q[1]) - mesh.rest_position(q[0])).norm();
    const double b = (mesh.rest_position(q[3]) - mesh.rest_position(q[0])).norm();
    double k[4][4] = {};
    for (double u : x) {
      for (double v : x) {
        const std::array<double, 4> du{-(1 - v), 1 - v, v, -v};
        const std::array<double, 4> dv{-(1 - u), -u, u, 1 - u};
        for (int i = 0; i < 4; ++i) {
          for (int j = 0; j < 4; ++j) {
            // ∫ (∂ξN_i ∂ξN_j + ∂ηN_i ∂ηN_j) a b du dv with weights 1/4 per Gauss point.
            k[i][j] += 0.25 * (du[i] * du[j] * b / a + dv[i] * dv[j] * a / b);
          }
        }
      }
    }
    for (int i = 0; i < 4; ++i) {
      area[q[i]] += 0.25 * a * b;
      if (mesh.is_boundary_node[q[i]])
        continue;
      for (int j = 0; j < 4; ++j)
        triplets.emplace_back(q[i], q[j], k[i][j]);
    }
  }
  Eigen::SparseMatrix<double> laplacian(n, n);
  laplacian.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::VectorXd inverse_area = area.cwiseInverse();
  for (int i = 0; i < n; ++i) {
    if (mesh.is_boundary_node[i])
      inverse_area[i] = 0.0;
  }
  Eigen::SparseMatrix<double> k = laplacian.transpose() * inverse_area.asDiagonal() * laplacian;
  k.prune(0.0);
  return k;
}

}  // namespace clothfit::forces
