// RowResponseCache: the KKT responses (u, w) = K_E⁻¹ (gᵀ, 0) of constraint rows g, kept while the
// factorisation K_E of the equality block they were solved with is unchanged.
//
// The active-set solver needs one response per row entering its working set. On a sheet lying on
// a table most entries are rows that were in the working set before: a contact row leaves with a
// negative multiplier and enters again a few changes later (measured on the bundled tablecloth
// recordings: 4.6 of the 4.9 rows entering per QP had been in the working set of the same QP),
// and while the stepper reuses its factorisation (modified Newton) the next QP starts from the same
// contact and friction rows. Entries are keyed by the row's exact content (columns and values), so
// a row that changed, or the same row number holding another row in a later QP, is a miss; a hit
// returns exactly what a new solve of that row would give with the same kernel.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <unordered_map>
#include <vector>

#include "core/qp/qp_problem.hpp"

namespace clothfit::qp {

class RowResponseCache {
 public:
  struct Response {
    Eigen::VectorXd u;  // (n) x part
    Eigen::VectorXd w;  // (m_E) y part
  };

  // Forgets every entry (the factorisation changed).
  void clear();
  // The response to row `row` of `matrix`, or null when it is not cached.
  const Response* find(const SparseRowMatrix& matrix, int row) const;
  // Stores the response to row `row` of `matrix` (replacing the entry of an equal row). When the
  // cache holds kMaxEntries rows, or the new response would take its responses past
  // kMaxDoubles values, it is cleared first: a 7 × 9 sheet's response has ~320 values, a 49 × 65
  // sheet's ~19,000, so large meshes keep fewer rows rather than more memory (32 MB at most).
  void insert(const SparseRowMatrix& matrix, int row, const Eigen::Ref<const Eigen::VectorXd>& u,
              const Eigen::Ref<const Eigen::VectorXd>& w);
  int size() const { return m_used; }

  static constexpr int kMaxEntries = 1024;
  static constexpr long kMaxDoubles = 1L << 22;

 private:
  struct Entry {
    std::vector<int> columns;
    std::vector<double> values;
    Response response;
  };
  static std::size_t hash_of(const SparseRowMatrix& matrix, int row);
  static bool same_row(const Entry& entry, const SparseRowMatrix& matrix, int row);

  std::vector<Entry> m_entries;  // the first m_used hold rows; the rest keep their storage
  int m_used = 0;
  long m_doubles = 0;                                 // values held by the first m_used responses
  std::unordered_multimap<std::size_t, int> m_index;  // row hash → entry
};

}  // namespace clothfit::qp
