// A bounding volume hierarchy of axis-aligned boxes: a binary tree built top-down by median
// splits along the longest axis of the box centres (O(n log n)), leaves of at most 4 elements,
// nodes stored in one array with children after their parent so that refit is a single reverse
// sweep. Queries visit overlapping (closed) boxes: one box against the tree, the tree against
// itself (every overlapping unordered pair once) and the tree against another tree.
//
// Buffers are reused across build/refit calls; traversal stacks are members, so a Bvh must not be
// queried from two threads at once.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "core/collision/aabb.hpp"

namespace clothfit::collision {

class Bvh {
 public:
  static constexpr int kLeafSize = 4;

  // Builds the tree over `boxes`, element i being boxes[i].
  void build(std::span<const Aabb> boxes);
  // New boxes for the same elements (same count): recomputes the node boxes, keeps the tree.
  void refit(std::span<const Aabb> boxes);

  int num_elements() const { return static_cast<int>(m_boxes.size()); }
  bool empty() const { return m_nodes.empty(); }
  // Σ surface area of the internal nodes / Σ surface area of the element boxes (≥ 0): grows when
  // refitting a tree to a state far from the one it was built for.
  double area_ratio() const;

  // visit(int element) for every element whose box overlaps `box`.
  template <class Visit>
  void query(const Aabb& box, Visit&& visit) const;
  // visit(int i, int j), i ≠ j, once per unordered pair of elements with overlapping boxes.
  template <class Visit>
  void self_pairs(Visit&& visit) const;
  // visit(int i, int j) for element i of this tree and j of `other` with overlapping boxes.
  template <class Visit>
  void pairs_with(const Bvh& other, Visit&& visit) const;

 private:
  struct Node {
    Aabb box;
    int first = 0;  // leaf: first position in m_order; internal: index of the left child
    int count = 0;  // leaf: number of elements (> 0); internal: 0, right child = first + 1
    bool leaf() const { return count > 0; }
  };

  void build_node(int node, int begin, int end);

  std::vector<Aabb> m_boxes;   // element boxes (n)
  std::vector<Node> m_nodes;   // (2n/kLeafSize-ish) root first
  std::vector<int> m_order;    // (n) element indices, leaves refer to ranges of it
  std::vector<Aabb> m_sorted;  // (n) m_boxes[m_order[k]]: element boxes in tree order, for locality
  std::vector<Eigen::Vector3d> m_centers;  // (n) scratch for building
  mutable std::vector<int> m_stack;
  mutable std::vector<std::pair<int, int>> m_pair_stack;
};

template <class Visit>
void Bvh::query(const Aabb& box, Visit&& visit) const {
  if (m_nodes.empty()) {
    return;
  }
  m_stack.clear();
  m_stack.push_back(0);
  while (!m_stack.empty()) {
    const Node& node = m_nodes[m_stack.back()];
    m_stack.pop_back();
    if (!node.box.overlaps(box)) {
      continue;
    }
    if (node.leaf()) {
      for (int k = node.first; k < node.first + node.count; ++k) {
        if (m_sorted[k].overlaps(box)) {
          visit(m_order[k]);
        }
      }
    } else {
      m_stack.push_back(node.first);
      m_stack.push_back(node.first + 1);
    }
  }
}

template <class Visit>
void Bvh::self_pairs(Visit&& visit) const {
  if (m_nodes.empty()) {
    return;
  }
  m_pair_stack.clear();
  m_pair_stack.emplace_back(0, 0);
  while (!m_pair_stack.empty()) {
    const auto [i, j] = m_pair_stack.back();
    m_pair_stack.pop_back();
    const Node& a = m_nodes[i];
    if (i == j) {
      if (a.leaf()) {
        for (int k = a.first; k < a.first + a.count; ++k) {
          for (int l = k + 1; l < a.first + a.count; ++l) {
            if (m_sorted[k].overlaps(m_sorted[l])) {
              visit(m_order[k], m_order[l]);
            }
          }
        }
      } else {
        m_pair_stack.emplace_back(a.first, a.first);
        m_pair_stack.emplace_back(a.first + 1, a.first + 1);
        m_pair_stack.emplace_back(a.first, a.first + 1);
      }
      continue;
    }
    const Node& b = m_nodes[j];
    if (!a.box.overlaps(b.box)) {
      continue;
    }
    if (a.leaf() && b.leaf()) {
      for (int k = a.first; k < a.first + a.count; ++k) {
        for (int l = b.first; l < b.first + b.count; ++l) {
          if (m_sorted[k].overlaps(m_sorted[l])) {
            visit(m_order[k], m_order[l]);
          }
        }
      }
    } else if (a.leaf() || (!b.leaf() && b.box.surface_area() > a.box.surface_area())) {
      m_pair_stack.emplace_back(i, b.first);
      m_pair_stack.emplace_back(i, b.first + 1);
    } else {
      m_pair_stack.emplace_back(a.first, j);
      m_pair_stack.emplace_back(a.first + 1, j);
    }
  }
}

template <class Visit>
void Bvh::pairs_with(const Bvh& other, Visit&& visit) const {
  if (m_nodes.empty() || other.m_nodes.empty()) {
    return;
  }
  m_pair_stack.clear();
  m_pair_stack.emplace_back(0, 0);
  while (!m_pair_stack.empty()) {
    const auto [i, j] = m_pair_stack.back();
    m_pair_stack.pop_back();
    const Node& a = m_nodes[i];
    const Node& b = other.m_nodes[j];
    if (!a.box.overlaps(b.box)) {
      continue;
    }
    if (a.leaf() && b.leaf()) {
      for (int k = a.first; k < a.first + a.count; ++k) {
        for (int l = b.first; l < b.first + b.count; ++l) {
          if (m_sorted[k].overlaps(other.m_sorted[l])) {
            visit(m_order[k], other.m_order[l]);
          }
        }
      }
    } else if (a.leaf() || (!b.leaf() && b.box.surface_area() > a.box.surface_area())) {
      m_pair_stack.emplace_back(i, b.first);
      m_pair_stack.emplace_back(i, b.first + 1);
    } else {
      m_pair_stack.emplace_back(a.first, j);
      m_pair_stack.emplace_back(a.first + 1, j);
    }
  }
}

}  // namespace clothfit::collision
