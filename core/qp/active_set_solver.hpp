// ActiveSetSolver: the paper's Algorithm 1 inner loop (§5) for one QP of the time step.
//
// Unlike textbook primal active-set methods it starts from any point, feasible or not: the
// working set W (seeded with the given rows, e.g. the previous step's contacts) is solved as
// equalities; the row with the most negative multiplier leaves, else the most violated observed
// row enters, one change at a time, until all multipliers are ≥ 0 and no observed row is violated.
//
// Factorisations: the equality block is factored once per solve (sparse Cholesky of the Delassus
// matrix, DelassusFactorization). Each working contact row b contributes u_b = P g_bᵀ, P being
// D⁻¹ projected onto A_E x = 0, and the contact multipliers solve the small dense Schur complement
// S γ = −(c_W + G_W x_E), S_ab = g_a u_b, kept as a Cholesky factor that is updated, not rebuilt,
// when one row enters (O(k²)) or leaves (Givens, O(k²)). A row whose new Schur pivot vanishes is
// linearly dependent on W (paper Remark 5.2): it enters while the working row with the largest
// coefficient in its combination leaves; a row dependent on the equality rows alone is set aside
// and counted in QpSummary::dependent_rows.
#pragma once

#include <vector>

#include <memory>

#include "core/qp/delassus_factorization.hpp"
#include "core/qp/qp_solver.hpp"
#include "core/qp/saddle_point_factorization.hpp"
#include "core/qp/updatable_cholesky.hpp"

namespace clothfit::qp {

class ActiveSetSolver final : public QpSolver {
 public:
  explicit ActiveSetSolver(const QpSolverOptions& options = {}) : m_options(options) {}

  std::string_view name() const override { return "active-set"; }
  QpSummary solve(const QpProblem& problem, const std::vector<int>& initial_working_set,
                  QpSolution* solution) override;

 private:
  // Tries to move inequality row `row` into the working set. Returns false if it was set aside.
  bool add_row(const QpProblem& problem, int row, QpSummary* summary);
  void remove_position(int position);
  void compute_multipliers(Eigen::VectorXd* gamma_working) const;

  QpSolverOptions m_options;
  DelassusFactorization m_delassus;   // used when the QP has no curvature
  SaddlePointFactorization m_saddle;  // used when it has
  EqualitySystem* m_kkt = nullptr;    // the one in use
  UpdatableCholesky m_schur;
  Eigen::VectorXd m_x_equality;           // (n) solution with no contact rows
  Eigen::VectorXd m_y_equality;           // (m_E) its equality multipliers
  std::vector<int> m_working;             // inequality rows in W, in Cholesky order
  std::vector<Eigen::VectorXd> m_u, m_w;  // per working row: x and y parts of the KKT solve of g
  std::vector<double> m_offset;           // per working row: c_b + g_b x_E
  std::vector<char> m_state;              // per inequality row: 0 observed, 1 working, 2 set aside
  Eigen::VectorXd m_dense_row, m_zero_rhs, m_scratch;
};

}  // namespace clothfit::qp
