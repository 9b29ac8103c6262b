// clothfit sweep SCENARIO.json --vary NAME=LO:HI:STEP [--vary ...] --out DIR: the objective over a
// 1-D or 2-D parameter grid (paper Fig. 7), the other parameters fixed; writes DIR/sweep.csv.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "apps/command_line.hpp"
#include "apps/output_files.hpp"
#include "apps/stop_on_signal.hpp"
#include "core/io/input_error.hpp"
#include "core/io/json_object.hpp"
#include "fitting/parameter_grid.hpp"
#include "fitting/parameter_sweep.hpp"
#include "fitting/recording_setup.hpp"
#include "mocap/mocap_input_error.hpp"

namespace po = boost::program_options;

namespace clothfit::apps {
namespace {

const char* kUsage =
    "usage: clothfit sweep SCENARIO.json --vary NAME=LO:HI:STEP [--vary ...] --out DIR\n\n"
    "Simulates the recording for every value of one or two parameters (alpha, delta,\n"
    "mu.<obstacle>) and writes DIR/sweep.csv: the varied values, then objective (sum of e_n, m),\n"
    "mean_error_m, mean_spread_m, status, and the steps at the iteration cap and taken again\n"
    "there (unconverged_steps, retried_steps) per point, first parameter varying slowest;\n"
    "why a point failed goes to stderr, one line per failed point. While it runs, sweep.csv\n"
    "is rewritten every 5 s with the points done so far (the others 'pending'), so an\n"
    "interrupted sweep keeps them; Ctrl-C (or SIGTERM) starts no further run and saves\n"
    "every point done (exit code 1; a second Ctrl-C stops at once).\n"
    "The other parameters take their fixed values, the start of their fit bounds (the middle by\n"
    "default), --at values or the optimum of --from FIT.json.\n"
    "With --replicas R every point is also run in R - 1 replicas perturbed far below what a\n"
    "recording resolves and scored by their mean (columns objective_sd and replicas are\n"
    "added): where the motion is unstable (a sheet buckling on a table, a stick hit) single\n"
    "runs differ by several per cent from one point to the next for no reason in the\n"
    "parameters, and the mean is smoother.\n\noptions";

}  // namespace

int run_sweep_command(int argc, char** argv) {
  po::options_description options(kUsage);
  std::string scenario_path, out_dir, at, from;
  std::vector<std::string> vary;
  int threads = -1, replicas = 1;
  options.add_options()("help,h", "show this help")(
      "vary", po::value(&vary)->composing(),
      "NAME=LO:HI:STEP, e.g. mu.table=0:2:0.1 (once or twice; at most 10000 values each, 100000 "
      "points in all)")("out,o", po::value(&out_dir), "output folder (created if needed)")(
      "at", po::value(&at), "values of the other parameters, e.g. alpha=0.2,delta=0.08")(
      "from", po::value(&from), "take the other parameters from a fit.json (`clothfit fit`)")(
      "threads,j", po::value(&threads),
      "simulations run in parallel (0: all cores); default: the scenario's fit.threads, else all "
      "cores")(
      "replicas", po::value(&replicas),
      "runs per point (the run and R - 1 perturbed replicas), scored by their mean; default 1")(
      "quiet,q", "no progress output on stderr");
  po::variables_map vm;
  if (auto code = parse_command_line("sweep", argc, argv, options, "scenario", &scenario_path, &vm))
    return *code;
  if (scenario_path.empty() || out_dir.empty() || vary.empty())
    return usage_error("sweep", "needs a scenario file, --vary and --out DIR");
  if (vary.size() > 2)
    return usage_error("sweep", "at most two --vary parameters (a line or a heat map)");
  if (auto code = check_option_range("sweep", vm, "threads", threads, 0, 1024, "0: all cores"))
    return *code;
  if (auto code = check_option_range("sweep", vm, "replicas", replicas, 1, 1000))
    return *code;
  std::ostream* progress = vm.count("quiet") ? nullptr : &std::cerr;

  fitting::RecordingScenario scenario;
  std::optional<fitting::RecordingSetup> setup;
  std::vector<fitting::GridAxis> axes;
  std::vector<double> base;
  std::optional<int> code;
  try {
    code = report_input_errors("sweep", [&] {
      scenario = fitting::load_recording_scenario(scenario_path);
      for (const std::string& v : vary)
        axes.push_back(fitting::parse_sweep_axis(v, scenario.parameters));
      if (axes.size() == 2 && axes[0].parameter == axes[1].parameter)
        throw std::invalid_argument("the two --vary parameters must differ");
      if (fitting::grid_size(axes) > fitting::kMaxGridPoints) {
        throw std::invalid_argument("--vary: more than " + std::to_string(fitting::kMaxGridPoints) +
                                    " points in all; use larger steps");
      }
      base = scenario.parameters.start_values();
      if (!from.empty()) {
        const nlohmann::json fit = read_json_file(from);
        const JsonObject root(fit, from);
        const JsonObject parameters = root.object("parameters");
        // A fit of another scenario would leave some of this one's parameters at their start
        // values without a word (sweep.csv does not list the fixed values).
        std::string missing;
        for (std::size_t i = 0; i < base.size(); ++i) {
          const std::string& name = scenario.parameters.specs()[i].name;
          if (parameters.has(name))
            base[i] = parameters.object(name).number("value", Range::non_negative());
          else
            missing += (missing.empty() ? "" : ", ") + name;
        }
        if (!missing.empty()) {
          throw InputError(InputLocation{from, 0, 0, "parameters"},
                           "no value for " + missing +
                               " of the scenario: expected the fit.json of a fit of this "
                               "scenario");
        }
        for (const auto& item : fit["parameters"].items()) {
          const std::string& name = item.key();
          const auto& specs = scenario.parameters.specs();
          if (std::none_of(specs.begin(), specs.end(),
                           [&](const fitting::ParameterSpec& s) { return s.name == name; })) {
            throw InputError(InputLocation{from, 0, 0, "parameters." + name},
                             "the scenario has no parameter " + name +
                                 ": expected the fit.json of a fit of this scenario");
          }
        }
      }
      if (!at.empty()) {
        base = fitting::parse_parameter_values(at, scenario.parameters, base);
        for (const fitting::GridAxis& axis : axes) {  // --vary sets these at every point
          const std::string& name =
              scenario.parameters.specs()[static_cast<std::size_t>(axis.parameter)].name;
          if (("," + at).find("," + name + "=") != std::string::npos)
            throw std::invalid_argument("--at sets " + name + ", which --vary varies");
        }
      }
      const mocap::Take take = fitting::load_take(scenario);
      setup = fitting::build_recording_setup(scenario, take);
      if (const std::string warning = fitting::initial_state_warning(*setup); !warning.empty())
        std::cerr << "clothfit sweep: warning: " << warning << "\n";
    });
  } catch (const std::invalid_argument& e) {
    return usage_error("sweep", e.what());
  }
  if (code)
    return *code;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  const std::filesystem::path csv_path = std::filesystem::path(out_dir) / "sweep.csv";
  const std::filesystem::path partial_path = csv_path.string() + ".partial";
  if (const std::string problem = output_file_problem(out_dir, {"sweep.csv", "sweep.csv.partial"});
      !problem.empty()) {
    std::cerr << "clothfit sweep: " << problem << "\n";
    return kExitBadInput;
  }
  if (ec || !std::ofstream(partial_path)) {
    std::cerr << "clothfit sweep: cannot write '" << partial_path.string() << "'\n";
    return kExitBadInput;
  }
  // sweep.csv is written whole, through sweep.csv.partial and a rename (never seen half-written):
  // every few seconds while the sweep runs, the points not yet run as "pending", so that an
  // interrupted sweep keeps what it did; and at the end. A full disk shows only at the flush.
  const auto save = [&](const fitting::SweepResult& so_far) {
    std::ofstream out(partial_path);
    fitting::write_sweep_csv(out, so_far, scenario.parameters);
    out.flush();
    if (!out)
      return false;
    out.close();
    std::error_code renamed;
    std::filesystem::rename(partial_path, csv_path, renamed);
    return !renamed;
  };
  const fitting::RecordingObjective objective(*setup, scenario.parameters);
  fitting::ParallelEvaluator evaluator(objective, threads >= 0 ? threads : scenario.fit.threads,
                                       progress);
  // Ctrl-C or SIGTERM: no further run starts; the points done are saved, the others pending.
  const fitting::SweepResult sweep = [&] {
    const StopOnSignal stop;
    evaluator.set_stop_flag(&StopOnSignal::requested());
    return fitting::run_sweep(evaluator, base, axes, replicas,
                              [&save](const fitting::SweepResult& so_far) { save(so_far); });
  }();
  evaluator.set_stop_flag(nullptr);
  const bool interrupted = evaluator.stopped();
  const auto done =
      static_cast<std::size_t>(std::count(sweep.completed.begin(), sweep.completed.end(), true));
  const bool written = save(sweep);
  std::size_t best = sweep.evaluations.size();
  for (std::size_t k = 0; k < sweep.evaluations.size(); ++k) {
    if (!sweep.evaluations[k].ok)
      continue;
    if (best == sweep.evaluations.size() ||
        sweep.evaluations[k].objective < sweep.evaluations[best].objective)
      best = k;
  }
  // Why each failed point failed (sweep.csv only says that it did).
  std::ostringstream failures;
  const std::size_t failed = fitting::write_sweep_failures(failures, sweep, scenario.parameters);
  std::istringstream lines(failures.str());
  for (std::string line; std::getline(lines, line);)
    std::cerr << "clothfit sweep: failed at " << line << '\n';
  if (written) {
    std::cout << "wrote " << csv_path.string() << " (" << sweep.points.size() << " points";
    if (failed)
      std::cout << ", " << failed << " failed";
    if (interrupted)
      std::cout << ", " << sweep.points.size() - done << " pending";
    std::cout << ")\n";
  } else {
    std::error_code exists;
    std::cerr << "clothfit sweep: writing " << csv_path.string()
              << " failed: it is missing or holds only the points of an earlier save"
              << (std::filesystem::exists(partial_path, exists)
                      ? "; " + partial_path.string() + " holds what the last save wrote"
                      : std::string())
              << " (disk full?); the minimum follows\n";
  }
  if (interrupted) {
    std::cerr << "clothfit sweep: interrupted (Ctrl-C or SIGTERM) after " << done << " of "
              << sweep.points.size() << " points"
              << (best == sweep.evaluations.size() ? "\n" : "; the minimum among them follows\n");
    if (best == sweep.evaluations.size())
      return kExitFailedRun;
  } else if (best == sweep.evaluations.size()) {
    std::cerr << "clothfit sweep: every simulation failed: " << sweep.evaluations[0].message
              << "\n";
    return kExitFailedRun;
  }
  std::cout << "minimum at";
  for (const fitting::GridAxis& axis : axes) {
    std::cout << ' ' << scenario.parameters.specs()[static_cast<std::size_t>(axis.parameter)].name
              << '=' << sweep.points[best][static_cast<std::size_t>(axis.parameter)];
  }
  std::cout << ": mean error " << 100 * sweep.evaluations[best].errors.mean_error_m << " cm";
  if (replicas > 1) {
    std::cout << " (mean of " << replicas << " replicas; objective sd "
              << 100 * sweep.noise[best].relative() << " %)";
  }
  std::cout << "\n";
  return written && !interrupted ? kExitOk : kExitFailedRun;
}

}  // namespace clothfit::apps
