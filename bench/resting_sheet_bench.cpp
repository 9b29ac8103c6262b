// A sheet lying at rest on a plane (ramp.json, tilted by 25°) on 7 × 9, 13 × 17 and optionally
// 25 × 33 nodes, frictionless, sliding (μ = tan θ − 0.02) and sticking (μ = tan θ + 0.02). Such a
// sheet takes about two iterations per step (the hanging sheet: 2.6), but every resting node
// starts each QP as a seeded contact row (three with friction), and a step's first QP adds the
// seeds one at a time to the dense Cholesky factor of the working rows' Schur complement: O(k³)
// for k rows (a QP that starts from exactly the rows the last one ended with keeps their factor).
// With more than 189 such rows (finer than 7 × 9), the active set factors them into the KKT
// matrix instead (QpSolverOptions::factor_working_rows_from). The bench runs each case both ways,
// one after the other — the Schur complement alone, then the default — and prints q, the counts
// per step, the share of the QP time spent on the seeds (QpSummary::seed_seconds) with the Schur
// complement, the share of QPs solved with the rows factored, the ratio of the two times and the
// cost per node against 7 × 9, measured in one run.
// Build Release. Usage:
//   resting_sheet_bench [SECONDS] [--large]
//   SECONDS simulated per run on 7 × 9 and 13 × 17 (default 0.3); --large adds 25 × 33 for
//   SECONDS / 6 (q about 30, 180 and 190 there on a 2-core machine in 2026-11).
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench/bench_arguments.hpp"
#include "core/io/json_object.hpp"
#include "core/scenario/simulation_run.hpp"

namespace {

struct Measured {
  long steps = 0, iterations = 0, factorizations = 0, changes = 0, factored = 0;
  double qp_seconds = 0.0, seed_seconds = 0.0;
  clothfit::scenario::RunSummary summary;
};

Measured run(const clothfit::scenario::Scenario& scenario) {
  Measured m;
  m.summary = clothfit::scenario::run_simulation(
      scenario, [&m](const auto&, const clothfit::stepper::StepReport* r) {
        if (r == nullptr)
          return;
        ++m.steps;
        m.iterations += r->iterations;
        m.factorizations += r->factorizations;
        m.changes += r->qp_working_set_changes;
        m.factored += r->qp_working_sets_factored;
        m.qp_seconds += r->qp_seconds;
        m.seed_seconds += r->qp_seed_seconds;
      });
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage =
      "usage: resting_sheet_bench [SECONDS] [--large]\n"
      "  a sheet at rest on a plane tilted by 25 degrees (datasets/examples/ramp.json) on 7 x 9 "
      "and 13 x 17 nodes for SECONDS (default 0.3), frictionless, sliding and sticking; --large "
      "adds 25 x 33 for SECONDS / 6";
  std::vector<char*> positional{argv[0]};
  bool large = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--large") == 0)
      large = true;
    else
      positional.push_back(argv[i]);
  }
  const double seconds = clothfit::bench::positive_argument(static_cast<int>(positional.size()),
                                                            positional.data(), 1, 0.3, usage);
  const std::string file = std::string(CLOTHFIT_SOURCE_DIR) + "/datasets/examples/ramp.json";
  const nlohmann::json example = clothfit::read_json_file(file);
  struct Mesh {
    int nx, ny;
    double seconds;
  };
  std::vector<Mesh> meshes{{7, 9, seconds}, {13, 17, seconds}};
  if (large)
    meshes.push_back({25, 33, seconds / 6.0});
  const double tan_theta = 0.4663;
  const std::vector<std::pair<const char*, double>> frictions{
      {"frictionless", 0.0}, {"sliding", tan_theta - 0.02}, {"sticking", tan_theta + 0.02}};

  std::printf("a sheet at rest on a plane tilted by 25 degrees, 1 thread, one run each\n");
  std::printf("%-8s %6s %-13s %6s %9s %9s %9s %9s %8s %9s %9s %6s %12s\n", "mesh", "nodes",
              "friction", "steps", "iter/step", "fact/step", "chg/step", "seeds/QP", "factored",
              "q Schur", "q", "ratio", "per node/7x9");
  std::vector<double> per_node_7x9(frictions.size(), 0.0);
  for (const Mesh& mesh : meshes) {
    for (std::size_t f = 0; f < frictions.size(); ++f) {
      nlohmann::json j = example;
      j["cloth"]["mesh"]["nodes_x"] = mesh.nx;
      j["cloth"]["mesh"]["nodes_y"] = mesh.ny;
      j["time"]["duration"] = mesh.seconds;
      j["obstacles"][0]["friction"] = frictions[f].second;
      auto scenario = clothfit::scenario::parse_scenario(j, file);
      scenario.model.options.qp.factor_working_rows_from = INT_MAX;
      const Measured schur = run(scenario);
      scenario.model.options.qp.factor_working_rows_from =
          clothfit::qp::QpSolverOptions{}.factor_working_rows_from;
      const Measured m = run(scenario);
      const int nodes = mesh.nx * mesh.ny;
      const double per_node = m.summary.wall_seconds / m.summary.simulated_seconds / nodes;
      if (mesh.nx == 7)
        per_node_7x9[f] = per_node;
      const auto per_step = [&m](long count) {
        return m.steps > 0 ? static_cast<double>(count) / static_cast<double>(m.steps) : 0.0;
      };
      std::printf(
          "%2d x %-3d %6d %-13s %6ld %9.3f %9.3f %9.2f %8.0f%% %7.0f%% %9.4f %9.4f %6.2f %12.1f\n",
          mesh.nx, mesh.ny, nodes, frictions[f].first, m.steps, per_step(m.iterations),
          per_step(m.factorizations), per_step(m.changes),
          schur.qp_seconds > 0.0 ? 100.0 * schur.seed_seconds / schur.qp_seconds : 0.0,
          m.iterations > 0 ? 100.0 * static_cast<double>(m.factored) / m.iterations : 0.0,
          schur.summary.q, m.summary.q, m.summary.q > 0.0 ? schur.summary.q / m.summary.q : 0.0,
          per_node_7x9[f] > 0.0 ? per_node / per_node_7x9[f] : 0.0);
      if (!schur.summary.ok())
        std::printf("  run with the Schur complement not converged: %s\n",
                    schur.summary.message.c_str());
      if (!m.summary.ok())
        std::printf("  run not converged: %s\n", m.summary.message.c_str());
      std::fflush(stdout);
    }
  }
  std::printf(
      "iter/step, fact/step, chg/step: projection iterations, factorisations and working-set "
      "changes per step (default run); seeds/QP: the share of the QPs' time spent adding the rows "
      "each QP starts from, Schur complement alone; factored: the share of QPs solved with their "
      "working rows factored into the KKT matrix (default run); q Schur, q: wall / simulated "
      "time with the Schur complement alone and by default, ratio: their ratio; per node/7x9: "
      "the cost per node and simulated second against the same friction on 7 x 9 (default).\n");
  return 0;
}
