// Sweeps: the objective over a regular 1-D or 2-D grid of parameters with the others fixed (paper
// Fig. 7 is a μ sweep), written as CSV (README.md "Sweeps").
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "fitting/parallel_evaluator.hpp"
#include "fitting/parameter_grid.hpp"

namespace clothfit::fitting {

// Parses "name=lower:upper:step" (e.g. "mu.table=0:2:0.1") into an axis of `parameters`; the
// values run from lower up to upper (included when it is a whole number of steps away, within
// 1e-9 relative). Throws std::invalid_argument naming what was expected.
GridAxis parse_sweep_axis(const std::string& text, const ModelParameters& parameters);

// Parses "alpha=0.2,delta=0.08" into values on top of `base`. Throws std::invalid_argument.
std::vector<double> parse_parameter_values(const std::string& text,
                                           const ModelParameters& parameters,
                                           std::vector<double> base);

struct SweepResult {
  std::vector<GridAxis> axes;
  std::vector<std::vector<double>> points;
  std::vector<Evaluation> evaluations;
};

SweepResult run_sweep(ParallelEvaluator& evaluator, const std::vector<double>& base,
                      const std::vector<GridAxis>& axes);

// CSV: the axes' parameter names, then objective,mean_error_m,mean_spread_m,status.
void write_sweep_csv(std::ostream& out, const SweepResult& sweep,
                     const ModelParameters& parameters);

}  // namespace clothfit::fitting
