// The candidate times of one CCD test: t = 0 and the roots in [0, 1] of the polynomials whose sign
// changes bound the set {t : distance(t) ≤ tau} (see point_triangle_ccd.hpp). The kernels sort
// them and return the first at which the measured distance is ≤ tau + tol.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>

#include "core/collision/motion_polynomial.hpp"
#include "core/collision/polynomial_roots.hpp"

namespace clothfit::collision {

class CandidateTimes {
 public:
  static constexpr int kCapacity = 512;

  void add(double t) {
    assert(m_count < kCapacity);
    if (m_count < kCapacity) {
      m_times[m_count++] = t;
    }
  }
  // Adds the roots of p in [0, 1]; returns true when p vanishes identically (up to rounding).
  bool add_roots(const MotionPolynomial& p) {
    const UnitIntervalRoots roots = unit_interval_roots(
        std::span<const double>(p.coefficients.data(), p.degree + 1), p.error_bound());
    for (double t : roots) {
      add(t);
    }
    return roots.identically_zero;
  }
  void sort() { std::sort(m_times.begin(), m_times.begin() + m_count); }

  const double* begin() const { return m_times.data(); }
  const double* end() const { return m_times.data() + m_count; }
  int size() const { return m_count; }

 private:
  std::array<double, kCapacity> m_times{};
  int m_count = 0;
};

}  // namespace clothfit::collision
