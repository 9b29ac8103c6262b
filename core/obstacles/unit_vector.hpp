// A finite nonzero vector scaled to unit length, whatever its length: v.normalized() (the same
// bits) where |v|² is a normal double, else v divided by its largest |component| first, so that
// directions such as [0, 0, 1e200] (|v|² overflows) or [0, 0, 1e-200] (underflows) are
// normalised too instead of becoming 0 or NaN.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <limits>

namespace clothfit::obstacles {

inline Eigen::Vector3d unit_vector(const Eigen::Vector3d& v) {
  const double squared = v.squaredNorm();
  if (std::isfinite(squared) && squared >= std::numeric_limits<double>::min())
    return v.normalized();
  return (v / v.cwiseAbs().maxCoeff()).normalized();
}

}  // namespace clothfit::obstacles
