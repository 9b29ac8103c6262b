#include "core/qp/working_set_border.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

namespace clothfit::qp {

namespace {

const SparseRowMatrix& contact_row_matrix(const QpProblem& p, int b) {
  return b < p.num_inequalities() ? p.inequality_jacobian : p.pinned_jacobian;
}

int contact_local_row(const QpProblem& p, int b) {
  return b < p.num_inequalities() ? b : b - p.num_inequalities();
}

}  // namespace

void WorkingSetBorder::reset(const WorkingSetFactorization& kkt, const QpProblem& problem,
                             const Eigen::VectorXd& compliance) {
  m_kkt = &kkt;
  m_problem = &problem;
  m_compliance = &compliance;
  m_working = kkt.working();
  m_row.clear();
  m_joins.clear();
  m_q.clear();
}

void WorkingSetBorder::push_column(int b, bool joins) {
  Eigen::VectorXd u = Eigen::VectorXd::Zero(m_kkt->size());
  if (joins) {
    const SparseRowMatrix& g = contact_row_matrix(*m_problem, b);
    for (SparseRowMatrix::InnerIterator it(g, contact_local_row(*m_problem, b)); it; ++it)
      u[it.col()] = -it.value();
  } else {
    u[m_kkt->row_position(b)] = 1.0;
  }
  m_kkt->solve_in_place(&u);
  m_row.push_back(b);
  m_joins.push_back(joins ? 1 : 0);
  m_q.push_back(std::move(u));
}

void WorkingSetBorder::erase_column(int b) {
  const auto at = std::find(m_row.begin(), m_row.end(), b) - m_row.begin();
  m_row.erase(m_row.begin() + at);
  m_joins.erase(m_joins.begin() + at);
  m_q.erase(m_q.begin() + at);
}

void WorkingSetBorder::add_row(int b) {
  if (m_working[b])
    return;
  m_working[b] = 1;
  if (m_kkt->working()[b])
    erase_column(b);  // a factored row back: its removal's column goes
  else
    push_column(b, true);
}

void WorkingSetBorder::remove_row(int b) {
  if (!m_working[b])
    return;
  m_working[b] = 0;
  if (m_kkt->working()[b])
    push_column(b, false);
  else
    erase_column(b);  // a row that had joined: its column goes
}

double WorkingSetBorder::border_dot(int i, const Eigen::VectorXd& v) const {
  const int b = m_row[i];
  if (!m_joins[i])
    return v[m_kkt->row_position(b)];
  double sum = 0.0;
  const SparseRowMatrix& g = contact_row_matrix(*m_problem, b);
  for (SparseRowMatrix::InnerIterator it(g, contact_local_row(*m_problem, b)); it; ++it)
    sum -= it.value() * v[it.col()];
  return sum;
}

bool WorkingSetBorder::solve(const Eigen::VectorXd& rho, Eigen::VectorXd* zeta) {
  m_w = rho;
  // The factored matrix holds a joined row decoupled: its unknown stays 0 with a 0 right-hand side.
  for (int i = 0; i < size(); ++i) {
    if (m_joins[i])
      m_w[m_kkt->row_position(m_row[i])] = 0.0;
  }
  m_kkt->solve_in_place(&m_w);
  return complete(rho, zeta);
}

bool WorkingSetBorder::solve(const Eigen::VectorXd& w, const Eigen::VectorXd& rho,
                             Eigen::VectorXd* zeta) {
  m_w = w;
  return complete(rho, zeta);
}

bool WorkingSetBorder::complete(const Eigen::VectorXd& rho, Eigen::VectorXd* zeta) {
  const int d = size();
  if (d == 0) {
    *zeta = m_w;
    return true;
  }
  m_s.resize(d, d);
  m_h.resize(d);
  for (int j = 0; j < d; ++j) {
    for (int i = 0; i < d; ++i)
      m_s(i, j) = -border_dot(i, m_q[j]);
    if (m_joins[j]) {
      m_s(j, j) -= (*m_compliance)[m_row[j]];
      m_h[j] = rho[m_kkt->row_position(m_row[j])] - border_dot(j, m_w);
    } else {
      m_h[j] = -border_dot(j, m_w);
    }
  }
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(m_s);
  if (!(lu.rcond() > 1e-14))
    return false;
  m_beta = lu.solve(m_h);
  if (!m_beta.allFinite())
    return false;
  *zeta = m_w;
  for (int j = 0; j < d; ++j)
    zeta->noalias() -= m_beta[j] * m_q[j];
  for (int j = 0; j < d; ++j)
    (*zeta)[m_kkt->row_position(m_row[j])] = m_joins[j] ? m_beta[j] : 0.0;
  return true;
}

}  // namespace clothfit::qp
