#include "core/collision/coplanarity_cubic.hpp"

#include <Eigen/Geometry>

namespace clothfit::collision {

MotionPolynomial coplanarity_polynomial(const Eigen::Vector3d& x0_t0, const Eigen::Vector3d& x1_t0,
                                        const Eigen::Vector3d& x2_t0, const Eigen::Vector3d& x3_t0,
                                        const Eigen::Vector3d& x0_t1, const Eigen::Vector3d& x1_t1,
                                        const Eigen::Vector3d& x2_t1,
                                        const Eigen::Vector3d& x3_t1) {
  const MotionVector x10 = relative_motion(x0_t0, x1_t0, x0_t1, x1_t1);
  const MotionVector x20 = relative_motion(x0_t0, x2_t0, x0_t1, x2_t1);
  const MotionVector x30 = relative_motion(x0_t0, x3_t0, x0_t1, x3_t1);
  return dot(cross(x10, x20), x30);
}

CoplanarityCubic coplanarity_cubic(const Eigen::Vector3d& x0_t0, const Eigen::Vector3d& x1_t0,
                                   const Eigen::Vector3d& x2_t0, const Eigen::Vector3d& x3_t0,
                                   const Eigen::Vector3d& x0_t1, const Eigen::Vector3d& x1_t1,
                                   const Eigen::Vector3d& x2_t1, const Eigen::Vector3d& x3_t1) {
  const MotionPolynomial v =
      coplanarity_polynomial(x0_t0, x1_t0, x2_t0, x3_t0, x0_t1, x1_t1, x2_t1, x3_t1);
  CoplanarityCubic cubic;
  for (int k = 0; k < 4; ++k) {
    cubic.coefficients[k] = v.coefficients[k];
  }
  cubic.error_bound = v.error_bound();
  return cubic;
}

UnitIntervalRoots coplanarity_cubic_roots(const CoplanarityCubic& cubic) {
  return unit_interval_roots(std::span<const double>(cubic.coefficients.data(), 4),
                             cubic.error_bound);
}

}  // namespace clothfit::collision
