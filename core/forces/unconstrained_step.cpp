#include "core/forces/unconstrained_step.hpp"

#include "core/forces/bending_matrix.hpp"

namespace clothfit::forces {

UnconstrainedStep::UnconstrainedStep(const mesh::QuadMesh& mesh, const ClothMaterial& material,
                                     double time_step)
    : m_material(material), m_dt(time_step), m_area(mesh::lumped_areas(mesh)) {
  if (material.bending > 0.0) {
    Eigen::SparseMatrix<double> a =
        bending_matrix(mesh) * (time_step * time_step * material.bending);
    const double diagonal_factor = material.density + time_step * material.damping;
    for (int i = 0; i < mesh.num_nodes(); ++i)
      a.coeffRef(i, i) += diagonal_factor * m_area[i];
    m_bending_solver = std::make_unique<Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>>(a);
  }
}

void UnconstrainedStep::compute(const Eigen::VectorXd& phi, const Eigen::VectorXd& velocity,
                                Eigen::VectorXd* phi0) const {
  const double rho = m_material.density;
  const double damped = rho + m_dt * m_material.damping;
  const double gravity_drop = m_dt * m_dt * m_material.virtual_density * kGravity;
  const int n = static_cast<int>(m_area.size());
  phi0->resize(3 * n);
  if (!m_bending_solver) {
    // Diagonal system: divide the right-hand side by (ρ + Δt α) m_i.
    for (int i = 0; i < n; ++i) {
      for (int d = 0; d < 3; ++d) {
        const int k = 3 * i + d;
        (*phi0)[k] =
            phi[k] + m_dt * rho / damped * velocity[k] - (d == 2 ? gravity_drop / damped : 0.0);
      }
    }
    return;
  }
  Eigen::VectorXd rhs(n);
  for (int d = 0; d < 3; ++d) {
    for (int i = 0; i < n; ++i) {
      const int k = 3 * i + d;
      rhs[i] =
          m_area[i] * (damped * phi[k] + m_dt * rho * velocity[k] - (d == 2 ? gravity_drop : 0.0));
    }
    const Eigen::VectorXd coordinate = m_bending_solver->solve(rhs);
    for (int i = 0; i < n; ++i)
      (*phi0)[3 * i + d] = coordinate[i];
  }
}

}  // namespace clothfit::forces
