// Exact triangle-triangle intersection: hand-made configurations (apart, piercing, touching at a
// corner or along an edge, shared edges, coplanar overlaps, degenerate triangles) and random
// small-integer triangles — full of coplanar and touching cases — against an exact
// separating-axis oracle in integer arithmetic.
#include "core/collision/triangle_triangle_intersection.hpp"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <sstream>

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;

bool intersect(const std::array<Vector3d, 3>& a, const std::array<Vector3d, 3>& b) {
  return triangles_intersect(a[0], a[1], a[2], b[0], b[1], b[2]);
}

// Both argument orders and all cyclic and reversed corner orders must agree.
void expect_intersection(const std::array<Vector3d, 3>& a, const std::array<Vector3d, 3>& b,
                         bool expected) {
  const std::array<std::array<int, 3>, 6> orders = {
      {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}}};
  for (const auto& o : orders) {
    const std::array<Vector3d, 3> a2 = {a[o[0]], a[o[1]], a[o[2]]};
    EXPECT_EQ(intersect(a2, b), expected);
    EXPECT_EQ(intersect(b, a2), expected);
  }
}

const std::array<Vector3d, 3> kUnit = {Vector3d(0, 0, 0), Vector3d(1, 0, 0), Vector3d(0, 1, 0)};

TEST(TriangleTriangleIntersection, ApartAndPiercing) {
  expect_intersection(kUnit, {Vector3d(0, 0, 1), Vector3d(1, 0, 1), Vector3d(0, 1, 1)}, false);
  // A vertical triangle piercing the unit triangle.
  expect_intersection(kUnit, {Vector3d(0.2, 0.2, -1), Vector3d(0.3, 0.2, 1), Vector3d(0.2, 0.3, 1)},
                      true);
  // Crossing the plane beside the triangle.
  expect_intersection(kUnit, {Vector3d(2, 2, -1), Vector3d(3, 2, 1), Vector3d(2, 3, 1)}, false);
  // Two triangles whose planes cross inside both but whose segments on that line do not overlap.
  expect_intersection(kUnit, {Vector3d(0.8, 0.8, -1), Vector3d(0.8, 0.8, 1), Vector3d(2, 2, 0)},
                      false);
}

TEST(TriangleTriangleIntersection, TouchingCounts) {
  // Corner on the face.
  expect_intersection(kUnit, {Vector3d(0.2, 0.2, 0), Vector3d(1, 1, 1), Vector3d(0, 1, 1)}, true);
  // Shared corner only.
  expect_intersection(kUnit, {Vector3d(1, 0, 0), Vector3d(2, 0, 1), Vector3d(2, 1, 1)}, true);
  // Shared edge (two triangles of a quad, and a folded neighbour).
  expect_intersection(kUnit, {Vector3d(1, 0, 0), Vector3d(0, 1, 0), Vector3d(1, 1, 0)}, true);
  expect_intersection(kUnit, {Vector3d(1, 0, 0), Vector3d(0, 1, 0), Vector3d(1, 1, 1)}, true);
  // Edge crossing edge.
  expect_intersection(kUnit, {Vector3d(0.5, -0.5, 0), Vector3d(0.5, 0.5, 0), Vector3d(0.5, 0, 1)},
                      true);
  // Just apart (by one ulp of 1).
  const double up = 1.0 + std::numeric_limits<double>::epsilon();
  expect_intersection(kUnit, {Vector3d(1, 0, up - 1), Vector3d(2, 0, 1), Vector3d(2, 1, 1)}, false);
}

TEST(TriangleTriangleIntersection, Coplanar) {
  // Overlapping.
  expect_intersection(kUnit, {Vector3d(0.5, 0.5, 0), Vector3d(-0.5, 0.5, 0), Vector3d(0, -1, 0)},
                      true);
  // One inside the other.
  expect_intersection(kUnit, {Vector3d(0.1, 0.1, 0), Vector3d(0.2, 0.1, 0), Vector3d(0.1, 0.2, 0)},
                      true);
  // Disjoint.
  expect_intersection(kUnit, {Vector3d(1, 1, 0), Vector3d(2, 1, 0), Vector3d(1, 2, 0)}, false);
  // In a tilted plane x + y + z = 1, touching along part of an edge.
  const std::array<Vector3d, 3> tilted = {Vector3d(1, 0, 0), Vector3d(0, 1, 0), Vector3d(0, 0, 1)};
  expect_intersection(tilted, {Vector3d(0.5, 0.5, 0), Vector3d(1.5, -0.5, 0), Vector3d(1, 1, -1)},
                      true);
  expect_intersection(tilted, {Vector3d(1, 1, -1), Vector3d(2, 0, -1), Vector3d(1.5, 1.5, -2)},
                      false);
}

TEST(TriangleTriangleIntersection, DegenerateTriangles) {
  // A collinear triangle (a segment) through the face, beside it, and lying in it.
  expect_intersection(kUnit, {Vector3d(0.2, 0.2, -1), Vector3d(0.2, 0.2, 0), Vector3d(0.2, 0.2, 1)},
                      true);
  expect_intersection(kUnit, {Vector3d(2, 2, -1), Vector3d(2, 2, 0), Vector3d(2, 2, 1)}, false);
  expect_intersection(kUnit, {Vector3d(0.1, 0.1, 0), Vector3d(0.2, 0.2, 0), Vector3d(0.3, 0.3, 0)},
                      true);
  // A point triangle on the face and above it.
  const Vector3d on(0.25, 0.25, 0), above(0.25, 0.25, 1e-300);
  expect_intersection(kUnit, {on, on, on}, true);
  expect_intersection(kUnit, {above, above, above}, false);
  // Two point triangles.
  expect_intersection({on, on, on}, {on, on, on}, true);
  expect_intersection({on, on, on}, {above, above, above}, false);
  // Two crossing segments and two skew ones.
  expect_intersection({Vector3d(-1, 0, 0), Vector3d(0, 0, 0), Vector3d(1, 0, 0)},
                      {Vector3d(0, -1, 0), Vector3d(0, 0, 0), Vector3d(0, 1, 0)}, true);
  expect_intersection({Vector3d(-1, 0, 0), Vector3d(0, 0, 0), Vector3d(1, 0, 0)},
                      {Vector3d(0, -1, 1), Vector3d(0, 0, 1), Vector3d(0, 1, 1)}, false);
}

// ---------------------------------------------------------------------------------------------
// Separating-axis oracle, exact in integer arithmetic, for non-degenerate triangles: they are
// disjoint iff their projections on one of n_a, n_b, e_i × f_j, n_a × e_i, n_b × f_j are disjoint
// intervals (the facet normals of the Minkowski difference).
using IVec = std::array<int64_t, 3>;

IVec sub(const IVec& a, const IVec& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
IVec cross(const IVec& a, const IVec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
int64_t dot(const IVec& a, const IVec& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

bool sat_intersect(const std::array<IVec, 3>& a, const std::array<IVec, 3>& b) {
  std::vector<IVec> axes;
  const IVec na = cross(sub(a[1], a[0]), sub(a[2], a[0]));
  const IVec nb = cross(sub(b[1], b[0]), sub(b[2], b[0]));
  axes.push_back(na);
  axes.push_back(nb);
  for (int i = 0; i < 3; ++i) {
    const IVec e = sub(a[(i + 1) % 3], a[i]);
    axes.push_back(cross(na, e));
    for (int j = 0; j < 3; ++j) {
      axes.push_back(cross(e, sub(b[(j + 1) % 3], b[j])));
    }
    axes.push_back(cross(nb, sub(b[(i + 1) % 3], b[i])));
  }
  for (const IVec& axis : axes) {
    if (axis[0] == 0 && axis[1] == 0 && axis[2] == 0) {
      continue;
    }
    int64_t a_min = INT64_MAX, a_max = INT64_MIN, b_min = INT64_MAX, b_max = INT64_MIN;
    for (int i = 0; i < 3; ++i) {
      a_min = std::min(a_min, dot(axis, a[i]));
      a_max = std::max(a_max, dot(axis, a[i]));
      b_min = std::min(b_min, dot(axis, b[i]));
      b_max = std::max(b_max, dot(axis, b[i]));
    }
    if (a_max < b_min || b_max < a_min) {
      return false;
    }
  }
  return true;
}

std::string describe(const std::array<IVec, 3>& t) {
  std::ostringstream out;
  for (const IVec& v : t) {
    out << "(" << v[0] << "," << v[1] << "," << v[2] << ")";
  }
  return out.str();
}

TEST(TriangleTriangleIntersection, RandomSmallIntegerTrianglesAgainstSeparatingAxes) {
  std::mt19937_64 rng(31);
  std::uniform_int_distribution<int64_t> coordinate(-3, 3);
  std::uniform_int_distribution<int> flat(0, 3);
  int intersecting = 0, tested = 0;
  for (int trial = 0; trial < 100000; ++trial) {
    std::array<IVec, 3> a, b;
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) {
        a[i][k] = coordinate(rng);
        b[i][k] = coordinate(rng);
      }
    }
    if (flat(rng) == 0) {  // many coplanar pairs: both in z = 0
      for (int i = 0; i < 3; ++i) {
        a[i][2] = b[i][2] = 0;
      }
    }
    const IVec zero = {0, 0, 0};
    if (cross(sub(a[1], a[0]), sub(a[2], a[0])) == zero ||
        cross(sub(b[1], b[0]), sub(b[2], b[0])) == zero) {
      continue;  // degenerate: the oracle does not cover it
    }
    ++tested;
    const bool expected = sat_intersect(a, b);
    intersecting += expected;
    // Scale by 2⁻³⁰ and shift by 2⁴ (both exact) so the inputs are not small integers.
    const auto to_double = [](const IVec& v) -> Vector3d {
      return Vector3d(v[0], v[1], v[2]) * std::ldexp(1.0, -30) + Vector3d(16, 16, 16);
    };
    const std::array<Vector3d, 3> da = {to_double(a[0]), to_double(a[1]), to_double(a[2])};
    const std::array<Vector3d, 3> db = {to_double(b[0]), to_double(b[1]), to_double(b[2])};
    ASSERT_EQ(intersect(da, db), expected) << trial << " " << describe(a) << " | " << describe(b);
    ASSERT_EQ(intersect(db, da), expected) << trial;
  }
  EXPECT_GT(tested, 50000);
  EXPECT_GT(intersecting, tested / 10);
  EXPECT_LT(intersecting, tested - tested / 10);
}

}  // namespace
}  // namespace clothfit::collision
