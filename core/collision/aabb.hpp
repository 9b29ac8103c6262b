// Axis-aligned bounding box in world coordinates (m), the bounding volume of the broad phase.
#pragma once

#include <Eigen/Core>
#include <limits>

namespace clothfit::collision {

struct Aabb {
  Eigen::Vector3d lower = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Vector3d upper = Eigen::Vector3d::Constant(-std::numeric_limits<double>::infinity());

  void extend(const Eigen::Vector3d& x) {
    lower = lower.cwiseMin(x);
    upper = upper.cwiseMax(x);
  }
  void extend(const Aabb& box) {
    lower = lower.cwiseMin(box.lower);
    upper = upper.cwiseMax(box.upper);
  }
  void inflate(double amount) {
    lower.array() -= amount;
    upper.array() += amount;
  }
  // Closed boxes: touching faces overlap.
  bool overlaps(const Aabb& other) const {
    return lower.x() <= other.upper.x() && other.lower.x() <= upper.x() &&
           lower.y() <= other.upper.y() && other.lower.y() <= upper.y() &&
           lower.z() <= other.upper.z() && other.lower.z() <= upper.z();
  }
  Eigen::Vector3d center() const { return 0.5 * (lower + upper); }
  // m², 0 for an empty box.
  double surface_area() const {
    const Eigen::Vector3d d = (upper - lower).cwiseMax(0.0);
    return 2.0 * (d.x() * d.y() + d.y() * d.z() + d.z() * d.x());
  }
};

}  // namespace clothfit::collision
