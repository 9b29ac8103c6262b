// ActiveSetSolver: the paper's Algorithm 1 inner loop (§5) for one QP of the time step.
//
// Unlike textbook primal active-set methods it starts from any point, feasible or not: the
// working set W (seeded with the given rows, e.g. the previous step's contacts) is solved as
// equalities; a row whose multiplier is negative leaves (the first one to reach 0 on the way from
// the current multipliers to the working set's optimum, a ratio test), else the most violated
// observed row enters, one change at a time, until all multipliers are ≥ 0 and no observed row is
// violated.
//
// Factorisations: the equality block is factored once per solve (sparse Cholesky of the Delassus
// matrix, DelassusFactorization), or not at all when the problem says its matrices are unchanged
// since the last solve (QpProblem::matrices_unchanged). Each working contact row b contributes u_b
// = P g_bᵀ, P being D⁻¹ projected onto A_E x = 0, and the contact multipliers solve the small dense
// Schur complement S γ = −(c_W + G_W x_E), S_ab = g_a u_b, kept as a Cholesky factor that is
// updated, not rebuilt, when one row enters (O(k²)) or leaves (Givens, O(k²)). The responses u_b
// are kept while the factorisation is (RowResponseCache): a row entering again, in the same QP or
// in the next one with unchanged matrices, costs no solve. A row whose new
// Schur pivot vanishes is linearly dependent on W (paper Remark 5.2): it enters while a working
// row in its combination leaves — the one Goldfarb and Idnani's dual step picks (add_row), where
// the paper takes the largest coefficient — or, when no working contact row can make room, it is
// set aside; counted in QpSummary::dependent_rows. A row set aside and still violated at the end
// makes the QP infeasible (QpTermination::kInfeasible).
//
// Pinned rows (QpProblem::pinned_jacobian) enter the Schur complement first: their multipliers
// may have either sign, and the dependence guard never removes them (a row depending on the
// equality and pinned rows alone is set aside). A bounded pinned row (friction) whose multiplier
// exceeds its bound leaves the working set with its force fixed at the bound, σ = ±b, added to the
// right-hand side through its response u (x_fixed = x_E + Σ σ u); it returns when its residual
// turns to the side its force pushes towards (the slip reversed). One change at a time, like the
// contact rows. A row leaving the working set (to the observed rows or to its bound) is the first
// one whose multiplier reaches its bound on the way from the current multipliers to the working
// set's optimum (a ratio test). In degenerate configurations (a sheet lying on an obstacle with
// friction: far more rows than freedom) a row can still cycle between its bound and the working
// set; after kMaxReturns returns it stays at its bound for the rest of the solve, and
// QpSummary::rows_left_at_bound counts those whose slip has reversed there.
//
// Many starting rows (QpSolverOptions::factor_working_rows_from: a sheet lying on an obstacle,
// every node a contact row and with friction three) make the dense Schur complement cost O(k³).
// Such a solve factors its working rows into the sparse KKT matrix instead
// (WorkingSetFactorization: a contact row touches one node, so the factor stays about as sparse as
// the equality rows'), carries later working-set changes as a border of that matrix
// (WorkingSetBorder: one sweep through the factor per change) and factors again after
// kMaxBorderColumns changes; the decisions (ratio test, entering rows, returning friction rows)
// are the same code as the Schur path's. Working rows held exactly get a compliance of
// kRowRegularization (relative) in the factor, refined away. Rows that are dependent and
// inconsistent, which the Schur path sets aside, make the solution miss a working row: the solve
// then goes to the Schur path, as it does when a factorisation fails.
#pragma once

#include <vector>

#include <memory>

#include "core/qp/delassus_factorization.hpp"
#include "core/qp/qp_solver.hpp"
#include "core/qp/row_response_cache.hpp"
#include "core/qp/saddle_point_factorization.hpp"
#include "core/qp/updatable_cholesky.hpp"
#include "core/qp/working_set_border.hpp"
#include "core/qp/working_set_factorization.hpp"

namespace clothfit::qp {

class ActiveSetSolver final : public QpSolver {
 public:
  explicit ActiveSetSolver(const QpSolverOptions& options = {}) : m_options(options) {}

  std::string_view name() const override { return "active-set"; }
  QpSummary solve(const QpProblem& problem, const QpWarmStart& start,
                  QpSolution* solution) override;

 private:
  // Rows of the Schur block are numbered 0 … m_I − 1 (inequality rows), then m_I … m_I + m_P − 1
  // (pinned rows).
  enum RowState : char { kObserved, kWorking, kSetAside, kPinned, kAtBound };
  const SparseRowMatrix& matrix_of(const QpProblem& problem, int i) const;
  int local_row(int i) const;
  double offset_of(const QpProblem& problem, int i) const;
  // feasibility_tolerance × max(1, ‖offsets‖∞): how far an inequality row may be violated
  // (offsets c_I) or a friction row's slip reversed (c_P) before it counts.
  double scaled_tolerance(const Eigen::VectorXd& offsets) const;
  // Whether row i is a pinned row with a finite bound (a friction row).
  bool has_bound(const QpProblem& problem, int i) const;
  // Tries to move row `row` into the working set. Returns false if it was set aside. `u`, `w`: the
  // row's KKT response when already solved for (the seeded rows are solved for together), else
  // null.
  bool add_row(const QpProblem& problem, int row, QpSummary* summary, Eigen::VectorXd* u = nullptr,
               Eigen::VectorXd* w = nullptr, double z = 0.0);
  // The KKT response (u, w) to row `row` of `matrix`: from the cache, or solved for and cached.
  void response(const SparseRowMatrix& matrix, int row, QpSummary* summary, Eigen::VectorXd* u,
                Eigen::VectorXd* w);
  // Adds the rows the solve starts with (m_seed_row_ids), their responses solved for in one pass;
  // or, with the factorisation kept, keeps the last solve's working set when it is those rows
  // (keep_last_working_set).
  void add_seed_rows(const QpProblem& problem, bool factorization_kept, QpSummary* summary);
  // Whether the last solve's working set is `rows`, in that order, with the same values and
  // bounds, its factor built by appends alone (no row removed since it was cleared) and every
  // response still cached: then appending them again would build the same factor bit for bit,
  // and it is kept, with the offsets, multipliers and states of a fresh start.
  bool keep_last_working_set(const QpProblem& problem, const std::vector<int>& rows,
                             QpSummary* summary);
  // The working rows' offsets c_b + g_b x_fixed after x_fixed changed.
  void refresh_offsets(const QpProblem& problem);
  // The row states, fixed forces (m_rhs = f plus the forces of the rows the warm start puts at
  // their bound) and the rows the solve starts from (m_seed_row_ids: the pinned rows not at their
  // bound, then the warm start's contact rows).
  void start_states(const QpProblem& problem, const QpWarmStart& start);
  // m_equality_rhs: −c_E, less ε λ₀ in the damped QP.
  void set_equality_rhs(const QpProblem& problem, double epsilon);
  // The ratio test: the working position whose multiplier reaches its bound first on the way
  // from m_z to γ (−1: none), and the step there.
  int blocking_position(const QpProblem& problem, const Eigen::VectorXd& gamma, double* step) const;
  // The most violated observed inequality row at x (−1: none beyond the tolerance).
  int most_violated_row(const QpProblem& problem, const Eigen::VectorXd& x, double feasibility_tol);
  // The pinned row at its bound whose slip at x reversed the most (−1: none).
  int most_reversed_row(const QpProblem& problem, const Eigen::VectorXd& x, double slip_tol) const;
  // The solution's x, multipliers and message from the final working set (γ per position), and
  // the final check. solution->equality_multipliers must be set.
  void finish(const QpProblem& problem, const Eigen::VectorXd& x, const Eigen::VectorXd& gamma,
              double epsilon, QpSummary* summary, QpSolution* solution);
  // The QP with its working rows factored into the KKT matrix (WorkingSetFactorization), from
  // the states start_states() set. Returns false, leaving the QP to the Schur complement, when a
  // factorisation fails, the matrices are not convex, or the solution misses its working rows.
  // `changes_before`: working-set changes already made (by the Schur path that handed over).
  bool solve_factored(const QpProblem& problem, int changes_before, QpSummary* summary,
                      QpSolution* solution);
  // The QP by the Schur complement of the working rows, from the states start_states() set and
  // the equality rows factored (reuse: as in the last solve). With `may_hand_over`, returns true
  // as soon as the working set has grown to factor_working_rows_from rows (hand_over), for
  // solve_factored to go on from there; else false, the solution and summary written.
  bool solve_schur(const QpProblem& problem, bool reuse, bool may_hand_over, QpSummary* summary,
                   QpSolution* solution);
  // Whether the working set has factor_working_rows_from rows; if so, makes them the rows the
  // factored path starts from, with the fixed forces in m_rhs, and counts `changes`.
  bool hand_over(const QpProblem& problem, int changes, QpSummary* summary);
  void remove_position(int position);
  void compute_multipliers(Eigen::VectorXd* gamma_working) const;

  QpSolverOptions m_options;
  DelassusFactorization m_delassus;       // used when the QP has no curvature
  SaddlePointFactorization m_saddle;      // used when it has
  WorkingSetFactorization m_working_kkt;  // for solves that start from many rows
  WorkingSetBorder m_border;              // their working-set changes since it factored
  // solve_factored: the working-set changes carried by the border before the matrix is factored
  // again; the compliance, relative to its norm² in the D⁻¹ metric, of a working row the QP holds
  // exactly (a contact row), so that the matrix is quasi-definite; the refinement steps at least
  // (also in the damped QP, which asks for none).
  static constexpr int kMaxBorderColumns = 32;
  static constexpr double kRowRegularization = 1e-12;
  static constexpr int kMinRefinementSteps = 1;
  EqualitySystem* m_kkt = nullptr;  // the one in use
  bool m_factored = false;          // m_kkt holds a factorisation of the last problem's matrices
  UpdatableCholesky m_schur;
  RowResponseCache m_responses;  // responses to rows, cleared when m_kkt is refactored
  Eigen::VectorXd m_x_fixed;  // (n) solution with no working contact rows, bounded forces applied
  Eigen::VectorXd m_y_fixed;  // (m_E) its equality multipliers
  std::vector<double> m_fixed_sigma;  // per pinned row: σ = ±b when at its bound, else 0
  std::vector<int> m_returns;         // per pinned row: returns from its bound in this solve
  static constexpr int kMaxReturns = 8;
  // A dependent row's coefficients α_b (add_row) at most this are taken as 0: such a working row
  // does not make room for it.
  static constexpr double kDependenceCoefficient = 1e-12;
  std::vector<int> m_working;  // inequality rows in W, in Cholesky order
  // The working rows' values as they entered (keep_last_working_set): columns and values of
  // each, ending at m_working_row_end[b], and whether it had a finite bound. Valid while
  // m_appended_only (no row has left the factor since it was cleared).
  std::vector<int> m_working_columns, m_working_row_end;
  std::vector<double> m_working_values;
  std::vector<char> m_working_bounded;
  bool m_appended_only = false;
  std::vector<Eigen::VectorXd> m_u, m_w;  // per working row: x and y parts of the KKT solve of g
  std::vector<double> m_offset;           // per working row: c_b + g_b x_E
  std::vector<double> m_z;                // per working row: its current multiplier
  std::vector<char> m_state;              // per row of the Schur block: a RowState
  // Per row: set aside with a friction row in its combination (add_row); finish() then does not
  // call the QP infeasible.
  std::vector<char> m_aside_with_friction;
  int m_num_inequalities = 0;  // m_I of the current problem
  Eigen::VectorXd m_dense_row, m_zero_rhs, m_scratch, m_rhs, m_equality_rhs;
  Eigen::VectorXd m_equality_residual;  // c_E + A_E x of the solution (the final check)
  EqualitySystem::RowMajorMatrix m_seed_rows, m_seed_u, m_seed_w;  // columns: the seeded rows
  Eigen::MatrixXd m_seed_u_columns, m_seed_w_columns;  // m_seed_u, m_seed_w in column-major order
  std::vector<int> m_seed_row_ids;  // the seeded rows (work space of add_seed_rows)
  std::vector<int> m_seed_column;   // per seeded row: its column in m_seed_rows, −1 if cached
  std::vector<const RowResponseCache::Response*> m_seed_cached;  // per seeded row, or null
  std::vector<char> m_seed_listed;        // per inequality row: already among them
  Eigen::VectorXd m_inequality_residual;  // c_I + A_I x (most_violated_row)
  // solve_factored: per row of the contact block, its compliance as factored and as refined
  // against, and c; and which rows are working.
  Eigen::VectorXd m_row_compliance, m_target_compliance, m_row_offsets;
  std::vector<char> m_working_flags;
};

}  // namespace clothfit::qp
