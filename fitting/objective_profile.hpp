// How well a recording pins each fitted parameter down: the interval around the optimum where the
// objective stays within a tolerance (5 % by default) of its minimum, along each parameter with the
// others held at the optimum (a slice through the optimum, not a re-optimised profile). An interval
// that reaches a bound means the recording does not pin the parameter down there.
#pragma once

#include <vector>

#include "fitting/parallel_evaluator.hpp"

namespace clothfit::fitting {

struct ParameterInterval {
  int parameter = 0;  // index into ModelParameters::specs()
  double lower = 0.0, upper = 0.0;
  bool lower_at_bound = false;  // the objective stayed within tolerance down to the bound
  bool upper_at_bound = false;
  // Pinned down: the interval ends inside the bounds on both sides (reaching a lower bound of 0,
  // the physical limit of every parameter, still counts as pinned).
  bool pinned() const { return !(lower_at_bound && lower > 0.0) && !upper_at_bound; }
  bool contains(double value) const { return lower <= value && value <= upper; }
};

struct ProfileResult {
  std::vector<ParameterInterval> intervals;  // one per fitted parameter
  // The best point seen (the profile can find a lower objective than the optimum it started from).
  std::vector<double> best_values;
  double best_objective = 0.0;
  bool improved = false;  // best_values differs from the optimum given
};

// Samples each fitted parameter on both sides of `optimum` at offsets of 1, 2, 5, 10, 20, 40 and
// 100 % of its bound interval (one parallel batch) and interpolates where the objective crosses
// (1 + tolerance) · min linearly.
ProfileResult profile_parameters(ParallelEvaluator& evaluator, const ModelParameters& parameters,
                                 const std::vector<double>& optimum, double optimum_objective,
                                 double tolerance);

// Extends each interval to contain the point `values` (all parameters), marking the bounds it
// reaches.
void extend_to_point(const ModelParameters& parameters, const std::vector<double>& values,
                     std::vector<ParameterInterval>* intervals);

// Widens each interval to cover every sample whose objective is within `threshold` (the
// tolerance above the minimum): on a rough objective or along a valley between two parameters
// the slice through the optimum understates what the recording leaves open, while the samples of
// the grid, the refinement and the profiles (all points of the search) show it. An interval
// widened to a bound is marked as reaching it.
void widen_to_samples(const ModelParameters& parameters,
                      const std::vector<ObjectiveSample>& samples, double threshold,
                      std::vector<ParameterInterval>* intervals);

}  // namespace clothfit::fitting
