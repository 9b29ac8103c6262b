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

// Row r of `a`'s columns widened to whole nodes (three coordinates each, when n is a multiple
// of 3, as the simulator's x = Δφ is): a contact or friction row whose normal or tangent has a
// zero coordinate has the same pattern as one that has none, so that the symbolic analysis does
// not change with the rows' directions.
void node_columns(const SparseRowMatrix& a, int r, std::vector<int>* columns) {
  columns->clear();
  const int width = a.cols() % 3 == 0 ? 3 : 1;
  for (SparseRowMatrix::InnerIterator it(a, r); it; ++it) {
    const int first = static_cast<int>(it.col()) / width * width;
    if (!columns->empty() && columns->back() >= first)
      continue;  // the node of the entry before (a row's columns are ascending)
    for (int c = first; c < first + width; ++c)
      columns->push_back(c);
  }
}

// Sizes and index arrays of K and A_E, then the node columns of each row of A_I and A_P.
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
  append(p.equality_jacobian);
  std::vector<int> columns;
  for (int block = 1; block < 3; ++block) {
    const SparseRowMatrix& a = rows_block(p, block);
    for (int r = 0; r < block_rows(p, block); ++r) {
      node_columns(a, r, &columns);
      key.push_back(static_cast<int>(columns.size()));
      key.insert(key.end(), columns.begin(), columns.end());
    }
  }
  return key;
}

}  // namespace

bool WorkingSetFactorization::same_pattern(const QpProblem& p) const {
  return !m_key.empty() && m_key == pattern_key(p);
}

void WorkingSetFactorization::rebuild_pattern(const QpProblem& p) {
  const int n = p.num_variables(), m_e = p.num_equalities();
  const int m = m_e + p.num_inequalities() + p.num_pinned();
  std::vector<Eigen::Triplet<double>> triplets;
  HessianBlock::add_pattern(p, &triplets);
  for (int r = 0; r < m; ++r)
    triplets.emplace_back(n + r, n + r, 1.0);
  std::vector<Eigen::Triplet<double>> stacked_entries;
  const auto add_entry = [&](int row, int col) {
    triplets.emplace_back(n + row, col, 1.0);
    stacked_entries.emplace_back(row, col, 1.0);
  };
  for (int r = 0; r < m_e; ++r) {
    for (SparseRowMatrix::InnerIterator it(p.equality_jacobian, r); it; ++it)
      add_entry(r, static_cast<int>(it.col()));
  }
  m_contact_offset.assign(1, 0);
  m_contact_columns.clear();
  std::vector<int> columns;
  for (int block = 1; block < 3; ++block) {
    const SparseRowMatrix& a = rows_block(p, block);
    for (int r = 0; r < block_rows(p, block); ++r) {
      node_columns(a, r, &columns);
      const int row = m_e + static_cast<int>(m_contact_offset.size()) - 1;
      for (int c : columns)
        add_entry(row, c);
      m_contact_columns.insert(m_contact_columns.end(), columns.begin(), columns.end());
      m_contact_offset.push_back(static_cast<int>(m_contact_columns.size()));
    }
  }
  m_kkt.resize(n + m, n + m);
  m_kkt.setFromTriplets(triplets.begin(), triplets.end());
  m_kkt.makeCompressed();
  m_hessian.locate(m_kkt, p);
  locate_row_slots(m_kkt, p, m, &m_row_diagonal_slot, &m_equality_slot);
  m_contact_slot.resize(m_contact_columns.size());
  for (int b = 0; b + 1 < static_cast<int>(m_contact_offset.size()); ++b) {
    for (int q = m_contact_offset[b]; q < m_contact_offset[b + 1]; ++q)
      m_contact_slot[q] = value_slot(m_kkt, n + m_e + b, m_contact_columns[q]);
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
  const double* a = p.equality_jacobian.valuePtr();
  for (std::size_t q = 0; q < m_equality_slot.size(); ++q)
    values[m_equality_slot[q]] = a[q];
  const int m_i = p.num_inequalities();
  for (int b = 0; b < m - m_e; ++b) {
    const int first = m_contact_offset[b], last = m_contact_offset[b + 1];
    for (int q = first; q < last; ++q)
      values[m_contact_slot[q]] = 0.0;
    if (!working[b])
      continue;
    const SparseRowMatrix& g = b < m_i ? p.inequality_jacobian : p.pinned_jacobian;
    int q = first;
    for (SparseRowMatrix::InnerIterator it(g, b < m_i ? b : b - m_i); it; ++it) {
      while (m_contact_columns[q] != it.col())
        ++q;
      values[m_contact_slot[q]] = -it.value();
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
