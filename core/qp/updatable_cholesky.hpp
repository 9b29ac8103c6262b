// UpdatableCholesky: S = L Lᵀ for a small dense symmetric positive definite matrix whose rows and
// columns come and go one at a time (the contact block of the active-set solver). Appending a
// row costs O(k²), removing one O(k²) (Givens rotations); nothing is refactored from scratch.
#pragma once

#include <Eigen/Core>

namespace clothfit::qp {

class UpdatableCholesky {
 public:
  int size() const { return m_size; }
  void clear() { m_size = 0; }

  // Appends the row/column (s, d): s (size()) are the new off-diagonal entries, d the new diagonal
  // entry. `l` receives L⁻¹ s. Returns false, leaving the factor unchanged, when the new pivot²
  // d − ‖l‖² is ≤ min_pivot_squared (the row depends linearly on the existing ones).
  bool append(const Eigen::VectorXd& s, double d, double min_pivot_squared, Eigen::VectorXd* l);

  // Removes row and column `index` (0 ≤ index < size()).
  void remove(int index);

  // Solves S x = b (both size()).
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd* x) const;
  // Solves Lᵀ x = y (both size()).
  void solve_transposed(const Eigen::VectorXd& y, Eigen::VectorXd* x) const;

  // The factor's leading size() × size() block (for tests).
  Eigen::MatrixXd factor() const { return m_l.topLeftCorner(m_size, m_size); }

 private:
  // y ← L⁻¹ y (size() entries).
  void forward_substitute(double* y) const;

  Eigen::MatrixXd m_l;  // capacity × capacity, lower triangle of the leading block is L
  int m_size = 0;
};

}  // namespace clothfit::qp
