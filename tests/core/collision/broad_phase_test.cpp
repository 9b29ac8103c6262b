// Broad phase on triangulated grids in random crumpled states, against all pairs: every pair the
// CCD kernels report (with tau = margin) and every pair closer than the margin at t0 or t1 is a
// candidate; neighbours are excluded; no duplicates; flat and (N × 3) inputs agree; refitting
// gives the same answers as rebuilding; the stick (external segments) and the triangle pairs.
#include "core/collision/broad_phase.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <random>
#include <set>

#include "core/collision/edge_edge_ccd.hpp"
#include "core/collision/edge_edge_distance.hpp"
#include "core/collision/point_triangle_ccd.hpp"
#include "core/collision/point_triangle_distance.hpp"
#include "core/collision/triangle_mesh_edges.hpp"
#include "core/collision/triangle_triangle_intersection.hpp"
#include "support/random_vector.hpp"

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

struct Grid {
  int nodes = 0;
  std::vector<std::array<int, 3>> triangles;
  Eigen::VectorXd rest;  // (3N)
};

// nx × ny nodes, spacing h, each quad (i, i+1, i+1+nx, i+nx) split into (0,1,2) and (0,2,3).
Grid make_grid(int nx, int ny, double h) {
  Grid g;
  g.nodes = nx * ny;
  g.rest.resize(3 * g.nodes);
  for (int r = 0; r < ny; ++r) {
    for (int c = 0; c < nx; ++c) {
      g.rest.segment<3>(3 * (r * nx + c)) = Vector3d(c * h, r * h, 0.0);
    }
  }
  for (int r = 0; r + 1 < ny; ++r) {
    for (int c = 0; c + 1 < nx; ++c) {
      const int q0 = r * nx + c, q1 = q0 + 1, q2 = q0 + 1 + nx, q3 = q0 + nx;
      g.triangles.push_back({q0, q1, q2});
      g.triangles.push_back({q0, q2, q3});
    }
  }
  return g;
}

// A crumpled state: the sheet folded over itself (z = sin of x), compressed, with noise.
Eigen::VectorXd crumpled(const Grid& g, std::mt19937_64& rng, double noise) {
  std::normal_distribution<double> gaussian(0.0, noise);
  Eigen::VectorXd x = g.rest;
  for (int i = 0; i < g.nodes; ++i) {
    Vector3d p = x.segment<3>(3 * i);
    const double angle = 3.0 * p.x();
    p = Vector3d(0.3 * std::cos(angle), p.y() * 0.5, 0.3 * std::sin(angle)) +
        clothfit::testing::random_vector3(gaussian, rng);
    x.segment<3>(3 * i) = p;
  }
  return x;
}

Vector3d node(const Eigen::VectorXd& x, int i) {
  return x.segment<3>(3 * i);
}

TEST(BroadPhase, SupersetOfTheCloseAndCollidingPairs) {
  std::mt19937_64 rng(8);
  const Grid g = make_grid(9, 7, 0.1);
  const std::vector<std::array<int, 2>> edges = triangle_mesh_edges(g.triangles);
  BroadPhase broad_phase(g.nodes, g.triangles);
  ASSERT_EQ(broad_phase.edges().size(), edges.size());
  SelfCandidates candidates;
  int checked_contacts = 0;
  for (int state = 0; state < 6; ++state) {
    const Eigen::VectorXd x_t0 = crumpled(g, rng, 0.02);
    const Eigen::VectorXd x_t1 = x_t0 + 0.05 * Eigen::VectorXd::Random(x_t0.size());
    const double margin = state % 2 == 0 ? 0.0 : 0.02;
    broad_phase.update(x_t0, x_t1, BroadPhaseOptions{margin, 1.5});
    broad_phase.self_candidates(candidates);

    std::set<std::pair<int, int>> point_triangle, edge_edge;
    for (const auto& c : candidates.point_triangle) {
      const auto& t = g.triangles[c.triangle];
      ASSERT_TRUE(c.node != t[0] && c.node != t[1] && c.node != t[2]);
      ASSERT_TRUE(point_triangle.insert({c.node, c.triangle}).second);
    }
    for (const auto& c : candidates.edge_edge) {
      ASSERT_LT(c.edge_a, c.edge_b);
      const auto& a = edges[c.edge_a];
      const auto& b = edges[c.edge_b];
      ASSERT_TRUE(a[0] != b[0] && a[0] != b[1] && a[1] != b[0] && a[1] != b[1]);
      ASSERT_TRUE(edge_edge.insert({c.edge_a, c.edge_b}).second);
    }

    CcdOptions ccd;
    ccd.thickness = margin;
    ccd.proximity = 0.5;  // tau = margin
    for (int i = 0; i < g.nodes; ++i) {
      for (int f = 0; f < static_cast<int>(g.triangles.size()); ++f) {
        const auto& t = g.triangles[f];
        if (i == t[0] || i == t[1] || i == t[2]) {
          continue;
        }
        const bool close = point_triangle_distance(node(x_t0, i), node(x_t0, t[0]),
                                                   node(x_t0, t[1]), node(x_t0, t[2])) <= margin ||
                           point_triangle_distance(node(x_t1, i), node(x_t1, t[0]),
                                                   node(x_t1, t[1]), node(x_t1, t[2])) <= margin;
        const bool contact = point_triangle_ccd(node(x_t0, i), node(x_t0, t[0]), node(x_t0, t[1]),
                                                node(x_t0, t[2]), node(x_t1, i), node(x_t1, t[0]),
                                                node(x_t1, t[1]), node(x_t1, t[2]), ccd)
                                 .has_value();
        checked_contacts += contact;
        if (close || contact) {
          ASSERT_TRUE(point_triangle.count({i, f})) << "node " << i << " triangle " << f;
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
        const bool close = edge_edge_distance(node(x_t0, ea[0]), node(x_t0, ea[1]),
                                              node(x_t0, eb[0]), node(x_t0, eb[1])) <= margin ||
                           edge_edge_distance(node(x_t1, ea[0]), node(x_t1, ea[1]),
                                              node(x_t1, eb[0]), node(x_t1, eb[1])) <= margin;
        const bool contact = edge_edge_ccd(node(x_t0, ea[0]), node(x_t0, ea[1]), node(x_t0, eb[0]),
                                           node(x_t0, eb[1]), node(x_t1, ea[0]), node(x_t1, ea[1]),
                                           node(x_t1, eb[0]), node(x_t1, eb[1]), ccd)
                                 .has_value();
        checked_contacts += contact;
        if (close || contact) {
          ASSERT_TRUE(edge_edge.count({a, b})) << "edges " << a << " " << b;
        }
      }
    }
    // Not all pairs: the broad phase prunes.
    const size_t all_pairs = g.nodes * g.triangles.size() + edges.size() * edges.size() / 2;
    EXPECT_LT(point_triangle.size() + edge_edge.size(), all_pairs / 4);
  }
  EXPECT_GT(checked_contacts, 20);  // the crumpled states do collide
}

TEST(BroadPhase, FlatAndRowInputsAgreeAndRefitMatchesRebuild) {
  std::mt19937_64 rng(9);
  const Grid g = make_grid(8, 6, 0.1);
  BroadPhase refitted(g.nodes, g.triangles);
  SelfCandidates a, b, c;
  for (int step = 0; step < 10; ++step) {
    const Eigen::VectorXd x_t0 = crumpled(g, rng, 0.01 * step);
    const Eigen::VectorXd x_t1 = x_t0 + 0.02 * Eigen::VectorXd::Random(x_t0.size());
    const BroadPhaseOptions options{0.01, 1e9};  // never rebuild after the first build
    refitted.update(x_t0, x_t1, options);
    refitted.self_candidates(a);

    BroadPhase fresh(g.nodes, g.triangles);
    const Eigen::MatrixX3d rows_t0 = x_t0.reshaped(3, g.nodes).transpose();
    const Eigen::MatrixX3d rows_t1 = x_t1.reshaped(3, g.nodes).transpose();
    fresh.update(rows_t0, rows_t1, options);
    fresh.self_candidates(b);

    const auto as_set = [](const SelfCandidates& s) {
      std::set<std::array<int, 3>> out;
      for (const auto& p : s.point_triangle) {
        out.insert({0, p.node, p.triangle});
      }
      for (const auto& e : s.edge_edge) {
        out.insert({1, e.edge_a, e.edge_b});
      }
      return out;
    };
    EXPECT_EQ(as_set(a), as_set(b)) << step;
  }
  EXPECT_EQ(refitted.rebuilds(), 1);

  // rebuild_factor = 1: the trees are rebuilt whenever a refit made them any looser.
  BroadPhase eager(g.nodes, g.triangles);
  for (int step = 0; step < 5; ++step) {
    const Eigen::VectorXd x = crumpled(g, rng, 0.05);
    eager.update(x, x, BroadPhaseOptions{0.0, 1.0});
  }
  EXPECT_GT(eager.rebuilds(), 1);
}

TEST(BroadPhase, StickSegmentsAgainstTheSheet) {
  // A flat 7 × 9 sheet in the plane y = 0 hit by a stick (4 segments along x) moving from
  // y = −0.1 to y = 0.1 at height z = 0.25.
  const Grid g = make_grid(7, 9, 0.1);
  Eigen::VectorXd x = g.rest;
  for (int i = 0; i < g.nodes; ++i) {
    x.segment<3>(3 * i) = Vector3d(g.rest[3 * i], 0.0, g.rest[3 * i + 1]);
  }
  BroadPhase broad_phase(g.nodes, g.triangles);
  broad_phase.update(x, x, BroadPhaseOptions{0.0075, 1.5});
  Eigen::MatrixX3d stick_t0(5, 3), stick_t1(5, 3);
  for (int k = 0; k < 5; ++k) {
    stick_t0.row(k) = Eigen::RowVector3d(0.1 + 0.1 * k, -0.1, 0.25);
    stick_t1.row(k) = Eigen::RowVector3d(0.1 + 0.1 * k, 0.1, 0.25);
  }
  const std::vector<std::array<int, 2>> segments = {{0, 1}, {1, 2}, {2, 3}, {3, 4}};
  ExternalCandidates candidates;
  const std::array<int, 2> ends = {0, 4};
  broad_phase.external_candidates(stick_t0, stick_t1, segments, ends, candidates);
  std::set<std::pair<int, int>> found;
  for (const auto& c : candidates.segment_edge) {
    found.insert({c.segment, c.edge});
  }
  CcdOptions ccd;
  ccd.thickness = 0.0075;
  ccd.proximity = 0.5;
  int hits = 0;
  for (int s = 0; s < 4; ++s) {
    for (int e = 0; e < static_cast<int>(broad_phase.edges().size()); ++e) {
      const auto& edge = broad_phase.edges()[e];
      const Vector3d s0_t0 = stick_t0.row(segments[s][0]).transpose();
      const Vector3d s1_t0 = stick_t0.row(segments[s][1]).transpose();
      const Vector3d s0_t1 = stick_t1.row(segments[s][0]).transpose();
      const Vector3d s1_t1 = stick_t1.row(segments[s][1]).transpose();
      if (edge_edge_ccd(s0_t0, s1_t0, node(x, edge[0]), node(x, edge[1]), s0_t1, s1_t1,
                        node(x, edge[0]), node(x, edge[1]), ccd)) {
        ++hits;
        EXPECT_TRUE(found.count({s, e})) << s << " " << e;
      }
    }
  }
  EXPECT_GT(hits, 8);
  EXPECT_LT(candidates.segment_edge.size(), 4 * broad_phase.edges().size() / 4);
  // The stick's end points cross the sheet: they are candidates against triangles.
  EXPECT_FALSE(candidates.point_triangle.empty());
}

TEST(BroadPhase, TrianglePairsCoverTheIntersectingPairs) {
  std::mt19937_64 rng(10);
  const Grid g = make_grid(9, 7, 0.1);
  BroadPhase broad_phase(g.nodes, g.triangles);
  std::vector<TrianglePairCandidate> pairs;
  int intersecting = 0;
  for (int state = 0; state < 4; ++state) {
    const Eigen::VectorXd x = crumpled(g, rng, 0.04);
    broad_phase.update(x, x, BroadPhaseOptions{});
    broad_phase.triangle_pair_candidates(pairs);
    std::set<std::pair<int, int>> found;
    for (const auto& p : pairs) {
      ASSERT_LT(p.triangle_a, p.triangle_b);
      found.insert({p.triangle_a, p.triangle_b});
    }
    for (int a = 0; a < static_cast<int>(g.triangles.size()); ++a) {
      for (int b = a + 1; b < static_cast<int>(g.triangles.size()); ++b) {
        const auto& ta = g.triangles[a];
        const auto& tb = g.triangles[b];
        bool shared = false;
        for (int i : ta) {
          shared = shared || i == tb[0] || i == tb[1] || i == tb[2];
        }
        if (shared) {
          EXPECT_FALSE(found.count({a, b}));
          continue;
        }
        if (triangles_intersect(node(x, ta[0]), node(x, ta[1]), node(x, ta[2]), node(x, tb[0]),
                                node(x, tb[1]), node(x, tb[2]))) {
          ++intersecting;
          ASSERT_TRUE(found.count({a, b}));
        }
      }
    }
  }
  EXPECT_GT(intersecting, 0);
}

}  // namespace
}  // namespace clothfit::collision
