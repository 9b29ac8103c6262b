#include "core/qp/working_set_factorization.hpp"

#include <algorithm>

#include "core/qp/hessian_block.hpp"
#include "core/qp/saddle_point_ordering.hpp"

namespace clothfit::qp {

namespace {

// The rows of the matrix below D + K: A_E, then A_I, then A_P.
const SparseRowMatrix& rows_block(const QpProblem& p, int block) {
  return block == 0 ? p.equality_jacobian
                    : (block == 1 ? p.inequality_jacobian : p.pinned_jacobian);
}

int block_rows(const QpProblem& p, int block) {
  return block == 0 ? p.num_equalities() : (block == 1 ? p.num_inequalities() : p.num_pinned());
}

// Sizes and index arrays of K, A_E, A_I and A_P, concatenated.
std::vector<int> pattern_key(const QpProblem& p) {
  std::vector<int> key{p.num_variables(), p.num_equalities(), p.num_inequalities(), p.num_pinned()};
  const auto append = [&key](const auto& a) {
    key.push_back(static_cast<int>(a.outerSize()));
    key.push_back(static_cast<int>(a.nonZeros()));
    if (a.nonZeros() == 0)
      return;
    key.insert(key.end(), a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1);
    key.insert(key.end(), a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros());
  };
  append(p.curvature);
  for (int block = 0; block < 3; ++block)
    append(rows_block(p, block));
  return key;
}

}  // namespace

bool WorkingSetFactorization::same_pattern(const QpProblem& p) const {
  return !m_key.empty() && m_key == pattern_key(p);
}

void WorkingSetFactorization::rebuild_pattern(const QpProblem& p) {
  const int n = p.num_variables();
  const int m = p.num_equalities() + p.num_inequalities() + p.num_pinned();
  std::vector<Eigen::Triplet<double>> triplets;
  HessianBlock::add_pattern(p, &triplets);
  for (int r = 0; r < m; ++r)
    triplets.emplace_back(n + r, n + r, 1.0);
  std::vector<Eigen::Triplet<double>> stacked_entries;
  int row = 0;
  for (int block = 0; block < 3; ++block) {
    const SparseRowMatrix& a = rows_block(p, block);
    for (int r = 0; r < block_rows(p, block); ++r, ++row) {
      for (SparseRowMatrix::InnerIterator it(a, r); it; ++it) {
        triplets.emplace_back(n + row, static_cast<int>(it.col()), 1.0);
        stacked_entries.emplace_back(row, static_cast<int>(it.col()), 1.0);
      }
    }
  }
  m_kkt.resize(n + m, n + m);
  m_kkt.setFromTriplets(triplets.begin(), triplets.end());
  m_kkt.makeCompressed();
  m_hessian.locate(m_kkt, p);
  m_row_diagonal_slot.resize(m);
  for (int r = 0; r < m; ++r)
    m_row_diagonal_slot[r] = value_slot(m_kkt, n + r, n + r);
  m_row_slot.clear();
  row = 0;
  for (int block = 0; block < 3; ++block) {
    const SparseRowMatrix& a = rows_block(p, block);
    for (int r = 0; r < block_rows(p, block); ++r, ++row) {
      for (SparseRowMatrix::InnerIterator it(a, r); it; ++it)
        m_row_slot.push_back(value_slot(m_kkt, n + row, static_cast<int>(it.col())));
    }
  }
  SparseRowMatrix stacked(m, n);
  stacked.setFromTriplets(stacked_entries.begin(), stacked_entries.end());
  m_ldlt.analyze(m_kkt, saddle_point_ordering(p.curvature, stacked));
  ++m_analyses;
  m_key = pattern_key(p);
}

bool WorkingSetFactorization::factorize(const QpProblem& p, double epsilon,
                                        const std::vector<char>& working,
                                        const Eigen::VectorXd& compliance) {
  if (!same_pattern(p))
    rebuild_pattern(p);
  m_problem = &p;
  m_working = working;
  const int m_e = p.num_equalities();
  const int m = m_e + p.num_inequalities() + p.num_pinned();
  double* values = m_kkt.valuePtr();
  m_hessian.write(p, values);
  for (int r = 0; r < m_e; ++r)
    values[m_row_diagonal_slot[r]] = -epsilon;
  for (int b = 0; b < m - m_e; ++b)
    values[m_row_diagonal_slot[m_e + b]] = working[b] ? -compliance[b] : -1.0;
  std::size_t q = 0;
  int b = -m_e;  // the contact block's row number (negative: an equality row)
  for (int block = 0; block < 3; ++block) {
    const SparseRowMatrix& a = rows_block(p, block);
    const double sign = block == 0 ? 1.0 : -1.0;
    for (int r = 0; r < block_rows(p, block); ++r, ++b) {
      const bool coupled = b < 0 || working[b];
      for (SparseRowMatrix::InnerIterator it(a, r); it; ++it, ++q)
        values[m_row_slot[q]] = coupled ? sign * it.value() : 0.0;
    }
  }
  if (!m_ldlt.factorize(m_kkt))
    return false;
  m_convex = m_ldlt.num_negative_pivots() == m;
  return true;
}

void WorkingSetFactorization::multiply(const Eigen::VectorXd& z, const std::vector<char>& working,
                                       const Eigen::VectorXd& compliance, double equality_diagonal,
                                       Eigen::VectorXd* product) const {
  const QpProblem& p = *m_problem;
  const int n = p.num_variables(), m_e = p.num_equalities(), m_i = p.num_inequalities();
  const int m = m_e + m_i + p.num_pinned();
  product->resize(n + m);
  auto top = product->head(n);
  top = p.mass.cwiseProduct(z.head(n));
  if (p.has_curvature())
    top.noalias() += p.curvature.selfadjointView<Eigen::Lower>() * z.head(n);
  if (m_e > 0) {
    top.noalias() += p.equality_jacobian.transpose() * z.segment(n, m_e);
    product->segment(n, m_e).noalias() = p.equality_jacobian * z.head(n);
    product->segment(n, m_e) -= equality_diagonal * z.segment(n, m_e);
  }
  for (int b = 0; b < m - m_e; ++b) {
    const int at = n + m_e + b;
    if (!working[b]) {
      (*product)[at] = -z[at];
      continue;
    }
    const SparseRowMatrix& a = b < m_i ? p.inequality_jacobian : p.pinned_jacobian;
    const int r = b < m_i ? b : b - m_i;
    double row_times_x = 0.0;
    for (SparseRowMatrix::InnerIterator it(a, r); it; ++it) {
      row_times_x += it.value() * z[it.col()];
      top[it.col()] -= it.value() * z[at];
    }
    (*product)[at] = -row_times_x - compliance[b] * z[at];
  }
}

}  // namespace clothfit::qp
