// Table: the top slab of a table, a finite box of size_x × size_y × thickness whose top face is
// centred at top_centre (rest frame), optionally turned by yaw about the vertical, with all
// twelve edges rounded by edge_radius. h is the exact signed distance to this rounded box, so a
// cloth lying on the top (h = height above the top), hanging over an edge (h = distance to the
// rounded edge) or touching the side of the slab all see a true distance in metres.
//
// Why a rounded box: a rounded box is the set of points within edge_radius ρ of the inner box
// shrunk by ρ on every side, so h = dist(inner box) − ρ, which is C¹ everywhere outside the inner
// box (h > −ρ). Nodes sliding over an edge see the normal turn smoothly from the top's ẑ to the
// side's normal instead of jumping, and ∇h is a unit vector with a well-defined value on and
// around the edges and corners. Inside the inner box ∇h is the normal of the nearest face (ties:
// x before y before z). With edge_radius = 0 the slab is a sharp box; on its edges ∇h is then the
// normal of one adjacent face by the same rule (still unit, never zero).
//
// Only the top is modelled (no legs): below the slab the table is free space.
#pragma once

#include <string>

#include "core/obstacles/obstacle.hpp"

namespace clothfit::obstacles {

struct TableGeometry {
  Eigen::Vector3d top_centre_m = Eigen::Vector3d::Zero();  // centre of the top face (rest), m
  double size_x_m = 1.0;         // extent along the table's x (before yaw), > 0, m
  double size_y_m = 1.0;         // extent along the table's y (before yaw), > 0, m
  double thickness_m = 0.03;     // slab thickness below the top face, > 0, m
  double edge_radius_m = 0.005;  // edge rounding ρ, 0 ≤ ρ ≤ min(size_x, size_y, thickness)/2, m
  double yaw_rad = 0.0;          // rotation of the table about the vertical through top_centre, rad

  bool is_valid(std::string* why = nullptr) const;
};

class Table final : public Obstacle {
 public:
  // Asserts geometry.is_valid().
  Table(TableGeometry geometry, ObstacleOptions options);

  std::unique_ptr<Obstacle> clone() const override { return std::make_unique<Table>(*this); }
  std::string_view type() const override { return "table"; }
  bool is_signed_distance() const override { return true; }
  ValueAndGradient evaluate_rest(const Eigen::Vector3d& x_rest_m) const override;

  const TableGeometry& geometry() const { return m_geometry; }

 private:
  TableGeometry m_geometry;
  Eigen::Vector3d m_slab_centre;  // centre of the slab (rest), m
  Eigen::Vector3d m_inner_half;   // half extents of the inner (unrounded) box, m
  double m_cos_yaw = 1.0, m_sin_yaw = 0.0;
};

}  // namespace clothfit::obstacles
