// The unconstrained implicit Euler step of DESIGN.md §2:
//   (ρM + Δt α M + Δt² κ K) φ0 = (ρM + Δt α M) φⁿ + Δt ρ M φ̇ⁿ − Δt² δ g M ẑ
// The matrix is constant, so it is factored once (diagonal when κ = 0).
#pragma once

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <memory>

#include "core/forces/cloth_material.hpp"
#include "core/mesh/quad_mesh.hpp"

namespace clothfit::forces {

class UnconstrainedStep {
 public:
  UnconstrainedStep(const mesh::QuadMesh& mesh, const ClothMaterial& material, double time_step);

  // φ0 (3N) from φⁿ and φ̇ⁿ (3N each).
  void compute(const Eigen::VectorXd& phi, const Eigen::VectorXd& velocity,
               Eigen::VectorXd* phi0) const;

  // Lumped area per node (N), m².
  const Eigen::VectorXd& lumped_area() const { return m_area; }

 private:
  ClothMaterial m_material;
  double m_dt;
  Eigen::VectorXd m_area;  // (N)
  // With bending: LDLᵀ of (ρ + Δt α) M + Δt² κ K, applied per coordinate.
  std::unique_ptr<Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>> m_bending_solver;
};

}  // namespace clothfit::forces
