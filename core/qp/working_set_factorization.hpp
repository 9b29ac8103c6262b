// WorkingSetFactorization: the KKT matrix of a QP (qp_problem.hpp) with its working contact and
// pinned rows factored in, for working sets too large for ActiveSetSolver's dense Schur
// complement (a sheet lying on an obstacle: every node a contact row, three with friction):
//
//   [ D + K   A_Eᵀ   −G_Wᵀ ] [x]   [ r_x ]
//   [ A_E     −εI     0    ] [λ] = [ r_E ]        G_W: the working rows of (A_I; A_P),
//   [ −G_W     0     −C_W  ] [γ]   [ c_W ]        C_W: their compliance (diagonal, > 0),
//
// so that (D + K) x + A_Eᵀ λ − G_Wᵀ γ = r_x (the multiplier convention of qp_problem.hpp) and
// c_W + G_W x + C_W γ = 0. Every inequality and pinned row has its place in the matrix, over the
// whole nodes it touches (a tangent with a zero coordinate has the pattern of one without); those
// outside the working set are decoupled (their entries 0, their pivot −1, their γ 0), so that the
// pattern, its ordering (saddle_point_ordering over all rows) and the symbolic analysis stay while
// the working set changes and while the rows touch the same nodes. One supernodal LDLᵀ without
// pivoting; with K ⪰ 0 the matrix is quasi-definite.
//
// The working set changes between factorisations through WorkingSetBorder (a Schur complement
// of the differences); multiply() gives the residual of a solve for refinement.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

#include "core/qp/hessian_block.hpp"
#include "core/qp/qp_problem.hpp"
#include "core/qp/supernodal_ldlt.hpp"

namespace clothfit::qp {

class WorkingSetFactorization {
 public:
  // Rows of the contact block as ActiveSetSolver numbers them: inequality rows 0 … m_I − 1, then
  // pinned rows m_I … m_I + m_P − 1. `working` (m_I + m_P): whether each is in the working set;
  // `compliance` (m_I + m_P): C_W's entry for each working row (> 0; the others are not read);
  // `epsilon` > 0: the equality rows' regularisation. `problem` must stay alive and unchanged
  // until the next factorize(). Returns false when a pivot is zero or not finite.
  bool factorize(const QpProblem& problem, double epsilon, const std::vector<char>& working,
                 const Eigen::VectorXd& compliance);
  // After a successful factorize(): whether D + K is positive definite on the null space of the
  // equality and working rows (n positive pivots).
  bool convex() const { return m_convex; }

  // Unknowns: x (n), λ (m_E), then γ per row of the contact block, at row_position(b).
  int size() const { return static_cast<int>(m_kkt.rows()); }
  int row_position(int b) const {
    return m_problem->num_variables() + m_problem->num_equalities() + b;
  }
  const std::vector<char>& working() const { return m_working; }
  // z ← M⁻¹ z with the last successful factorisation.
  void solve_in_place(Eigen::VectorXd* z) const { m_ldlt.solve_in_place(z); }
  // product ← M' z for the matrix M' of the same problem with the rows `working` coupled with
  // `compliance`, the others decoupled, and −equality_diagonal on the equality rows' diagonal
  // (the matrix a solve is refined against).
  void multiply(const Eigen::VectorXd& z, const std::vector<char>& working,
                const Eigen::VectorXd& compliance, double equality_diagonal,
                Eigen::VectorXd* product) const;

  // The pattern's symbolic analyses so far (for tests: kept while the patterns stay).
  int analyses() const { return m_analyses; }

 private:
  bool same_pattern(const QpProblem& problem) const;
  void rebuild_pattern(const QpProblem& problem);

  SupernodalLdlt m_ldlt;
  Eigen::SparseMatrix<double> m_kkt;                      // lower triangle
  HessianBlock m_hessian;                                 // where D + K goes
  std::vector<int> m_row_diagonal_slot, m_equality_slot;  // rows' (2,2) entries; A_E's entries
  // Per row b of the contact block: its pattern's columns (whole nodes) and their slots,
  // m_contact_offset[b] … m_contact_offset[b + 1] − 1.
  std::vector<int> m_contact_offset, m_contact_columns, m_contact_slot;
  std::vector<int> m_key;  // sizes and index arrays of K, A_E, A_I, A_P the analysis is for
  const QpProblem* m_problem = nullptr;
  std::vector<char> m_working;
  int m_analyses = 0;
  bool m_convex = true;
};

}  // namespace clothfit::qp
