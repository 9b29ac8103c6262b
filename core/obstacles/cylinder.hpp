// Cylinder: a solid finite circular cylinder with flat caps, any axis; h is its exact signed
// distance. With the axial coordinate z = a·(X − c), the radial distance ρ from the axis,
// the half length ℓ = length/2, and d_r = ρ − r, d_z = |z| − ℓ:
//
//   h = ‖(max(d_r, 0), max(d_z, 0))‖ + min(max(d_r, d_z), 0)
//
// Outside (h > 0) h is C¹ and ∇h is the unit vector from the nearest surface point (on the side,
// a cap, or a rim circle) towards X. On and inside the surface ∇h is the normal of the nearest
// face (side: radial unit vector; caps: ±a); where two faces are equally near (rim circle,
// medial surfaces inside) the side's normal is returned; on the axis the radial direction is a
// fixed unit vector perpendicular to a. So ∇h is a unit vector everywhere.
//
// A long cylinder (paper §6.1, a cloth falling onto a cylinder) is simply a large length.
#pragma once

#include <string>

#include "core/obstacles/obstacle.hpp"

namespace clothfit::obstacles {

struct CylinderGeometry {
  Eigen::Vector3d centre_m = Eigen::Vector3d::Zero();  // c, midpoint of the axis (rest frame), m
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();     // a, nonzero (normalised by Cylinder)
  double length_m = 1.0;                               // distance between the caps, > 0, m
  double radius_m = 0.1;                               // r > 0, m

  // The cylinder whose caps are centred at end0_m and end1_m (distinct points).
  static CylinderGeometry from_ends(const Eigen::Vector3d& end0_m, const Eigen::Vector3d& end1_m,
                                    double radius_m);
  bool is_valid(std::string* why = nullptr) const;
};

class Cylinder final : public Obstacle {
 public:
  // Asserts geometry.is_valid().
  Cylinder(CylinderGeometry geometry, ObstacleOptions options);

  std::unique_ptr<Obstacle> clone() const override { return std::make_unique<Cylinder>(*this); }
  std::string_view type() const override { return "cylinder"; }
  bool is_signed_distance() const override { return true; }
  ValueAndGradient evaluate_rest(const Eigen::Vector3d& x_rest_m) const override;

  // The geometry with the axis normalised.
  const CylinderGeometry& geometry() const { return m_geometry; }

 private:
  CylinderGeometry m_geometry;
  Eigen::Vector3d m_perpendicular;  // a fixed unit vector ⟂ a, the radial direction on the axis
};

}  // namespace clothfit::obstacles
