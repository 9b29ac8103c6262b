// Plane: the half-space above an infinite plane, h(X) = n·(X − p), the exact signed distance.
// Typical use: the floor (p = 0, n = ẑ) or a ramp tilted by θ (n = (sin θ, 0, cos θ)).
#pragma once

#include <string>

#include "core/obstacles/obstacle.hpp"

namespace clothfit::obstacles {

struct PlaneGeometry {
  Eigen::Vector3d point_m = Eigen::Vector3d::Zero();  // p, any point of the plane (rest frame), m
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // n, outward (free side); nonzero, normalised

  bool is_valid(std::string* why = nullptr) const;
};

class Plane final : public Obstacle {
 public:
  // Asserts geometry.is_valid().
  Plane(PlaneGeometry geometry, ObstacleOptions options);

  std::unique_ptr<Obstacle> clone() const override { return std::make_unique<Plane>(*this); }
  std::string_view type() const override { return "plane"; }
  bool is_signed_distance() const override { return true; }
  ValueAndGradient evaluate_rest(const Eigen::Vector3d& x_rest_m) const override {
    return {m_geometry.normal.dot(x_rest_m - m_geometry.point_m), m_geometry.normal};
  }

  // The geometry with the normal normalised.
  const PlaneGeometry& geometry() const { return m_geometry; }

 private:
  PlaneGeometry m_geometry;
};

}  // namespace clothfit::obstacles
