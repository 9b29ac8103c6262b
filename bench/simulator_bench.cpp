// Simulator cost on the hanging example (issue 2): mean µs per step and q = wall / simulated time
// for 7×9, 13×17, 25×33 and 49×65 grids, single thread, and how the cost per step grows with the
// node count (relative to 7×9), with the share of the time spent factorising the QPs' KKT
// matrices (StepReport::qp_factorization_seconds). The growth of the cost per node is split into
// its two factors: the iterations per step (the same counts on every machine) and the cost per
// node of one iteration (the sparse factorisation's fill grows faster than the node count), both
// relative to 7×9. Build Release. Usage:
//   simulator_bench [SECONDS] [SOLVER_JSON]
// SECONDS: simulated seconds per mesh (default 4, the whole example). SOLVER_JSON: solver fields
// of a scenario, e.g. '{"max_damping_offset": 0, "newton_fallback_after": 5}': every mesh then
// also runs with them, right after the default, and that row gives its time per step as a
// ratio to the default's.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench/bench_arguments.hpp"
#include "core/io/input_error.hpp"
#include "core/io/json_object.hpp"
#include "core/scenario/simulation_run.hpp"

namespace {

std::string hanging_path() {
  for (std::filesystem::path dir = std::filesystem::current_path(); !dir.empty();
       dir = dir.parent_path()) {
    const auto candidate = dir / "datasets/examples/hanging.json";
    if (std::filesystem::exists(candidate))
      return candidate.string();
    if (dir == dir.parent_path())
      break;
  }
  return CLOTHFIT_SOURCE_DIR "/datasets/examples/hanging.json";
}

constexpr const char* kUsage =
    "usage: simulator_bench [SECONDS] [SOLVER_JSON]\n"
    "  SECONDS      simulated seconds per mesh (default 4)\n"
    "  SOLVER_JSON  scenario solver fields, e.g. '{\"max_damping_offset\": 0}': each mesh also\n"
    "               runs with them, and their row gives the time per step against the default's";

// The 7×9 row's figures, which the other rows are given relative to.
struct Baseline {
  double per_node = 0.0;            // µs per step and node
  double iterations = 0.0;          // per step
  double per_node_iteration = 0.0;  // µs per iteration and node
};

// Runs one mesh, prints its row and returns its µs per step.
double run_row(const nlohmann::json& j, const std::string& path, const char* label, int nx, int ny,
               Baseline* base, double default_us) {
  using namespace clothfit;
  const scenario::Scenario s = scenario::parse_scenario(j, path);
  double factorization_seconds = 0.0;
  const scenario::RunSummary run =
      scenario::run_simulation(s, [&](const auto&, const stepper::StepReport* report) {
        if (report != nullptr)
          factorization_seconds += report->qp_factorization_seconds;
      });
  const double us_per_step = 1e6 * run.wall_seconds / std::max<long>(run.steps, 1);
  const int nodes = s.model.mesh.num_nodes();
  const double per_node = us_per_step / nodes;
  const double per_node_iteration = per_node / std::max(run.mean_iterations, 1e-300);
  if (base->per_node == 0.0)
    *base = {per_node, run.mean_iterations, per_node_iteration};
  // Steps at the cap and steps taken again there (StepperOptions::retry_capped_steps).
  char remark[96] = "";
  if (run.status == stepper::StepStatus::kFailed)
    std::snprintf(remark, sizeof remark, "  (failed after %ld steps)", run.steps);
  else if (run.unconverged_steps > 0 || run.retried_steps > 0)
    std::snprintf(remark, sizeof remark, "  (%ld at the cap, %ld taken again)",
                  run.unconverged_steps, run.retried_steps);
  char ratio[32] = "";
  if (default_us > 0.0)
    std::snprintf(ratio, sizeof ratio, "%.3f", us_per_step / default_us);
  std::printf(
      "%5dx%-3d %-8s %7d %8ld %12.1f %10.4f %10.2f %10.2f %9.0f %% %12.2e %14.2f %10.2f %14.2f "
      "%10s%s\n",
      nx, ny, label, nodes, run.steps, us_per_step, run.q, run.mean_iterations,
      run.mean_factorizations,
      run.wall_seconds > 0.0 ? 100.0 * factorization_seconds / run.wall_seconds : 0.0,
      run.max_constraint_violation, per_node / base->per_node,
      run.mean_iterations / base->iterations, per_node_iteration / base->per_node_iteration, ratio,
      remark);
  std::fflush(stdout);
  return us_per_step;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace clothfit;
  const double seconds = bench::positive_argument(argc, argv, 1, 4.0, kUsage);
  nlohmann::json solver;
  if (argc > 2) {
    solver = nlohmann::json::parse(argv[2], nullptr, false);
    if (!solver.is_object()) {
      std::fprintf(stderr, "simulator_bench: '%s': expected a JSON object of solver fields\n%s\n",
                   argv[2], kUsage);
      return 2;
    }
  }
  const std::string path = hanging_path();
  const nlohmann::json base = read_json_file(path);
  const auto with_solver = [&solver](nlohmann::json j) {  // j with the compared solver fields
    for (const auto& [key, value] : solver.items())
      j["solver"][key] = value;
    return j;
  };
  if (!solver.empty()) {  // bad solver fields are reported before anything runs
    try {
      scenario::parse_scenario(with_solver(base), path);
    } catch (const InputError& e) {
      std::fprintf(stderr, "simulator_bench: %s\n", e.what());
      return 2;
    }
  }
  std::printf("hanging example (%s), %.2f s simulated per mesh, QP active-set, 1 thread\n",
              path.c_str(), seconds);
  if (!solver.empty())
    std::printf("\"with\" rows: solver %s\n", solver.dump().c_str());
  std::printf("%8s %-8s %7s %8s %12s %10s %10s %10s %11s %12s %14s %10s %14s %10s\n", "mesh",
              "solver", "nodes", "steps", "us/step", "q", "iter/step", "fact/step", "fact time",
              "max viol", "cost/node vs 7x9", "= iter", "x cost/node/iter", "time ratio");
  Baseline base_default, base_with;
  const int sizes[][2] = {{7, 9}, {13, 17}, {25, 33}, {49, 65}};
  try {
    for (const auto& size : sizes) {
      nlohmann::json j = base;
      j["cloth"]["mesh"]["nodes_x"] = size[0];
      j["cloth"]["mesh"]["nodes_y"] = size[1];
      j["held"][0]["nodes"] = nlohmann::json::array({{0, 0}, {0, size[0] - 1}});
      j["time"]["duration"] = seconds;
      const double default_us = run_row(j, path, "default", size[0], size[1], &base_default, 0.0);
      if (!solver.empty())
        run_row(with_solver(j), path, "with", size[0], size[1], &base_with, default_us);
    }
  } catch (const InputError& e) {
    std::fprintf(stderr, "simulator_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
