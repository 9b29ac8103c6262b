// Real roots in [0, 1] of a polynomial of degree ≤ 6 given with a bound on its rounding error.
//
// Method (no closed form, no division by the leading coefficient): the critical points of p are
// found first, recursively, as the roots of p′; they split [0, 1] into pieces on which p is
// monotone. A piece whose end values have strictly opposite signs (both beyond the error bound)
// holds exactly one simple root, found by safeguarded Newton–bisection to full precision. An end
// point (0, 1 or a critical point) where |p| ≤ error bound is reported as a root too: this is how
// roots at t = 0 or t = 1, double (touching) roots and near-double roots are found. Near-zero
// leading coefficients need no special case: the recursion only ever evaluates p and p′. Before
// recursing, a polynomial whose Bernstein coefficients on [0, 1] all exceed twice the error bound
// with one sign is discarded at once (convex hull property): most feature polynomials of a CCD
// query end there.
//
// The result is a superset of the roots up to rounding: every exact root of the exact polynomial
// lies within the rounding error of a reported t, and every reported t has |p(t)| ≤ error bound or
// is a sign change. Polynomials with Σ|c_k| ≤ error bound are reported as identically zero.
#pragma once

#include <array>
#include <span>

namespace clothfit::collision {

struct UnitIntervalRoots {
  static constexpr int kCapacity = 32;
  std::array<double, kCapacity> t{};  // roots, sorted ascending, in [0, 1]; first `count` valid
  int count = 0;
  bool identically_zero = false;  // |p(t)| ≤ error bound for all t ∈ [0, 1]; then count = 0

  const double* begin() const { return t.data(); }
  const double* end() const { return t.data() + count; }
};

// coefficients: c_0 … c_d (c_k multiplies t^k), 1 ≤ size ≤ 7. error_bound ≥ 0: a bound on the
// difference between the computed and the exact value of p(t) for t ∈ [0, 1] (same unit as p).
UnitIntervalRoots unit_interval_roots(std::span<const double> coefficients, double error_bound);

}  // namespace clothfit::collision
