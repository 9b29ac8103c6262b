#include "core/collision/bvh.hpp"

#include <algorithm>
#include <cassert>

namespace clothfit::collision {

void Bvh::build(std::span<const Aabb> boxes) {
  m_boxes.assign(boxes.begin(), boxes.end());
  const int n = static_cast<int>(m_boxes.size());
  m_nodes.clear();
  m_sorted.clear();
  m_order.resize(n);
  m_centers.resize(n);
  if (n == 0) {
    return;
  }
  for (int i = 0; i < n; ++i) {
    m_order[i] = i;
    m_centers[i] = m_boxes[i].center();
  }
  m_nodes.reserve(2 * (n / kLeafSize + 1));
  m_nodes.emplace_back();
  build_node(0, 0, n);
  m_sorted.resize(n);
  for (int k = 0; k < n; ++k) {
    m_sorted[k] = m_boxes[m_order[k]];
  }
}

void Bvh::build_node(int node, int begin, int end) {
  Aabb box;
  Aabb centers;
  for (int k = begin; k < end; ++k) {
    box.extend(m_boxes[m_order[k]]);
    centers.extend(m_centers[m_order[k]]);
  }
  m_nodes[node].box = box;
  if (end - begin <= kLeafSize) {
    m_nodes[node].first = begin;
    m_nodes[node].count = end - begin;
    return;
  }
  int axis = 0;
  (centers.upper - centers.lower).maxCoeff(&axis);
  const int middle = begin + (end - begin) / 2;
  std::nth_element(m_order.begin() + begin, m_order.begin() + middle, m_order.begin() + end,
                   [this, axis](int a, int b) { return m_centers[a][axis] < m_centers[b][axis]; });
  const int left = static_cast<int>(m_nodes.size());
  m_nodes[node].first = left;
  m_nodes[node].count = 0;
  m_nodes.emplace_back();
  m_nodes.emplace_back();
  build_node(left, begin, middle);
  build_node(left + 1, middle, end);
}

void Bvh::refit(std::span<const Aabb> boxes) {
  assert(static_cast<int>(boxes.size()) == num_elements());
  std::copy(boxes.begin(), boxes.end(), m_boxes.begin());
  for (int k = 0; k < num_elements(); ++k) {
    m_sorted[k] = m_boxes[m_order[k]];
  }
  for (int i = static_cast<int>(m_nodes.size()) - 1; i >= 0; --i) {
    Node& node = m_nodes[i];
    Aabb box;
    if (node.leaf()) {
      for (int k = node.first; k < node.first + node.count; ++k) {
        box.extend(m_sorted[k]);
      }
    } else {
      box.extend(m_nodes[node.first].box);
      box.extend(m_nodes[node.first + 1].box);
    }
    node.box = box;
  }
}

double Bvh::area_ratio() const {
  double internal = 0.0;
  for (const Node& node : m_nodes) {
    if (!node.leaf()) {
      internal += node.box.surface_area();
    }
  }
  double elements = 0.0;
  for (const Aabb& box : m_boxes) {
    elements += box.surface_area();
  }
  return elements > 0.0 ? internal / elements : 0.0;
}

}  // namespace clothfit::collision
