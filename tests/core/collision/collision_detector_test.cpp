// Collision detector (broad phase + CCD kernels): finds exactly the collisions of the all-pairs
// kernels on crumpled grids, a sheet falling through another at a known time, and a stick
// crossing a hanging sheet.
#include "core/collision/collision_detector.hpp"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <random>
#include <set>
#include <utility>

#include "core/collision/edge_edge_ccd.hpp"
#include "core/collision/point_triangle_ccd.hpp"

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

struct Sheets {
  int nodes = 0;
  std::vector<std::array<int, 3>> triangles;
  Eigen::VectorXd positions;  // (3N)
};

// `layers` grids of nx × ny nodes, spacing h, layer k at height z[k], quads split (0,1,2),(0,2,3).
Sheets make_layers(int nx, int ny, double h, const std::vector<double>& z,
                   const Vector3d& shift = Vector3d::Zero()) {
  Sheets s;
  s.nodes = nx * ny * static_cast<int>(z.size());
  s.positions.resize(3 * s.nodes);
  for (int k = 0; k < static_cast<int>(z.size()); ++k) {
    const int base = k * nx * ny;
    for (int r = 0; r < ny; ++r) {
      for (int c = 0; c < nx; ++c) {
        s.positions.segment<3>(3 * (base + r * nx + c)) =
            Vector3d(c * h, r * h, z[k]) + (k > 0 ? shift : Vector3d::Zero());
      }
    }
    for (int r = 0; r + 1 < ny; ++r) {
      for (int c = 0; c + 1 < nx; ++c) {
        const int q0 = base + r * nx + c, q1 = q0 + 1, q2 = q0 + 1 + nx, q3 = q0 + nx;
        s.triangles.push_back({q0, q1, q2});
        s.triangles.push_back({q0, q2, q3});
      }
    }
  }
  return s;
}

TEST(CollisionDetector, SheetFallingThroughAnotherAtAKnownTime) {
  // Bottom sheet at z = 0, top sheet (shifted by a third of a cell) from z = 0.3 to z = −0.1:
  // every top node above the bottom sheet crosses it at t = 0.75.
  const double h = 0.1;
  const Sheets start = make_layers(6, 5, h, {0.0, 0.3}, Vector3d(0.033, 0.033, 0.0));
  Eigen::VectorXd end = start.positions;
  const int layer = 6 * 5;
  for (int i = layer; i < start.nodes; ++i) {
    end[3 * i + 2] = -0.1;
  }
  CollisionDetector detector(start.nodes, start.triangles);
  detector.update(start.positions, end, 0.0);
  SelfCollisions collisions;
  detector.self_collisions(CcdOptions{}, collisions);
  std::set<int> hit_nodes;
  for (const auto& c : collisions.point_triangle) {
    if (c.node >= layer) {
      EXPECT_NEAR(c.ccd.time, 0.75, 1e-8);
      EXPECT_TRUE(c.ccd.normal.isApprox(Vector3d(0, 0, 1), 1e-9));
      hit_nodes.insert(c.node);
    }
  }
  int expected = 0;
  for (int i = layer; i < start.nodes; ++i) {
    const Vector3d p = start.positions.segment<3>(3 * i);
    if (p.x() <= 5 * h && p.y() <= 4 * h) {
      ++expected;
      EXPECT_TRUE(hit_nodes.count(i)) << "node " << i;
    }
  }
  EXPECT_EQ(static_cast<int>(hit_nodes.size()), expected);
  EXPECT_FALSE(collisions.edge_edge.empty());
}

TEST(CollisionDetector, SameCollisionsAsAllPairs) {
  std::mt19937_64 rng(21);
  const Sheets layers = make_layers(6, 6, 0.1, {0.0, 0.05, 0.1}, Vector3d(0.02, 0.01, 0.0));
  CollisionDetector detector(layers.nodes, layers.triangles);
  const auto& edges = detector.broad_phase().edges();
  CcdOptions options;
  options.thickness = 0.01;
  options.proximity = 0.5;
  for (int state = 0; state < 3; ++state) {
    const Eigen::VectorXd x_t0 =
        layers.positions + 0.01 * Eigen::VectorXd::Random(layers.positions.size());
    const Eigen::VectorXd x_t1 = x_t0 + 0.08 * Eigen::VectorXd::Random(x_t0.size());
    detector.update(x_t0, x_t1, options.detection_distance());
    SelfCollisions found;
    detector.self_collisions(options, found);
    const auto node = [](const Eigen::VectorXd& x, int i) -> Vector3d {
      return x.segment<3>(3 * i);
    };
    std::set<std::pair<int, int>> point_triangle, edge_edge;
    for (const auto& c : found.point_triangle) {
      point_triangle.insert({c.node, c.triangle});
    }
    for (const auto& c : found.edge_edge) {
      edge_edge.insert({c.edge_a, c.edge_b});
    }
    std::set<std::pair<int, int>> expected_pt, expected_ee;
    for (int i = 0; i < layers.nodes; ++i) {
      for (int f = 0; f < static_cast<int>(layers.triangles.size()); ++f) {
        const auto& t = layers.triangles[f];
        if (i == t[0] || i == t[1] || i == t[2]) {
          continue;
        }
        if (point_triangle_ccd(node(x_t0, i), node(x_t0, t[0]), node(x_t0, t[1]), node(x_t0, t[2]),
                               node(x_t1, i), node(x_t1, t[0]), node(x_t1, t[1]), node(x_t1, t[2]),
                               options)) {
          expected_pt.insert({i, f});
        }
      }
    }
    for (int a = 0; a < static_cast<int>(edges.size()); ++a) {
      for (int b = a + 1; b < static_cast<int>(edges.size()); ++b) {
        const auto& ea = edges[a];
        const auto& eb = edges[b];
        if (ea[0] == eb[0] || ea[0] == eb[1] || ea[1] == eb[0] || ea[1] == eb[1]) {
          continue;
        }
        if (edge_edge_ccd(node(x_t0, ea[0]), node(x_t0, ea[1]), node(x_t0, eb[0]),
                          node(x_t0, eb[1]), node(x_t1, ea[0]), node(x_t1, ea[1]),
                          node(x_t1, eb[0]), node(x_t1, eb[1]), options)) {
          expected_ee.insert({a, b});
        }
      }
    }
    EXPECT_EQ(point_triangle, expected_pt);
    EXPECT_EQ(edge_edge, expected_ee);
    EXPECT_GT(expected_pt.size() + expected_ee.size(), 10u);
  }
}

TEST(CollisionDetector, StickThroughAHangingSheet) {
  // 7 × 9 sheet in the plane y = 0 (x across, z up), a 75 cm stick split into 10 segments along x
  // at z = 0.2, moving in +y from −0.05 to 0.05 (through the sheet at t = 1/2).
  Sheets sheet = make_layers(7, 9, 0.07, {0.0});
  for (int i = 0; i < sheet.nodes; ++i) {
    const Vector3d p = sheet.positions.segment<3>(3 * i);
    sheet.positions.segment<3>(3 * i) = Vector3d(p.x(), 0.0, p.y());
  }
  CollisionDetector detector(sheet.nodes, sheet.triangles);
  CcdOptions stick;
  stick.thickness = 0.0075;
  stick.proximity = 0.5;
  detector.update(sheet.positions, sheet.positions, stick.detection_distance());
  Eigen::MatrixX3d points_t0(11, 3), points_t1(11, 3);
  std::vector<std::array<int, 2>> segments;
  for (int k = 0; k <= 10; ++k) {
    points_t0.row(k) = Eigen::RowVector3d(-0.15 + 0.075 * k, -0.05, 0.2);
    points_t1.row(k) = Eigen::RowVector3d(-0.15 + 0.075 * k, 0.05, 0.2);
    if (k < 10) {
      segments.push_back({k, k + 1});
    }
  }
  ExternalCollisions collisions;
  const std::array<int, 2> ends = {0, 10};
  detector.external_collisions(points_t0, points_t1, segments, ends, stick, collisions);
  ASSERT_FALSE(collisions.segment_edge.empty());
  // Per sheet edge, the earliest contact over the stick's segments: at distance tau = 7.5 mm in
  // front of the plane, t = (0.05 − 0.0075)/0.1, with the normal (stick − sheet) along −y. Other
  // segments touch the same edge later, near their end points, with oblique normals.
  std::map<int, const ExternalCollisions::SegmentEdge*> first;
  for (const auto& c : collisions.segment_edge) {
    EXPECT_GE(c.ccd.time, 0.425 - 1e-8);
    EXPECT_GE(c.ccd.separation_t0, 0.0);
    EXPECT_NEAR(c.ccd.distance, 0.0075, 1e-8);
    const auto it = first.find(c.edge);
    if (it == first.end() || c.ccd.time < it->second->ccd.time) {
      first[c.edge] = &c;
    }
  }
  for (const auto& [edge, c] : first) {
    EXPECT_NEAR(c->ccd.time, 0.425, 1e-8) << edge;
    EXPECT_NEAR(c->ccd.normal.y(), -1.0, 1e-8) << edge;
  }
  // Every sheet edge crossing the height z = 0.2 of the stick (vertical and diagonal edges; the
  // stick spans the sheet's width) is hit.
  int crossing_edges = 0;
  for (const auto& e : detector.broad_phase().edges()) {
    const Vector3d a = sheet.positions.segment<3>(3 * e[0]);
    const Vector3d b = sheet.positions.segment<3>(3 * e[1]);
    crossing_edges += (std::min(a.z(), b.z()) < 0.2 && std::max(a.z(), b.z()) > 0.2);
  }
  EXPECT_EQ(static_cast<int>(first.size()), crossing_edges);
}

// The same motion, detected by a detector whose trees were built for the motion mirrored in x
// and then only refitted (no rebuild: mirrored boxes have the same areas), so that its trees list
// the sides in the opposite order.
Eigen::VectorXd mirrored(Eigen::VectorXd positions) {
  for (Eigen::Index i = 0; i < positions.size(); i += 3)
    positions[i] = -positions[i];
  return positions;
}

// Both lists name the same pairs of elements (`pair` of an entry) in the same order.
template <class Collision, class Pair>
void expect_same_pairs(const std::vector<Collision>& a, const std::vector<Collision>& b,
                       Pair pair) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k)
    EXPECT_EQ(pair(a[k]), pair(b[k])) << k;
}

TEST(CollisionDetector, ListsCollisionsInAnOrderIndependentOfItsTrees) {
  const Sheets start = make_layers(6, 5, 0.1, {0.0, 0.3}, Vector3d(0.033, 0.033, 0.0));
  Eigen::VectorXd end = start.positions;
  for (int i = 6 * 5; i < start.nodes; ++i)
    end[3 * i + 2] = -0.1;
  CcdOptions options;
  options.thickness = 0.01;
  options.proximity = 0.5;
  CollisionDetector fresh(start.nodes, start.triangles);
  fresh.update(start.positions, end, options.detection_distance());
  CollisionDetector refitted(start.nodes, start.triangles);
  refitted.update(mirrored(start.positions), mirrored(end), options.detection_distance());
  refitted.update(start.positions, end, options.detection_distance());
  ASSERT_EQ(refitted.broad_phase().rebuilds(), 1);

  SelfCollisions a, b;
  fresh.self_collisions(options, a);
  refitted.self_collisions(options, b);
  ASSERT_GT(a.point_triangle.size(), 10u);
  ASSERT_GT(a.edge_edge.size(), 10u);
  expect_same_pairs(a.point_triangle, b.point_triangle, [](const auto& c) {
    return std::pair{c.node, c.triangle};
  });
  expect_same_pairs(a.edge_edge, b.edge_edge, [](const auto& c) {
    return std::pair{c.edge_a, c.edge_b};
  });

  // A stick through the lower sheet, along x at y = 0.2, moving down through it.
  Eigen::MatrixX3d points_t0(11, 3), points_t1(11, 3);
  std::vector<std::array<int, 2>> segments;
  for (int k = 0; k <= 10; ++k) {
    points_t0.row(k) = Eigen::RowVector3d(-0.1 + 0.07 * k, 0.2, 0.05);
    points_t1.row(k) = Eigen::RowVector3d(-0.1 + 0.07 * k, 0.2, -0.05);
    if (k < 10)
      segments.push_back({k, k + 1});
  }
  std::vector<int> all_points(11);
  std::iota(all_points.begin(), all_points.end(), 0);
  ExternalCollisions c, d;
  fresh.external_collisions(points_t0, points_t1, segments, all_points, options, c);
  refitted.external_collisions(points_t0, points_t1, segments, all_points, options, d);
  ASSERT_GT(c.segment_edge.size(), 10u);
  ASSERT_GT(c.point_triangle.size(), 0u);  // the stick's inner points against the triangles
  expect_same_pairs(c.segment_edge, d.segment_edge, [](const auto& e) {
    return std::pair{e.segment, e.edge};
  });
  expect_same_pairs(c.point_triangle, d.point_triangle, [](const auto& e) {
    return std::pair{e.point, e.triangle};
  });
}

}  // namespace
}  // namespace clothfit::collision
