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
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

#include "core/mesh/quad_mesh.hpp"

namespace clothfit::constraints {

using SparseRowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

class InextensibilityConstraints {
 public:
  explicit InextensibilityConstraints(const mesh::QuadMesh& mesh);

  int size() const { return static_cast<int>(m_rest_value.size()); }
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
  Eigen::SparseMatrix<double> make_curvature() const;
  void curvature(const Eigen::VectorXd& lambda, Eigen::SparseMatrix<double>* curvature) const;

  // max |C_i| over the metric rows and max |‖p_a − p_b‖/L − 1| over the boundary edges: the
  // dimensionless violation reported to users.
  double max_violation(const Eigen::VectorXd& phi) const;

 private:
  // Constraint i uses nodes m_nodes[m_node_offset[i] … m_node_offset[i+1]) (sorted ascending) and
  // the dense symmetric |S|×|S| block starting at m_q[m_q_offset[i]] (row-major).
  std::vector<int> m_node_offset;
  std::vector<int> m_nodes;
  std::vector<int> m_q_offset;
  std::vector<double> m_q;
  Eigen::VectorXd m_rest_value;  // c_i
  int m_num_nodes = 0;
  // Slot in the curvature matrix's values of entry (a, b) of constraint i's block, for a ≥ b in
  // global numbering (−1 for the upper half), laid out like m_q.
  std::vector<int> m_curvature_slot;
  int m_curvature_nonzeros = 0;
  int m_num_metric = 0;
  int m_num_variables = 0;
};

}  // namespace clothfit::constraints
