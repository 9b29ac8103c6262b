// Issue 3: q = wall / simulated time of the active-set solver (the paper's Algorithm 1) and of the
// interior-point baseline (Ipopt) on the contact examples, measured in one run, and their ratio;
// each example on its own mesh and on 7 × 9 nodes (the same sheet; the q target is for the
// 7 × 9 case with contacts). Build Release. Usage:
//   contact_solvers_bench [SECONDS]   simulated seconds per run (default 0.6: the first contacts)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/bench_arguments.hpp"
#include "core/io/json_object.hpp"
#include "core/scenario/simulation_run.hpp"

int main(int argc, char** argv) {
  using namespace clothfit;
  const double seconds = bench::positive_argument(
      argc, argv, 1, 0.6,
      "usage: contact_solvers_bench [SECONDS]   simulated seconds per run (default 0.6)");
  std::printf("contact examples, %.2f s simulated each, 1 thread\n", seconds);
  std::printf(
      "QP it: working-set changes (active set) or Ipopt iterations per QP, over all QPs and in\n"
      "each step's first QP (a new friction basis); of the changes per QP, friction rows moved\n"
      "to their bound (to bnd) and brought back from it (back)\n");
  std::printf("%-10s %6s %16s %16s %10s %10s %10s %8s %8s %10s %10s\n", "example", "nodes",
              "solver", "q", "iter/step", "QP it", "1st QP it", "to bnd", "back", "contacts",
              "status");
  for (const char* name : {"cylinder", "sphere"}) {
    for (const bool coarse : {false, true}) {
      const std::string path =
          std::string(CLOTHFIT_SOURCE_DIR) + "/datasets/examples/" + name + ".json";
      nlohmann::json json = read_json_file(path);
      if (coarse) {
        json["cloth"]["mesh"]["nodes_x"] = 7;
        json["cloth"]["mesh"]["nodes_y"] = 9;
      }
      double q[2] = {0.0, 0.0};
      for (int k = 0; k < 2; ++k) {
        scenario::ScenarioOverrides overrides;
        overrides.duration = seconds;
        overrides.qp_solver =
            k == 0 ? qp::QpSolverType::kActiveSet : qp::QpSolverType::kInteriorPoint;
        const scenario::Scenario s = scenario::parse_scenario(json, path, overrides);
        int contacts = 0;
        long qps = 0, qp_iterations = 0, steps = 0, first_qp_iterations = 0, to_bound = 0,
             returned = 0;
        double qp_seconds = 0.0, factorization_seconds = 0.0, seed_seconds = 0.0;
        const scenario::RunSummary run =
            scenario::run_simulation(s, [&](const auto&, const stepper::StepReport* r) {
              if (r == nullptr)
                return;
              contacts = std::max(contacts, r->active_contacts);
              qps += r->iterations;
              qp_iterations += r->qp_working_set_changes;
              first_qp_iterations += r->first_qp_working_set_changes;
              to_bound += r->friction_rows_to_bound;
              returned += r->friction_rows_returned;
              qp_seconds += r->qp_seconds;
              factorization_seconds += r->qp_factorization_seconds;
              seed_seconds += r->qp_seed_seconds;
              ++steps;
            });
        q[k] = run.q;
        const auto per = [](long count, long of) {
          return of > 0 ? static_cast<double>(count) / static_cast<double>(of) : 0.0;
        };
        std::printf("%-10s %6d %16s %16.4f %10.2f %10.1f %10.1f %8.1f %8.1f %10d %10s\n", name,
                    s.model.mesh.num_nodes(),
                    std::string(qp::to_string(*overrides.qp_solver)).c_str(), run.q,
                    run.mean_iterations, per(qp_iterations, qps), per(first_qp_iterations, steps),
                    per(to_bound, qps), per(returned, qps), contacts,
                    std::string(stepper::to_string(run.status)).c_str());
        if (k == 0 && qp_seconds > 0.0) {
          std::printf(
              "%-10s %6s   QPs %.0f %% of the time; of it factorisations %.0f %%, the rows each "
              "QP starts from %.0f %%, working-set changes and the rest %.0f %%\n",
              "", "", 100.0 * qp_seconds / run.wall_seconds,
              100.0 * factorization_seconds / qp_seconds, 100.0 * seed_seconds / qp_seconds,
              100.0 * (qp_seconds - factorization_seconds - seed_seconds) / qp_seconds);
        }
        std::fflush(stdout);
      }
      std::printf("%-10s interior-point / active-set q ratio: %.2f\n", name, q[1] / q[0]);
    }
  }
  return 0;
}
