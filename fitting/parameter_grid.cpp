#include "fitting/parameter_grid.hpp"

#include <cassert>
#include <stdexcept>
#include <string>

namespace clothfit::fitting {

std::vector<double> linspace(double lower, double upper, int n) {
  assert(n >= 1);
  if (n == 1)
    return {0.5 * (lower + upper)};
  std::vector<double> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] = lower + (upper - lower) * i / (n - 1);
  out.back() = upper;
  return out;
}

std::size_t grid_size(const std::vector<GridAxis>& axes) {
  std::size_t count = 1;
  for (const GridAxis& axis : axes) {
    if (axis.values.size() > kMaxGridPoints)
      return kMaxGridPoints + 1;
    count *= axis.values.size();  // both factors ≤ kMaxGridPoints + 1: no overflow
    if (count > kMaxGridPoints)
      return kMaxGridPoints + 1;
  }
  return count;
}

std::vector<std::vector<double>> grid_points(const std::vector<double>& base,
                                             const std::vector<GridAxis>& axes) {
  if (grid_size(axes) > kMaxGridPoints) {
    throw std::invalid_argument("a grid of more than " + std::to_string(kMaxGridPoints) +
                                " points");
  }
  std::vector<std::vector<double>> points{base};
  for (const GridAxis& axis : axes) {
    std::vector<std::vector<double>> next;
    next.reserve(points.size() * axis.values.size());
    for (const std::vector<double>& p : points) {
      for (double v : axis.values) {
        next.push_back(p);
        next.back()[static_cast<std::size_t>(axis.parameter)] = v;
      }
    }
    points = std::move(next);
  }
  return points;
}

}  // namespace clothfit::fitting
