// NeedleField: the field of needle-like obstacles of the paper's §6.3, eq. 14,
//
//   c1 c2 (z − z0) − sin(c1 (x − x0)) sin(c1 (y − y0)) = 0,
//
// with the origin (x0, y0, z0) (rest frame), c1 in 1/m (default 20) and c2 dimensionless (default
// 0.075): a checkerboard of spikes of height 1/(c1 c2) (0.667 m by default) above z0 with pits of
// the same depth between them, period 2π/c1 (0.314 m) along x and y.
//
// h is eq. 14 divided by c1 c2 > 0 (same surface, same sign), so that it is in metres:
//
//   h(X) = (z − z0) − sin(c1 (x − x0)) sin(c1 (y − y0)) / (c1 c2)
//
// the vertical gap between X and the surface (not a distance: is_signed_distance() is false;
// |∇h| ≥ 1 with ∇h_z = 1, so ∇h is never zero). The surface point of X is the point of the
// surface straight below (or above) it in the rest frame.
//
// The node constraints h(p) ≥ 0 alone let the tips of the needles pierce the cloth's faces, so
// the peaks must also be handled as point obstacles against faces (paper §6.3, treated like
// self-collisions): peaks()/peaks_in_box() list them. The peaks (maxima of the surface) are, for
// m, n ∈ ℤ and the SAME sign s ∈ {+1, −1} in x and y (eq. 15, where the two ± go together:
// sin(c1 x) = sin(c1 y) = s),
//
//   x = x0 + (2π m + s π/2) / c1,  y = y0 + (2π n + s π/2) / c1,  z = z0 + 1/(c1 c2),
//
// and h = 0 there (eq. 14: c1 c2 · 1/(c1 c2) − 1 = 0). Mixed signs are the bottoms of the pits.
#pragma once

#include <Eigen/Geometry>
#include <string>
#include <vector>

#include "core/obstacles/obstacle.hpp"

namespace clothfit::obstacles {

struct NeedleFieldGeometry {
  Eigen::Vector3d origin_m = Eigen::Vector3d::Zero();  // (x0, y0, z0), rest frame, m
  double c1_per_m = 20.0;                              // c1 > 0, 1/m: spatial frequency
  double c2 = 0.075;                                   // c2 > 0: peak height is 1/(c1 c2)

  double peak_height_m() const { return 1.0 / (c1_per_m * c2); }
  bool is_valid(std::string* why = nullptr) const;
};

class NeedleField final : public Obstacle {
 public:
  // Asserts geometry.is_valid().
  NeedleField(NeedleFieldGeometry geometry, ObstacleOptions options);

  std::unique_ptr<Obstacle> clone() const override { return std::make_unique<NeedleField>(*this); }
  std::string_view type() const override { return "needles"; }
  bool is_signed_distance() const override { return false; }
  ValueAndGradient evaluate_rest(const Eigen::Vector3d& x_rest_m) const override;
  // The surface point vertically below/above X: X − h ẑ.
  Eigen::Vector3d surface_point_rest(const Eigen::Vector3d& x_rest_m) const override;

  // Rest-frame positions (m) of the peaks whose (x, y) lie in `rest_xy_m` (bounds included),
  // ordered by y, then x. About c1²/(2π²) peaks per m² (20 per m² for c1 = 20).
  std::vector<Eigen::Vector3d> peaks_rest(const Eigen::AlignedBox2d& rest_xy_m) const;
  // World positions (m) at time t of the peaks whose rest (x, y) lie in `rest_xy_m` (for a static
  // field: the peaks above the world rectangle).
  std::vector<Eigen::Vector3d> peaks(const Eigen::AlignedBox2d& rest_xy_m, double t_s) const;
  // World positions (m) at time t of the peaks lying inside the world box `world_box_m` (e.g. the
  // cloth's bounding box grown by the thickness), for any motion.
  std::vector<Eigen::Vector3d> peaks_in_box(const Eigen::AlignedBox3d& world_box_m,
                                            double t_s) const;

  const NeedleFieldGeometry& geometry() const { return m_geometry; }

 private:
  NeedleFieldGeometry m_geometry;
};

}  // namespace clothfit::obstacles
