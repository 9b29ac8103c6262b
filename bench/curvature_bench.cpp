// curvature_bench: the Newton projection with the semidefinite curvature model (compression left
// out, the default) against the exact curvature (StepperOptions::exact_curvature: compression
// included while the KKT inertia shows the QP convex), on the bundled examples where the sheet is
// compressed — the stick hit, landings on the cylinder and the sphere, the fold — and the hanging
// sheet. Both runs of an example in the same process, one after the other, best of `repeats`
// (wall time per step, projection iterations and factorisations per step, steps that fell back
// to the semidefinite model); the ratio is the robust part.
//
//   curvature_bench [seconds]   (simulated per example, default 1)
#include <algorithm>
#include <cstdio>
#include <string>

#include "bench/bench_arguments.hpp"
#include "core/scenario/scenario.hpp"
#include "core/scenario/simulation_run.hpp"

namespace {

using namespace clothfit;

struct Measured {
  double us_per_step = 0.0, iterations = 0.0, factorizations = 0.0;
  long fallbacks = 0;
};

Measured measure(scenario::Scenario s, bool exact, int repeats) {
  s.model.options.exact_curvature = exact;
  Measured best;
  best.us_per_step = 1e300;
  for (int r = 0; r < repeats; ++r) {
    long iterations = 0, factorizations = 0, fallbacks = 0, steps = 0;
    const scenario::RunSummary run = scenario::run_simulation(
        s, [&](const stepper::SimulationState&, const stepper::StepReport* report) {
          if (!report)
            return;
          iterations += report->iterations;
          factorizations += report->factorizations;
          fallbacks += report->semidefinite_fallback ? 1 : 0;
          ++steps;
        });
    const double us = run.steps > 0 ? 1e6 * run.wall_seconds / run.steps : 0.0;
    if (us < best.us_per_step) {
      best = {us, double(iterations) / std::max(1L, steps),
              double(factorizations) / std::max(1L, steps), fallbacks};
    }
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = bench::positive_argument(
      argc, argv, 1, 1.0,
      "usage: curvature_bench [seconds]\n"
      "Semidefinite vs exact constraint curvature in the Newton projection on the bundled\n"
      "examples (default 1 simulated second each).");
  const std::string dir = CLOTHFIT_SOURCE_DIR "/datasets/examples/";
  std::printf("%.2f s simulated per example, best of 3, 1 thread\n", seconds);
  std::printf("%-10s %13s %13s %6s %10s %10s %10s %10s %9s\n", "example", "us/step semi",
              "us/step exact", "ratio", "iter semi", "iter exact", "fact semi", "fact exact",
              "fallbacks");
  for (const char* name : {"hanging", "stick_hit", "cylinder", "sphere", "fold"}) {
    scenario::ScenarioOverrides overrides;
    overrides.duration = seconds;
    const scenario::Scenario s = scenario::load_scenario(dir + name + ".json", overrides);
    const Measured semi = measure(s, false, 3), exact = measure(s, true, 3);
    std::printf("%-10s %13.1f %13.1f %6.2f %10.2f %10.2f %10.2f %10.2f %9ld\n", name,
                semi.us_per_step, exact.us_per_step, exact.us_per_step / semi.us_per_step,
                semi.iterations, exact.iterations, semi.factorizations, exact.factorizations,
                exact.fallbacks);
    std::fflush(stdout);
  }
  return 0;
}
