// Sphere: h(X) = ‖X − c‖ − r, the exact signed distance (negative inside, down to −r at the
// centre). At the centre itself, where the distance has no gradient, ∇h = ẑ is returned.
#pragma once

#include <string>

#include "core/obstacles/obstacle.hpp"

namespace clothfit::obstacles {

struct SphereGeometry {
  Eigen::Vector3d centre_m = Eigen::Vector3d::Zero();  // c (rest frame), m
  double radius_m = 1.0;                               // r > 0, m

  bool is_valid(std::string* why = nullptr) const;
};

class Sphere final : public Obstacle {
 public:
  // Asserts geometry.is_valid().
  Sphere(SphereGeometry geometry, ObstacleOptions options);

  std::unique_ptr<Obstacle> clone() const override { return std::make_unique<Sphere>(*this); }
  std::string_view type() const override { return "sphere"; }
  bool is_signed_distance() const override { return true; }
  ValueAndGradient evaluate_rest(const Eigen::Vector3d& x_rest_m) const override;

  const SphereGeometry& geometry() const { return m_geometry; }

 private:
  SphereGeometry m_geometry;
};

}  // namespace clothfit::obstacles
