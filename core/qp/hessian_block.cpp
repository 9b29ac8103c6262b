#include "core/qp/hessian_block.hpp"

#include <algorithm>

namespace clothfit::qp {

double equality_regularization(const QpProblem& p, double relative) {
  const int m = p.num_equalities();
  double mean_delassus = 0.0;
  for (int r = 0; r < m; ++r) {
    for (SparseRowMatrix::InnerIterator it(p.equality_jacobian, r); it; ++it) {
      mean_delassus += it.value() * it.value() / p.mass[it.col()];
    }
  }
  mean_delassus = m > 0 ? mean_delassus / m : 1.0;
  return relative * std::max(mean_delassus, 1e-300);
}

int value_slot(const Eigen::SparseMatrix<double>& m, int row, int col) {
  const int* first = m.innerIndexPtr() + m.outerIndexPtr()[col];
  const int* last = m.innerIndexPtr() + m.outerIndexPtr()[col + 1];
  return static_cast<int>(std::lower_bound(first, last, row) - m.innerIndexPtr());
}

void locate_row_slots(const Eigen::SparseMatrix<double>& matrix, const QpProblem& problem, int rows,
                      std::vector<int>* diagonal, std::vector<int>* equality) {
  const int n = problem.num_variables();
  diagonal->resize(rows);
  for (int r = 0; r < rows; ++r)
    (*diagonal)[r] = value_slot(matrix, n + r, n + r);
  equality->clear();
  for (int r = 0; r < problem.num_equalities(); ++r) {
    for (SparseRowMatrix::InnerIterator it(problem.equality_jacobian, r); it; ++it)
      equality->push_back(value_slot(matrix, n + r, static_cast<int>(it.col())));
  }
}

void HessianBlock::add_pattern(const QpProblem& p, std::vector<Eigen::Triplet<double>>* triplets) {
  for (int i = 0; i < p.num_variables(); ++i)
    triplets->emplace_back(i, i, 1.0);
  for (int c = 0; c < p.curvature.outerSize(); ++c) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(p.curvature, c); it; ++it) {
      if (it.row() > c)
        triplets->emplace_back(static_cast<int>(it.row()), c, 1.0);
    }
  }
}

void HessianBlock::locate(const Eigen::SparseMatrix<double>& matrix, const QpProblem& p) {
  m_diagonal_slot.resize(p.num_variables());
  for (int i = 0; i < p.num_variables(); ++i)
    m_diagonal_slot[i] = value_slot(matrix, i, i);
  m_curvature_slot.clear();
  m_on_diagonal.clear();
  for (int c = 0; c < p.curvature.outerSize(); ++c) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(p.curvature, c); it; ++it) {
      m_curvature_slot.push_back(it.row() >= c ? value_slot(matrix, static_cast<int>(it.row()), c)
                                               : -1);
      m_on_diagonal.push_back(it.row() == c ? 1 : 0);
    }
  }
}

void HessianBlock::write(const QpProblem& p, double* values) const {
  for (int i = 0; i < p.num_variables(); ++i)
    values[m_diagonal_slot[i]] = p.mass[i];
  const double* k = p.curvature.valuePtr();
  for (std::size_t q = 0; q < m_curvature_slot.size(); ++q) {
    if (m_curvature_slot[q] < 0)
      continue;
    if (m_on_diagonal[q])
      values[m_curvature_slot[q]] += k[q];
    else
      values[m_curvature_slot[q]] = k[q];
  }
}

}  // namespace clothfit::qp
