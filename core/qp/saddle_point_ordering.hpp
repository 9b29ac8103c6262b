// saddle_point_ordering: a fill-reducing ordering of the quasi-definite matrix
//
//   [ D + K   A_Eᵀ ]      (n + m_E) × (n + m_E), unknowns 0 … n−1 the variables x,
//   [ A_E    −εI   ]      n … n+m_E−1 the equality rows,
//
// that keeps the simulator's node structure together, for SupernodalLdlt. Variables that the same
// set of equality rows touches (the x, y, z coordinates of one mesh node) form one group; the
// groups are ordered by AMD on the pattern of K + A_Eᵀ A_E between groups, and each equality row is
// placed right after the first group it touches. Compared with AMD on the whole matrix, which sees
// x, y and z of a node as unrelated (K ⊗ I₃ couples coordinate d of a node only to coordinate d of
// its neighbours) and eliminates most rows before any of their variables (a pivot −ε, then an
// update of size ‖a‖²/ε), this gives node-sized supernodes and keeps each row's pivot away from −ε.
// Only the patterns are read; the ordering depends on nothing else.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

#include "core/qp/qp_problem.hpp"

namespace clothfit::qp {

// curvature: (n × n) lower triangle of K, or 0 × 0; equality_jacobian: (m_E × n).
// Returns ordering[new] = old over the n + m_E unknowns.
std::vector<int> saddle_point_ordering(const Eigen::SparseMatrix<double>& curvature,
                                       const SparseRowMatrix& equality_jacobian);

}  // namespace clothfit::qp
