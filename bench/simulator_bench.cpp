// Simulator cost on the hanging example (issue 2): mean µs per step and q = wall / simulated time
// for 7×9, 13×17, 25×33 and 49×65 grids, single thread, and how the cost per step grows with the
// node count (relative to 7×9). Build Release. Usage:
//   simulator_bench [SECONDS]   simulated seconds per mesh (default 4, the whole example)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "bench/bench_arguments.hpp"
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

}  // namespace

int main(int argc, char** argv) {
  using namespace clothfit;
  const double seconds = bench::positive_argument(
      argc, argv, 1, 4.0,
      "usage: simulator_bench [SECONDS]   simulated seconds per mesh (default 4)");
  const std::string path = hanging_path();
  const nlohmann::json base = read_json_file(path);
  std::printf("hanging example (%s), %.2f s simulated per mesh, QP active-set, 1 thread\n",
              path.c_str(), seconds);
  std::printf("%8s %7s %8s %12s %10s %10s %10s %12s %14s\n", "mesh", "nodes", "steps", "us/step",
              "q", "iter/step", "fact/step", "max viol", "cost/node vs 7x9");
  double base_per_node = 0.0;
  const int sizes[][2] = {{7, 9}, {13, 17}, {25, 33}, {49, 65}};
  for (const auto& size : sizes) {
    nlohmann::json j = base;
    j["cloth"]["mesh"]["nodes_x"] = size[0];
    j["cloth"]["mesh"]["nodes_y"] = size[1];
    j["held"][0]["nodes"] = nlohmann::json::array({{0, 0}, {0, size[0] - 1}});
    j["time"]["duration"] = seconds;
    const scenario::Scenario s = scenario::parse_scenario(j, path);
    const scenario::RunSummary run = scenario::run_simulation(s);
    const double us_per_step = 1e6 * run.wall_seconds / std::max<long>(run.steps, 1);
    const int nodes = s.model.mesh.num_nodes();
    const double per_node = us_per_step / nodes;
    if (base_per_node == 0.0)
      base_per_node = per_node;
    std::printf("%5dx%-3d %7d %8ld %12.1f %10.4f %10.2f %10.2f %12.2e %14.2f%s\n", size[0], size[1],
                nodes, run.steps, us_per_step, run.q, run.mean_iterations, run.mean_factorizations,
                run.max_constraint_violation, per_node / base_per_node,
                run.ok() ? "" : "  (not converged everywhere)");
    std::fflush(stdout);
  }
  return 0;
}
