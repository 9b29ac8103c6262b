// Inextensibility constraints C(φ) = 0 of paper §2 / DESIGN.md §1.
//
// For every interior node k, three metric constraints keep the first fundamental form, weighted
// by the hat function N_k, at its rest value:
//   E_k(φ) = (1/m_k) Σ_{i,j} ⟨p_i, p_j⟩ ∫ N_k ∂ξN_i ∂ξN_j dA       (and F_k with ∂ξ∂η, G_k with
//   ∂η∂η) C = E_k(φ) − E_k(φ_rest),   m_k = ∫ N_k dA.
// Each quad is parametrised bilinearly over [0, a] × [0, b], a and b being the rest lengths of its
// edges 0→1 and 0→3, so for rectangular rest quads (grids) E = G = 1 and F = 0 and the constraints
// are dimensionless. For every boundary edge (a, b) of rest length L:
//   C = ‖p_a − p_b‖² / L² − 1.
// Every C_i is a quadratic form C_i(φ) = Σ_{a,b ∈ S_i} Q_ab ⟨p_a, p_b⟩ − c_i over a small node set
// S_i, so ∂C_i/∂p_a = 2 Σ_b Q_ab p_b. A 7 × 9 grid has 35·3 + 28 = 133 constraints.
//
// evaluate() does not use the Q blocks: on a quad with corners p0…p3 the tangents are
// ∂ξφ = ((1−v) e_b + v e_t)/a and ∂ηφ = ((1−u) e_l + u e_r)/b with the edge vectors e_b = p1 − p0,
// e_t = p2 − p3, e_l = p3 − p0, e_r = p2 − p1 (u = ξ/a, v = η/b), so each corner's share of E, F
// and G is a fixed combination of the ten dot products of those edges (the integrals of the hat
// function against the tangents' products, in closed form). The Q blocks serve the curvature.
// A test checks that K(λ) is the exact Hessian of λᵀC, which ties the two together.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <array>
#include <string>
#include <vector>

#include "core/mesh/quad_mesh.hpp"

namespace clothfit::constraints {

using SparseRowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

class InextensibilityConstraints {
 public:
  explicit InextensibilityConstraints(const mesh::QuadMesh& mesh);

  int size() const { return static_cast<int>(m_node_offset.size()) - 1; }
  int num_metric() const { return m_num_metric; }  // rows 0 … num_metric−1; boundary edges after
  int num_variables() const { return m_num_variables; }

  // A (size × 3N) matrix with the Jacobian's sparsity pattern, to be filled by evaluate().
  SparseRowMatrix make_jacobian() const;

  // C(φ) into `values` (size) and, when `jacobian` is not null, ∇C(φ) into its values; the
  // jacobian must come from make_jacobian(). φ is (3N), node-major.
  void evaluate(const Eigen::VectorXd& phi, Eigen::VectorXd* values,
                SparseRowMatrix* jacobian) const;

  // A positive semidefinite model of the constraint curvature Σ_i λ_i ∇²C_i for multipliers λ
  // (size), as the (N × N) lower triangle K with Σ_i λ_i ∇²C_i ≈ K ⊗ I₃ (every ∇²C_i = 2 Q_i ⊗ I₃
  // is constant). Rows whose Q_i is semidefinite (E, G, boundary edges) enter with max(λ_i, 0):
  // tension stiffens, compression is left out. A shear row F_k enters exactly, together with
  // |λ_F| (Q_E + Q_G) of the same node, which bounds it from below (2|Q_F| ≼ Q_E + Q_G). The
  // pattern is fixed; `curvature` must come from make_curvature().
  // `exact`: Σ_i λ_i ∇²C_i itself (K ⊗ I₃ exactly, compression included), which is indefinite
  // where the sheet is compressed enough.
  Eigen::SparseMatrix<double> make_curvature() const;
  void curvature(const Eigen::VectorXd& lambda, Eigen::SparseMatrix<double>* curvature,
                 bool exact = false) const;

  // max |C_i| over the metric rows and max |‖p_a − p_b‖/L − 1| over the boundary edges: the
  // dimensionless violation reported to users.
  double max_violation(const Eigen::VectorXd& phi) const;
  // The same from values C(φ) that evaluate() returned.
  double max_violation_of(const Eigen::VectorXd& values) const;
  // The row with the largest of those violations (0 when there are no rows).
  int worst_row_of(const Eigen::VectorXd& values) const;
  // Row `row` in words: "E at node 17" (F, G: the node's other metric rows) or "the boundary edge
  // between nodes 0 and 1".
  std::string describe(int row) const;

 private:
  // Constraint i uses nodes m_nodes[m_node_offset[i] … m_node_offset[i+1]) (sorted ascending) and
  // the dense symmetric |S|×|S| block starting at m_q[m_q_offset[i]] (row-major).
  std::vector<int> m_node_offset;
  std::vector<int> m_nodes;
  std::vector<int> m_q_offset;
  std::vector<double> m_q;
  int m_num_nodes = 0;
  // Slot in the curvature matrix's values of entry (a, b) of constraint i's block, for a ≥ b in
  // global numbering (−1 for the upper half), laid out like m_q.
  std::vector<int> m_curvature_slot;
  int m_curvature_nonzeros = 0;
  int m_num_metric = 0;
  int m_num_variables = 0;

  // Per quad, for evaluate(): its nodes, and for each corner whose node carries metric rows the
  // weights of its E, F, G shares and where the shares' gradients go.
  struct QuadCorner {
    int row = -1;  // the node's E row (F = row + 1, G = row + 2); −1: a boundary node, no rows
    double e_weight = 0.0, f_weight = 0.0, g_weight = 0.0;  // b/(2a m_k), 1/m_k, a/(2b m_k)
    // Offset in the Jacobian's values of the (row, quad node i) entry, for E, F and G.
    std::array<std::array<int, 4>, 3> slot{};
  };
  struct QuadTerms {
    std::array<int, 4> nodes{};
    std::array<QuadCorner, 4> corners{};
  };
  std::vector<QuadTerms> m_quad_terms;
  // The node of each metric row triple (E, F, G), in row order.
  std::vector<int> m_metric_node;
  // Boundary edge rows (after the metric rows): nodes and 1/L².
  std::vector<std::array<int, 2>> m_edge_nodes;
  std::vector<double> m_edge_inverse_square;
  // Rest values of the metric rows' shares (E, F, G at rest), for evaluate().
  Eigen::VectorXd m_metric_rest;
  // E, F, G (and, with slots, the Jacobian) summed from the quads' shares.
  void accumulate_metric(const Eigen::VectorXd& phi, double* values, double* jacobian) const;
};

}  // namespace clothfit::constraints
