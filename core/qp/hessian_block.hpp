// The pieces of a QP's sparse saddle-point matrix [D + K, Aᵀ; A, −C] (lower triangle, compressed
// columns) that SaddlePointFactorization and WorkingSetFactorization share: the (1,1) block
// D + K, the position of an entry (and of the constraint rows' entries) in the value array, and
// the equality rows' regularisation ε.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

#include "core/qp/qp_problem.hpp"

namespace clothfit::qp {

// ε = relative × mean(diag A_E D⁻¹ A_Eᵀ), the mean taken as 1 without equality rows.
double equality_regularization(const QpProblem& problem, double relative);

// The index of entry (row, col), which must be in the pattern, in m's value array.
int value_slot(const Eigen::SparseMatrix<double>& m, int row, int col);

// Where the constraint rows' entries of a saddle-point matrix (position columns 0 … n − 1, n =
// problem.num_variables(), then `rows` constraint rows, the equality rows first) are in its value
// array: the rows' (2,2) diagonal entries into `diagonal`, and A_E's entries, row by row, into
// `equality`.
void locate_row_slots(const Eigen::SparseMatrix<double>& matrix, const QpProblem& problem, int rows,
                      std::vector<int>* diagonal, std::vector<int>* equality);

class HessianBlock {
 public:
  // Appends the block's pattern (the n diagonal entries and K's entries below it) to `triplets`.
  static void add_pattern(const QpProblem& problem, std::vector<Eigen::Triplet<double>>* triplets);
  // Where the block's entries are in `matrix`, compressed from a pattern that has them.
  void locate(const Eigen::SparseMatrix<double>& matrix, const QpProblem& problem);
  // Writes every entry of D + K into `values` (the matrix's value array): no zeroing first.
  void write(const QpProblem& problem, double* values) const;

 private:
  std::vector<int> m_diagonal_slot, m_curvature_slot;  // −1: K's entries above the diagonal
  std::vector<char> m_on_diagonal;                     // per K value: it lies on the diagonal
};

}  // namespace clothfit::qp
