// The objective's noise: how much Σ e_n changes when the run is perturbed far below anything a
// recording resolves (RecordingObjective::evaluate_replica: initial velocities that move the first
// step by a tenth of the projection's own tolerance). Where the simulated motion is unstable — a
// sheet that buckles as it is laid on a table, a sheet struck by a stick — such perturbations grow
// exponentially and the replicas end centimetres apart, so a single run's Σ e_n carries a random
// part of a few per cent. Differences of the objective smaller than about twice its standard
// deviation say nothing about the parameters; the fit's intervals and its comparison with the
// truth take that into account.
#pragma once

#include <vector>

#include "fitting/parallel_evaluator.hpp"

namespace clothfit::fitting {

struct ObjectiveNoise {
  std::vector<double> objectives;  // Σ e_n of each replica that ran, m
  double mean = 0.0;               // m
  double sd = 0.0;                 // sample standard deviation (n − 1), m; 0 with < 2 runs
  bool measured() const { return objectives.size() >= 2; }
  double relative() const { return mean > 0.0 ? sd / mean : 0.0; }
};

// Mean and sample standard deviation of `objectives` (failed runs, +∞, are left out).
ObjectiveNoise summarize_noise(const std::vector<double>& objectives);

// Replicas 1 … replicas of the run at `values`. The run itself (replica 0) is left out: at a
// fit's optimum it is the lowest of all the search's samples, so on a noisy objective it sits in a
// dip and would bias the mean down and the spread up.
ObjectiveNoise measure_objective_noise(ParallelEvaluator& evaluator,
                                       const std::vector<double>& values, int replicas);

// The relative tolerance of the fit's intervals: `tolerance` (5 % by default), or twice the
// relative noise when that is larger — a sample scoring less than 2 sd above the minimum cannot
// be told apart from it.
double interval_tolerance(double tolerance, const ObjectiveNoise& noise);

// The objective the intervals' tolerance is measured from: the fit's `objective`, or the mean of
// the noise replicas when that is higher. The optimum's own run is the lowest of all the search's
// samples, so on a noisy objective it sits in a dip (the winner's curse); a threshold cut above
// that dip makes the intervals narrower than the tolerance says. Never below `objective`.
double interval_reference(double objective, const ObjectiveNoise& noise);

// Whether `lower` improves on `objective` by more than twice the noise's standard deviation: an
// improvement the noise does not explain (always, when the noise was not measured).
bool resolved_improvement(double objective, double lower, const ObjectiveNoise& noise);

// Whether a single run's objective (the truth's) cannot be told apart from the fit's: it lies
// within twice the noise's standard deviation of the replicas' mean, or of `fit_objective`, the
// fit's own run. Both references are needed: the fit's run is the lowest sample of the search (a
// dip below the mean), and a single run at the truth can sit in such a dip as well (false when the
// noise was not measured).
bool within_noise(double objective, double fit_objective, const ObjectiveNoise& noise);

}  // namespace clothfit::fitting
