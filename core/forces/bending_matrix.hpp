// Bending operator K = L_intᵀ M_int⁻¹ L_int of the rest mesh (DESIGN.md §1), acting on each
// coordinate separately. L is the finite-element Laplacian ∫ ∇N_i · ∇N_j dA of the bilinear quads
// (same local parametrisation as the inextensibility constraints), restricted to the rows of
// interior nodes so that a flat sheet (positions affine in the rest coordinates) has zero bending
// energy; M_int is the lumped area of those nodes. K is (N × N), units 1/m².
#pragma once

#include <Eigen/SparseCore>

#include "core/mesh/quad_mesh.hpp"

namespace clothfit::forces {

Eigen::SparseMatrix<double> bending_matrix(const mesh::QuadMesh& mesh);

}  // namespace clothfit::forces
