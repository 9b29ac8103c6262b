// Bounding volume hierarchy: queries, self pairs and tree-tree pairs equal brute force on random
// boxes, also after refitting to moved boxes; empty and single-element trees.
#include "core/collision/bvh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include "support/random_vector.hpp"

namespace clothfit::collision {
namespace {

std::vector<Aabb> random_boxes(std::mt19937_64& rng, int n, double size) {
  std::uniform_real_distribution<double> coordinate(0.0, 1.0);
  std::uniform_real_distribution<double> extent(0.0, size);
  std::vector<Aabb> boxes(n);
  for (Aabb& box : boxes) {
    const Eigen::Vector3d lower = clothfit::testing::random_vector3(coordinate, rng);
    box.extend(lower);
    box.extend(Eigen::Vector3d(lower + clothfit::testing::random_vector3(extent, rng)));
  }
  return boxes;
}

std::set<std::pair<int, int>> brute_self_pairs(const std::vector<Aabb>& boxes) {
  std::set<std::pair<int, int>> pairs;
  for (size_t i = 0; i < boxes.size(); ++i) {
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      if (boxes[i].overlaps(boxes[j])) {
        pairs.insert({static_cast<int>(i), static_cast<int>(j)});
      }
    }
  }
  return pairs;
}

std::set<std::pair<int, int>> tree_self_pairs(const Bvh& bvh) {
  std::set<std::pair<int, int>> pairs;
  int visits = 0;
  bvh.self_pairs([&](int i, int j) {
    EXPECT_NE(i, j);
    pairs.insert({std::min(i, j), std::max(i, j)});
    ++visits;
  });
  EXPECT_EQ(visits, static_cast<int>(pairs.size()));  // each pair once
  return pairs;
}

TEST(Bvh, QueriesAndPairsMatchBruteForce) {
  std::mt19937_64 rng(3);
  for (int n : {1, 2, 5, 37, 500}) {
    std::vector<Aabb> boxes = random_boxes(rng, n, 0.1);
    Bvh bvh;
    bvh.build(boxes);
    EXPECT_EQ(bvh.num_elements(), n);
    EXPECT_EQ(tree_self_pairs(bvh), brute_self_pairs(boxes));

    for (int q = 0; q < 50; ++q) {
      const Aabb query = random_boxes(rng, 1, 0.3)[0];
      std::set<int> found;
      bvh.query(query, [&](int i) { EXPECT_TRUE(found.insert(i).second); });
      std::set<int> expected;
      for (int i = 0; i < n; ++i) {
        if (boxes[i].overlaps(query)) {
          expected.insert(i);
        }
      }
      EXPECT_EQ(found, expected);
    }

    const std::vector<Aabb> others = random_boxes(rng, 40, 0.2);
    Bvh other;
    other.build(others);
    std::set<std::pair<int, int>> found, expected;
    bvh.pairs_with(other, [&](int i, int j) { EXPECT_TRUE(found.insert({i, j}).second); });
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < 40; ++j) {
        if (boxes[i].overlaps(others[j])) {
          expected.insert({i, j});
        }
      }
    }
    EXPECT_EQ(found, expected);

    // Refit to moved boxes: same answers as brute force, and a looser tree.
    const double ratio = bvh.area_ratio();
    boxes = random_boxes(rng, n, 0.1);
    bvh.refit(boxes);
    EXPECT_EQ(tree_self_pairs(bvh), brute_self_pairs(boxes));
    if (n > 100) {
      EXPECT_GT(bvh.area_ratio(), ratio);
    }
  }
}

TEST(Bvh, EmptyTree) {
  Bvh bvh;
  bvh.build({});
  EXPECT_TRUE(bvh.empty());
  int visits = 0;
  bvh.self_pairs([&](int, int) { ++visits; });
  bvh.query(Aabb{}, [&](int) { ++visits; });
  EXPECT_EQ(visits, 0);
}

TEST(Bvh, TouchingBoxesOverlap) {
  Aabb a, b;
  a.extend(Eigen::Vector3d(0, 0, 0));
  a.extend(Eigen::Vector3d(1, 1, 1));
  b.extend(Eigen::Vector3d(1, 0, 0));
  b.extend(Eigen::Vector3d(2, 1, 1));
  Bvh bvh;
  const std::vector<Aabb> boxes = {a, b};
  bvh.build(boxes);
  EXPECT_EQ(tree_self_pairs(bvh).size(), 1u);
}

}  // namespace
}  // namespace clothfit::collision
