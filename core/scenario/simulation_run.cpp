#include "core/scenario/simulation_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

namespace clothfit::scenario {

std::string format_time(double t) {
  // Six decimals as before for the times of ordinary steps ("0.010000"), more digits where
  // those would print a step of 1e-7 s as 0.000000.
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, t == 0.0 || std::abs(t) >= 1e-3 ? "%.6f" : "%.6g", t);
  return buffer;
}

namespace {

// RunSummary::held_inside for the state after step `step`: the deepest held node inside a
// signed-distance obstacle, by more than contact_tolerance, that was not inside it at t = 0
// (initial_penetration_warning names those before the run).
std::string held_node_inside(const Scenario& scenario, const stepper::SimulationState& state,
                             long step) {
  const double tolerance = scenario.model.options.contact_tolerance;
  double deepest = -tolerance;
  int node = -1;
  const obstacles::Obstacle* where = nullptr;
  for (const auto& obstacle : scenario.model.obstacles) {
    if (!obstacle->is_signed_distance())
      continue;
    for (const stepper::HeldNode& held : scenario.model.held) {
      const double h = obstacle->value(state.positions.segment<3>(3 * held.node), state.time);
      if (h < deepest && obstacle->value(scenario.initial_positions.segment<3>(3 * held.node),
                                         0.0) >= -tolerance) {
        deepest = h;
        node = held.node;
        where = obstacle.get();
      }
    }
  }
  if (where == nullptr)
    return "";
  char depth[32];
  std::snprintf(depth, sizeof depth, "%.3g", -deepest);
  return "held node " + std::to_string(node) + " is inside obstacle '" + where->name() + "' by " +
         depth + " m after step " + std::to_string(step) + " (t = " + format_time(state.time) +
         " s): held nodes follow their targets, not the contacts, so the obstacle's motion or "
         "the held path sweeps it through the held part of the sheet";
}

}  // namespace

RunSummary run_simulation(const Scenario& scenario, const StepObserver& observer,
                          const stepper::IterationObserver& iterations,
                          const std::atomic<bool>* stop) {
  using Clock = std::chrono::steady_clock;
  RunSummary summary;
  stepper::TimeStepper stepper(scenario.model);
  stepper.set_iteration_observer(iterations);
  stepper::SimulationState state = stepper.initial_state(scenario.initial_positions);
  if (observer)
    observer(state, nullptr);
  const long steps = scenario.step_count();
  long total_iterations = 0, total_factorizations = 0;
  Clock::duration stepping{};
  double observing = 0.0;  // s, in the iteration observer
  for (long n = 0; n < steps; ++n) {
    if (stop != nullptr && stop->load()) {
      summary.interrupted = true;
      break;
    }
    const auto start = Clock::now();
    const stepper::StepReport report = stepper.step(&state);
    const auto elapsed = Clock::now() - start;
    if (report.status == stepper::StepStatus::kFailed) {
      // Its time is not the steps taken's (q over them: a failing step iterates to its cap and
      // beyond, which made q 3–4 times that of the same steps in a run that stopped before).
      // The failure is the message; a step at the cap before it is kept after it.
      summary.status = stepper::StepStatus::kFailed;
      summary.message = "step " + std::to_string(n + 1) +
                        " (t = " + format_time((n + 1) * scenario.model.options.time_step) +
                        " s) failed: " + report.message +
                        (summary.message.empty() ? "" : "; before it, " + summary.message);
      break;
    }
    stepping += elapsed;
    observing += report.observer_seconds;
    ++summary.steps;
    total_iterations += report.iterations;
    total_factorizations += report.factorizations;
    summary.max_iterations = std::max(summary.max_iterations, report.iterations);
    summary.max_constraint_violation =
        std::max(summary.max_constraint_violation, report.max_violation);
    summary.max_friction_cone_excess =
        std::max(summary.max_friction_cone_excess, report.friction_cone_excess);
    summary.retried_steps += report.cap_retry ? 1 : 0;
    if (report.status == stepper::StepStatus::kIterationCap) {
      if (summary.unconverged_steps++ == 0) {
        summary.status = stepper::StepStatus::kIterationCap;
        summary.message = "step " + std::to_string(n + 1) + ": " + report.message;
      }
    }
    if (summary.held_inside.empty())
      summary.held_inside = held_node_inside(scenario, state, n + 1);
    if (observer)
      observer(state, &report);
  }
  summary.simulated_seconds = summary.steps * scenario.model.options.time_step;
  summary.wall_seconds = std::chrono::duration<double>(stepping).count() - observing;
  // Without a step taken there is nothing to divide by: NaN, not a q of 0 (infinitely fast).
  constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  const bool any = summary.steps > 0;
  summary.q = any ? summary.wall_seconds / summary.simulated_seconds : kNone;
  summary.mean_iterations = any ? double(total_iterations) / summary.steps : kNone;
  summary.mean_factorizations = any ? double(total_factorizations) / summary.steps : kNone;
  return summary;
}

}  // namespace clothfit::scenario
