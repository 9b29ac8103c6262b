// Finite-difference checks for the obstacle tests: central differences of a scalar function of a
// 3-vector. (A shared helper for all suites would belong in tests/support/; this one is local to
// the obstacle tests until there is one.)
#pragma once

#include <Eigen/Core>
#include <functional>
#include <random>

namespace clothfit::obstacles::testing {

// Central-difference gradient of f at x with step `step` (truncation error O(step²)).
inline Eigen::Vector3d central_difference_gradient(
    const std::function<double(const Eigen::Vector3d&)>& f, const Eigen::Vector3d& x,
    double step = 1e-6) {
  Eigen::Vector3d g;
  for (int i = 0; i < 3; ++i) {
    const Eigen::Vector3d e = step * Eigen::Vector3d::Unit(i);
    g[i] = (f(x + e) - f(x - e)) / (2.0 * step);
  }
  return g;
}

// A uniformly random point in the box [lo, hi] (per coordinate).
inline Eigen::Vector3d random_point(std::mt19937& rng, const Eigen::Vector3d& lo,
                                    const Eigen::Vector3d& hi) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  return lo + Eigen::Vector3d(u(rng), u(rng), u(rng)).cwiseProduct(hi - lo);
}

}  // namespace clothfit::obstacles::testing
