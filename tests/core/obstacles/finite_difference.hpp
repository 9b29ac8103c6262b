// Finite-difference helpers for the obstacle tests: gradients of scalar functions of a 3-vector by
// the shared central differences of tests/support/finite_difference.hpp, and random points.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <random>

#include "support/finite_difference.hpp"
#include "support/random_vector.hpp"

namespace clothfit::obstacles::testing {

// Central-difference gradient of f at x with step `step` (truncation error O(step²)), through the
// suites' shared helper.
inline Eigen::Vector3d central_difference_gradient(
    const std::function<double(const Eigen::Vector3d&)>& f, const Eigen::Vector3d& x,
    double step = 1e-6) {
  const auto as_vector = [&f](const Eigen::VectorXd& y) {
    return Eigen::VectorXd::Constant(1, f(Eigen::Vector3d(y)));
  };
  return clothfit::testing::finite_difference_jacobian(as_vector, x, step).row(0).transpose();
}

// A uniformly random point in the box [lo, hi] (per coordinate).
inline Eigen::Vector3d random_point(std::mt19937& rng, const Eigen::Vector3d& lo,
                                    const Eigen::Vector3d& hi) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  return lo + clothfit::testing::random_vector3(u, rng).cwiseProduct(hi - lo);
}

}  // namespace clothfit::obstacles::testing
