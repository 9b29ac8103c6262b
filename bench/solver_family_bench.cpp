// The projection's work over families of perturbed 7 × 9 examples (issues 2–4), for comparing two
// builds. A stick hit or a sheet sliding off a cylinder is chaotic: a change that moves one step's
// iterate by 1e-12 m sends the run along another path, and its iteration count moves by several
// per cent for that reason alone. Summed over a family of nearby scenarios those path changes
// average out, and the counts (iterations, factorisations, working-set changes, row responses
// solved and reused) do not depend on the machine.
// Families:
//   hanging   hanging.json, α ∈ {0.1, 0.2, 0.4} × δ ∈ {0.04, 0.08}                  (6 runs, 4 s)
//   stick     stick_hit.json, crossing at 4, 5, 6, 8 and 10 m/s × the stick 5 cm lower, as given
//             and 5 cm higher                                                     (15 runs, 1 s)
//   cylinder  cylinder.json on 7 × 9, μ_cylinder ∈ {0.2, 0.35, 0.55} × the axis 30 or 25 cm
//             from the sheet's centre                                              (6 runs, 2 s)
//   sphere    sphere.json on 7 × 9, μ_sphere ∈ {0.3, 0.5, 0.7} × the sphere under the sheet's
//             centre or 10 cm off it                                           (6 runs, 2.5 s)
// q is the family's wall time over its simulated time, the best of REPEATS passes (default 3).
// --solver JSON sets scenario solver fields in every run (e.g. '{"exact_curvature": true}'), so
// that an option can be judged like a build. --frictionless runs each family with obstacles once
// more with every obstacle's friction set to 0 (rows such as "cylinder, mu=0", left out of "all")
// and prints each such family's time with friction over its time without, measured in the same
// run: what friction costs. Build Release. Usage:
//   solver_family_bench [REPEATS] [--runs] [--solver JSON] [--frictionless]
//   (--runs also prints every run's counts)
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_arguments.hpp"
#include "core/io/input_error.hpp"
#include "core/io/json_object.hpp"
#include "core/scenario/simulation_run.hpp"

namespace {

using clothfit::scenario::Scenario;

struct Variant {
  std::string label;
  nlohmann::json json;
};

struct Family {
  std::string name;
  std::string file;
  std::vector<Variant> variants;
  int with_friction = -1;  // a frictionless copy: the index of the family it copies
};

// The family `f` (at `index`) with every obstacle's friction set to 0; none when it has no
// obstacles.
std::optional<Family> frictionless_copy(const Family& f, int index) {
  if (f.variants.empty() || !f.variants.front().json.contains("obstacles"))
    return std::nullopt;
  Family copy{f.name + ", mu=0", f.file, f.variants, index};
  for (Variant& v : copy.variants) {
    for (auto& obstacle : v.json["obstacles"])
      obstacle["friction"] = 0.0;
  }
  return copy;
}

// Work counted over one run; the same for every run of a build.
struct Counts {
  long steps = 0, iterations = 0, factorizations = 0, changes = 0, unconverged = 0, failed = 0;
  // Row responses solved for with a factorisation and taken from the active set's cache.
  long solved = 0, reused = 0;
  // Steps whose QPs fell back from the exact curvature to the semidefinite model, and steps that
  // finished as Gauss–Newton projections.
  long semidefinite = 0, gauss_newton = 0;
  double simulated_seconds = 0.0, wall_seconds = 0.0;

  void add(const Counts& o) {
    steps += o.steps;
    iterations += o.iterations;
    factorizations += o.factorizations;
    changes += o.changes;
    solved += o.solved;
    reused += o.reused;
    unconverged += o.unconverged;
    semidefinite += o.semidefinite;
    gauss_newton += o.gauss_newton;
    failed += o.failed;
    simulated_seconds += o.simulated_seconds;
    wall_seconds += o.wall_seconds;
  }
};

Counts run(const Scenario& scenario) {
  Counts c;
  const clothfit::scenario::RunSummary summary = clothfit::scenario::run_simulation(
      scenario, [&c](const auto&, const clothfit::stepper::StepReport* r) {
        if (r == nullptr)
          return;
        ++c.steps;
        c.iterations += r->iterations;
        c.factorizations += r->factorizations;
        c.changes += r->qp_working_set_changes;
        c.solved += r->qp_responses_solved;
        c.reused += r->qp_responses_reused;
        c.semidefinite += r->semidefinite_fallback ? 1 : 0;
        c.gauss_newton += r->newton_fallback ? 1 : 0;
      });
  c.unconverged = summary.unconverged_steps;
  c.failed = summary.status == clothfit::stepper::StepStatus::kFailed ? 1 : 0;
  c.simulated_seconds = summary.simulated_seconds;
  c.wall_seconds = summary.wall_seconds;
  return c;
}

// Adds the variant `j`, labelled by printf-style `format`.
template <typename... Args>
void add_variant(Family* family, nlohmann::json j, const char* format, Args... args) {
  char label[64];
  std::snprintf(label, sizeof label, format, args...);
  family->variants.push_back({label, std::move(j)});
}

void coarse(nlohmann::json* j) {
  (*j)["cloth"]["mesh"]["nodes_x"] = 7;
  (*j)["cloth"]["mesh"]["nodes_y"] = 9;
}

std::vector<Family> families(const std::string& dir) {
  std::vector<Family> out;
  {
    Family f{"hanging", dir + "hanging.json", {}};
    for (const double alpha : {0.1, 0.2, 0.4}) {
      for (const double delta : {0.04, 0.08}) {
        nlohmann::json j = clothfit::read_json_file(f.file);
        j["cloth"]["damping"] = alpha;
        j["cloth"]["virtual_density"] = delta;
        add_variant(&f, j, "alpha %.2f delta %.2f", alpha, delta);
      }
    }
    out.push_back(f);
  }
  {
    // The example crosses the sheet's plane at 5 m/s; its keyframes after 0.1 s are scaled in
    // time for the other speeds.
    Family f{"stick", dir + "stick_hit.json", {}};
    for (const double speed : {4.0, 5.0, 6.0, 8.0, 10.0}) {
      for (const double dz : {-0.05, 0.0, 0.05}) {
        nlohmann::json j = clothfit::read_json_file(f.file);
        for (const char* end : {"end0", "end1"}) {
          j["stick"][end]["position"][2] = j["stick"][end]["position"][2].get<double>() + dz;
          for (auto& key : j["stick"][end]["path"]) {
            const double t = key["time"].get<double>();
            key["time"] = 0.1 + (t - 0.1) * 5.0 / speed;
          }
        }
        add_variant(&f, j, "%2.0f m/s, dz %+.2f m", speed, dz);
      }
    }
    out.push_back(f);
  }
  {
    Family f{"cylinder", dir + "cylinder.json", {}};
    for (const double mu : {0.2, 0.35, 0.55}) {
      for (const double x : {0.3, 0.25}) {
        nlohmann::json j = clothfit::read_json_file(f.file);
        coarse(&j);
        j["obstacles"][0]["friction"] = mu;
        j["obstacles"][0]["ends"][0][0] = x;
        j["obstacles"][0]["ends"][1][0] = x;
        add_variant(&f, j, "mu %.2f, axis x %.2f m", mu, x);
      }
    }
    out.push_back(f);
  }
  {
    // The sphere's centre (and its pivot) moved off the sheet's centre along x.
    Family f{"sphere", dir + "sphere.json", {}};
    for (const double mu : {0.3, 0.5, 0.7}) {
      for (const double x : {0.0, 0.1}) {
        nlohmann::json j = clothfit::read_json_file(f.file);
        coarse(&j);
        j["obstacles"][0]["friction"] = mu;
        j["obstacles"][0]["centre"][0] = x;
        j["obstacles"][0]["motion"]["rotation"]["pivot"][0] = x;
        add_variant(&f, j, "mu %.2f, centre x %.2f m", mu, x);
      }
    }
    out.push_back(f);
  }
  return out;
}

double per(long count, long of) {
  return of > 0 ? static_cast<double>(count) / static_cast<double>(of) : 0.0;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage =
      "usage: solver_family_bench [REPEATS] [--runs] [--solver JSON] [--frictionless]   passes "
      "over each family, the best q kept (default 3); --runs prints every run's counts; --solver "
      "sets scenario solver fields in every run; --frictionless also runs the families with "
      "obstacles without friction and prints the time ratios";
  bool print_runs = false, frictionless = false;
  nlohmann::json solver = nlohmann::json::object();
  std::vector<char*> positional{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0) {
      print_runs = true;
    } else if (std::strcmp(argv[i], "--frictionless") == 0) {
      frictionless = true;
    } else if (std::strcmp(argv[i], "--solver") == 0) {
      solver =
          i + 1 < argc ? nlohmann::json::parse(argv[++i], nullptr, false) : nlohmann::json(nullptr);
      if (!solver.is_object()) {
        std::fprintf(stderr, "solver_family_bench: --solver: expected a JSON object\n%s\n", usage);
        return 2;
      }
    } else {
      positional.push_back(argv[i]);
    }
  }
  const int repeats = static_cast<int>(clothfit::bench::positive_argument(
      static_cast<int>(positional.size()), positional.data(), 1, 3, usage));
  const std::string dir = std::string(CLOTHFIT_SOURCE_DIR) + "/datasets/examples/";

  Counts all;
  double all_best_wall = 0.0;
  std::vector<Family> all_families = families(dir);
  if (frictionless) {
    const int with_friction = static_cast<int>(all_families.size());
    for (int f = 0; f < with_friction; ++f) {
      if (std::optional<Family> copy = frictionless_copy(all_families[f], f))
        all_families.push_back(std::move(*copy));
    }
  }
  std::vector<std::vector<Scenario>> all_scenarios;  // parsed first: bad solver fields end here
  try {
    for (const Family& family : all_families) {
      all_scenarios.emplace_back();
      for (Variant v : family.variants) {
        for (const auto& [key, value] : solver.items())
          v.json["solver"][key] = value;
        all_scenarios.back().push_back(clothfit::scenario::parse_scenario(v.json, family.file));
      }
    }
  } catch (const clothfit::InputError& e) {
    std::fprintf(stderr, "solver_family_bench: %s\n", e.what());
    return 2;
  }
  std::printf("families of perturbed 7 x 9 examples, 1 thread, best q of %d passes%s%s\n", repeats,
              solver.empty() ? "" : ", solver ", solver.empty() ? "" : solver.dump().c_str());
  std::vector<double> family_wall(all_families.size(), 0.0);
  std::printf("%-14s %5s %6s %9s %9s %9s %9s %9s %6s %6s %8s %7s %9s\n", "family", "runs", "steps",
              "iter/step", "fact/step", "chg/step", "slv/step", "rus/step", "sdfb", "gnfb", "uncnv",
              "failed", "q");
  for (std::size_t f = 0; f < all_families.size(); ++f) {
    const Family& family = all_families[f];
    const std::vector<Scenario>& scenarios = all_scenarios[f];
    Counts total;
    std::vector<Counts> per_run(scenarios.size());
    double best_wall = 0.0;
    for (int pass = 0; pass < repeats; ++pass) {
      Counts sum;
      for (std::size_t k = 0; k < scenarios.size(); ++k) {
        per_run[k] = run(scenarios[k]);
        sum.add(per_run[k]);
      }
      if (pass == 0 || sum.wall_seconds < best_wall)
        best_wall = sum.wall_seconds;
      total = sum;  // the counts are the same in every pass
    }
    std::printf("%-14s %5zu %6ld %9.3f %9.3f %9.2f %9.2f %9.2f %6ld %6ld %8ld %7ld %9.4f\n",
                family.name.c_str(), scenarios.size(), total.steps,
                per(total.iterations, total.steps), per(total.factorizations, total.steps),
                per(total.changes, total.steps), per(total.solved, total.steps),
                per(total.reused, total.steps), total.semidefinite, total.gauss_newton,
                total.unconverged, total.failed, best_wall / total.simulated_seconds);
    if (print_runs) {
      for (std::size_t k = 0; k < scenarios.size(); ++k) {
        const Counts& c = per_run[k];
        std::printf("  %-26s %6ld steps %6ld iterations %6ld factorisations %7ld changes\n",
                    family.variants[k].label.c_str(), c.steps, c.iterations, c.factorizations,
                    c.changes);
      }
    }
    std::fflush(stdout);
    family_wall[f] = best_wall;
    if (family.with_friction >= 0)
      continue;  // "all" sums the examples as they are
    all.add(total);
    all_best_wall += best_wall;
  }
  std::printf("%-14s %5s %6ld %9.3f %9.3f %9.2f %9.2f %9.2f %6ld %6ld %8ld %7ld %9.4f\n", "all", "",
              all.steps, per(all.iterations, all.steps), per(all.factorizations, all.steps),
              per(all.changes, all.steps), per(all.solved, all.steps), per(all.reused, all.steps),
              all.semidefinite, all.gauss_newton, all.unconverged, all.failed,
              all_best_wall / all.simulated_seconds);
  std::printf(
      "iter/step: projection iterations (QPs) per step; fact/step: of them, those that factored; "
      "chg/step: the QPs' working-set changes per step; slv/step, rus/step: responses of rows "
      "entering a working set, solved for with the factorisation and reused from the active "
      "set's cache, per step; sdfb: steps that fell back from the "
      "exact curvature to the semidefinite model (exact_curvature only); gnfb: steps finished as "
      "Gauss-Newton projections; uncnv: steps at the iteration cap; "
      "q: wall / simulated time of the family.\n");
  for (std::size_t f = 0; f < all_families.size(); ++f) {
    const int w = all_families[f].with_friction;
    if (w >= 0 && family_wall[f] > 0.0) {
      std::printf("friction's cost, %s: time with friction / without %.2f\n",
                  all_families[w].name.c_str(), family_wall[w] / family_wall[f]);
    }
  }
  return 0;
}
