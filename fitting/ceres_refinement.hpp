// Bounded local refinement of a fit with Ceres: minimises Σ_n e_n as the least-squares problem
// Σ_n r_n² with r_n = √e_n over the fitted parameters, within their bounds (Levenberg–Marquardt,
// dense QR; Ceres works in units of each parameter's bound interval). The Jacobian is a finite
// difference of whole simulations — central inside the bounds, one-sided at them — whose 2p + 1
// runs go to the ParallelEvaluator at once. It ends at the first step Ceres rejects, and tries
// no step shorter than a tenth of the difference step (RefinementOptions::shortest_step).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "fitting/parallel_evaluator.hpp"

namespace clothfit::fitting {

struct RefinementOptions {
  int max_iterations = 20;
  // Finite-difference step per parameter as a fraction of its bound interval.
  double relative_step = 0.01;
  // As a fraction of relative_step: the shortest step the refinement tries. The projected line
  // search makes no trial closer to the current point (largest component, in units of the bound
  // intervals), and the refinement ends at the first step Ceres rejects (neither it nor the
  // shorter trials of its line search lowered the objective as predicted) or that is shorter
  // than this. Well inside a finite-difference step the Jacobian says little, and the objectives
  // of a recording that buckles or slides differ by 1–10 % between runs 1e-8 apart (README "The
  // objective's noise"): a line search there tests the noise.
  double shortest_step = 0.1;
  double function_tolerance = 1e-5;   // Ceres: relative change of the cost
  double parameter_tolerance = 1e-4;  // Ceres: relative change of the parameters
};

struct RefinementResult {
  std::vector<double> values;  // all parameters (fixed ones unchanged)
  double objective = 0.0;      // Σ e_n at values, m
  int iterations = 0;
  // Ceres' counts: steps accepted (the start included) and rejected, and trial points of the
  // projected line search.
  int successful_steps = 0, unsuccessful_steps = 0, line_search_steps = 0;
  std::string termination;  // Ceres' summary, one line
};

RefinementResult refine_with_ceres(ParallelEvaluator& evaluator, const ModelParameters& parameters,
                                   const std::vector<double>& start,
                                   const RefinementOptions& options, std::ostream* progress);

}  // namespace clothfit::fitting
