#include "fitting/parameter_grid.hpp"

#include <cassert>

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

std::vector<std::vector<double>> grid_points(const std::vector<double>& base,
                                             const std::vector<GridAxis>& axes) {
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
