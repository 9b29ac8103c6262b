// SupernodalLdlt: a multifrontal supernodal LDLᵀ factorisation, without pivoting, of a sparse
// symmetric matrix whose every leading principal minor (in the chosen ordering) is nonsingular —
// e.g. a quasi-definite matrix [H, Aᵀ; A, −εI] with H ≻ 0, ε > 0, which has such a factorisation
// in every symmetric ordering (Vanderbei 1995).
//
// analyze() computes, once per sparsity pattern, a fill-reducing ordering (AMD on the symmetric
// pattern, then an elimination-tree postorder), the supernodes (runs of columns of L with nested
// structure, relaxed by amalgamation so that small supernodes are merged with their parent when
// that adds few explicit zeros), and the index maps that scatter the matrix entries into the
// frontal matrices and extend-add each child's update matrix into its parent's front (by runs of
// consecutive positions). factorize() then only moves values: per supernode, assemble the dense
// front (its pivot columns in place in L's storage, the rest F₂₂ apart), factor its k pivot
// columns (left-looking, up to four columns per pass over a column, cloned for AVX2) and form the
// update matrix F₂₂ − L₂₁ D₁ L₂₁ᵀ (8 × 4 blocks summed in registers, cloned for AVX2) straight
// into the stack where the parent reads it. It allocates nothing.
// solve_in_place() runs the two triangular sweeps supernode by supernode, without allocation for
// one right-hand side; for many (a row-major matrix) every step of the sweeps is a combination of
// whole rows (the column kernel again), and the work space is resized when the number of columns
// changes. The forward sweep skips supernodes whose right-hand-side rows are all still zero (a
// contact row's right-hand side is nonzero at one node only, and stays zero off that node's
// elimination-tree path): they would subtract only zeros. The ordering, the amalgamation and the
// kernels change the rounding, not the algorithm: the tests compare with a dense solve and with
// Eigen's SimplicialLDLT, which this replaced.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

namespace clothfit::qp {

struct SupernodalLdltOptions {
  // Amalgamation: a child supernode is merged into its parent when the merged supernode has at
  // most `max_merged_columns` columns and either the child has at most `always_merge_columns`
  // columns or the explicit zeros added stay below `max_zero_fraction` of the merged block.
  int max_merged_columns = 64;
  int always_merge_columns = 4;
  double max_zero_fraction = 0.1;
};

class SupernodalLdlt {
 public:
  explicit SupernodalLdlt(const SupernodalLdltOptions& options = {}) : m_options(options) {}

  // `lower`: the (N × N) lower triangle, diagonal included and every diagonal entry present, of a
  // symmetric matrix in compressed column storage. Only its pattern is read. `ordering`, when not
  // empty, is a fill-reducing ordering to use instead of AMD (ordering[new] = old, size N).
  void analyze(const Eigen::SparseMatrix<double>& lower, const std::vector<int>& ordering = {});

  // Factors a matrix with the pattern given to analyze() (same index arrays). Returns false, and
  // leaves the factor unusable, when a pivot is zero or not finite.
  bool factorize(const Eigen::SparseMatrix<double>& lower);

  // Row-major right-hand sides: solving many at once passes over the factor once.
  using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  // b (N) ← A⁻¹ b with the last successful factorisation.
  void solve_in_place(Eigen::VectorXd* b) const;
  // B (N × m) ← A⁻¹ B, all columns in one pass over the factor.
  void solve_in_place(RowMajorMatrix* b) const;

  int size() const { return m_size; }
  // Entries of L (below and on the diagonal, explicit zeros of amalgamation included).
  long factor_nonzeros() const { return static_cast<long>(m_factor.size()); }
  int num_supernodes() const { return static_cast<int>(m_first_column.size()) - 1; }
  int num_negative_pivots() const;
  // Multiply–adds of one factorize(): the pivot columns and the update matrices.
  double factor_multiply_adds() const;
  // D (N) in the factorisation's ordering.
  const Eigen::VectorXd& pivots() const { return m_d; }

 private:
  // Supernode s as the sweeps see it: its columns first … first + k − 1, the r rows below them,
  // and its block of L ((k + r) × k, column-major).
  struct Block {
    int first, k, r;
    const double* l;
    const int* rows;
  };
  Block block(int s) const {
    const int first = m_first_column[s];
    return {first, m_first_column[s + 1] - first, m_row_offset[s + 1] - m_row_offset[s],
            m_factor.data() + m_factor_offset[s], m_rows.data() + m_row_offset[s]};
  }
  // The two triangular sweeps and the pivots on w, already permuted (gather: at least as many
  // rows as the largest supernode has below its columns).
  void solve_permuted(Eigen::VectorXd* w, Eigen::VectorXd* gather) const;
  // The same for many right-hand sides, one row per unknown.
  void solve_permuted_rows(RowMajorMatrix* w, RowMajorMatrix* gather) const;

  SupernodalLdltOptions m_options;
  int m_size = 0;
  long m_input_nonzeros = 0;
  std::vector<int> m_old_of_new;  // (N) ordering: position → original index
  // Supernode s owns the columns m_first_column[s] … m_first_column[s+1]−1 (in the new ordering);
  // its front is those columns followed by the rows m_rows[m_row_offset[s] … m_row_offset[s+1]).
  std::vector<int> m_first_column;
  std::vector<int> m_row_offset, m_rows;
  std::vector<long> m_factor_offset;  // L block of s: column-major (front size × columns)
  std::vector<int> m_child_offset, m_children;  // children of s, in the order they were pushed
  std::vector<int> m_relative;      // laid out like m_rows: front positions in the parent's front
  std::vector<int> m_relative_run;  // laid out like m_rows: length of the run of consecutive
                                    // positions m_relative[p], m_relative[p] + 1, … from p on
  // Assembly: input value index m_entry_value[e] adds into the front of its supernode at
  // m_entry_position[e] (column-major, leading dimension = front size); entries grouped per
  // supernode by m_entry_offset.
  std::vector<int> m_entry_offset, m_entry_value, m_entry_position;
  long m_max_front = 0;  // max r² over the supernodes: the largest F₂₂, doubles
  long m_stack_size = 0;
  std::vector<double> m_factor;        // all L blocks
  Eigen::VectorXd m_d;                 // (N) pivots
  std::vector<double> m_front;         // F₂₂ of the front being factored (its pivot columns
                                       // are assembled in place in m_factor)
  std::vector<double> m_stack;         // update matrices of supernodes waiting for their parent
  std::vector<double> m_coefficients;  // (max supernode columns) scratch of a factorisation
  mutable Eigen::VectorXd m_work;      // (N) permuted right-hand side
  mutable Eigen::VectorXd m_gather;    // rows of one supernode
  mutable RowMajorMatrix m_work_columns, m_gather_columns;  // the same for many right-hand sides
  mutable std::vector<double> m_solve_coefficients;         // (max supernode columns)
};

}  // namespace clothfit::qp
