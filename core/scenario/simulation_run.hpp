// run_simulation: steps a Scenario from t = 0 to its duration, telling an observer about every
// step, and sums up how the run went (the figures of `clothfit simulate`'s summary.json).
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "core/scenario/scenario.hpp"
#include "core/stepper/time_stepper.hpp"

namespace clothfit::scenario {

struct RunSummary {
  long steps = 0;  // steps taken
  double simulated_seconds = 0.0;
  double wall_seconds = 0.0;  // in the steps taken (the observers' time, a failed step excluded)
  // The means over the steps taken; NaN when none was (the first step failed, or a stop came
  // before it). max_iterations is then 0.
  double q = 0.0;                // wall_seconds / simulated_seconds
  double mean_iterations = 0.0;  // projection iterations per step
  int max_iterations = 0;
  double mean_factorizations = 0.0;  // of them, those that factored the QP's matrices, per step
  double max_constraint_violation = 0.0;  // max over steps of StepReport::max_violation
  long unconverged_steps = 0;             // steps that hit the iteration cap
  // steps whose projection reached the iteration cap and was taken again (StepReport::cap_retry),
  // whether the retry converged or not
  long retried_steps = 0;
  // max over steps of StepReport::friction_cone_excess (0 without friction): how far friction
  // went beyond Coulomb's disk at a corner of its box, relative to the bound
  double max_friction_cone_excess = 0.0;
  stepper::StepStatus status = stepper::StepStatus::kConverged;  // the worst step status
  // The failure, when a step failed (followed by the first step at the iteration cap before
  // it, if any); else the first step at the cap; empty when every step converged.
  std::string message;
  bool interrupted = false;  // stopped by the caller's `stop` flag after `steps` steps
  // Empty, or the first step after which a held node is inside a signed-distance obstacle by
  // more than contact_tolerance, having started outside: held nodes follow their targets, not the
  // contacts, so a moving obstacle (or a held path) swept through the sheet's held part (a
  // sphere rising through a held corner ended with the corner at its centre, every step
  // converged). A warning, not a failure.
  std::string held_inside;

  bool ok() const { return status == stepper::StepStatus::kConverged && !interrupted; }
};

// A step's time in messages, s: six decimals ("0.010000"), six significant digits below 1 ms
// (a step of 1e-7 s printed as 0.000000).
std::string format_time(double t);

// Called with the state after every step (and once with the initial state, report == nullptr).
using StepObserver =
    std::function<void(const stepper::SimulationState& state, const stepper::StepReport* report)>;

// Stops early when a step fails (the state could not advance), or when `stop` is set (read before
// each step; e.g. by a signal handler): then `interrupted`. `iterations`, when set, is called after
// every projection iteration (TimeStepper::set_iteration_observer); the time spent in it is not
// counted in wall_seconds.
RunSummary run_simulation(const Scenario& scenario, const StepObserver& observer = {},
                          const stepper::IterationObserver& iterations = {},
                          const std::atomic<bool>* stop = nullptr);

}  // namespace clothfit::scenario
