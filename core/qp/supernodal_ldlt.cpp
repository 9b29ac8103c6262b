#include "core/qp/supernodal_ldlt.hpp"

#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

namespace clothfit::qp {

namespace {

using ConstColumnMatrix = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

// Elimination tree of the symmetric matrix whose strictly upper pattern is given by columns
// (upper_start, upper_row: rows i < k of column k). Liu's algorithm with path compression.
std::vector<int> elimination_tree(int n, const std::vector<int>& upper_start,
                                  const std::vector<int>& upper_row) {
  std::vector<int> parent(n, -1), ancestor(n, -1);
  for (int k = 0; k < n; ++k) {
    for (int p = upper_start[k]; p < upper_start[k + 1]; ++p) {
      int i = upper_row[p];
      while (i != -1 && i < k) {
        const int next = ancestor[i];
        ancestor[i] = k;
        if (next == -1)
          parent[i] = k;
        i = next;
      }
    }
  }
  return parent;
}

// post[k] = position of node k in a depth-first postorder of the forest (children in increasing
// order).
std::vector<int> postorder(const std::vector<int>& parent) {
  const int n = static_cast<int>(parent.size());
  std::vector<int> head(n, -1), next(n, -1), post(n, -1), stack;
  for (int k = n - 1; k >= 0; --k) {
    if (parent[k] >= 0) {
      next[k] = head[parent[k]];
      head[parent[k]] = k;
    }
  }
  int order = 0;
  stack.reserve(n);
  for (int root = 0; root < n; ++root) {
    if (parent[root] != -1)
      continue;
    stack.push_back(root);
    while (!stack.empty()) {
      const int top = stack.back();
      const int child = head[top];
      if (child == -1) {
        stack.pop_back();
        post[top] = order++;
      } else {
        head[top] = next[child];
        stack.push_back(child);
      }
    }
  }
  return post;
}

// c[i] −= Σ_{t<k} l[t·ldl + i] a[t] for begin ≤ i < end, up to four columns of l per pass over c,
// so that each load and store of c carries up to four multiply–adds. Cloned for AVX2 (four doubles
// per vector instead of SSE2's two; the arithmetic per element, hence the result, is the same) and
// picked at load time, so the build still runs on any x86-64.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void column_update(int begin, int end, int k, const double* l, long ldl, const double* a,
                   double* c) {
  int t = 0;
  for (; t + 4 <= k; t += 4) {
    const double* l0 = l + t * ldl;
    const double* l1 = l0 + ldl;
    const double* l2 = l1 + ldl;
    const double* l3 = l2 + ldl;
    const double a0 = a[t], a1 = a[t + 1], a2 = a[t + 2], a3 = a[t + 3];
    for (int i = begin; i < end; ++i)
      c[i] -= l0[i] * a0 + l1[i] * a1 + l2[i] * a2 + l3[i] * a3;
  }
  const double* l0 = l + t * ldl;
  const double* l1 = l0 + ldl;
  const double* l2 = l1 + ldl;
  switch (k - t) {
    case 3: {
      const double a0 = a[t], a1 = a[t + 1], a2 = a[t + 2];
      for (int i = begin; i < end; ++i)
        c[i] -= l0[i] * a0 + l1[i] * a1 + l2[i] * a2;
      break;
    }
    case 2: {
      const double a0 = a[t], a1 = a[t + 1];
      for (int i = begin; i < end; ++i)
        c[i] -= l0[i] * a0 + l1[i] * a1;
      break;
    }
    case 1: {
      const double a0 = a[t];
      for (int i = begin; i < end; ++i)
        c[i] -= l0[i] * a0;
      break;
    }
    default:
      break;
  }
}

// Four rows at once: c_q[i] −= Σ_{t<k} a_q[t·stride] s[t·lds + i] for q < 4 and 0 ≤ i < m, with
// the same groups of up to four terms per subtraction as column_update, so every c_q gets exactly
// the bits four column_update calls would give it. Each pass over the four source rows of a group
// updates four destination rows: a quarter of column_update's loads of the sources per
// multiply–add, which is what limits the many-right-hand-side sweeps (m of 20–200). The
// destinations must not overlap the sources or each other.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void four_row_update(int m, int k, const double* __restrict s, long lds,
                     const double* const* a, long stride, double* const* c) {
  double* __restrict c0 = c[0];
  double* __restrict c1 = c[1];
  double* __restrict c2 = c[2];
  double* __restrict c3 = c[3];
  const double* a0 = a[0];
  const double* a1 = a[1];
  const double* a2 = a[2];
  const double* a3 = a[3];
  int t = 0;
  for (; t + 4 <= k; t += 4) {
    const double* __restrict s0 = s + t * lds;
    const double* __restrict s1 = s0 + lds;
    const double* __restrict s2 = s1 + lds;
    const double* __restrict s3 = s2 + lds;
    const long p = t * stride;
    const double b00 = a0[p], b01 = a0[p + stride], b02 = a0[p + 2 * stride],
                 b03 = a0[p + 3 * stride];
    const double b10 = a1[p], b11 = a1[p + stride], b12 = a1[p + 2 * stride],
                 b13 = a1[p + 3 * stride];
    const double b20 = a2[p], b21 = a2[p + stride], b22 = a2[p + 2 * stride],
                 b23 = a2[p + 3 * stride];
    const double b30 = a3[p], b31 = a3[p + stride], b32 = a3[p + 2 * stride],
                 b33 = a3[p + 3 * stride];
    for (int i = 0; i < m; ++i) {
      const double x0 = s0[i], x1 = s1[i], x2 = s2[i], x3 = s3[i];
      c0[i] -= x0 * b00 + x1 * b01 + x2 * b02 + x3 * b03;
      c1[i] -= x0 * b10 + x1 * b11 + x2 * b12 + x3 * b13;
      c2[i] -= x0 * b20 + x1 * b21 + x2 * b22 + x3 * b23;
      c3[i] -= x0 * b30 + x1 * b31 + x2 * b32 + x3 * b33;
    }
  }
  const double* __restrict s0 = s + t * lds;
  const double* __restrict s1 = s0 + lds;
  const double* __restrict s2 = s1 + lds;
  const long p = t * stride;
  switch (k - t) {
    case 3: {
      const double b00 = a0[p], b01 = a0[p + stride], b02 = a0[p + 2 * stride];
      const double b10 = a1[p], b11 = a1[p + stride], b12 = a1[p + 2 * stride];
      const double b20 = a2[p], b21 = a2[p + stride], b22 = a2[p + 2 * stride];
      const double b30 = a3[p], b31 = a3[p + stride], b32 = a3[p + 2 * stride];
      for (int i = 0; i < m; ++i) {
        const double x0 = s0[i], x1 = s1[i], x2 = s2[i];
        c0[i] -= x0 * b00 + x1 * b01 + x2 * b02;
        c1[i] -= x0 * b10 + x1 * b11 + x2 * b12;
        c2[i] -= x0 * b20 + x1 * b21 + x2 * b22;
        c3[i] -= x0 * b30 + x1 * b31 + x2 * b32;
      }
      break;
    }
    case 2: {
      const double b00 = a0[p], b01 = a0[p + stride];
      const double b10 = a1[p], b11 = a1[p + stride];
      const double b20 = a2[p], b21 = a2[p + stride];
      const double b30 = a3[p], b31 = a3[p + stride];
      for (int i = 0; i < m; ++i) {
        const double x0 = s0[i], x1 = s1[i];
        c0[i] -= x0 * b00 + x1 * b01;
        c1[i] -= x0 * b10 + x1 * b11;
        c2[i] -= x0 * b20 + x1 * b21;
        c3[i] -= x0 * b30 + x1 * b31;
      }
      break;
    }
    case 1: {
      const double b00 = a0[p], b10 = a1[p], b20 = a2[p], b30 = a3[p];
      for (int i = 0; i < m; ++i) {
        const double x0 = s0[i];
        c0[i] -= x0 * b00;
        c1[i] -= x0 * b10;
        c2[i] -= x0 * b20;
        c3[i] -= x0 * b30;
      }
      break;
    }
    default:
      break;
  }
}

// Four doubles (GCC/Clang vector extension): one AVX register in the AVX2 clone, two SSE2
// registers in the default one.
typedef double Double4 __attribute__((vector_size(32)));

// (By pointer, not returned: a returned vector would differ in ABI between the clones.)
__attribute__((always_inline)) inline void load4(Double4* v, const double* p) {
  std::memcpy(v, p, sizeof *v);
}

__attribute__((always_inline)) inline void store4(double* p, const Double4& v) {
  std::memcpy(p, &v, sizeof v);
}

// out[i + j·ldo] = c[i + j·ldc] − Σ_{t<k} l[i + t·ldl] · w[j + t·ldw] for 0 ≤ j ≤ i < r: the
// update matrix F₂₂ − L₂₁ D₁ L₂₁ᵀ of a front (w = L₂₁ D₁), written where the parent will read it.
// The lower triangle of c is swept in blocks of 8 rows × 4 columns held in eight named vector
// registers over all t, like a GEMM micro-kernel: per t two loads of l and four broadcasts of w for
// 32 multiply–adds (an array of accumulators indexed by column went to the stack, and the kernel
// took twice as long). Blocks on the diagonal also write some entries above it, which
// nobody reads. Reads up to 7 rows past r in l and c, up to 7 entries past the end of their last
// columns: the caller pads the arrays they live in. Cloned for AVX2 like column_update (no fused
// multiply–add, so both clones give the same bits).
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("avx2", "default")))
#endif
void lower_rank_update(int r, int k, const double* l, long ldl, const double* w, long ldw,
                       const double* c, long ldc, double* out, long ldo) {
  for (int j0 = 0; j0 < r; j0 += 4) {
    // Columns past r repeat the last one (computed and stored again).
    const int last = std::min(4, r - j0) - 1;
    const double* w0 = w + j0;
    const double* w1 = w + j0 + std::min(1, last);
    const double* w2 = w + j0 + std::min(2, last);
    const double* w3 = w + j0 + std::min(3, last);
    const double* c0 = c + j0 * ldc;
    const double* c1 = c + (j0 + std::min(1, last)) * ldc;
    const double* c2 = c + (j0 + std::min(2, last)) * ldc;
    const double* c3 = c + (j0 + std::min(3, last)) * ldc;
    double* o0 = out + j0 * ldo;
    double* o1 = out + (j0 + std::min(1, last)) * ldo;
    double* o2 = out + (j0 + std::min(2, last)) * ldo;
    double* o3 = out + (j0 + std::min(3, last)) * ldo;
    for (int i0 = j0; i0 < r; i0 += 8) {
      Double4 lo0, lo1, lo2, lo3, hi0, hi1, hi2, hi3;  // rows i0 … i0 + 3 and i0 + 4 … i0 + 7
      load4(&lo0, c0 + i0);
      load4(&lo1, c1 + i0);
      load4(&lo2, c2 + i0);
      load4(&lo3, c3 + i0);
      load4(&hi0, c0 + i0 + 4);
      load4(&hi1, c1 + i0 + 4);
      load4(&hi2, c2 + i0 + 4);
      load4(&hi3, c3 + i0 + 4);
      const double* lt = l + i0;
      for (long t = 0; t < k; ++t, lt += ldl) {
        const long p = t * ldw;
        Double4 x, y;
        load4(&x, lt);
        load4(&y, lt + 4);
        double a = w0[p];
        lo0 -= x * a;
        hi0 -= y * a;
        a = w1[p];
        lo1 -= x * a;
        hi1 -= y * a;
        a = w2[p];
        lo2 -= x * a;
        hi2 -= y * a;
        a = w3[p];
        lo3 -= x * a;
        hi3 -= y * a;
      }
      if (i0 + 8 <= r) {
        store4(o3 + i0, lo3);
        store4(o3 + i0 + 4, hi3);
        store4(o2 + i0, lo2);
        store4(o2 + i0 + 4, hi2);
        store4(o1 + i0, lo1);
        store4(o1 + i0 + 4, hi1);
        store4(o0 + i0, lo0);
        store4(o0 + i0 + 4, hi0);
      } else {  // rows past r belong to the next column: stored one by one
        const Double4 lo[4] = {lo0, lo1, lo2, lo3}, hi[4] = {hi0, hi1, hi2, hi3};
        double* const oq[4] = {o0, o1, o2, o3};
        for (int q = 0; q <= last; ++q) {
          for (int v = 0; v < r - i0; ++v)
            oq[q][i0 + v] = v < 4 ? lo[q][v] : hi[q][v - 4];
        }
      }
    }
  }
}

}  // namespace

void SupernodalLdlt::analyze(const Eigen::SparseMatrix<double>& lower,
                             const std::vector<int>& ordering) {
  assert(lower.rows() == lower.cols() && lower.isCompressed());
  const int n = static_cast<int>(lower.rows());
  m_size = n;
  m_input_nonzeros = lower.nonZeros();
  const int* outer = lower.outerIndexPtr();
  const int* inner = lower.innerIndexPtr();

  // 1. Fill-reducing ordering.
  std::vector<int> old_of_new(n);
  if (!ordering.empty()) {
    assert(static_cast<int>(ordering.size()) == n);
    old_of_new = ordering;
  } else if (n > 0) {
    const Eigen::SparseMatrix<double> full = lower.selfadjointView<Eigen::Lower>();
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> amd;
    Eigen::AMDOrdering<int>()(full, amd);
    for (int i = 0; i < n; ++i)
      old_of_new[i] = amd.indices()[i];
  }
  std::vector<int> new_of_old(n);
  for (int i = 0; i < n; ++i)
    new_of_old[old_of_new[i]] = i;

  // 2. Strict upper pattern by columns in that ordering, its elimination tree and a postorder.
  const auto upper_pattern = [&](const std::vector<int>& index_of_old, std::vector<int>* start,
                                 std::vector<int>* rows) {
    start->assign(n + 1, 0);
    for (int c = 0; c < n; ++c) {
      for (int p = outer[c]; p < outer[c + 1]; ++p) {
        const int a = index_of_old[inner[p]], b = index_of_old[c];
        if (a != b)
          ++(*start)[std::max(a, b) + 1];
      }
    }
    for (int k = 0; k < n; ++k)
      (*start)[k + 1] += (*start)[k];
    rows->resize((*start)[n]);
    std::vector<int> fill(start->begin(), start->end() - 1);
    for (int c = 0; c < n; ++c) {
      for (int p = outer[c]; p < outer[c + 1]; ++p) {
        const int a = index_of_old[inner[p]], b = index_of_old[c];
        if (a != b)
          (*rows)[fill[std::max(a, b)]++] = std::min(a, b);
      }
    }
  };
  std::vector<int> upper_start, upper_row;
  upper_pattern(new_of_old, &upper_start, &upper_row);
  const std::vector<int> post = postorder(elimination_tree(n, upper_start, upper_row));
  // Final ordering: the postorder of the first one (same fill, contiguous subtrees).
  std::vector<int> final_of_old(n);
  m_old_of_new.resize(n);
  for (int i = 0; i < n; ++i) {
    final_of_old[old_of_new[i]] = post[i];
    m_old_of_new[post[i]] = old_of_new[i];
  }
  upper_pattern(final_of_old, &upper_start, &upper_row);
  const std::vector<int> parent = elimination_tree(n, upper_start, upper_row);

  // 3. Column structures of L (rows below the diagonal): struct(j) = A's column j below j ∪ the
  // structures of j's children, minus j.
  std::vector<int> lower_start(n + 1, 0), lower_row(upper_row.size());
  for (int k = 0; k < n; ++k) {
    for (int p = upper_start[k]; p < upper_start[k + 1]; ++p)
      ++lower_start[upper_row[p] + 1];
  }
  for (int k = 0; k < n; ++k)
    lower_start[k + 1] += lower_start[k];
  {
    std::vector<int> fill(lower_start.begin(), lower_start.end() - 1);
    for (int k = 0; k < n; ++k) {
      for (int p = upper_start[k]; p < upper_start[k + 1]; ++p)
        lower_row[fill[upper_row[p]]++] = k;
    }
  }
  std::vector<int> child_head(n, -1), child_next(n, -1);
  for (int k = n - 1; k >= 0; --k) {
    if (parent[k] >= 0) {
      child_next[k] = child_head[parent[k]];
      child_head[parent[k]] = k;
    }
  }
  std::vector<std::vector<int>> structure(n);
  std::vector<int> mark(n, -1);
  for (int j = 0; j < n; ++j) {
    std::vector<int>& s = structure[j];
    mark[j] = j;
    for (int p = lower_start[j]; p < lower_start[j + 1]; ++p) {
      if (mark[lower_row[p]] != j) {
        mark[lower_row[p]] = j;
        s.push_back(lower_row[p]);
      }
    }
    for (int c = child_head[j]; c != -1; c = child_next[c]) {
      for (int i : structure[c]) {
        if (mark[i] != j) {
          mark[i] = j;
          s.push_back(i);
        }
      }
    }
    std::sort(s.begin(), s.end());
  }

  // 4. Fundamental supernodes (a column joins its predecessor when it is that column's parent and
  // the structures nest), then amalgamation of a supernode with the one just before it when that
  // one's last column has the first column of this one as parent.
  std::vector<int> first{};
  for (int j = 0; j < n; ++j) {
    const bool joins =
        j > 0 && parent[j - 1] == j && structure[j - 1].size() == structure[j].size() + 1;
    if (!joins)
      first.push_back(j);
  }
  first.push_back(n);
  std::vector<int> merged_first;
  std::vector<long> merged_zeros;
  const auto block_entries = [](long k, long r) { return k * (k + 1) / 2 + k * r; };
  for (std::size_t s = 0; s + 1 < first.size(); ++s) {
    const int f = first[s], l = first[s + 1] - 1;
    const long k = l - f + 1, r = static_cast<long>(structure[l].size());
    if (!merged_first.empty()) {
      const int cf = merged_first.back();
      const long ck = f - cf;
      const long cr = static_cast<long>(structure[f - 1].size());
      if (parent[f - 1] == f && ck + k <= m_options.max_merged_columns) {
        const long zeros = merged_zeros.back() + block_entries(ck + k, r) - block_entries(ck, cr) -
                           block_entries(k, r);
        const long total = block_entries(ck + k, r);
        if (ck <= m_options.always_merge_columns ||
            static_cast<double>(zeros) <=
                m_options.max_zero_fraction * static_cast<double>(total)) {
          merged_zeros.back() = zeros;
          continue;  // s joins the previous supernode
        }
      }
    }
    merged_first.push_back(f);
    merged_zeros.push_back(0);
  }
  merged_first.push_back(n);
  m_first_column = merged_first;
  const int num_super = static_cast<int>(m_first_column.size()) - 1;
  std::vector<int> super_of_column(n);
  for (int s = 0; s < num_super; ++s) {
    for (int j = m_first_column[s]; j < m_first_column[s + 1]; ++j)
      super_of_column[j] = s;
  }
  std::vector<int> super_parent(num_super, -1);
  m_row_offset.assign(num_super + 1, 0);
  m_rows.clear();
  for (int s = 0; s < num_super; ++s) {
    const int l = m_first_column[s + 1] - 1;
    super_parent[s] = parent[l] >= 0 ? super_of_column[parent[l]] : -1;
    m_rows.insert(m_rows.end(), structure[l].begin(), structure[l].end());
    m_row_offset[s + 1] = static_cast<int>(m_rows.size());
  }
  structure.clear();
  structure.shrink_to_fit();

  // 5. Children (in push order), storage offsets, stack size.
  m_child_offset.assign(num_super + 1, 0);
  for (int s = 0; s < num_super; ++s) {
    if (super_parent[s] >= 0)
      ++m_child_offset[super_parent[s] + 1];
  }
  for (int s = 0; s < num_super; ++s)
    m_child_offset[s + 1] += m_child_offset[s];
  m_children.resize(m_child_offset[num_super]);
  {
    std::vector<int> fill(m_child_offset.begin(), m_child_offset.end() - 1);
    for (int s = 0; s < num_super; ++s) {
      if (super_parent[s] >= 0)
        m_children[fill[super_parent[s]]++] = s;
    }
  }
  m_factor_offset.assign(num_super + 1, 0);
  m_max_front = 0;
  long max_panel = 0, stack = 0;
  m_stack_size = 0;
  for (int s = 0; s < num_super; ++s) {
    const long k = m_first_column[s + 1] - m_first_column[s];
    const long r = m_row_offset[s + 1] - m_row_offset[s];
    m_factor_offset[s + 1] = m_factor_offset[s] + (k + r) * k;
    m_max_front = std::max(m_max_front, r * r);
    max_panel = std::max(max_panel, r * k);
    for (int c = m_child_offset[s]; c < m_child_offset[s + 1]; ++c) {
      const long rc = m_row_offset[m_children[c] + 1] - m_row_offset[m_children[c]];
      stack -= rc * rc;
    }
    stack += r * r;
    m_stack_size = std::max(m_stack_size, stack);
  }

  // 6. Front positions: extend-add maps of each supernode into its parent, and the assembly of
  // the input entries.
  std::vector<int> front_index(n, -1);
  const auto set_front = [&](int s) {
    const int f = m_first_column[s], k = m_first_column[s + 1] - f;
    for (int j = 0; j < k; ++j)
      front_index[f + j] = j;
    for (int p = m_row_offset[s]; p < m_row_offset[s + 1]; ++p)
      front_index[m_rows[p]] = k + (p - m_row_offset[s]);
  };
  m_relative.assign(m_rows.size(), -1);
  for (int s = 0; s < num_super; ++s) {
    set_front(s);
    for (int c = m_child_offset[s]; c < m_child_offset[s + 1]; ++c) {
      const int child = m_children[c];
      for (int p = m_row_offset[child]; p < m_row_offset[child + 1]; ++p)
        m_relative[p] = front_index[m_rows[p]];
    }
  }
  // Runs of consecutive front positions (a node's coordinates are consecutive in the ordering),
  // counted from the end of each child's rows.
  m_relative_run.assign(m_rows.size(), 1);
  for (int s = 0; s < num_super; ++s) {
    for (int p = m_row_offset[s + 1] - 2; p >= m_row_offset[s]; --p) {
      if (m_relative[p + 1] == m_relative[p] + 1)
        m_relative_run[p] = m_relative_run[p + 1] + 1;
    }
  }
  const int nnz = static_cast<int>(lower.nonZeros());
  std::vector<int> entry_super(nnz), entry_row(nnz), entry_column(nnz);
  m_entry_offset.assign(num_super + 1, 0);
  for (int c = 0; c < n; ++c) {
    for (int p = outer[c]; p < outer[c + 1]; ++p) {
      const int a = final_of_old[inner[p]], b = final_of_old[c];
      entry_row[p] = std::max(a, b);
      entry_column[p] = std::min(a, b);
      entry_super[p] = super_of_column[entry_column[p]];
      ++m_entry_offset[entry_super[p] + 1];
    }
  }
  for (int s = 0; s < num_super; ++s)
    m_entry_offset[s + 1] += m_entry_offset[s];
  m_entry_value.resize(nnz);
  {
    std::vector<int> fill(m_entry_offset.begin(), m_entry_offset.end() - 1);
    for (int p = 0; p < nnz; ++p)
      m_entry_value[fill[entry_super[p]]++] = p;
  }
  m_entry_position.resize(nnz);
  for (int s = 0; s < num_super; ++s) {
    set_front(s);
    const int front =
        m_first_column[s + 1] - m_first_column[s] + m_row_offset[s + 1] - m_row_offset[s];
    for (int e = m_entry_offset[s]; e < m_entry_offset[s + 1]; ++e) {
      const int p = m_entry_value[e];
      assert(front_index[entry_column[p]] < m_first_column[s + 1] - m_first_column[s]);
      m_entry_position[e] = front_index[entry_column[p]] * front + front_index[entry_row[p]];
    }
  }

  // Both are padded for lower_rank_update, which reads up to 7 entries past a last column.
  m_factor.assign(m_factor_offset[num_super] + 8, 0.0);
  m_d.setZero(n);
  m_front.assign(m_max_front + 8, 0.0);
  m_stack.assign(m_stack_size + max_panel, 0.0);  // the tail holds L₂₁ D₁ during a factorisation
  m_work.resize(n);
  long max_rows = 0;
  for (int s = 0; s < num_super; ++s)
    max_rows = std::max<long>(max_rows, m_row_offset[s + 1] - m_row_offset[s]);
  m_gather.resize(max_rows);
  int max_columns = 0;
  for (int s = 0; s < num_super; ++s)
    max_columns = std::max(max_columns, m_first_column[s + 1] - m_first_column[s]);
  m_coefficients.assign(max_columns, 0.0);
  m_solve_coefficients.assign(max_columns, 0.0);
}

bool SupernodalLdlt::factorize(const Eigen::SparseMatrix<double>& lower) {
  assert(lower.rows() == m_size && lower.nonZeros() == m_input_nonzeros);
  const double* values = lower.valuePtr();
  const int num_super = num_supernodes();
  double* f22 = m_front.data();                    // F₂₂ (r × r), leading dimension r
  double* scaled = m_stack.data() + m_stack_size;  // L₂₁ D₁ (r × k)
  long top = 0;  // end of the used part of the update-matrix stack
  for (int s = 0; s < num_super; ++s) {
    const int first = m_first_column[s];
    const int k = m_first_column[s + 1] - first;
    const int r = m_row_offset[s + 1] - m_row_offset[s];
    const int f = k + r;
    // The front: its k pivot columns (f × k) assembled and factored in place in L's block, the
    // rest (F₂₂) apart. The input entries all lie in the pivot columns.
    double* block = m_factor.data() + m_factor_offset[s];
    for (int j = 0; j < k; ++j)
      std::fill(block + static_cast<long>(j) * f + j, block + static_cast<long>(j + 1) * f, 0.0);
    for (int j = 0; j < r; ++j)
      std::fill(f22 + static_cast<long>(j) * r + j, f22 + static_cast<long>(j + 1) * r, 0.0);
    for (int e = m_entry_offset[s]; e < m_entry_offset[s + 1]; ++e)
      block[m_entry_position[e]] += values[m_entry_value[e]];
    // Extend-add the children's update matrices, last pushed first. Front column c is block's
    // column c (c < k, front row i at row i) or F₂₂'s column c − k (front row i at row i − k).
    for (int c = m_child_offset[s + 1] - 1; c >= m_child_offset[s]; --c) {
      const int child = m_children[c];
      const int rc = m_row_offset[child + 1] - m_row_offset[child];
      top -= static_cast<long>(rc) * rc;
      const double* update = m_stack.data() + top;
      const int* relative = m_relative.data() + m_row_offset[child];
      const int* run = m_relative_run.data() + m_row_offset[child];
      for (int j = 0; j < rc; ++j) {
        const long column = relative[j];
        const bool pivot = column < k;
        double* target_column = pivot ? block + column * f : f22 + (column - k) * r;
        const int first_row = pivot ? 0 : k;  // front row of target_column[0]
        const double* source = update + static_cast<long>(j) * rc;
        for (int i = j; i < rc;) {
          double* target = target_column + (relative[i] - first_row);
          const int end = i + run[i];
          for (int t = 0; t < end - i; ++t)
            target[t] += source[i + t];
          i = end;
        }
      }
    }
    // Dense LDLᵀ of the k pivot columns, left-looking: column j is updated by the columns before
    // it, then scaled by its pivot.
    double* coefficients = m_coefficients.data();
    const double* d1 = m_d.data() + first;
    for (int j = 0; j < k; ++j) {
      double* cj = block + static_cast<long>(j) * f;
      for (int t = 0; t < j; ++t)
        coefficients[t] = block[static_cast<long>(t) * f + j] * d1[t];
      column_update(j, f, j, block, f, coefficients, cj);
      const double d = cj[j];
      if (d == 0.0 || !std::isfinite(d))
        return false;
      m_d[first + j] = d;
      const double inverse = 1.0 / d;
      for (int i = j + 1; i < f; ++i)
        cj[i] *= inverse;
    }
    if (r > 0) {
      // Update matrix F₂₂ − L₂₁ D₁ L₂₁ᵀ (lower triangle), pushed for the parent.
      for (int t = 0; t < k; ++t) {
        const double* lt = block + static_cast<long>(t) * f + k;
        for (int i = 0; i < r; ++i)
          scaled[static_cast<long>(t) * r + i] = lt[i] * d1[t];
      }
      lower_rank_update(r, k, block + k, f, scaled, r, f22, r, m_stack.data() + top, r);
      top += static_cast<long>(r) * r;
    }
  }
  return true;
}

void SupernodalLdlt::solve_permuted(Eigen::VectorXd* work, Eigen::VectorXd* gather) const {
  Eigen::VectorXd& w = *work;
  const int num_super = num_supernodes();
  for (int s = 0; s < num_super; ++s) {
    const auto [first, k, r, factor, rows] = block(s);
    const ConstColumnMatrix l(factor, k + r, k, Eigen::OuterStride<>(k + r));
    auto ws = w.middleRows(first, k);
    if ((ws.array() == 0.0).all())
      continue;  // off a sparse right-hand side's paths: nothing to subtract (see below)
    l.topRows(k).template triangularView<Eigen::UnitLower>().solveInPlace(ws);
    if (r > 0) {
      auto g = gather->topRows(r);
      g.noalias() = l.bottomRows(r) * ws;
      for (int i = 0; i < r; ++i)
        w.row(rows[i]) -= g.row(i);
    }
  }
  w.array().colwise() /= m_d.array();
  for (int s = num_super - 1; s >= 0; --s) {
    const auto [first, k, r, factor, rows] = block(s);
    const ConstColumnMatrix l(factor, k + r, k, Eigen::OuterStride<>(k + r));
    auto ws = w.middleRows(first, k);
    if (r > 0) {
      auto g = gather->topRows(r);
      for (int i = 0; i < r; ++i)
        g.row(i) = w.row(rows[i]);
      ws.noalias() -= l.bottomRows(r).transpose() * g;
    }
    l.topRows(k).template triangularView<Eigen::UnitLower>().transpose().solveInPlace(ws);
  }
}

// Many right-hand sides, row-major (one row: the m values of an unknown): every step of both
// sweeps subtracts a combination of rows from a row, which column_update does with the rows as its
// "columns" (contiguous, stride m) — in its AVX2 clone four doubles per instruction, where Eigen's
// blocked products of this portable build use SSE2 and pack their operands first. The supernode's
// rows of W are updated in place: forward, row i of the front below the pivots takes
// −Σ_t L₂₁(i, t) W(t); backward, pivot row t takes −Σ_i L₂₁(i, t) W(i), the rows i gathered first.
void SupernodalLdlt::solve_permuted_rows(RowMajorMatrix* work, RowMajorMatrix* gather) const {
  double* w = work->data();
  const long m = work->cols();
  double* coefficients = m_solve_coefficients.data();
  const int num_super = num_supernodes();
  for (int s = 0; s < num_super; ++s) {
    const auto [first, k, r, l, rows] = block(s);
    const long f = k + r;
    double* ws = w + first * m;
    // Right-hand sides with few nonzeros (a contact or friction row touches one node) leave the
    // supernodes off their elimination-tree paths at exactly zero: those would subtract only
    // zeros, so skipping them changes no value (at most the sign of a zero).
    if (std::all_of(ws, ws + k * m, [](double v) { return v == 0.0; }))
      continue;
    // Pivot rows t0 … t0 + 3 (t0 a multiple of 4) take the rows before t0 together (whole
    // groups of four, as in column_update), then the up to three rows between them one by one.
    int t0 = 0;
    for (; t0 + 4 <= k; t0 += 4) {
      if (t0 > 0) {
        const double* a[4] = {l + t0, l + t0 + 1, l + t0 + 2, l + t0 + 3};
        double* c[4] = {ws + t0 * m, ws + (t0 + 1) * m, ws + (t0 + 2) * m, ws + (t0 + 3) * m};
        four_row_update(static_cast<int>(m), t0, ws, m, a, f, c);
      }
      for (int q = 1; q < 4; ++q) {
        const int t = t0 + q;
        for (int j = t0; j < t; ++j)
          coefficients[j - t0] = l[j * f + t];
        column_update(0, static_cast<int>(m), q, ws + t0 * m, m, coefficients, ws + t * m);
      }
    }
    for (int t = std::max(t0, 1); t < k; ++t) {
      for (int j = 0; j < t; ++j)
        coefficients[j] = l[j * f + t];
      column_update(0, static_cast<int>(m), t, ws, m, coefficients, ws + t * m);
    }
    int i = 0;
    for (; i + 4 <= r; i += 4) {
      const double* a[4] = {l + k + i, l + k + i + 1, l + k + i + 2, l + k + i + 3};
      double* c[4] = {w + rows[i] * m, w + rows[i + 1] * m, w + rows[i + 2] * m,
                      w + rows[i + 3] * m};
      four_row_update(static_cast<int>(m), k, ws, m, a, f, c);
    }
    for (; i < r; ++i) {
      for (int j = 0; j < k; ++j)
        coefficients[j] = l[j * f + k + i];
      column_update(0, static_cast<int>(m), k, ws, m, coefficients, w + rows[i] * m);
    }
  }
  work->array().colwise() /= m_d.array();
  for (int s = num_super - 1; s >= 0; --s) {
    const auto [first, k, r, l, rows] = block(s);
    const long f = k + r;
    double* ws = w + first * m;
    if (r > 0) {
      for (int i = 0; i < r; ++i)
        gather->row(i) = work->row(rows[i]);
      int t = 0;
      for (; t + 4 <= k; t += 4) {
        const double* a[4] = {l + t * f + k, l + (t + 1) * f + k, l + (t + 2) * f + k,
                              l + (t + 3) * f + k};
        double* c[4] = {ws + t * m, ws + (t + 1) * m, ws + (t + 2) * m, ws + (t + 3) * m};
        four_row_update(static_cast<int>(m), r, gather->data(), m, a, 1, c);
      }
      for (; t < k; ++t)
        column_update(0, static_cast<int>(m), r, gather->data(), m, l + t * f + k, ws + t * m);
    }
    for (int t = k - 2; t >= 0; --t)
      column_update(0, static_cast<int>(m), k - 1 - t, ws + (t + 1) * m, m, l + t * f + t + 1,
                    ws + t * m);
  }
}

void SupernodalLdlt::solve_in_place(Eigen::VectorXd* b) const {
  assert(b->size() == m_size);
  for (int i = 0; i < m_size; ++i)
    m_work[i] = (*b)[m_old_of_new[i]];
  solve_permuted(&m_work, &m_gather);
  for (int i = 0; i < m_size; ++i)
    (*b)[m_old_of_new[i]] = m_work[i];
}

void SupernodalLdlt::solve_in_place(RowMajorMatrix* b) const {
  assert(b->rows() == m_size);
  const Eigen::Index columns = b->cols();
  if (m_work_columns.rows() != m_size || m_work_columns.cols() != columns)
    m_work_columns.resize(m_size, columns);
  if (m_gather_columns.rows() != m_gather.size() || m_gather_columns.cols() != columns)
    m_gather_columns.resize(m_gather.size(), columns);
  for (int i = 0; i < m_size; ++i)
    m_work_columns.row(i) = b->row(m_old_of_new[i]);
  solve_permuted_rows(&m_work_columns, &m_gather_columns);
  for (int i = 0; i < m_size; ++i)
    b->row(m_old_of_new[i]) = m_work_columns.row(i);
}

int SupernodalLdlt::num_negative_pivots() const {
  return static_cast<int>((m_d.array() < 0.0).count());
}

double SupernodalLdlt::factor_multiply_adds() const {
  double total = 0.0;
  for (int s = 0; s < num_supernodes(); ++s) {
    const double k = m_first_column[s + 1] - m_first_column[s];
    const double r = m_row_offset[s + 1] - m_row_offset[s];
    total += k * k * (k / 3.0 + r) / 2.0 + r * (r + 1.0) / 2.0 * k;
  }
  return total;
}

}  // namespace clothfit::qp
