// Shared vocabulary of clothfit::collision: the glossary of the symbols the collision code uses,
// the options of the continuous collision detection (CCD) kernels and their results.
//
// Glossary
//   _t0, _t1   a position at the start (t = 0) and at the end (t = 1) of a CCD interval. Inside
//              the interval every point moves linearly, x(t) = (1 − t)·x_t0 + t·x_t1, t ∈ [0, 1].
//              For a step from φⁿ to φ_j (paper §4.1) t = (time − tₙ)/Δt.
//   p          a point: a cloth node, or an end point of a stick segment.
//   a, b, c    the corners of a triangle, in the order the mesh lists them.
//   ea0, ea1   the end points of edge a; eb0, eb1 those of edge b.
//   x0 … x3    the four points of a coplanarity test (the paper's p₁ … p₄, 0-based here).
//   V(t)       the coplanarity function ((x1 − x0) × (x2 − x0)) · (x3 − x0), m³ (paper eq. 4).
//              Point-triangle: x0, x1, x2 = a, b, c and x3 = p, so V = N · (p − a). Edge-edge:
//              x0, x1 = ea0, ea1 and x2, x3 = eb0, eb1.
//   N          the unnormalised normal (b − a) × (c − a) of a triangle, or (ea1 − ea0) × (eb1 −
//   eb0)
//              of two edges, m².
//   w          barycentric weights (w_a, w_b, w_c) ≥ 0, Σ = 1, of the point w_a a + w_b b + w_c c.
//   s, u       edge parameters in [0, 1]: the point (1 − s)·ea0 + s·ea1 on edge a and
//              (1 − u)·eb0 + u·eb1 on edge b.
//   sep        the separation vector with frozen weights: p − (w_a a + w_b b + w_c c), or
//              ((1 − s) ea0 + s ea1) − ((1 − u) eb0 + u eb1). sep_t0 and sep_t1 use the positions
//              at t0 and t1 with the weights found at the contact time.
//   n          the unit contact normal, frozen at the contact time, oriented so that n·sep_t0 ≥ 0:
//              the response constraint H = n·sep ≥ τ0 then holds at the start state (paper §3.2).
//   τ0         thickness of the cloth (or radius of the stick), m.
//   ω          the proximity parameter of paper §3.3 (0 ≤ ω < 1/2 in the paper's Definition 1).
//   tau        the detection distance 2·ω·τ0, m: in paper §3.3 each element of a pair is moved ωτ0
//              towards the other (p̂ = p ± ωτ0ν), so the pair is detected when its distance reaches
//              2ωτ0. tau = 0 is the exact test: coplanar and inside (paper §3.1).
//   L          the extent (largest side) of the bounding box of a pair's positions at t0 and t1, m.
//   tol        the distance tolerance of a test, relative_tolerance·L + 64·u·max|coordinate|, m,
//              where u = 2⁻⁵³ is the unit round-off.
#pragma once

#include <Eigen/Core>

namespace clothfit::collision {

struct CcdOptions {
  // τ0: cloth thickness or stick radius, m, ≥ 0.
  double thickness = 0.0;
  // ω: proximity parameter, dimensionless, ≥ 0 (the paper uses ω ≈ 0.5 and retries with 0.9·ω).
  double proximity = 0.0;
  // A pair touches when its distance is ≤ tau + tol, tol = relative_tolerance·L + 64·u·max|x|
  // (glossary): 1 nm for a pair spanning 1 m. Covers the rounding of the positions and of the root
  // finding; > 0.
  double relative_tolerance = 1e-9;

  // tau = 2·ω·τ0, m (glossary).
  double detection_distance() const { return 2.0 * proximity * thickness; }
  bool is_valid() const {
    return thickness >= 0.0 && proximity >= 0.0 && relative_tolerance > 0.0 &&
           relative_tolerance < 1e-2;
  }
};

// First contact of a point with a moving triangle.
struct PointTriangleCcdResult {
  double time = 0.0;         // t ∈ [0, 1] of the first contact
  Eigen::Vector3d weights;   // (w_a, w_b, w_c) of the triangle's closest point at `time`
  Eigen::Vector3d normal;    // n, unit, frozen at `time`, n·sep_t0 ≥ −tol
  double distance = 0.0;     // distance point–triangle at `time`, m, ≤ tau + tol
  double separation_t0 = 0;  // n·sep_t0, m: the constraint value H at the start state
};

// First contact of two moving edges.
struct EdgeEdgeCcdResult {
  double time = 0.0;       // t ∈ [0, 1] of the first contact
  double s = 0.0;          // parameter of the closest point on edge a at `time`, ∈ [0, 1]
  double u = 0.0;          // parameter of the closest point on edge b at `time`, ∈ [0, 1]
  Eigen::Vector3d normal;  // n, unit, frozen at `time`, n·sep_t0 ≥ −tol (sep = edge a − edge b)
  double distance = 0.0;     // distance between the edges at `time`, m, ≤ tau + tol
  double separation_t0 = 0;  // n·sep_t0, m
};

}  // namespace clothfit::collision
