#include "core/qp/qp_problem.hpp"

#include <cmath>
#include <vector>

namespace clothfit::qp {

QpProblem without_pinned_rows(const QpProblem& problem) {
  QpProblem out = problem;
  const int n = problem.num_variables();
  const int m_e = problem.num_equalities(), m_i = problem.num_inequalities();
  const int m_p = problem.num_pinned();
  if (m_p == 0)
    return out;
  std::vector<int> bounded;  // pinned rows with a finite bound, in order
  for (int r = 0; r < m_p; ++r) {
    if (std::isfinite(problem.pinned_bound_of(r)))
      bounded.push_back(r);
  }
  const int slacks = 2 * static_cast<int>(bounded.size());
  const int n_out = n + slacks;

  // Variables: x, then (p, q) per bounded row.
  out.mass.resize(n_out);
  out.mass << problem.mass, Eigen::VectorXd::Zero(slacks);
  out.linear.resize(n_out);
  out.linear.head(n) = problem.linear;
  for (std::size_t b = 0; b < bounded.size(); ++b) {
    const double bound = problem.pinned_bound_of(bounded[b]);
    out.linear[n + 2 * b] = -bound;  // the objective term b (p + q) is −fᵀ(p, q) with f = −b
    out.linear[n + 2 * b + 1] = -bound;
  }
  if (problem.has_curvature())
    out.curvature.conservativeResize(n_out, n_out);

  // Equality rows: A_E, then the pinned rows (with −p + q for bounded ones).
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(problem.equality_jacobian.nonZeros() + problem.pinned_jacobian.nonZeros() +
                   static_cast<std::size_t>(slacks));
  for (int r = 0; r < m_e; ++r) {
    for (SparseRowMatrix::InnerIterator it(problem.equality_jacobian, r); it; ++it)
      triplets.emplace_back(r, static_cast<int>(it.col()), it.value());
  }
  for (int r = 0, b = 0; r < m_p; ++r) {
    for (SparseRowMatrix::InnerIterator it(problem.pinned_jacobian, r); it; ++it)
      triplets.emplace_back(m_e + r, static_cast<int>(it.col()), it.value());
    if (b < static_cast<int>(bounded.size()) && bounded[b] == r) {
      triplets.emplace_back(m_e + r, n + 2 * b, -1.0);
      triplets.emplace_back(m_e + r, n + 2 * b + 1, 1.0);
      ++b;
    }
  }
  out.equality_jacobian.resize(m_e + m_p, n_out);
  out.equality_jacobian.setFromTriplets(triplets.begin(), triplets.end());
  out.equality_jacobian.makeCompressed();
  out.equality_offset.resize(m_e + m_p);
  out.equality_offset << problem.equality_offset, problem.pinned_offset;

  // Inequality rows: A_I, then p ≥ 0, q ≥ 0.
  triplets.clear();
  for (int r = 0; r < m_i; ++r) {
    for (SparseRowMatrix::InnerIterator it(problem.inequality_jacobian, r); it; ++it)
      triplets.emplace_back(r, static_cast<int>(it.col()), it.value());
  }
  for (int s = 0; s < slacks; ++s)
    triplets.emplace_back(m_i + s, n + s, 1.0);
  out.inequality_jacobian.resize(m_i + slacks, n_out);
  out.inequality_jacobian.setFromTriplets(triplets.begin(), triplets.end());
  out.inequality_jacobian.makeCompressed();
  out.inequality_offset.resize(m_i + slacks);
  out.inequality_offset << problem.inequality_offset, Eigen::VectorXd::Zero(slacks);

  out.pinned_jacobian.resize(0, n_out);
  out.pinned_offset.resize(0);
  out.pinned_bound.resize(0);
  out.matrices_unchanged = false;
  return out;
}

}  // namespace clothfit::qp
