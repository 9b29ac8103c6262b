// Regular grids over some of the parameters, the rest held at base values: the grid search of a fit
// and the points of a sweep.
#pragma once

#include <vector>

namespace clothfit::fitting {

struct GridAxis {
  int parameter = 0;           // index into ModelParameters::specs()
  std::vector<double> values;  // the values it takes
};

// n ≥ 2 equally spaced values from lower to upper (both included); n = 1 gives the midpoint.
std::vector<double> linspace(double lower, double upper, int n);

// Every combination of the axes' values, the first axis varying slowest; parameters not on an
// axis keep their `base` value. No axes: the single point `base`.
std::vector<std::vector<double>> grid_points(const std::vector<double>& base,
                                             const std::vector<GridAxis>& axes);

}  // namespace clothfit::fitting
