#include "core/qp/active_set_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/qp/hessian_block.hpp"

namespace clothfit::qp {

namespace {

double sparse_row_dot(const SparseRowMatrix& a, int row, const Eigen::VectorXd& v) {
  double sum = 0.0;
  for (SparseRowMatrix::InnerIterator it(a, row); it; ++it)
    sum += it.value() * v[it.col()];
  return sum;
}

}  // namespace

// Row i of the contact block: inequality row i (i < m_I) or pinned row i − m_I.
const SparseRowMatrix& ActiveSetSolver::matrix_of(const QpProblem& problem, int i) const {
  return i < m_num_inequalities ? problem.inequality_jacobian : problem.pinned_jacobian;
}

int ActiveSetSolver::local_row(int i) const {
  return i < m_num_inequalities ? i : i - m_num_inequalities;
}

double ActiveSetSolver::offset_of(const QpProblem& problem, int i) const {
  return i < m_num_inequalities ? problem.inequality_offset[i]
                                : problem.pinned_offset[i - m_num_inequalities];
}

double ActiveSetSolver::scaled_tolerance(const Eigen::VectorXd& offsets) const {
  return m_options.feasibility_tolerance *
         std::max(1.0, offsets.size() > 0 ? offsets.cwiseAbs().maxCoeff() : 0.0);
}

bool ActiveSetSolver::has_bound(const QpProblem& problem, int i) const {
  return i >= m_num_inequalities && std::isfinite(problem.pinned_bound_of(i - m_num_inequalities));
}

void ActiveSetSolver::remove_position(int position) {
  m_appended_only = false;
  m_state[m_working[position]] = kObserved;
  m_schur.remove(position);
  m_working.erase(m_working.begin() + position);
  m_u.erase(m_u.begin() + position);
  m_w.erase(m_w.begin() + position);
  m_offset.erase(m_offset.begin() + position);
  m_z.erase(m_z.begin() + position);
}

bool ActiveSetSolver::add_row(const QpProblem& problem, int row, QpSummary* summary,
                              Eigen::VectorXd* u_given, Eigen::VectorXd* w_given, double z) {
  const SparseRowMatrix& g = matrix_of(problem, row);
  const int r = local_row(row);
  double unprojected = 0.0;  // g D⁻¹ gᵀ, the scale for the dependence test
  for (SparseRowMatrix::InnerIterator it(g, r); it; ++it)
    unprojected += it.value() * it.value() / problem.mass[it.col()];
  Eigen::VectorXd u, w;
  if (u_given) {
    u.swap(*u_given);
    w.swap(*w_given);
  } else {
    response(g, r, summary, &u, &w);
  }
  const int k = static_cast<int>(m_working.size());
  Eigen::VectorXd s(k), l;
  for (int b = 0; b < k; ++b)
    s[b] = sparse_row_dot(matrix_of(problem, m_working[b]), local_row(m_working[b]), u);
  double d = sparse_row_dot(g, r, u);
  if (has_bound(problem, row))
    d += m_options.friction_compliance * unprojected;
  const double min_pivot = m_options.dependence_tolerance * unprojected;
  if (!m_schur.append(s, d, min_pivot, &l)) {
    // Dependent on W: g P = Σ α_b g_b P with α = S⁻¹ s (Remark 5.2), so u = Σ α_b u_b, and
    // raising the row's multiplier by t while every working multiplier drops by t α_b leaves x
    // where it is. The paper lets the working row with the largest |α_b| leave; this takes the
    // dual step of Goldfarb and Idnani (1983) instead: t as large as the working contact rows'
    // multipliers allow (z_b − t α_b ≥ 0), and the row whose multiplier reaches 0 first leaves
    // (on ties the one with the larger α_b). It has α_b ≠ 0, so the new working set is
    // independent as in the paper, and no multiplier turns negative. (With the largest |α_b| one
    // could, that row then left by the ratio test, the dependent row came back: on crowded random
    // QPs the paper's rule cycled to the change limit on a feasible problem; tests/core/qp/
    // degenerate_qp_test.cpp.) Pinned rows never leave. With no working contact row to make room
    // (every α_b ≤ 0), no feasible point moves the row off the working set's values: the row is
    // set aside, and should it still be violated at the end the QP is infeasible (finish) —
    // unless a friction row is in its combination: one at its bound might make room, which this
    // dual step does not try (set aside as before, not called infeasible). Friction rows carry a
    // compliance (friction_compliance > dependence_tolerance), so only a combination with a
    // friction coefficient well below 1 can be dependent at all; no bundled example or family
    // run sets any row aside.
    Eigen::VectorXd alpha;
    m_schur.solve_transposed(l, &alpha);
    int out = -1;
    double t = 0.0;
    bool with_friction = false;  // a bounded pinned row in the combination
    for (int b = 0; b < k; ++b) {
      if (m_state[m_working[b]] == kPinned && has_bound(problem, m_working[b]) &&
          std::abs(alpha[b]) > kDependenceCoefficient)
        with_friction = true;
      if (m_state[m_working[b]] != kWorking || !(alpha[b] > kDependenceCoefficient))
        continue;
      const double ratio = std::max(m_z[b], 0.0) / alpha[b];
      if (out < 0 || ratio < t || (ratio == t && alpha[b] > alpha[out])) {
        out = b;
        t = ratio;
      }
    }
    ++summary->dependent_rows;
    if (out < 0) {
      m_state[row] = kSetAside;
      m_aside_with_friction[row] = with_friction ? 1 : 0;
      return false;
    }
    for (int b = 0; b < k; ++b)
      m_z[b] -= t * alpha[b];
    remove_position(out);
    return add_row(problem, row, summary, &u, &w, z + t);
  }
  m_working.push_back(row);
  for (SparseRowMatrix::InnerIterator it(g, r); it; ++it) {
    m_working_columns.push_back(it.col());
    m_working_values.push_back(it.value());
  }
  m_working_row_end.push_back(static_cast<int>(m_working_values.size()));
  m_working_bounded.push_back(has_bound(problem, row));
  m_u.push_back(std::move(u));
  m_w.push_back(std::move(w));
  m_offset.push_back(offset_of(problem, row) + sparse_row_dot(g, r, m_x_fixed));
  m_z.push_back(z);
  m_state[row] = row < m_num_inequalities ? kWorking : kPinned;
  return true;
}

void ActiveSetSolver::response(const SparseRowMatrix& matrix, int row, QpSummary* summary,
                               Eigen::VectorXd* u, Eigen::VectorXd* w) {
  if (const RowResponseCache::Response* cached = m_responses.find(matrix, row)) {
    *u = cached->u;
    *w = cached->w;
    ++summary->reused_responses;
    return;
  }
  ++summary->solved_responses;
  m_dense_row.setZero(matrix.cols());
  for (SparseRowMatrix::InnerIterator it(matrix, row); it; ++it)
    m_dense_row[it.col()] = it.value();
  m_kkt->solve(m_dense_row, m_zero_rhs, u, w);
  m_responses.insert(matrix, row, *u, *w);
}

bool ActiveSetSolver::keep_last_working_set(const QpProblem& problem, const std::vector<int>& rows,
                                            QpSummary* summary) {
  if (!m_appended_only || rows.empty() || rows != m_working)
    return false;
  for (std::size_t b = 0; b < rows.size(); ++b) {
    const int row = rows[b];
    const SparseRowMatrix& g = matrix_of(problem, row);
    const int r = local_row(row);
    int k = b == 0 ? 0 : m_working_row_end[b - 1];
    for (SparseRowMatrix::InnerIterator it(g, r); it; ++it, ++k) {
      if (k >= m_working_row_end[b] || m_working_columns[k] != it.col() ||
          m_working_values[k] != it.value())
        return false;
    }
    if (k != m_working_row_end[b] || has_bound(problem, row) != (m_working_bounded[b] != 0) ||
        m_responses.find(g, r) == nullptr)
      return false;
  }
  for (std::size_t b = 0; b < rows.size(); ++b) {
    const int row = rows[b];
    ++summary->reused_responses;  // as appending them again would count them
    m_offset[b] = offset_of(problem, row) +
                  sparse_row_dot(matrix_of(problem, row), local_row(row), m_x_fixed);
    m_z[b] = 0.0;
    m_state[row] = row < m_num_inequalities ? kWorking : kPinned;
  }
  summary->kept_working_rows = static_cast<int>(rows.size());
  return true;
}

void ActiveSetSolver::add_seed_rows(const QpProblem& problem, bool factorization_kept,
                                    QpSummary* summary) {
  const std::vector<int>& rows = m_seed_row_ids;
  // With the factorisation kept, a resting sheet's QP starts from the rows the last one ended
  // with: their Schur factor is kept instead of built again (O(k³) for k rows).
  if (factorization_kept && m_options.keep_unchanged_working_set &&
      keep_last_working_set(problem, rows, summary))
    return;
  m_schur.clear();
  m_appended_only = true;
  m_working.clear();
  m_working_columns.clear();
  m_working_values.clear();
  m_working_row_end.clear();
  m_working_bounded.clear();
  m_u.clear();
  m_w.clear();
  m_offset.clear();
  m_z.clear();
  if (rows.empty())
    return;
  // The responses not cached yet, in one pass over the factor. The cache is not written until
  // every seed has entered, so the entries found here stay valid.
  const int n = problem.num_variables();
  const int count = static_cast<int>(rows.size());
  std::vector<int>& column = m_seed_column;
  std::vector<const RowResponseCache::Response*>& cached = m_seed_cached;
  column.assign(count, -1);
  cached.assign(count, nullptr);
  int missing = 0;
  for (int j = 0; j < count; ++j) {
    cached[j] = m_responses.find(matrix_of(problem, rows[j]), local_row(rows[j]));
    if (cached[j] == nullptr)
      column[j] = missing++;
  }
  if (missing > 0) {
    m_seed_rows.setZero(n, missing);
    for (int j = 0; j < count; ++j) {
      if (column[j] < 0)
        continue;
      for (SparseRowMatrix::InnerIterator it(matrix_of(problem, rows[j]), local_row(rows[j])); it;
           ++it)
        m_seed_rows(it.col(), column[j]) = it.value();
    }
    m_kkt->solve_columns(m_seed_rows, &m_seed_u, &m_seed_w);
    summary->solved_responses += missing;
    // Each response is read twice below, as a column (into the working set and into the cache):
    // transposed once here, those are contiguous copies instead of two strided gathers.
    m_seed_u_columns = m_seed_u;
    m_seed_w_columns = m_seed_w;
  }
  Eigen::VectorXd u, w;
  for (int j = 0; j < count; ++j) {
    if (m_state[rows[j]] != kObserved)
      continue;  // no longer observed
    if (cached[j] != nullptr) {
      u = cached[j]->u;
      w = cached[j]->w;
      ++summary->reused_responses;
    } else {
      u = m_seed_u_columns.col(column[j]);
      w = m_seed_w_columns.col(column[j]);
    }
    add_row(problem, rows[j], summary, &u, &w);
  }
  for (int j = 0; j < count; ++j) {
    if (column[j] >= 0) {
      m_responses.insert(matrix_of(problem, rows[j]), local_row(rows[j]),
                         m_seed_u_columns.col(column[j]), m_seed_w_columns.col(column[j]));
    }
  }
}

void ActiveSetSolver::refresh_offsets(const QpProblem& problem) {
  for (std::size_t b = 0; b < m_working.size(); ++b) {
    const int row = m_working[b];
    m_offset[b] = offset_of(problem, row) +
                  sparse_row_dot(matrix_of(problem, row), local_row(row), m_x_fixed);
  }
}

void ActiveSetSolver::compute_multipliers(Eigen::VectorXd* gamma_working) const {
  const int k = static_cast<int>(m_working.size());
  Eigen::VectorXd rhs(k);
  for (int b = 0; b < k; ++b)
    rhs[b] = -m_offset[b];
  m_schur.solve(rhs, gamma_working);
}

int ActiveSetSolver::blocking_position(const QpProblem& problem, const Eigen::VectorXd& gamma,
                                       double* step) const {
  // Step from the working rows' current multipliers z towards γ (the optimum with the working
  // set as equalities) until the first of them reaches its bound — 0 for a contact row, ±b for
  // a bounded pinned row — and that row leaves: the contact row to the observed rows, the pinned
  // row to its bound, where it keeps its force. Ties (several rows at their bound already, a
  // step of 0) go to the row whose γ is the furthest beyond its bound. The ratio test keeps the
  // multipliers within their bounds, so that each step lowers the QP's dual objective (a primal
  // active-set method on the dual). Without it (each row whose γ crossed its bound left at once,
  // the furthest first) the changes cycled more on sheets lying on curved obstacles with
  // friction (7 × 9 cylinder and sphere: 34.5 and 33.2 changes per QP, now 28.2 and 21.3), and
  // with kMaxReturns = 2 the guard then ended 23 of the cylinder's 200 steps and 24 of the
  // sphere's 250 with a friction row at its bound against its slip (now none,
  // tests/core/scenario/friction_optimality_test.cpp).
  const int k = static_cast<int>(m_working.size());
  double largest = 0.0;
  for (int b = 0; b < k; ++b)
    largest = std::max(largest, std::abs(gamma[b]));
  int blocking = -1;
  double beyond = 0.0;
  *step = 1.0;
  for (int b = 0; b < k; ++b) {
    const int row = m_working[b];
    // How far γ_b lies beyond its bound, and the step at which z_b reaches that bound.
    double over, t;
    if (m_state[row] == kWorking) {
      over = -gamma[b];
      t = m_z[b] > 0.0 ? m_z[b] / (m_z[b] - gamma[b]) : 0.0;
    } else {
      const double bound = problem.pinned_bound_of(row - m_num_inequalities);
      over = std::abs(gamma[b]) - bound;
      // z_b may start at either bound (a row returned from it): 0 only at the one γ_b crossed.
      const double target = std::copysign(bound, gamma[b]);
      t = m_z[b] * (gamma[b] > 0.0 ? 1.0 : -1.0) < bound ? (target - m_z[b]) / (gamma[b] - m_z[b])
                                                         : 0.0;
    }
    if (!(over > 1e-12 * std::max(1.0, largest)))
      continue;
    if (blocking < 0 || t < *step || (t == *step && over > beyond)) {
      blocking = b;
      *step = t;
      beyond = over;
    }
  }
  return blocking;
}

int ActiveSetSolver::most_violated_row(const QpProblem& problem, const Eigen::VectorXd& x,
                                       double feasibility_tol) {
  int most_violated = -1;
  double worst = -feasibility_tol;
  const int m_i = m_num_inequalities;
  if (m_i > 0) {
    m_inequality_residual = problem.inequality_offset;
    m_inequality_residual.noalias() += problem.inequality_jacobian * x;
    for (int i = 0; i < m_i; ++i) {
      if (m_state[i] == kObserved && m_inequality_residual[i] < worst) {
        worst = m_inequality_residual[i];
        most_violated = i;
      }
    }
  }
  return most_violated;
}

int ActiveSetSolver::most_reversed_row(const QpProblem& problem, const Eigen::VectorXd& x,
                                       double slip_tol) const {
  int reversed = -1;
  double most_reversed = slip_tol;
  for (int r = 0; r < problem.num_pinned(); ++r) {
    if (m_state[m_num_inequalities + r] != kAtBound || m_returns[r] >= kMaxReturns)
      continue;
    const double slip = (problem.pinned_offset[r] + sparse_row_dot(problem.pinned_jacobian, r, x)) *
                        (m_fixed_sigma[r] > 0.0 ? 1.0 : -1.0);
    if (slip > most_reversed) {
      most_reversed = slip;
      reversed = r;
    }
  }
  return reversed;
}

void ActiveSetSolver::start_states(const QpProblem& problem, const QpWarmStart& start) {
  // Pinned rows the warm start puts at their bound push with ±b from the start: their forces join
  // f in the first solve.
  const int m_i = problem.num_inequalities();
  const int m_p = problem.num_pinned();
  m_state.assign(m_i + m_p, kObserved);
  m_aside_with_friction.assign(m_i + m_p, 0);
  m_fixed_sigma.assign(m_p, 0.0);
  m_returns.assign(m_p, 0);
  m_rhs = problem.linear;
  const bool hinted = static_cast<int>(start.pinned_at_bound.size()) == m_p;
  for (int r = 0; hinted && r < m_p; ++r) {
    const double bound = problem.pinned_bound_of(r);
    if (start.pinned_at_bound[r] == 0 || !std::isfinite(bound))
      continue;
    m_fixed_sigma[r] = start.pinned_at_bound[r] > 0 ? bound : -bound;
    m_state[m_i + r] = kAtBound;
    for (SparseRowMatrix::InnerIterator it(problem.pinned_jacobian, r); it; ++it)
      m_rhs[it.col()] += m_fixed_sigma[r] * it.value();
  }
  // The rows the solve starts from: the pinned rows not at their bound, then the warm start's
  // contact rows (each once).
  m_seed_row_ids.clear();
  for (int r = 0; r < m_p; ++r) {
    if (m_state[m_i + r] == kObserved)
      m_seed_row_ids.push_back(m_i + r);
  }
  m_seed_listed.assign(static_cast<std::size_t>(m_i), 0);  // keeps its capacity
  for (int row : start.inequalities) {
    if (row >= 0 && row < m_i && m_state[row] == kObserved && !m_seed_listed[row]) {
      m_seed_listed[row] = 1;
      m_seed_row_ids.push_back(row);
    }
  }
}

void ActiveSetSolver::set_equality_rhs(const QpProblem& problem, double epsilon) {
  // The equality rows' right-hand side, −c_E − ε λ₀ in the damped QP (qp::damping_centre).
  const int m_e = problem.num_equalities();
  m_equality_rhs = -problem.equality_offset;
  if (m_options.refinement_steps == 0 && problem.multiplier_estimate.size() == m_e && m_e > 0)
    m_equality_rhs.noalias() -= epsilon * damping_centre(problem, epsilon);
}

void ActiveSetSolver::finish(const QpProblem& problem, const Eigen::VectorXd& x,
                             const Eigen::VectorXd& gamma, double epsilon, QpSummary* summary,
                             QpSolution* solution) {
  const int m_e = problem.num_equalities();
  const int m_i = m_num_inequalities;
  const int m_p = problem.num_pinned();
  const int k = static_cast<int>(m_working.size());
  solution->x = x;
  for (int b = 0; b < k; ++b) {
    const int row = m_working[b];
    if (row >= m_i) {
      solution->pinned_multipliers[row - m_i] = gamma[b];
    } else {
      solution->inequality_multipliers[row] = std::max(0.0, gamma[b]);
      solution->active_inequalities.push_back(row);
    }
  }
  const double slip_tol = scaled_tolerance(problem.pinned_offset);
  for (int r = 0; r < m_p; ++r) {
    if (m_state[m_i + r] != kAtBound)
      continue;
    solution->pinned_multipliers[r] = m_fixed_sigma[r];
    const double slip = (problem.pinned_offset[r] + sparse_row_dot(problem.pinned_jacobian, r, x)) *
                        (m_fixed_sigma[r] > 0.0 ? 1.0 : -1.0);
    if (slip > slip_tol)
      ++summary->rows_left_at_bound;
  }
  if (summary->termination == QpTermination::kIterationLimit) {
    summary->message = "working-set change limit (" +
                       std::to_string(m_options.max_working_set_changes) + ") reached";
  } else {
    summary->message = std::to_string(solution->active_inequalities.size()) +
                       " contact rows active after " + std::to_string(summary->iterations) +
                       " working-set changes";
  }
  // The final check (QpSolverOptions::equality_tolerance).
  if (summary->termination == QpTermination::kConverged && m_e > 0) {
    const double start_residual = problem.equality_offset.lpNorm<Eigen::Infinity>();
    m_equality_residual = problem.equality_offset;
    m_equality_residual.noalias() += problem.equality_jacobian * x;
    if (m_options.refinement_steps == 0) {
      // Damped QP (no refinement): its equality rows are compliant, c_E + A_E x = ε (y − y_c).
      m_equality_residual.noalias() -= epsilon * solution->equality_multipliers;
      if (problem.multiplier_estimate.size() == m_e)
        m_equality_residual.noalias() += epsilon * damping_centre(problem, epsilon);
    }
    const double residual = m_equality_residual.lpNorm<Eigen::Infinity>();
    if (residual > std::max(m_options.equality_tolerance, 2.0 * start_residual)) {
      summary->termination = QpTermination::kNumericalFailure;
      char text[200];
      std::snprintf(
          text, sizeof text,
          "the solution misses the equality rows by %.3g, over twice what x = 0 does (%.3g): "
          "the KKT solves lost their accuracy (nearly dependent rows)",
          residual, start_residual);
      summary->message = text;
    }
  }
  // A row set aside as dependent (add_row) that the solution still violates: no x satisfies
  // every row. (Not where a friction row was in its combination, and not a friction row set
  // aside, which may slip.)
  if (summary->termination == QpTermination::kConverged && summary->dependent_rows > 0) {
    const double feasibility_tol = scaled_tolerance(problem.inequality_offset);
    for (int i = 0; i < m_i + m_p; ++i) {
      if (m_state[i] != kSetAside || m_aside_with_friction[i] || has_bound(problem, i))
        continue;
      const double residual =
          offset_of(problem, i) + sparse_row_dot(matrix_of(problem, i), local_row(i), x);
      if (i < m_i ? residual >= -feasibility_tol : std::abs(residual) <= slip_tol)
        continue;
      summary->termination = QpTermination::kInfeasible;
      summary->infeasible_row = i;
      summary->infeasible_residual = residual;
      char text[240];
      std::snprintf(text, sizeof text,
                    "infeasible: %s row %d is off by %.3g and depends on rows no feasible point "
                    "can move (equality, pinned, or working contact rows whose multipliers would "
                    "turn negative)",
                    i < m_i ? "contact" : "pinned", i < m_i ? i : i - m_i, residual);
      summary->message = text;
      break;
    }
  }
}

QpSummary ActiveSetSolver::solve(const QpProblem& problem, const QpWarmStart& start,
                                 QpSolution* solution) {
  QpSummary summary;
  const int n = problem.num_variables();
  const int m_e = problem.num_equalities();
  const int m_i = problem.num_inequalities();
  const int m_p = problem.num_pinned();
  m_num_inequalities = m_i;
  const auto clear_solution = [&] {
    solution->x.setZero(n);
    solution->equality_multipliers.setZero(m_e);
    solution->inequality_multipliers.setZero(m_i);
    solution->pinned_multipliers.setZero(m_p);
    solution->active_inequalities.clear();
  };
  clear_solution();

  start_states(problem, start);
  const bool factor_working_rows =
      static_cast<int>(m_seed_row_ids.size()) >= m_options.factor_working_rows_from;

  // The equality rows' factorisation, with which the Schur complement works. With the working
  // rows factored it serves only to check that the QP is convex (D + K positive definite on the
  // null space of A_E; certain without K or with a semidefinite one), and for the Schur
  // complement should they give the QP back.
  EqualitySystem* kkt =
      problem.has_curvature() ? static_cast<EqualitySystem*>(&m_saddle) : &m_delassus;
  bool reuse = problem.matrices_unchanged && m_factored && kkt == m_kkt;
  m_kkt = kkt;
  using Clock = std::chrono::steady_clock;
  const auto factorize_equality_rows = [&]() {
    m_responses.clear();
    const Clock::time_point factorization_start = Clock::now();
    m_factored =
        m_kkt->factorize(problem, m_options.equality_regularization, m_options.refinement_steps);
    summary.factorization_seconds +=
        std::chrono::duration<double>(Clock::now() - factorization_start).count();
    if (!m_factored) {
      summary.termination = QpTermination::kNumericalFailure;
      summary.message = "factorisation of the equality KKT matrix failed";
      return false;
    }
    if (!m_kkt->convex()) {
      m_factored = false;
      summary.termination = QpTermination::kNotConvex;
      summary.message =
          "the curvature makes the QP nonconvex on the equality rows' null space "
          "(wrong inertia of the KKT matrix)";
      return false;
    }
    return true;
  };
  const bool check_convexity = problem.has_curvature() && !problem.curvature_semidefinite;
  if (!reuse && (!factor_working_rows || check_convexity)) {
    if (!factorize_equality_rows())
      return summary;
  } else if (!reuse) {
    m_factored = false;  // not needed unless the working rows give the QP back
    m_responses.clear();
  }
  const auto give_back = [&]() {
    // Factoring the working rows failed (a zero pivot or a solution that misses its rows): the
    // Schur complement solves the QP from its start, and reports what is wrong.
    const int factorizations = summary.working_set_factorizations;
    const double seconds = summary.factorization_seconds;
    summary = QpSummary{};
    summary.working_set_factorizations = factorizations;
    summary.factorization_seconds = seconds;
    clear_solution();
    start_states(problem, start);
    reuse = false;  // the last working set is the factored path's, not the Schur factor's
    return m_factored || factorize_equality_rows();
  };
  if (factor_working_rows) {
    if (solve_factored(problem, 0, &summary, solution) || !give_back())
      return summary;
  }
  if (solve_schur(problem, reuse, !factor_working_rows, &summary, solution)) {
    // The working set grew to factor_working_rows_from rows: factored from here on.
    if (solve_factored(problem, summary.iterations, &summary, solution) || !give_back())
      return summary;
    solve_schur(problem, reuse, false, &summary, solution);
  }
  return summary;
}

bool ActiveSetSolver::solve_schur(const QpProblem& problem, bool reuse, bool may_hand_over,
                                  QpSummary* summary_out, QpSolution* solution) {
  QpSummary& summary = *summary_out;
  const int m_e = problem.num_equalities();
  const int m_i = m_num_inequalities;
  using Clock = std::chrono::steady_clock;

  m_zero_rhs.setZero(m_e);
  set_equality_rhs(problem, m_kkt->regularization());
  m_kkt->solve(m_rhs, m_equality_rhs, &m_x_fixed, &m_y_fixed);

  const Clock::time_point seed_start = Clock::now();
  add_seed_rows(problem, reuse, &summary);
  summary.seed_seconds = std::chrono::duration<double>(Clock::now() - seed_start).count();

  const double feasibility_tol = scaled_tolerance(problem.inequality_offset);
  const double slip_tol = scaled_tolerance(problem.pinned_offset);
  Eigen::VectorXd gamma, x;
  summary.termination = QpTermination::kIterationLimit;
  for (int change = 0; change <= m_options.max_working_set_changes; ++change) {
    summary.iterations = change;
    compute_multipliers(&gamma);
    const int k = static_cast<int>(m_working.size());
    double step;
    const int blocking = blocking_position(problem, gamma, &step);
    if (blocking >= 0) {
      for (int b = 0; b < k; ++b)
        m_z[b] += step * (gamma[b] - m_z[b]);
      const int row = m_working[blocking];
      if (m_state[row] == kWorking) {
        remove_position(blocking);
        continue;
      }
      ++summary.pinned_rows_to_bound;
      const double sigma = std::copysign(problem.pinned_bound_of(row - m_i), gamma[blocking]);
      m_x_fixed.noalias() += sigma * m_u[blocking];
      m_y_fixed.noalias() += sigma * m_w[blocking];
      m_fixed_sigma[row - m_i] = sigma;
      remove_position(blocking);
      m_state[row] = kAtBound;
      refresh_offsets(problem);
      continue;
    }
    for (int b = 0; b < k; ++b)
      m_z[b] = gamma[b];
    x = m_x_fixed;
    for (int b = 0; b < k; ++b)
      x.noalias() += gamma[b] * m_u[b];
    // The most violated observed inequality row enters; else a pinned row at its bound whose
    // residual no longer opposes its force (the slip reversed) returns to the working set.
    const int most_violated = most_violated_row(problem, x, feasibility_tol);
    if (most_violated >= 0) {
      add_row(problem, most_violated, &summary);
      if (may_hand_over && hand_over(problem, change + 1, &summary))
        return true;
      continue;
    }
    const int reversed = most_reversed_row(problem, x, slip_tol);
    if (reversed >= 0) {
      // Take its fixed force back out; add_row recomputes its response.
      Eigen::VectorXd u, w;
      response(problem.pinned_jacobian, reversed, &summary, &u, &w);
      const double sigma = m_fixed_sigma[reversed];
      m_x_fixed.noalias() -= sigma * u;
      m_y_fixed.noalias() -= sigma * w;
      m_fixed_sigma[reversed] = 0.0;
      ++m_returns[reversed];
      ++summary.pinned_rows_returned;
      m_state[m_i + reversed] = kObserved;
      refresh_offsets(problem);
      add_row(problem, m_i + reversed, &summary, nullptr, nullptr, sigma);
      if (may_hand_over && hand_over(problem, change + 1, &summary))
        return true;
      continue;
    }
    summary.termination = QpTermination::kConverged;
    break;
  }
  // The last iterate (also when the change limit stopped the loop): x and the working rows'
  // multipliers.
  const int k = static_cast<int>(m_working.size());
  if (summary.termination == QpTermination::kIterationLimit) {
    compute_multipliers(&gamma);
    x = m_x_fixed;
    for (int b = 0; b < k; ++b)
      x.noalias() += gamma[b] * m_u[b];
  }
  solution->equality_multipliers = m_y_fixed;
  for (int b = 0; b < k; ++b)
    solution->equality_multipliers.noalias() += gamma[b] * m_w[b];
  finish(problem, x, gamma, m_kkt->regularization(), &summary, solution);
  return false;
}

bool ActiveSetSolver::hand_over(const QpProblem& problem, int changes, QpSummary* summary) {
  if (static_cast<int>(m_working.size()) < m_options.factor_working_rows_from)
    return false;
  // The factored path starts from the working rows as they are, with the forces of the rows at
  // their bound in its right-hand side (the Schur path keeps them in x_fixed).
  m_seed_row_ids = m_working;
  m_rhs = problem.linear;
  for (int r = 0; r < problem.num_pinned(); ++r) {
    if (m_state[m_num_inequalities + r] != kAtBound)
      continue;
    for (SparseRowMatrix::InnerIterator it(problem.pinned_jacobian, r); it; ++it)
      m_rhs[it.col()] += m_fixed_sigma[r] * it.value();
  }
  summary->iterations = changes;
  return true;
}

bool ActiveSetSolver::solve_factored(const QpProblem& problem, int changes_before,
                                     QpSummary* summary, QpSolution* solution) {
  const int n = problem.num_variables();
  const int m_e = problem.num_equalities();
  const int m_i = m_num_inequalities;
  const int m_p = problem.num_pinned();
  const int m_rows = m_i + m_p;
  // ε as the equality factorisations compute it.
  const double epsilon = equality_regularization(problem, m_options.equality_regularization);
  // Each row's compliance: a bounded pinned row's as in the Schur complement (friction_
  // compliance); the others, which the QP holds exactly, are factored with kRowRegularization
  // times their norm² in the D⁻¹ metric (to keep the matrix quasi-definite), refined against 0
  // when the QP refines its equality rows.
  m_row_compliance.resize(m_rows);
  m_target_compliance.resize(m_rows);
  m_row_offsets.resize(m_rows);
  for (int b = 0; b < m_rows; ++b) {
    double unprojected = 0.0;
    for (SparseRowMatrix::InnerIterator it(matrix_of(problem, b), local_row(b)); it; ++it)
      unprojected += it.value() * it.value() / problem.mass[it.col()];
    const bool bounded = has_bound(problem, b);
    m_row_compliance[b] = bounded ? m_options.friction_compliance * unprojected
                                  : kRowRegularization * std::max(unprojected, 1e-300);
    m_target_compliance[b] = bounded || m_options.refinement_steps == 0 ? m_row_compliance[b] : 0.0;
    m_row_offsets[b] = offset_of(problem, b);
  }
  // The damped QP keeps its ε (a compliance of the model); the undamped one refines it away.
  // Either way at least kMinRefinementSteps: the LDLᵀ eliminates some rows before all their
  // variables, with pivots of the size of a compliance, and loses digits to that growth
  // (backward errors of 1e-12 where a pivoted LU's are 1e-17). Without refinement the damped
  // random QPs of factored_working_set_test end up to 3e-5 (relative) from the Schur
  // complement's solution, with one step within 1e-8.
  const double target_epsilon = m_options.refinement_steps == 0 ? epsilon : 0.0;
  const int refinement_steps = std::max(m_options.refinement_steps, kMinRefinementSteps);
  set_equality_rhs(problem, epsilon);

  using Clock = std::chrono::steady_clock;
  // w = M⁻¹ρ₀ for the factored working set (WorkingSetBorder::solve): solved for again only
  // when M or the forces in m_rhs change.
  Eigen::VectorXd w;
  bool w_current = false;
  const auto factorize = [&](const std::vector<char>& working) {
    w_current = false;
    const Clock::time_point begin = Clock::now();
    const bool ok = m_working_kkt.factorize(problem, epsilon, working, m_row_compliance);
    summary->factorization_seconds += std::chrono::duration<double>(Clock::now() - begin).count();
    ++summary->working_set_factorizations;
    if (!ok || !m_working_kkt.convex())
      return false;
    m_border.reset(m_working_kkt, problem, m_row_compliance);
    return true;
  };
  m_working_flags.assign(m_rows, 0);
  m_appended_only = false;  // m_working no longer describes m_schur
  m_working.clear();
  m_z.clear();
  for (int row : m_seed_row_ids) {
    m_working.push_back(row);
    m_z.push_back(0.0);
    m_state[row] = row < m_i ? kWorking : kPinned;
    m_working_flags[row] = 1;
  }
  if (!factorize(m_working_flags))
    return false;

  // Solves with the working set as equalities: x, λ (y) and the working rows' multipliers γ.
  // Past kMaxBorderColumns differences from the factored working set, or when they make the
  // border singular, the matrix is factored again with the working set as it is.
  Eigen::VectorXd x, y, gamma, rhs, zeta, correction;
  const auto unpack = [&]() {
    x = zeta.head(n);
    y = zeta.segment(n, m_e);
    const int k = static_cast<int>(m_working.size());
    gamma.resize(k);
    for (int b = 0; b < k; ++b)
      gamma[b] = zeta[n + m_e + m_working[b]];
  };
  const auto solve_working_set = [&]() {
    if (m_border.size() > kMaxBorderColumns) {
      m_working_flags = m_border.working();
      if (!factorize(m_working_flags))
        return false;
    }
    const std::vector<char>& working = m_border.working();
    rhs.resize(m_working_kkt.size());
    rhs.head(n) = m_rhs;
    rhs.segment(n, m_e) = m_equality_rhs;
    for (int b = 0; b < m_rows; ++b)
      rhs[n + m_e + b] = working[b] ? m_row_offsets[b] : 0.0;
    const auto solve_rhs = [&]() {
      if (!w_current) {
        w = rhs;
        for (int b = 0; b < m_rows; ++b)
          w[n + m_e + b] = m_working_kkt.working()[b] ? m_row_offsets[b] : 0.0;
        m_working_kkt.solve_in_place(&w);
        w_current = true;
      }
      return m_border.solve(w, rhs, &zeta);
    };
    if (!solve_rhs()) {
      m_working_flags = m_border.working();
      if (!factorize(m_working_flags) || !solve_rhs())
        return false;
    }
    unpack();
    return true;
  };
  // Refinement of that solution against the compliances the QP asks for, until the residual
  // reaches round-off or stops shrinking. Only where the working set would be final: the changes
  // before are decided on the unrefined solution (the final decision is made again on the
  // refined one).
  const auto refine_working_set = [&]() {
    const std::vector<char>& working = m_border.working();
    const double target = 1e-15 * rhs.norm();
    double previous = std::numeric_limits<double>::infinity();
    for (int step = 0; step < refinement_steps; ++step) {
      m_working_kkt.multiply(zeta, working, m_target_compliance, target_epsilon, &correction);
      correction = rhs - correction;
      const double size = correction.norm();
      if (size <= target || size > 0.9 * previous)
        break;
      previous = size;
      if (!m_border.solve(correction, &correction))
        return false;
      zeta += correction;
    }
    unpack();
    return true;
  };

  const double feasibility_tol = scaled_tolerance(problem.inequality_offset);
  const double slip_tol = scaled_tolerance(problem.pinned_offset);
  summary->termination = QpTermination::kIterationLimit;
  for (int change = changes_before; change <= m_options.max_working_set_changes; ++change) {
    summary->iterations = change;
    if (!solve_working_set())
      return false;
    bool refined = refinement_steps == 0;
    for (;;) {  // the change, decided once, or twice when the first solution would be final
      const int k = static_cast<int>(m_working.size());
      double step;
      const int blocking = blocking_position(problem, gamma, &step);
      if (blocking >= 0) {
        for (int b = 0; b < k; ++b)
          m_z[b] += step * (gamma[b] - m_z[b]);
        const int row = m_working[blocking];
        m_working.erase(m_working.begin() + blocking);
        m_z.erase(m_z.begin() + blocking);
        m_border.remove_row(row);
        if (m_state[row] == kWorking) {
          m_state[row] = kObserved;
          break;
        }
        ++summary->pinned_rows_to_bound;
        const double sigma = std::copysign(problem.pinned_bound_of(row - m_i), gamma[blocking]);
        for (SparseRowMatrix::InnerIterator it(problem.pinned_jacobian, row - m_i); it; ++it)
          m_rhs[it.col()] += sigma * it.value();
        w_current = false;
        m_fixed_sigma[row - m_i] = sigma;
        m_state[row] = kAtBound;
        break;
      }
      for (int b = 0; b < k; ++b)
        m_z[b] = gamma[b];
      const int most_violated = most_violated_row(problem, x, feasibility_tol);
      if (most_violated >= 0) {
        m_working.push_back(most_violated);
        m_z.push_back(0.0);
        m_state[most_violated] = kWorking;
        m_border.add_row(most_violated);
        break;
      }
      const int reversed = most_reversed_row(problem, x, slip_tol);
      if (reversed >= 0) {
        const double sigma = m_fixed_sigma[reversed];
        for (SparseRowMatrix::InnerIterator it(problem.pinned_jacobian, reversed); it; ++it)
          m_rhs[it.col()] -= sigma * it.value();
        w_current = false;
        m_fixed_sigma[reversed] = 0.0;
        ++m_returns[reversed];
        ++summary->pinned_rows_returned;
        m_working.push_back(m_i + reversed);
        m_z.push_back(sigma);
        m_state[m_i + reversed] = kPinned;
        m_border.add_row(m_i + reversed);
        break;
      }
      if (!refined) {
        if (!refine_working_set())
          return false;
        refined = true;
        continue;
      }
      summary->termination = QpTermination::kConverged;
      break;
    }
    if (summary->termination == QpTermination::kConverged)
      break;
  }
  // The last change has not been solved for when the change limit stopped the loop.
  if (summary->termination == QpTermination::kIterationLimit &&
      !(solve_working_set() && refine_working_set()))
    return false;
  // The working rows as solved for: c_W + G_W x + C_W γ = 0 up to the equality tolerance, or the
  // rows were dependent and inconsistent (the Schur path sets such a row aside) or the
  // factorisation lost its accuracy.
  double worst = 0.0;
  for (std::size_t b = 0; b < m_working.size(); ++b) {
    const int row = m_working[b];
    const double residual = m_row_offsets[row] +
                            sparse_row_dot(matrix_of(problem, row), local_row(row), x) +
                            m_target_compliance[row] * gamma[static_cast<int>(b)];
    worst = std::max(worst, std::abs(residual));
  }
  if (!(worst <= m_options.equality_tolerance))
    return false;
  solution->equality_multipliers = y;
  finish(problem, x, gamma, epsilon, summary, solution);
  summary->working_set_factored = summary->termination != QpTermination::kNumericalFailure;
  return summary->working_set_factored;
}

}  // namespace clothfit::qp
