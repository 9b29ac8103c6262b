// Bounding boxes of the positions of a CCD pair, and the distance tolerance of one CCD test
// (collision_types.hpp glossary): tol = relative_tolerance·L + 64·u·max|coordinate|, L the largest
// side of the bounding box of all the pair's positions at t0 and t1.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <initializer_list>
#include <limits>

namespace clothfit::collision {

struct PairExtent {
  Eigen::Vector3d lower;  // bounding box of the positions, m
  Eigen::Vector3d upper;
  double max_abs = 0.0;  // largest |coordinate|, m

  double size() const { return (upper - lower).maxCoeff(); }
};

inline PairExtent pair_extent(std::initializer_list<const Eigen::Vector3d*> points) {
  PairExtent e;
  e.lower.setConstant(std::numeric_limits<double>::infinity());
  e.upper.setConstant(-std::numeric_limits<double>::infinity());
  for (const Eigen::Vector3d* x : points) {
    e.lower = e.lower.cwiseMin(*x);
    e.upper = e.upper.cwiseMax(*x);
    e.max_abs = std::max(e.max_abs, x->cwiseAbs().maxCoeff());
  }
  return e;
}

// The box of both pairs' positions.
inline PairExtent merged(const PairExtent& first, const PairExtent& second) {
  PairExtent e;
  e.lower = first.lower.cwiseMin(second.lower);
  e.upper = first.upper.cwiseMax(second.upper);
  e.max_abs = std::max(first.max_abs, second.max_abs);
  return e;
}

// tol, m.
inline double distance_tolerance(const PairExtent& extent, double relative_tolerance) {
  return relative_tolerance * extent.size() +
         64.0 * 0.5 * std::numeric_limits<double>::epsilon() * extent.max_abs;
}

// True when the two boxes are farther apart than `gap` (m) along some axis.
inline bool boxes_separated(const PairExtent& first, const PairExtent& second, double gap) {
  return ((first.lower - second.upper).array() > gap).any() ||
         ((second.lower - first.upper).array() > gap).any();
}

// Euclidean distance between the two boxes (0 when they overlap), m: a lower bound of the distance
// between any points inside them.
inline double box_distance(const PairExtent& first, const PairExtent& second) {
  return (first.lower - second.upper).cwiseMax(second.lower - first.upper).cwiseMax(0.0).norm();
}

}  // namespace clothfit::collision
