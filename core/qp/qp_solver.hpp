// One interface for the QP solvers of a time step: the paper's active-set method and the
// interior-point baseline (Ipopt). Options in, Summary out (numerical trouble is reported in the
// Summary, never thrown).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/qp/qp_problem.hpp"

namespace clothfit::qp {

enum class QpSolverType { kActiveSet, kInteriorPoint };

// "active-set" / "interior-point"; parse returns false for anything else.
std::string_view to_string(QpSolverType type);
bool parse_qp_solver_type(std::string_view text, QpSolverType* type);

struct QpSolverOptions {
  // Active set: cap on working-set changes (one row in or out each) per solve.
  int max_working_set_changes = 2000;
  // Active set: an observed inequality row counts as violated when c_I + A_I x < −feasibility_tol.
  double feasibility_tolerance = 1e-12;
  // Active set: a row is linearly dependent on the working set when its Schur-complement pivot is
  // below dependence_tolerance times its own norm² in the D⁻¹ metric (paper Remark 5.2).
  double dependence_tolerance = 1e-10;
  // Active set: bounded pinned rows (friction) are given this compliance, relative to their norm²
  // in the D⁻¹ metric, on the Schur complement's diagonal: the row then holds up to
  // compliance × that norm² × σ. Friction of a sheet lying flat on a plane is statically
  // indeterminate (two tangential rows per node, far more than the sheet's in-plane freedom), and
  // without compliance most of its rows would be set aside as dependent — taking their bounds
  // with them; with it the friction spreads over all contacts, as over a slightly compliant one.
  double friction_compliance = 1e-8;
  // Relative regularisation added to the diagonal of the equality Delassus matrix A_E D⁻¹ A_Eᵀ so
  // that rank-deficient equality rows (a flat sheet) can be factored: ε = reg · mean(diagonal).
  double equality_regularization = 1e-12;
  // Iterative refinement against the unregularised equality KKT system after each solve: at most
  // this many steps, stopping early once the residual reaches round-off or stops shrinking. Nearly
  // dependent rows (a nearly flat sheet: singular values ~1e-6 of the largest) make each step
  // shrink the error of the regularisation only by a constant factor, hence the generous cap.
  int refinement_steps = 30;
  // Active set: a solution whose equality residual ‖c_E + A_E x‖∞ exceeds both this and twice
  // ‖c_E‖∞ (the residual of x = 0) is a numerical failure, not a solution: the KKT solves of
  // nearly dependent rows lost their accuracy. A residual about equal to ‖c_E‖∞ is legitimate: a
  // flat sheet's rows are dependent, and the part of c_E outside their range stays. Without
  // refinement (refinement_steps = 0: the damped QPs of the projection) the equality rows are
  // compliant and the residual checked is c_E + A_E x − ε (y − y_c), whose exact value is 0: a
  // contact row pressing against them makes ε y large legitimately. (Seen once: a flat sheet
  // pinned to a table by friction ended its QPs 1e-3 away from its equality rows, and the
  // projection diverged three steps later.)
  double equality_tolerance = 1e-7;
  // Active set: a solve that keeps the factorisation and starts from exactly the rows the last one
  // ended with keeps their Schur factor (ActiveSetSolver::keep_last_working_set), which gives the
  // same bits as building it again; false builds it again (for tests).
  bool keep_unchanged_working_set = true;
  // Active set: a solve that starts from at least this many rows (the pinned rows not at their
  // bound and the warm start's contact rows), or whose working set grows to as many, factors its
  // working rows into the KKT matrix (WorkingSetFactorization) and carries later changes as a
  // border of it (WorkingSetBorder), instead of the dense Schur complement of the working rows
  // (O(k³) for k rows: a sheet lying on an obstacle, every node a contact row, three with
  // friction). A 7 × 9 sheet on one obstacle has at most 189 such rows (63 contact rows and 126
  // friction rows), so those runs keep the Schur complement, bit for bit. 0: always; INT_MAX:
  // never.
  int factor_working_rows_from = 190;
  // Interior point: Ipopt's tol (relative KKT error) and iteration cap.
  double interior_point_tolerance = 1e-10;
  int interior_point_max_iterations = 200;
};

// What a solver may start from: rows believed active, e.g. the previous step's contacts. It never
// changes the solution, only how fast it is found.
struct QpWarmStart {
  QpWarmStart() = default;
  QpWarmStart(std::vector<int> rows) : inequalities(std::move(rows)) {}  // NOLINT: implicit
  std::vector<int> inequalities;  // inequality rows believed active
  // (m_P or empty) per pinned row with a bound: +1 / −1 to start with its force at +b / −b (a
  // sliding friction row), 0 to start with the row holding.
  std::vector<signed char> pinned_at_bound;
};

enum class QpTermination {
  kConverged,         // KKT conditions hold to the tolerances
  kIterationLimit,    // working-set changes or Ipopt iterations exhausted; x is the last iterate
  kNumericalFailure,  // factorisation failed or the solver reported an error
  kNotConvex,  // active set: the curvature makes the QP nonconvex on the equality rows' null space
  // Active set: a contact row (or an unbounded pinned row) is violated at x and depends on rows
  // that no feasible point can move off (the equality rows, pinned rows, working contact rows
  // with multipliers that would have to turn negative): no x satisfies every row. x solves the
  // QP without the rows so set aside.
  kInfeasible,
};

std::string_view to_string(QpTermination termination);

struct QpSummary {
  QpTermination termination = QpTermination::kNumericalFailure;
  int iterations = 0;  // working-set changes (active set) or Ipopt iterations
  // Active set: rows found linearly dependent on the working set (paper Remark 5.2), swapped in
  // for a working row or set aside.
  int dependent_rows = 0;
  // Active set: responses to rows entering the working set solved for with the factorisation,
  // and those reused from an earlier solve with the same factorisation (RowResponseCache).
  int solved_responses = 0;
  int reused_responses = 0;
  // Active set: seeded rows whose Schur factor was kept from the last solve, which ended with
  // exactly these rows (ActiveSetSolver::keep_last_working_set); 0 when it was built again.
  int kept_working_rows = 0;
  // Active set: bounded pinned rows left at their bound although their residual had turned to the
  // side their force pushes (for friction: a force along the slip), by the guard against cycling
  // (ActiveSetSolver::kMaxReturns) or the change limit. The solution is not optimal for them.
  int rows_left_at_bound = 0;
  // Active set: of the working-set changes (iterations), those that moved a bounded pinned row to
  // its bound (friction: a contact starting to slide along that row) and those that brought one
  // back from it (its slip reversed). The rest are contact rows entering or leaving.
  int pinned_rows_to_bound = 0;
  int pinned_rows_returned = 0;
  // Active set: wall time of this solve's factorisation of the equality block (0 when it reused
  // the last one) and of solving for and adding the rows it starts from (the warm start's seeds),
  // s. The rest of the solve is its working-set changes.
  double factorization_seconds = 0.0;
  double seed_seconds = 0.0;
  // Active set: factorisations of the KKT matrix with the working rows in it
  // (QpSolverOptions::factor_working_rows_from); 0 when the Schur complement solved the QP.
  int working_set_factorizations = 0;
  // Active set: the solution came from the factored working rows (false: from the Schur
  // complement, also when the factored path was tried and gave the QP back to it).
  bool working_set_factored = false;
  // Active set, kInfeasible: the row found violated that no feasible point can satisfy — an
  // inequality row i (0 ≤ i < m_I), or m_I + p for the unbounded pinned row p — and its residual
  // c + A x there (< 0 for an inequality row). −1 and 0 otherwise.
  int infeasible_row = -1;
  double infeasible_residual = 0.0;
  std::string message;

  bool ok() const { return termination == QpTermination::kConverged; }
};

class QpSolver {
 public:
  virtual ~QpSolver() = default;
  virtual std::string_view name() const = 0;
  // Solves `problem`, starting from `start` (the previous step's contacts and friction); solvers
  // that cannot use it ignore it. The solution keeps its vectors sized to the problem even when
  // the solve fails.
  virtual QpSummary solve(const QpProblem& problem, const QpWarmStart& start,
                          QpSolution* solution) = 0;
};

std::unique_ptr<QpSolver> make_qp_solver(QpSolverType type, const QpSolverOptions& options = {});

}  // namespace clothfit::qp
