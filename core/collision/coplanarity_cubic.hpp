// The coplanarity cubic of paper eq. 4: four points moving linearly over t ∈ [0, 1] are coplanar
// when
//
//   V(t) = ((x1(t) − x0(t)) × (x2(t) − x0(t))) · (x3(t) − x0(t)) = k0 + k1 t + k2 t² + k3 t³ = 0,
//
// the signed volume (×6) of the tetrahedron x0 x1 x2 x3 (collision_types.hpp glossary).
#pragma once

#include <Eigen/Core>

#include "core/collision/motion_polynomial.hpp"
#include "core/collision/polynomial_roots.hpp"

namespace clothfit::collision {

struct CoplanarityCubic {
  Eigen::Vector4d coefficients;  // (k0, k1, k2, k3), m³: V(t) = Σ k_i tⁱ
  double error_bound = 0.0;      // m³, bounds |computed V(t) − exact V(t)| for t ∈ [0, 1]

  double operator()(double t) const {
    return ((coefficients[3] * t + coefficients[2]) * t + coefficients[1]) * t + coefficients[0];
  }
};

// V(t) as a polynomial with its rounding bound (the form the CCD kernels compose further).
MotionPolynomial coplanarity_polynomial(const Eigen::Vector3d& x0_t0, const Eigen::Vector3d& x1_t0,
                                        const Eigen::Vector3d& x2_t0, const Eigen::Vector3d& x3_t0,
                                        const Eigen::Vector3d& x0_t1, const Eigen::Vector3d& x1_t1,
                                        const Eigen::Vector3d& x2_t1, const Eigen::Vector3d& x3_t1);

CoplanarityCubic coplanarity_cubic(const Eigen::Vector3d& x0_t0, const Eigen::Vector3d& x1_t0,
                                   const Eigen::Vector3d& x2_t0, const Eigen::Vector3d& x3_t0,
                                   const Eigen::Vector3d& x0_t1, const Eigen::Vector3d& x1_t1,
                                   const Eigen::Vector3d& x2_t1, const Eigen::Vector3d& x3_t1);

// All real roots of V in [0, 1], sorted ascending (polynomial_roots.hpp): simple roots to full
// precision, roots at t = 0 and t = 1, double roots (touching), and identically_zero when the four
// points stay coplanar over the whole interval up to rounding. Robust to a vanishing leading
// coefficient (the cubic then behaves as the quadratic or linear it is).
UnitIntervalRoots coplanarity_cubic_roots(const CoplanarityCubic& cubic);

}  // namespace clothfit::collision
