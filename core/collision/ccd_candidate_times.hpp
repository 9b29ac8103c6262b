// The candidate times of one CCD test: t = 0 and the roots in [0, 1] of the polynomials whose sign
// changes bound the set {t : distance(t) ≤ tau} (see point_triangle_ccd.hpp), and the scan that
// turns them into the first time at which the directly measured distance is ≤ tau + tol.
//
// Scan. Candidates are visited in increasing order; the first whose measured distance is
// ≤ tau + tol is accepted. The entry into {distance ≤ tau + tol} lies between the last rejected
// candidate and the accepted one, and the scan bisects the measured distance there (to 1e-12 in t),
// so tangential approaches, whose candidate is the touching point itself, report the time at which
// the distance came down to tau + tol rather than the touching time.
//
// Near misses. The feature polynomials can be ill-conditioned (nearly parallel edges: V² and
// tau²|N|² cancel over many digits), so a root may land slightly before the contact set, with a
// measured distance a little above tau + tol. Such a candidate (excess ≤ 10⁻⁶·tau + 10³·tol) is
// polished: the scan looks 10⁻¹², 10⁻¹⁰, 10⁻⁸, 10⁻⁶ later for a time where the distance is
// ≤ tau + tol and bisects in between.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <optional>

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

  // Sorts the candidates and returns the first contact time (see above): a t ∈ [0, 1] with
  // distance_at(t) ≤ tau + tol, or nullopt. distance_at: double(double t), m.
  template <class DistanceAt>
  std::optional<double> first_contact(const DistanceAt& distance_at, double tau, double tol) {
    sort();
    const double limit = tau + tol;
    const double near_miss = limit + 1e-6 * tau + 1e3 * tol;
    // Bisects [lo, hi] with distance(lo) > limit ≥ distance(hi); returns the final hi.
    const auto entry = [&](double lo, double hi) {
      while (hi - lo > 1e-12) {
        const double mid = 0.5 * (lo + hi);
        if (!(mid > lo && mid < hi)) {
          break;
        }
        (distance_at(mid) <= limit ? hi : lo) = mid;
      }
      return hi;
    };
    double rejected = -1.0;  // the latest candidate found apart (distance > limit)
    for (double t : *this) {
      if (t <= rejected) {
        continue;
      }
      const double d = distance_at(t);
      if (d <= limit) {
        return rejected < 0.0 ? t : entry(rejected, t);
      }
      rejected = t;
      if (!(d <= near_miss)) {
        continue;
      }
      for (double step : {1e-12, 1e-10, 1e-8, 1e-6}) {
        const double later = std::min(1.0, t + step);
        if (distance_at(later) <= limit) {
          return entry(t, later);
        }
      }
    }
    return std::nullopt;
  }

  const double* begin() const { return m_times.data(); }
  const double* end() const { return m_times.data() + m_count; }
  int size() const { return m_count; }

 private:
  std::array<double, kCapacity> m_times{};
  int m_count = 0;
};

}  // namespace clothfit::collision
