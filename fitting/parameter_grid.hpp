// Regular grids over some of the parameters, the rest held at base values: the grid search of a fit
// and the points of a sweep.
#pragma once

#include <cstddef>
#include <vector>

namespace clothfit::fitting {

struct GridAxis {
  int parameter = 0;           // index into ModelParameters::specs()
  std::vector<double> values;  // the values it takes
};

// n ≥ 2 equally spaced values from lower to upper (both included); n = 1 gives the midpoint.
std::vector<double> linspace(double lower, double upper, int n);

// The most points a grid may have: a simulation takes 0.1–1 s, so this is hours to days on a
// workstation. Larger grids are refused rather than allocated (a fit's grid^k, a sweep's product).
inline constexpr std::size_t kMaxGridPoints = 100000;

// How many points the axes make, or kMaxGridPoints + 1 when that is more (no overflow).
std::size_t grid_size(const std::vector<GridAxis>& axes);

// Every combination of the axes' values, the first axis varying slowest; parameters not on an
// axis keep their `base` value. No axes: the single point `base`. Throws std::invalid_argument
// for more than kMaxGridPoints points.
std::vector<std::vector<double>> grid_points(const std::vector<double>& base,
                                             const std::vector<GridAxis>& axes);

}  // namespace clothfit::fitting
