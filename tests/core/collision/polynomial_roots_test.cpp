#include "core/collision/polynomial_roots.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace clothfit::collision {
namespace {

constexpr double kRootTolerance = 1e-12;

// Coefficients of scale · Π (t − r_i), lowest degree first.
std::vector<double> from_roots(const std::vector<double>& roots, double scale = 1.0) {
  std::vector<double> c = {scale};
  for (double r : roots) {
    std::vector<double> next(c.size() + 1, 0.0);
    for (size_t k = 0; k < c.size(); ++k) {
      next[k + 1] += c[k];
      next[k] -= r * c[k];
    }
    c = next;
  }
  return c;
}

double bound_of(const std::vector<double>& c) {
  double sum = 0.0;
  for (double x : c) {
    sum += std::abs(x);
  }
  return 1e-14 * sum;
}

std::vector<double> roots_of(const std::vector<double>& c, double bound) {
  const UnitIntervalRoots r = unit_interval_roots(c, bound);
  return std::vector<double>(r.begin(), r.end());
}

TEST(PolynomialRoots, SimpleRootsOfACubicSorted) {
  const std::vector<double> c = from_roots({0.7, 0.2, 0.45});
  const std::vector<double> roots = roots_of(c, bound_of(c));
  ASSERT_EQ(roots.size(), 3u);
  EXPECT_NEAR(roots[0], 0.2, kRootTolerance);
  EXPECT_NEAR(roots[1], 0.45, kRootTolerance);
  EXPECT_NEAR(roots[2], 0.7, kRootTolerance);
}

TEST(PolynomialRoots, RootsOutsideTheIntervalAreIgnored) {
  const std::vector<double> c = from_roots({-0.5, 0.3, 1.5});
  const std::vector<double> roots = roots_of(c, bound_of(c));
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_NEAR(roots[0], 0.3, kRootTolerance);
}

TEST(PolynomialRoots, RootsExactlyAtZeroAndOne) {
  const std::vector<double> c = from_roots({0.0, 1.0, 2.0});
  const std::vector<double> roots = roots_of(c, 0.0);
  ASSERT_EQ(roots.size(), 2u);
  EXPECT_EQ(roots[0], 0.0);
  EXPECT_EQ(roots[1], 1.0);
}

TEST(PolynomialRoots, DoubleRootIsFoundAsATouchingPoint) {
  // (t − 0.5)² (t + 3): touches zero at 0.5 without a sign change.
  const std::vector<double> c = from_roots({0.5, 0.5, -3.0});
  const std::vector<double> roots = roots_of(c, bound_of(c));
  ASSERT_FALSE(roots.empty());
  for (double r : roots) {
    EXPECT_NEAR(r, 0.5, 1e-6);
  }
}

TEST(PolynomialRoots, NearZeroLeadingCoefficientDegradesToQuadraticAndLinear) {
  // 1e-30 t³ + (t − 0.25)(t − 0.75): the quadratic's roots.
  std::vector<double> c = from_roots({0.25, 0.75});
  c.push_back(1e-30);
  std::vector<double> roots = roots_of(c, bound_of(c));
  ASSERT_EQ(roots.size(), 2u);
  EXPECT_NEAR(roots[0], 0.25, kRootTolerance);
  EXPECT_NEAR(roots[1], 0.75, kRootTolerance);

  // −1e-300 t³ + 1e-300 t² + 2 t − 1: the linear root 1/2.
  c = {-1.0, 2.0, 1e-300, -1e-300};
  roots = roots_of(c, bound_of(c));
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_NEAR(roots[0], 0.5, kRootTolerance);

  // A tiny cubic term that still matters: 1e-9 (t³ − …) scaled roots.
  c = from_roots({0.1, 0.6, 0.9}, 1e-9);
  roots = roots_of(c, bound_of(c));
  ASSERT_EQ(roots.size(), 3u);
  EXPECT_NEAR(roots[0], 0.1, kRootTolerance);
  EXPECT_NEAR(roots[1], 0.6, kRootTolerance);
  EXPECT_NEAR(roots[2], 0.9, kRootTolerance);
}

TEST(PolynomialRoots, IdenticallyZeroPolynomial) {
  const UnitIntervalRoots r =
      unit_interval_roots(std::vector<double>{0.0, 1e-20, -1e-20, 0.0}, 1e-18);
  EXPECT_TRUE(r.identically_zero);
  EXPECT_EQ(r.count, 0);
  const UnitIntervalRoots exact = unit_interval_roots(std::vector<double>{0.0, 0.0}, 0.0);
  EXPECT_TRUE(exact.identically_zero);
}

TEST(PolynomialRoots, ConstantWithoutRoots) {
  const UnitIntervalRoots r = unit_interval_roots(std::vector<double>{2.0}, 1e-15);
  EXPECT_FALSE(r.identically_zero);
  EXPECT_EQ(r.count, 0);
}

TEST(PolynomialRoots, NearlyDoubleRootsAreBothFound) {
  // Roots 0.5 ± 1e-6 (minimum −1.5e-12, well beyond the bound): the critical point between them
  // separates them.
  const std::vector<double> c = from_roots({0.5 - 1e-6, 0.5 + 1e-6, 2.0});
  const std::vector<double> roots = roots_of(c, bound_of(c));
  ASSERT_EQ(roots.size(), 2u);
  EXPECT_NEAR(roots.front(), 0.5 - 1e-6, 1e-9);
  EXPECT_NEAR(roots.back(), 0.5 + 1e-6, 1e-9);
}

TEST(PolynomialRoots, RootPairWithinTheBoundIsReportedAsOneTouchingRoot) {
  // Roots 0.5 ± 1e-8: the minimum (−1.5e-16) is below the error bound, so the pair cannot be
  // resolved; the critical point between them is reported.
  const std::vector<double> c = from_roots({0.5 - 1e-8, 0.5 + 1e-8, 2.0});
  const std::vector<double> roots = roots_of(c, bound_of(c));
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_NEAR(roots.front(), 0.5, 2e-8);
}

// Randomized: polynomials of degree 1–6 built from random roots (some inside [0, 1], some outside,
// sometimes repeated), compared with the known roots.
TEST(PolynomialRoots, RandomPolynomialsFromKnownRoots) {
  std::mt19937_64 rng(1234);
  std::uniform_real_distribution<double> in01(0.0, 1.0);
  std::uniform_real_distribution<double> wide(-2.0, 3.0);
  std::uniform_int_distribution<int> degree_of(1, 6);
  for (int trial = 0; trial < 20000; ++trial) {
    const int degree = degree_of(rng);
    std::vector<double> roots;
    for (int k = 0; k < degree; ++k) {
      roots.push_back(in01(rng) < 0.6 ? in01(rng) : wide(rng));
    }
    const double scale = std::pow(10.0, wide(rng) * 4.0);
    const std::vector<double> c = from_roots(roots, scale);
    const std::vector<double> found = roots_of(c, bound_of(c));
    ASSERT_TRUE(std::is_sorted(found.begin(), found.end()));
    // Every true root in [0, 1] has a reported root close by (roots of multiplicity m move by
    // about (rounding)^(1/m), so compare with a loose tolerance set by the closest other root).
    for (double r : roots) {
      if (r < 0.0 || r > 1.0) {
        continue;
      }
      double nearest = 1e300;
      for (double f : found) {
        nearest = std::min(nearest, std::abs(f - r));
      }
      // Conditioning of a simple root: |δr| ≈ |δp| / |p′(r)|, p′(r) = scale Π_{j≠i} (r − r_j).
      double slope = scale;
      bool skipped_self = false;
      for (double other : roots) {
        if (other == r && !skipped_self) {
          skipped_self = true;
          continue;
        }
        slope *= r - other;
      }
      const double simple = 10.0 * bound_of(c) / std::abs(slope) + 1e-12;
      const double tolerance = simple < 1e-4 ? simple : 2e-2;
      ASSERT_LE(nearest, tolerance) << "trial " << trial << " root " << r;
    }
    // Every reported root is a root up to the bound, or sits next to a true root.
    for (double f : found) {
      double value = 0.0;
      for (int k = static_cast<int>(c.size()) - 1; k >= 0; --k) {
        value = value * f + c[k];
      }
      double nearest = 1e300;
      for (double r : roots) {
        nearest = std::min(nearest, std::abs(f - r));
      }
      ASSERT_TRUE(std::abs(value) <= 10 * bound_of(c) || nearest <= 1e-6)
          << "trial " << trial << " spurious root " << f;
    }
  }
}

}  // namespace
}  // namespace clothfit::collision
