// Sweeps: the objective over a regular 1-D or 2-D grid of parameters with the others fixed (paper
// Fig. 7 is a μ sweep), written as CSV (README.md "Sweeps, tables and plots").
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "fitting/objective_noise.hpp"
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
  // Per point: the run (replicas = 1), or with replicas the means over them of Σ e_n, ē and s̄
  // (ok only when every replica ran; the other fields those of replica 0).
  std::vector<Evaluation> evaluations;
  int replicas = 1;
  std::vector<ObjectiveNoise> noise;  // per point with replicas > 1 (objective_noise.hpp)
  // Per point: whether it has run (with all its replicas). All true once run_sweep returns,
  // unless it was stopped; checkpoints of a sweep still running have points pending.
  std::vector<bool> completed;
};

// A point's replicas (runs[0] the run itself) as one evaluation: ok only when every replica ran,
// then objective, ē and s̄ their means; the other fields those of replica 0, except that a failed
// point's message is that of its first failed replica ("replica r: …" for r ≥ 1). `noise` gets
// the spread of their objectives (a failed replica counts as +∞).
Evaluation combine_replicas(std::vector<Evaluation> runs, ObjectiveNoise* noise);

// Each point is run in `replicas` perturbed replicas (RecordingObjective::evaluate_replica; 1: the
// run alone) and scored by their mean: on an unstable recording the mean is a smoother function
// of the parameters than a single run (objective_noise.hpp).
//
// `checkpoint`, when given, gets the sweep so far (points still running or not started are not
// `completed`): once before any run, every point pending, from the calling thread; then whenever
// a point completes and at least checkpoint_interval_s has passed since the last call, from a
// worker thread, one call at a time. It must not throw. It is not called
// at the end: the returned sweep is the whole one, or, when the evaluator's stop flag ended it
// early (ParallelEvaluator::stopped()), the points whose runs all finished, the others pending.
using SweepCheckpoint = std::function<void(const SweepResult& so_far)>;
SweepResult run_sweep(ParallelEvaluator& evaluator, const std::vector<double>& base,
                      const std::vector<GridAxis>& axes, int replicas = 1,
                      const SweepCheckpoint& checkpoint = {}, double checkpoint_interval_s = 5.0);

// CSV: the axes' parameter names, then objective,mean_error_m,mean_spread_m,status, with
// replicas objective_sd,replicas, and last unconverged_steps,retried_steps (Evaluation; with
// replicas the worst replica's). Points not completed have status "pending" and no numbers, failed
// points no step counts.
void write_sweep_csv(std::ostream& out, const SweepResult& sweep,
                     const ModelParameters& parameters);

// One line per failed point: its axes' values and why it failed, e.g.
// "mu.table=0.725: frame 368 (t = 3.67 s): QP solver (active-set) failed: …". Returns the number
// of failed points.
std::size_t write_sweep_failures(std::ostream& out, const SweepResult& sweep,
                                 const ModelParameters& parameters);

}  // namespace clothfit::fitting
