#include "core/collision/triangle_triangle_intersection.hpp"

#include <algorithm>
#include <array>

#include "core/collision/orientation_predicates.hpp"

namespace clothfit::collision {
namespace {

using Eigen::Vector2d;
using Eigen::Vector3d;

// Projection dropping coordinate `axis`.
Vector2d project(const Vector3d& x, int axis) {
  return axis == 0   ? Vector2d(x.y(), x.z())
         : axis == 1 ? Vector2d(x.z(), x.x())
                     : Vector2d(x.x(), x.y());
}

// p lies in the bounding box of segment (a, b); with orient2d(a, b, p) = 0 this means p ∈ [a, b].
bool within_box(const Vector2d& a, const Vector2d& b, const Vector2d& p) {
  return std::min(a.x(), b.x()) <= p.x() && p.x() <= std::max(a.x(), b.x()) &&
         std::min(a.y(), b.y()) <= p.y() && p.y() <= std::max(a.y(), b.y());
}

bool segments_intersect_2d(const Vector2d& p0, const Vector2d& p1, const Vector2d& q0,
                           const Vector2d& q1) {
  const int o1 = orient2d(p0, p1, q0);
  const int o2 = orient2d(p0, p1, q1);
  const int o3 = orient2d(q0, q1, p0);
  const int o4 = orient2d(q0, q1, p1);
  if (o1 * o2 < 0 && o3 * o4 < 0) {
    return true;
  }
  return (o1 == 0 && within_box(p0, p1, q0)) || (o2 == 0 && within_box(p0, p1, q1)) ||
         (o3 == 0 && within_box(q0, q1, p0)) || (o4 == 0 && within_box(q0, q1, p1));
}

// p in the closed, non-degenerate triangle (a, b, c).
bool point_in_triangle_2d(const Vector2d& p, const Vector2d& a, const Vector2d& b,
                          const Vector2d& c) {
  const int orientation = orient2d(a, b, c);
  if (orientation == 0) {
    return false;  // degenerate: covered by the edge tests
  }
  return orient2d(a, b, p) * orientation >= 0 && orient2d(b, c, p) * orientation >= 0 &&
         orient2d(c, a, p) * orientation >= 0;
}

bool triangles_intersect_2d(const std::array<Vector2d, 3>& a, const std::array<Vector2d, 3>& b) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      if (segments_intersect_2d(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3])) {
        return true;
      }
    }
  }
  return point_in_triangle_2d(a[0], b[0], b[1], b[2]) ||
         point_in_triangle_2d(b[0], a[0], a[1], a[2]);
}

bool segment_intersects_triangle_2d(const Vector2d& s0, const Vector2d& s1, const Vector2d& a,
                                    const Vector2d& b, const Vector2d& c) {
  return segments_intersect_2d(s0, s1, a, b) || segments_intersect_2d(s0, s1, b, c) ||
         segments_intersect_2d(s0, s1, c, a) || point_in_triangle_2d(s0, a, b, c);
}

// Exactly collinear (or coincident) corners.
bool degenerate(const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  for (int axis = 0; axis < 3; ++axis) {
    if (orient2d(project(a, axis), project(b, axis), project(c, axis)) != 0) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool segments_intersect(const Vector3d& p0, const Vector3d& p1, const Vector3d& q0,
                        const Vector3d& q1) {
  // Coplanar segments meet iff they meet in every coordinate projection.
  if (orient3d(p0, p1, q0, q1) != 0) {
    return false;
  }
  for (int axis = 0; axis < 3; ++axis) {
    if (!segments_intersect_2d(project(p0, axis), project(p1, axis), project(q0, axis),
                               project(q1, axis))) {
      return false;
    }
  }
  return true;
}

bool segment_intersects_triangle(const Vector3d& s0, const Vector3d& s1, const Vector3d& a,
                                 const Vector3d& b, const Vector3d& c) {
  if (degenerate(a, b, c)) {
    return segments_intersect(s0, s1, a, b) || segments_intersect(s0, s1, b, c) ||
           segments_intersect(s0, s1, c, a);
  }
  const int o0 = orient3d(a, b, c, s0);
  const int o1 = orient3d(a, b, c, s1);
  if (o0 * o1 > 0) {
    return false;
  }
  if (o0 == 0 && o1 == 0) {
    for (int axis = 0; axis < 3; ++axis) {
      if (!segment_intersects_triangle_2d(project(s0, axis), project(s1, axis), project(a, axis),
                                          project(b, axis), project(c, axis))) {
        return false;
      }
    }
    return true;
  }
  // The segment meets the plane in one point; it is inside the closed triangle iff the line s0 s1
  // passes on the same side of (or through) the three edges.
  const int e0 = orient3d(s0, s1, a, b);
  const int e1 = orient3d(s0, s1, b, c);
  const int e2 = orient3d(s0, s1, c, a);
  const bool has_positive = e0 > 0 || e1 > 0 || e2 > 0;
  const bool has_negative = e0 < 0 || e1 < 0 || e2 < 0;
  return !(has_positive && has_negative);
}

bool triangles_intersect(const Vector3d& a0, const Vector3d& a1, const Vector3d& a2,
                         const Vector3d& b0, const Vector3d& b1, const Vector3d& b2) {
  const std::array<const Vector3d*, 3> a = {&a0, &a1, &a2};
  const std::array<const Vector3d*, 3> b = {&b0, &b1, &b2};
  const auto any_edge_meets = [](const std::array<const Vector3d*, 3>& edges,
                                 const std::array<const Vector3d*, 3>& triangle) {
    for (int i = 0; i < 3; ++i) {
      if (segment_intersects_triangle(*edges[i], *edges[(i + 1) % 3], *triangle[0], *triangle[1],
                                      *triangle[2])) {
        return true;
      }
    }
    return false;
  };
  // A degenerate triangle gives orientation 0 for every point, so these rejections stay exact.
  const int ob0 = orient3d(a0, a1, a2, b0), ob1 = orient3d(a0, a1, a2, b1),
            ob2 = orient3d(a0, a1, a2, b2);
  if ((ob0 > 0 && ob1 > 0 && ob2 > 0) || (ob0 < 0 && ob1 < 0 && ob2 < 0)) {
    return false;
  }
  const int oa0 = orient3d(b0, b1, b2, a0), oa1 = orient3d(b0, b1, b2, a1),
            oa2 = orient3d(b0, b1, b2, a2);
  if ((oa0 > 0 && oa1 > 0 && oa2 > 0) || (oa0 < 0 && oa1 < 0 && oa2 < 0)) {
    return false;
  }
  if (degenerate(a0, a1, a2)) {
    return any_edge_meets(a, b);
  }
  if (degenerate(b0, b1, b2)) {
    return any_edge_meets(b, a);
  }
  if (ob0 == 0 && ob1 == 0 && ob2 == 0) {
    for (int axis = 0; axis < 3; ++axis) {
      if (!triangles_intersect_2d({project(a0, axis), project(a1, axis), project(a2, axis)},
                                  {project(b0, axis), project(b1, axis), project(b2, axis)})) {
        return false;
      }
    }
    return true;
  }
  return any_edge_meets(a, b) || any_edge_meets(b, a);
}

}  // namespace clothfit::collision
