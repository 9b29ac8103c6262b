// Polynomials in t ∈ [0, 1] built from linearly moving points (collision_types.hpp glossary), with
// a running bound on their rounding error.
//
// A MotionPolynomial holds the coefficients c_k of t^k (degree ≤ 6) and, beside them, magnitudes
// m_k ≥ Σ|terms| that were summed into c_k, propagated through + − × exactly as the coefficients
// (|Σ| ≤ Σ|·|). Every double operation rounds with relative error ≤ u = 2⁻⁵³, and the products
// of degree-6 quantities here chain fewer than 32 operations, so
//
//   |computed p(t) − exact p(t)| ≤ error_bound() = 64·u·Σ m_k   for every t ∈ [0, 1]
//
// (including the Horner evaluation). The bound is deliberately loose: it only decides when a value
// is "zero up to rounding" (a touching root, an identically vanishing polynomial), and a loose
// bound only adds candidate times, never removes one.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>

namespace clothfit::collision {

inline constexpr int kMaxMotionDegree = 6;

struct MotionPolynomial {
  std::array<double, kMaxMotionDegree + 1> coefficients{};  // c_k of t^k
  std::array<double, kMaxMotionDegree + 1> magnitudes{};    // m_k ≥ 0
  int degree = 0;

  double operator()(double t) const {
    double value = coefficients[degree];
    for (int k = degree - 1; k >= 0; --k) {
      value = value * t + coefficients[k];
    }
    return value;
  }
  double error_bound() const {
    double sum = 0.0;
    for (int k = 0; k <= degree; ++k) {
      sum += magnitudes[k];
    }
    return 64.0 * std::numeric_limits<double>::epsilon() * 0.5 * sum;
  }
};

inline MotionPolynomial operator+(const MotionPolynomial& p, const MotionPolynomial& q) {
  MotionPolynomial r;
  r.degree = std::max(p.degree, q.degree);
  for (int k = 0; k <= r.degree; ++k) {
    r.coefficients[k] = p.coefficients[k] + q.coefficients[k];
    r.magnitudes[k] = p.magnitudes[k] + q.magnitudes[k];
  }
  return r;
}

inline MotionPolynomial operator-(const MotionPolynomial& p, const MotionPolynomial& q) {
  MotionPolynomial r;
  r.degree = std::max(p.degree, q.degree);
  for (int k = 0; k <= r.degree; ++k) {
    r.coefficients[k] = p.coefficients[k] - q.coefficients[k];
    r.magnitudes[k] = p.magnitudes[k] + q.magnitudes[k];
  }
  return r;
}

inline MotionPolynomial operator*(const MotionPolynomial& p, const MotionPolynomial& q) {
  assert(p.degree + q.degree <= kMaxMotionDegree);
  MotionPolynomial r;
  r.degree = p.degree + q.degree;
  for (int i = 0; i <= p.degree; ++i) {
    for (int j = 0; j <= q.degree; ++j) {
      r.coefficients[i + j] += p.coefficients[i] * q.coefficients[j];
      r.magnitudes[i + j] += p.magnitudes[i] * q.magnitudes[j];
    }
  }
  return r;
}

// factor ≥ 0 times p.
inline MotionPolynomial scaled(const MotionPolynomial& p, double factor) {
  MotionPolynomial r = p;
  for (int k = 0; k <= r.degree; ++k) {
    r.coefficients[k] *= factor;
    r.magnitudes[k] *= std::abs(factor);
  }
  return r;
}

// The constant polynomial `value`.
inline MotionPolynomial constant_polynomial(double value) {
  MotionPolynomial r;
  r.coefficients[0] = value;
  r.magnitudes[0] = std::abs(value);
  return r;
}

// A vector whose three components are polynomials in t.
using MotionVector = std::array<MotionPolynomial, 3>;

// y(t) − x(t) for two linearly moving points: (y_t0 − x_t0) + t·((y_t1 − x_t1) − (y_t0 − x_t0)).
inline MotionVector relative_motion(const Eigen::Vector3d& x_t0, const Eigen::Vector3d& y_t0,
                                    const Eigen::Vector3d& x_t1, const Eigen::Vector3d& y_t1) {
  MotionVector r;
  for (int i = 0; i < 3; ++i) {
    const double d0 = y_t0[i] - x_t0[i];
    const double d1 = y_t1[i] - x_t1[i];
    r[i].degree = 1;
    r[i].coefficients[0] = d0;
    r[i].coefficients[1] = d1 - d0;
    r[i].magnitudes[0] = std::abs(d0);
    r[i].magnitudes[1] = std::abs(d0) + std::abs(d1);
  }
  return r;
}

inline MotionPolynomial dot(const MotionVector& x, const MotionVector& y) {
  return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
}

inline MotionVector cross(const MotionVector& x, const MotionVector& y) {
  return {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
}

}  // namespace clothfit::collision
