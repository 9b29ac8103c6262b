#include "core/qp/active_set_solver.hpp"

#include <algorithm>
#include <cmath>

namespace clothfit::qp {

namespace {

double sparse_row_dot(const SparseRowMatrix& a, int row, const Eigen::VectorXd& v) {
  double sum = 0.0;
  for (SparseRowMatrix::InnerIterator it(a, row); it; ++it)
    sum += it.value() * v[it.col()];
  return sum;
}

}  // namespace

void ActiveSetSolver::remove_position(int position) {
  m_state[m_working[position]] = 0;
  m_schur.remove(position);
  m_working.erase(m_working.begin() + position);
  m_u.erase(m_u.begin() + position);
  m_w.erase(m_w.begin() + position);
  m_offset.erase(m_offset.begin() + position);
}

bool ActiveSetSolver::add_row(const QpProblem& problem, int row, QpSummary* summary) {
  const SparseRowMatrix& g = problem.inequality_jacobian;
  const int n = problem.num_variables();
  m_dense_row.setZero(n);
  double unprojected = 0.0;  // g D⁻¹ gᵀ, the scale for the dependence test
  for (SparseRowMatrix::InnerIterator it(g, row); it; ++it) {
    m_dense_row[it.col()] = it.value();
    unprojected += it.value() * it.value() / problem.mass[it.col()];
  }
  Eigen::VectorXd u, w;
  m_kkt->solve(m_dense_row, m_zero_rhs, &u, &w);
  const int k = static_cast<int>(m_working.size());
  Eigen::VectorXd s(k), l;
  for (int b = 0; b < k; ++b)
    s[b] = sparse_row_dot(g, m_working[b], u);
  const double d = sparse_row_dot(g, row, u);
  const double min_pivot = m_options.dependence_tolerance * unprojected;
  if (!m_schur.append(s, d, min_pivot, &l)) {
    // Dependent on W: g P = Σ α_b g_b P with α = S⁻¹ s (Remark 5.2).
    Eigen::VectorXd alpha;
    m_schur.solve_transposed(l, &alpha);
    int out = -1;
    if (k > 0)
      alpha.cwiseAbs().maxCoeff(&out);
    if (out < 0 || std::abs(alpha[out]) < 1e-12) {
      m_state[row] = 2;  // dependent on the equality rows alone: cannot enter
      ++summary->dependent_rows;
      return false;
    }
    remove_position(out);
    ++summary->dependent_rows;
    return add_row(problem, row, summary);
  }
  m_working.push_back(row);
  m_u.push_back(std::move(u));
  m_w.push_back(std::move(w));
  m_offset.push_back(problem.inequality_offset[row] + sparse_row_dot(g, row, m_x_equality));
  m_state[row] = 1;
  return true;
}

void ActiveSetSolver::compute_multipliers(Eigen::VectorXd* gamma_working) const {
  const int k = static_cast<int>(m_working.size());
  Eigen::VectorXd rhs(k);
  for (int b = 0; b < k; ++b)
    rhs[b] = -m_offset[b];
  m_schur.solve(rhs, gamma_working);
}

QpSummary ActiveSetSolver::solve(const QpProblem& problem,
                                 const std::vector<int>& initial_working_set,
                                 QpSolution* solution) {
  QpSummary summary;
  const int n = problem.num_variables();
  const int m_e = problem.num_equalities();
  const int m_i = problem.num_inequalities();
  solution->x.setZero(n);
  solution->equality_multipliers.setZero(m_e);
  solution->inequality_multipliers.setZero(m_i);
  solution->active_inequalities.clear();

  m_kkt = problem.has_curvature() ? static_cast<EqualitySystem*>(&m_saddle) : &m_delassus;
  if (!m_kkt->factorize(problem, m_options.equality_regularization, m_options.refinement_steps)) {
    summary.termination = QpTermination::kNumericalFailure;
    summary.message = "factorisation of the equality KKT matrix failed";
    return summary;
  }
  m_zero_rhs.setZero(m_e);
  m_kkt->solve(problem.linear, -problem.equality_offset, &m_x_equality, &m_y_equality);

  m_schur.clear();
  m_working.clear();
  m_u.clear();
  m_w.clear();
  m_offset.clear();
  m_state.assign(m_i, 0);
  for (int row : initial_working_set) {
    if (row >= 0 && row < m_i && m_state[row] == 0)
      add_row(problem, row, &summary);
  }

  const double feasibility_tol =
      m_options.feasibility_tolerance *
      std::max(1.0, m_i > 0 ? problem.inequality_offset.cwiseAbs().maxCoeff() : 0.0);
  Eigen::VectorXd gamma, x, residual;
  summary.termination = QpTermination::kIterationLimit;
  for (int change = 0; change <= m_options.max_working_set_changes; ++change) {
    summary.iterations = change;
    compute_multipliers(&gamma);
    const int k = static_cast<int>(m_working.size());
    if (k > 0) {
      int most_negative = 0;
      const double gamma_min = gamma.minCoeff(&most_negative);
      if (gamma_min < -1e-12 * std::max(1.0, gamma.cwiseAbs().maxCoeff())) {
        remove_position(most_negative);
        continue;
      }
    }
    x = m_x_equality;
    for (int b = 0; b < k; ++b)
      x.noalias() += gamma[b] * m_u[b];
    int most_violated = -1;
    double worst = -feasibility_tol;
    if (m_i > 0) {
      residual = problem.inequality_offset;
      residual.noalias() += problem.inequality_jacobian * x;
      for (int i = 0; i < m_i; ++i) {
        if (m_state[i] == 0 && residual[i] < worst) {
          worst = residual[i];
          most_violated = i;
        }
      }
    }
    if (most_violated >= 0) {
      add_row(problem, most_violated, &summary);
      continue;
    }
    summary.termination = QpTermination::kConverged;
    solution->x = x;
    solution->equality_multipliers = m_y_equality;
    for (int b = 0; b < k; ++b) {
      solution->equality_multipliers.noalias() += gamma[b] * m_w[b];
      solution->inequality_multipliers[m_working[b]] = std::max(0.0, gamma[b]);
      solution->active_inequalities.push_back(m_working[b]);
    }
    break;
  }
  if (summary.termination == QpTermination::kIterationLimit) {
    solution->x = x;
    summary.message = "working-set change limit (" +
                      std::to_string(m_options.max_working_set_changes) + ") reached";
  } else {
    summary.message = std::to_string(m_working.size()) + " contact rows active after " +
                      std::to_string(summary.iterations) + " working-set changes";
  }
  return summary;
}

}  // namespace clothfit::qp
