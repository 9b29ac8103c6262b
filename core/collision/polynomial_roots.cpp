#include "core/collision/polynomial_roots.hpp"

#include <cassert>
#include <cmath>
#include <limits>

namespace clothfit::collision {
namespace {

constexpr int kMaxDegree = 6;
constexpr int kMaxBreaks = UnitIntervalRoots::kCapacity + 2;

struct ValueAndSlope {
  double value;
  double slope;
};

ValueAndSlope evaluate(const double* c, int degree, double t) {
  double value = c[degree];
  double slope = 0.0;
  for (int k = degree - 1; k >= 0; --k) {
    slope = slope * t + value;
    value = value * t + c[k];
  }
  return {value, slope};
}

// The root of p in (lo, hi) when p(lo) = f_lo and p(hi) have strictly opposite signs and p is
// monotone there: Newton steps while they stay inside the bracket and halve it at least as fast as
// bisection would, bisection otherwise (rtsafe). Stops at full double precision.
double refine_root(const double* c, int degree, double lo, double hi, double f_lo) {
  const bool rising = f_lo < 0.0;
  double x = 0.5 * (lo + hi);
  double step = hi - lo;
  double step_before = step;
  for (int iteration = 0; iteration < 200; ++iteration) {
    const ValueAndSlope e = evaluate(c, degree, x);
    if (e.value == 0.0) {
      return x;
    }
    if ((e.value < 0.0) == rising) {
      lo = x;
    } else {
      hi = x;
    }
    const double newton = e.slope != 0.0 ? x - e.value / e.slope : lo;
    double next;
    if (newton > lo && newton < hi && std::abs(2.0 * e.value) < std::abs(step_before * e.slope)) {
      next = newton;
    } else {
      next = 0.5 * (lo + hi);
    }
    step_before = step;
    step = next - x;
    if (next == x || hi - lo <= 2.0 * std::numeric_limits<double>::epsilon() * hi ||
        std::abs(step) <= 1e-17) {
      return next;
    }
    x = next;
  }
  return x;
}

// Exclusion test: p on [0, 1] lies in the convex hull of its Bernstein coefficients
// b_i = Σ_{k ≤ i} C(i, k)/C(n, k) c_k, so when all of them exceed the bound with one sign, p has
// no root (even up to rounding: |p| > bound everywhere). Cheap (n²) and prunes most polynomials.
bool no_root_by_bernstein(const double* c, int degree, double bound) {
  static constexpr double kBinomial[kMaxDegree + 1][kMaxDegree + 1] = {
      {1, 0, 0, 0, 0, 0, 0},   {1, 1, 0, 0, 0, 0, 0}, {1, 2, 1, 0, 0, 0, 0},
      {1, 3, 3, 1, 0, 0, 0},   {1, 4, 6, 4, 1, 0, 0}, {1, 5, 10, 10, 5, 1, 0},
      {1, 6, 15, 20, 15, 6, 1}};
  bool all_positive = true;
  bool all_negative = true;
  for (int i = 0; i <= degree && (all_positive || all_negative); ++i) {
    double b = 0.0;
    for (int k = 0; k <= i; ++k) {
      b += kBinomial[i][k] / kBinomial[degree][k] * c[k];
    }
    all_positive = all_positive && b > 2.0 * bound;
    all_negative = all_negative && b < -2.0 * bound;
  }
  return all_positive || all_negative;
}

void find_roots(const double* c, int degree, double bound, UnitIntervalRoots& out) {
  out.count = 0;
  out.identically_zero = false;
  double sum = 0.0;
  for (int k = 0; k <= degree; ++k) {
    sum += std::abs(c[k]);
  }
  if (!(sum > bound)) {
    out.identically_zero = true;
    return;
  }
  while (degree > 0 && c[degree] == 0.0) {
    --degree;
  }
  if (no_root_by_bernstein(c, degree, bound)) {
    return;
  }

  // Break points: 0, the critical points in (0, 1), 1. p is monotone between two of them.
  std::array<double, kMaxBreaks> breaks{};
  int num_breaks = 0;
  breaks[num_breaks++] = 0.0;
  if (degree >= 2) {
    std::array<double, kMaxDegree> derivative{};
    for (int k = 1; k <= degree; ++k) {
      derivative[k - 1] = k * c[k];
    }
    UnitIntervalRoots critical;
    find_roots(derivative.data(), degree - 1, degree * bound, critical);
    for (double t : critical) {
      if (t > breaks[num_breaks - 1] && t < 1.0 && num_breaks < kMaxBreaks - 1) {
        breaks[num_breaks++] = t;
      }
    }
  }
  breaks[num_breaks++] = 1.0;

  std::array<double, kMaxBreaks> values{};
  for (int i = 0; i < num_breaks; ++i) {
    values[i] = evaluate(c, degree, breaks[i]).value;
  }
  const auto add = [&out](double t) {
    if (out.count > 0 && !(t > out.t[out.count - 1])) {
      return;
    }
    assert(out.count < UnitIntervalRoots::kCapacity);
    if (out.count < UnitIntervalRoots::kCapacity) {
      out.t[out.count++] = t;
    }
  };
  for (int i = 0; i < num_breaks; ++i) {
    const bool zero_here = std::abs(values[i]) <= bound;
    if (zero_here) {
      add(breaks[i]);
    }
    if (i + 1 < num_breaks && !zero_here && std::abs(values[i + 1]) > bound &&
        (values[i] < 0.0) != (values[i + 1] < 0.0)) {
      add(refine_root(c, degree, breaks[i], breaks[i + 1], values[i]));
    }
  }
}

}  // namespace

UnitIntervalRoots unit_interval_roots(std::span<const double> coefficients, double error_bound) {
  assert(!coefficients.empty() && coefficients.size() <= kMaxDegree + 1);
  assert(error_bound >= 0.0);
  UnitIntervalRoots roots;
  find_roots(coefficients.data(), static_cast<int>(coefficients.size()) - 1, error_bound, roots);
  return roots;
}

}  // namespace clothfit::collision
