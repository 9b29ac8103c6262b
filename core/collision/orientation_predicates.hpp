// Exact orientation predicates: the sign of a 2×2 / 3×3 determinant of coordinate differences,
// computed in double precision when a static error bound (Shewchuk 1997, errboundA) certifies the
// sign, and otherwise exactly with floating-point expansion arithmetic (two-sum, two-product via
// fma). The answer is exact for any finite input: no tolerance, no "almost coplanar".
#pragma once

#include <Eigen/Core>

namespace clothfit::collision {

// Sign (−1, 0, +1) of det[a − d; b − d; c − d] = (a − d) · ((b − d) × (c − d)): +1 when d lies
// below the plane through a, b, c, "below" meaning that a, b, c appear counter-clockwise seen from
// above; 0 when the four points are coplanar.
int orient3d(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
             const Eigen::Vector3d& d);

// Sign (−1, 0, +1) of det[a − c; b − c]: +1 when a, b, c are counter-clockwise, 0 when collinear.
int orient2d(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c);

}  // namespace clothfit::collision
