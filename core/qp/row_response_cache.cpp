#include "core/qp/row_response_cache.hpp"

#include <bit>
#include <cstdint>

namespace clothfit::qp {

void RowResponseCache::clear() {
  m_used = 0;
  m_doubles = 0;
  m_index.clear();
}

std::size_t RowResponseCache::hash_of(const SparseRowMatrix& matrix, int row) {
  // FNV-1a over the column indices and the values' bit patterns.
  std::uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](std::uint64_t x) {
    h ^= x;
    h *= 1099511628211ull;
  };
  for (SparseRowMatrix::InnerIterator it(matrix, row); it; ++it) {
    mix(static_cast<std::uint64_t>(it.col()));
    mix(std::bit_cast<std::uint64_t>(it.value()));
  }
  return static_cast<std::size_t>(h);
}

bool RowResponseCache::same_row(const Entry& entry, const SparseRowMatrix& matrix, int row) {
  std::size_t p = 0;
  for (SparseRowMatrix::InnerIterator it(matrix, row); it; ++it, ++p) {
    if (p == entry.columns.size() || entry.columns[p] != it.col() ||
        std::bit_cast<std::uint64_t>(entry.values[p]) != std::bit_cast<std::uint64_t>(it.value()))
      return false;
  }
  return p == entry.columns.size();
}

const RowResponseCache::Response* RowResponseCache::find(const SparseRowMatrix& matrix,
                                                         int row) const {
  const auto [first, last] = m_index.equal_range(hash_of(matrix, row));
  for (auto it = first; it != last; ++it) {
    const Entry& entry = m_entries[it->second];
    if (same_row(entry, matrix, row))
      return &entry.response;
  }
  return nullptr;
}

void RowResponseCache::insert(const SparseRowMatrix& matrix, int row,
                              const Eigen::Ref<const Eigen::VectorXd>& u,
                              const Eigen::Ref<const Eigen::VectorXd>& w) {
  const std::size_t h = hash_of(matrix, row);
  const auto [first, last] = m_index.equal_range(h);
  for (auto it = first; it != last; ++it) {
    Entry& entry = m_entries[it->second];
    if (same_row(entry, matrix, row)) {
      entry.response.u = u;
      entry.response.w = w;
      return;
    }
  }
  const long values = static_cast<long>(u.size() + w.size());
  if (m_used >= kMaxEntries || m_doubles + values > kMaxDoubles)
    clear();
  if (m_used == static_cast<int>(m_entries.size()))
    m_entries.emplace_back();
  Entry& entry = m_entries[m_used];
  entry.columns.clear();
  entry.values.clear();
  for (SparseRowMatrix::InnerIterator it(matrix, row); it; ++it) {
    entry.columns.push_back(static_cast<int>(it.col()));
    entry.values.push_back(it.value());
  }
  entry.response.u = u;
  entry.response.w = w;
  m_doubles += values;
  m_index.emplace(h, m_used++);
}

}  // namespace clothfit::qp
