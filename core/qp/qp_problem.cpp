#include "core/qp/qp_problem.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <vector>

namespace clothfit::qp {

Eigen::VectorXd damping_centre(const QpProblem& problem, double epsilon) {
  const int m_e = problem.num_equalities();
  if (problem.multiplier_estimate.size() != m_e ||
      !(problem.max_damping_offset < std::numeric_limits<double>::infinity()) || !(epsilon > 0.0))
    return Eigen::VectorXd::Zero(m_e);
  const double limit = problem.max_damping_offset / epsilon;
  return problem.multiplier_estimate - problem.multiplier_estimate.cwiseMax(-limit).cwiseMin(limit);
}

QpProblem without_pinned_rows(const QpProblem& problem) {
  QpProblem out = problem;
  const int n = problem.num_variables();
  const int m_e = problem.num_equalities(), m_i = problem.num_inequalities();
  const int m_p = problem.num_pinned();
  if (m_p == 0)
    return out;
  // Slack columns per pinned row: none (unbounded), one free column p (bound 0: σ = 0, the row
  // only measures its residual; a pair p, q ≥ 0 with objective 0 would leave p + q unbounded),
  // or a pair p, q ≥ 0 with objective b (p + q).
  std::vector<int> first_slack(m_p, -1);
  int slacks = 0, signed_slacks = 0;
  for (int r = 0; r < m_p; ++r) {
    const double bound = problem.pinned_bound_of(r);
    if (!std::isfinite(bound))
      continue;
    first_slack[r] = n + slacks;
    slacks += bound > 0.0 ? 2 : 1;
    signed_slacks += bound > 0.0 ? 2 : 0;
  }
  const int n_out = n + slacks;

  out.mass.resize(n_out);
  out.mass << problem.mass, Eigen::VectorXd::Zero(slacks);
  out.linear.setZero(n_out);
  out.linear.head(n) = problem.linear;
  for (int r = 0; r < m_p; ++r) {
    const double bound = problem.pinned_bound_of(r);
    if (first_slack[r] >= 0 && bound > 0.0) {
      out.linear[first_slack[r]] = -bound;  // the objective term b (p + q) is −fᵀ(p, q), f = −b
      out.linear[first_slack[r] + 1] = -bound;
    }
  }
  if (problem.has_curvature())
    out.curvature.conservativeResize(n_out, n_out);

  // Equality rows: A_E, then the pinned rows (with −p + q, or −p, for bounded ones).
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(problem.equality_jacobian.nonZeros() + problem.pinned_jacobian.nonZeros() +
                   static_cast<std::size_t>(slacks));
  for (int r = 0; r < m_e; ++r) {
    for (SparseRowMatrix::InnerIterator it(problem.equality_jacobian, r); it; ++it)
      triplets.emplace_back(r, static_cast<int>(it.col()), it.value());
  }
  std::vector<Eigen::Triplet<double>> sign_rows;  // p ≥ 0, q ≥ 0
  for (int r = 0; r < m_p; ++r) {
    for (SparseRowMatrix::InnerIterator it(problem.pinned_jacobian, r); it; ++it)
      triplets.emplace_back(m_e + r, static_cast<int>(it.col()), it.value());
    if (first_slack[r] < 0)
      continue;
    triplets.emplace_back(m_e + r, first_slack[r], -1.0);
    if (problem.pinned_bound_of(r) > 0.0) {
      triplets.emplace_back(m_e + r, first_slack[r] + 1, 1.0);
      for (int k = 0; k < 2; ++k)
        sign_rows.emplace_back(m_i + static_cast<int>(sign_rows.size()), first_slack[r] + k, 1.0);
    }
  }
  out.equality_jacobian.resize(m_e + m_p, n_out);
  out.equality_jacobian.setFromTriplets(triplets.begin(), triplets.end());
  out.equality_jacobian.makeCompressed();
  out.equality_offset.resize(m_e + m_p);
  out.equality_offset << problem.equality_offset, problem.pinned_offset;
  if (problem.multiplier_estimate.size() == m_e) {  // the pinned rows' damping centred at 0
    out.multiplier_estimate.setZero(m_e + m_p);
    out.multiplier_estimate.head(m_e) = problem.multiplier_estimate;
  }

  // Inequality rows: A_I, then p ≥ 0, q ≥ 0.
  triplets.clear();
  for (int r = 0; r < m_i; ++r) {
    for (SparseRowMatrix::InnerIterator it(problem.inequality_jacobian, r); it; ++it)
      triplets.emplace_back(r, static_cast<int>(it.col()), it.value());
  }
  triplets.insert(triplets.end(), sign_rows.begin(), sign_rows.end());
  out.inequality_jacobian.resize(m_i + signed_slacks, n_out);
  out.inequality_jacobian.setFromTriplets(triplets.begin(), triplets.end());
  out.inequality_jacobian.makeCompressed();
  out.inequality_offset.resize(m_i + signed_slacks);
  out.inequality_offset << problem.inequality_offset, Eigen::VectorXd::Zero(signed_slacks);

  out.pinned_jacobian.resize(0, n_out);
  out.pinned_offset.resize(0);
  out.pinned_bound.resize(0);
  out.matrices_unchanged = false;
  return out;
}

std::vector<int> spanning_equality_rows(const QpProblem& problem, double relative_pivot) {
  const int n = problem.num_variables(), m_e = problem.num_equalities();
  if (m_e == 0 || n == 0)  // (a QR of an empty matrix has no pivots to read)
    return {};
  Eigen::MatrixXd columns = Eigen::MatrixXd::Zero(n, m_e);
  for (int r = 0; r < m_e; ++r) {
    for (SparseRowMatrix::InnerIterator it(problem.equality_jacobian, r); it; ++it)
      columns(it.col(), r) = it.value();
    const double norm = columns.col(r).norm();
    if (norm > 0.0)
      columns.col(r) /= norm;
  }
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(n, m_e);
  qr.setThreshold(relative_pivot);
  qr.compute(columns);
  const auto& pivots = qr.colsPermutation().indices();
  std::vector<int> rows(pivots.data(), pivots.data() + qr.rank());
  std::sort(rows.begin(), rows.end());
  return rows;
}

QpProblem with_equality_rows(const QpProblem& problem, const std::vector<int>& rows) {
  QpProblem reduced = problem;
  std::vector<Eigen::Triplet<double>> triplets;
  reduced.equality_offset.resize(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t k = 0; k < rows.size(); ++k) {
    for (SparseRowMatrix::InnerIterator it(problem.equality_jacobian, rows[k]); it; ++it)
      triplets.emplace_back(static_cast<int>(k), static_cast<int>(it.col()), it.value());
    reduced.equality_offset[static_cast<Eigen::Index>(k)] = problem.equality_offset[rows[k]];
  }
  reduced.equality_jacobian.resize(static_cast<Eigen::Index>(rows.size()), problem.num_variables());
  reduced.equality_jacobian.setFromTriplets(triplets.begin(), triplets.end());
  reduced.equality_jacobian.makeCompressed();
  return reduced;
}

}  // namespace clothfit::qp
