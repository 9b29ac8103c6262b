// clothfit fit SCENARIO.json --out DIR: fits the scenario's free parameters to its recording and
// writes
//   DIR/fit.json    parameters, intervals, ē, s̄, q, evaluations, wall time (README: clothfit fit)
//   DIR/frames.csv  frame,time_s,error_m,spread_m,visible_markers,contact at the optimum
//   DIR/markers.csv simulated and recorded marker positions at the optimum
//   DIR/errors.svg  e_n and s_n over time with contact intervals shaded
//   DIR/evaluations.csv every simulation, a row each as it completes
// and prints the error table. Progress goes to stderr.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <vector>

#include "apps/command_line.hpp"
#include "apps/output_files.hpp"
#include "apps/stop_on_signal.hpp"
#include "core/io/input_error.hpp"
#include "fitting/error_plot.hpp"
#include "fitting/fit_table.hpp"
#include "fitting/parameter_fitter.hpp"
#include "fitting/parameter_grid.hpp"
#include "fitting/recording_setup.hpp"
#include "fitting/recording_truth.hpp"
#include "mocap/mocap_input_error.hpp"

namespace po = boost::program_options;

namespace clothfit::apps {
namespace {

const char* kUsage =
    "usage: clothfit fit SCENARIO.json --out DIR [options]\n\n"
    "Fits the scenario's free parameters (alpha, delta, mu.<obstacle> given as {\"min\",\"max\"})\n"
    "to its recording: a parallel grid search over the bounds, a bounded Ceres refinement from\n"
    "the best grid point, and for each parameter the interval where the objective sum(e_n)\n"
    "stays within 5 % of its minimum. The refined optimum's run is repeated with perturbations\n"
    "far below what a recording resolves (--noise-replicas); where the motion is unstable their\n"
    "spread, the objective's noise, can exceed 5 %, and the intervals then cover every sample\n"
    "within twice the noise of the minimum (a lower point within it is reported, not profiled\n"
    "again). Writes DIR/fit.json, DIR/frames.csv (e_n, s_n per frame), DIR/markers.csv\n"
    "(simulated and recorded markers), DIR/errors.svg (e_n, s_n over time, contact shaded) and\n"
    "DIR/evaluations.csv (every simulation, a row each as it completes: what an interrupted fit\n"
    "keeps), and prints the error table. Exit code 0 on success, 1 when the simulations failed,\n"
    "2 for bad input.\n\n"
    "options";

// The parameter values of the truth file (which names every fitted parameter,
// fitting/recording_truth.hpp; the others at the fit's values); empty without one.
std::vector<double> truth_values(const fitting::ModelParameters& parameters,
                                 const fitting::FitResult& fit, const nlohmann::json& truth) {
  if (!truth.is_object())
    return {};
  std::vector<double> values = fit.values;
  bool any = false;
  for (int i : parameters.fitted()) {
    const std::string& name = parameters.specs()[static_cast<std::size_t>(i)].name;
    if (truth.contains(name) && truth[name].is_number()) {
      values[static_cast<std::size_t>(i)] = truth[name].get<double>();
      any = true;
    }
  }
  return any ? values : std::vector<double>{};
}

// Whether a fixed parameter's value is not the truth file's (the run "at the truth" keeps the
// scenario's value for it: it measures the search, which cannot move it).
bool truth_differs_in_fixed(const fitting::ModelParameters& parameters,
                            const fitting::FitResult& fit, const nlohmann::json& truth) {
  if (!truth.is_object())
    return false;
  const std::vector<int> fitted = parameters.fitted();
  for (std::size_t i = 0; i < parameters.specs().size(); ++i) {
    const std::string& name = parameters.specs()[i].name;
    if (std::find(fitted.begin(), fitted.end(), static_cast<int>(i)) == fitted.end() &&
        truth.contains(name) && truth[name].is_number() &&
        truth[name].get<double>() != fit.values[i]) {
      return true;
    }
  }
  return false;
}

void print_table(const fitting::ModelParameters& parameters, const fitting::FitResult& fit,
                 const nlohmann::json& truth, const fitting::RecordingSetup& setup,
                 const fitting::Evaluation* at_truth) {
  char interval_heading[32];
  std::snprintf(interval_heading, sizeof interval_heading, "interval (%.3g %%)",
                100.0 * fit.interval_tolerance);
  std::printf("%-12s %12s %12s %24s  %s\n", "parameter", "value", "truth", interval_heading,
              "pinned");
  for (std::size_t i = 0; i < parameters.specs().size(); ++i) {
    const fitting::ParameterSpec& s = parameters.specs()[i];
    char truth_text[32] = "-";
    bool missed = false;
    double t = 0.0;
    const bool fitted = std::any_of(
        fit.intervals.begin(), fit.intervals.end(),
        [&](const fitting::ParameterInterval& in) { return in.parameter == static_cast<int>(i); });
    bool fixed_elsewhere = false;
    if (truth.is_object() && truth.contains(s.name)) {
      t = truth[s.name].get<double>();
      std::snprintf(truth_text, sizeof truth_text, "%.4g", t);
      // A fixed parameter is the scenario's choice, not the fit's: it cannot miss.
      missed = fitted && fitting::misses_truth(s.name, fit.values[i], t);
      fixed_elsewhere = !fitted && fit.values[i] != t;
    }
    char interval[64] = "fixed";
    const char* pinned = "";
    bool truth_inside = false;
    for (const fitting::ParameterInterval& in : fit.intervals) {
      if (in.parameter == static_cast<int>(i)) {
        std::snprintf(interval, sizeof interval, "[%.4g, %.4g]", in.lower, in.upper);
        pinned = in.pinned() ? "yes" : "no (the interval reaches a bound)";
        truth_inside = missed && in.contains(t);
      }
    }
    const char* verdict = !missed        ? ""
                          : truth_inside ? ", but the truth is inside the interval: not pinned "
                                           "down to that"
                                         : ", the truth outside the interval";
    std::printf(
        "%-12s %12.4g %12s %24s  %s%s%s%s\n", s.name.c_str(), fit.values[i], truth_text, interval,
        pinned, missed ? "; MISSED: farther from the truth than 10 % (α, δ) or 0.1 (μ)" : "",
        verdict, fixed_elsewhere ? "(fixed by the scenario at another value than the truth)" : "");
  }
  std::printf("\nmean error e  %.3f cm   mean spread s  %.3f cm   objective sum(e_n) %.4g m\n",
              100 * fit.best.errors.mean_error_m, 100 * fit.best.errors.mean_spread_m,
              fit.objective);
  std::printf("q (active set) %.4f over %.2f s   %ld evaluations in %.1f s (%.2f/s, %d threads)\n",
              fit.best.q, setup.duration_s(), fit.evaluations, fit.wall_seconds,
              fit.evaluations / fit.wall_seconds, fit.threads);
  if (fit.noise.measured()) {
    std::printf(
        "objective noise %.2f %% (%zu perturbed replicas of %s: mean %.4g m, sd %.4g m)%s\n",
        100.0 * fit.noise.relative(), fit.noise.objectives.size(),
        fit.noise_values == fit.values
            ? "the optimum's run"
            : "the run the optimum was found from, within twice the noise",
        fit.noise.mean, fit.noise.sd,
        // interval_tolerance is max(profile tolerance, 2 × noise): one of the two.
        fit.interval_tolerance == 2.0 * fit.noise.relative()
            ? "; the intervals are cut at twice the noise"
            : "");
  }
  if (at_truth && at_truth->ok) {
    const double excess = 100.0 * (at_truth->objective / fit.objective - 1.0);
    // The fit's own objective is the lowest sample of the search (biased low where the objective
    // is noisy): the truth is compared with its replicas' spread.
    const char* verdict = fitting::within_noise(at_truth->objective, fit.objective, fit.noise)
                              ? "within twice the noise of the fit's run or its replicas' mean: "
                                "the recording cannot tell them apart"
                          : at_truth->objective == fit.objective
                              ? "the same objective: the recording cannot tell them apart"
                          : excess >= 0.0 ? "the model prefers the fitted values"
                                          : "the search missed a lower point";
    std::printf("objective at the truth %.4g m (%+.1f %% against the fit: %s)%s\n",
                at_truth->objective, excess, verdict,
                truth_differs_in_fixed(parameters, fit, truth)
                    ? "; the fitted parameters at their truth, the fixed ones at the scenario's "
                      "values"
                    : "");
  }
  std::printf("termination: %s\n", fit.termination.c_str());
}

}  // namespace

int run_fit_command(int argc, char** argv) {
  po::options_description options(kUsage);
  std::string scenario_path, out_dir;
  int threads = -1, grid = 0, refine = -1, noise_replicas = -1;
  options.add_options()("help,h", "show this help")("out,o", po::value(&out_dir),
                                                    "output folder (created if needed)")(
      "threads,j", po::value(&threads),
      "simulations run in parallel (0: all cores); default: the scenario's fit.threads, else all "
      "cores")("grid", po::value(&grid),
               "grid points per fitted parameter, also those with their own \"grid\" (at most "
               "100000 simulations in all); default: each parameter's \"grid\", else fit.grid, "
               "else 5 (≤ 2 parameters) or 4")(
      "refine-iterations", po::value(&refine),
      "Ceres iterations after the grid, 0 to 1000 (0: grid only); default: "
      "fit.max_refinement_iterations (20)")(
      "noise-replicas", po::value(&noise_replicas),
      "perturbed replicas of the refined optimum's run (again at the final one when a profile "
      "moved it by more than the noise) that measure the objective's noise (0: none); default: "
      "fit.noise_replicas (6)")(
      "compare-solvers", "also run the optimum with the interior-point QP solver and report its q")(
      "quiet,q", "no progress output on stderr");
  po::variables_map vm;
  if (auto code = parse_command_line("fit", argc, argv, options, "scenario", &scenario_path, &vm))
    return *code;
  if (scenario_path.empty() || out_dir.empty())
    return usage_error("fit", "needs a scenario file and --out DIR");
  if (auto code = check_option_range("fit", vm, "threads", threads, 0, 1024, "0: all cores"))
    return *code;
  if (auto code = check_option_range("fit", vm, "grid", grid, 2,
                                     static_cast<long>(fitting::kMaxGridPoints)))
    return *code;
  if (auto code = check_option_range("fit", vm, "refine-iterations", refine, 0,
                                     fitting::kMaxRefinementIterations, "0: grid only"))
    return *code;
  if (auto code =
          check_option_range("fit", vm, "noise-replicas", noise_replicas, 0, 1000, "0: none"))
    return *code;
  if (vm.count("noise-replicas") && noise_replicas == 1)  // one run has no spread to measure
    return usage_error("fit",
                       "--noise-replicas expects 0 (none) or 2 to 1000: a standard "
                       "deviation needs two runs, found 1");
  std::ostream* progress = vm.count("quiet") ? nullptr : &std::cerr;

  fitting::RecordingScenario scenario;
  std::optional<fitting::RecordingSetup> setup;
  nlohmann::json truth;
  if (auto code = report_input_errors("fit", [&] {
        scenario = fitting::load_recording_scenario(scenario_path);
        if (progress)
          *progress << "fit: reading " << scenario.recording_path << "\n";
        const mocap::Take take = fitting::load_take(scenario);
        setup = fitting::build_recording_setup(scenario, take);
        if (const std::string warning = fitting::initial_state_warning(*setup); !warning.empty())
          std::cerr << "clothfit fit: warning: " << warning << "\n";
        if (!scenario.truth_path.empty())  // checked as load_take checked it
          truth = fitting::read_recording_truth(scenario);
      }))
    return *code;
  if (scenario.parameters.fitted().empty()) {
    std::cerr << "clothfit fit: " << scenario_path
              << ": no parameter to fit: give \"parameters\" bounds {\"min\", \"max\"} for at "
                 "least one of "
              << "alpha, delta, mu.<obstacle>\n";
    return kExitBadInput;
  }
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    std::cerr << "clothfit fit: cannot create '" << out_dir << "': " << ec.message() << "\n";
    return kExitBadInput;
  }
  if (const std::string problem = output_file_problem(
          out_dir, {"fit.json", "frames.csv", "markers.csv", "errors.svg", "evaluations.csv"});
      !problem.empty()) {
    std::cerr << "clothfit fit: " << problem << "\n";
    return kExitBadInput;
  }
  fitting::FitOptions fit_options = fitting::fit_options_from(scenario.fit, progress);
  if (threads >= 0)
    fit_options.threads = threads;
  if (grid > 0) {  // the command line wins over fit.grid and every parameter's own "grid"
    fit_options.grid_points = grid;
    fit_options.grid_points_for_all = true;
  }
  if (refine >= 0)
    fit_options.refinement.max_iterations = refine;
  if (noise_replicas >= 0)
    fit_options.noise_replicas = noise_replicas;
  if (const std::vector<fitting::GridAxis> axes =
          fitting::fit_grid_axes(scenario.parameters, fit_options);
      fitting::grid_size(axes) > fitting::kMaxGridPoints) {
    std::cerr << "clothfit fit: " << scenario_path << ": fit.grid (or --grid, or a parameter's "
              << "grid): the grid search over " << axes.size()
              << " fitted parameters would run more than " << fitting::kMaxGridPoints
              << " simulations; expected fewer grid points per parameter\n";
    return kExitBadInput;
  }
  if (progress) {
    *progress << "fit: " << scenario.name << ": " << setup->frames << " frames ("
              << setup->duration_s() << " s), mesh " << setup->model.mesh.grid_rows << " x "
              << setup->model.mesh.grid_columns << ", " << scenario.parameters.fitted().size()
              << " fitted parameters\n";
  }
  const fitting::RecordingObjective objective(*setup, scenario.parameters);
  // An earlier fit's results in the same folder are written again at the end; until then (and
  // for good if this fit fails or is interrupted) they would pass for this fit's.
  for (const char* name : {"fit.json", "frames.csv", "markers.csv", "errors.svg"})
    std::filesystem::remove(std::filesystem::path(out_dir) / name, ec);
  // Every simulation, written as it completes: what an interrupted fit keeps.
  const std::filesystem::path log_path = std::filesystem::path(out_dir) / "evaluations.csv";
  std::ofstream evaluation_log(log_path);
  fitting::write_evaluation_log_header(evaluation_log, scenario.parameters);
  if (!evaluation_log) {
    std::cerr << "clothfit fit: cannot write " << log_path.string() << "\n";
    return kExitFailedRun;
  }
  fit_options.evaluation_log = &evaluation_log;
  fitting::FitResult fit;
  // Ctrl-C or SIGTERM: no further simulation starts. During the search the fit ends without a
  // result; after it, the runs with the interior-point solver and at the truth are skipped and
  // the fit is written without them. Held until the results are written.
  const StopOnSignal stop;
  try {
    fit_options.stop = &StopOnSignal::requested();
    fit = fitting::fit_parameters(objective, fit_options);
  } catch (const std::exception& e) {
    std::cerr << "clothfit fit: " << e.what() << "\n";
    return kExitFailedRun;
  }
  if (fit.interrupted) {
    std::cerr << "clothfit fit: interrupted (Ctrl-C or SIGTERM) after " << fit.evaluations
              << " simulations; " << log_path.string()
              << " has every one of them; no fit.json is written\n";
    return kExitFailedRun;
  }
  double q_interior_point = -1.0;
  std::vector<std::string> skipped;  // runs not made because a signal came
  if (vm.count("compare-solvers") && StopOnSignal::requested())
    skipped.push_back("the interior-point run");
  if (vm.count("compare-solvers") && !StopOnSignal::requested()) {
    if (progress)
      *progress << "fit: the optimum with the interior-point solver\n";
    const fitting::Evaluation ip =
        objective.evaluate(fit.values, false, qp::QpSolverType::kInteriorPoint);
    fitting::write_evaluation_log_row(evaluation_log, "interior point", ip);
    q_interior_point = ip.q;
  }
  // With a truth file (synthetic recordings): the objective there tells a miss of the search
  // (the truth scores lower) from a model that prefers other values (it scores higher).
  std::optional<fitting::Evaluation> at_truth;
  if (const std::vector<double> t = truth_values(scenario.parameters, fit, truth);
      !t.empty() && StopOnSignal::requested()) {
    skipped.push_back("the run at the truth");
  } else if (!t.empty()) {
    if (progress)
      *progress << "fit: the objective at the truth\n";
    at_truth = objective.evaluate(t);
    fitting::write_evaluation_log_row(evaluation_log, "truth", *at_truth);
  }
  nlohmann::json result =
      fitting::fit_result_json(scenario, *setup, scenario.parameters, fit, truth, q_interior_point);
  if (at_truth && at_truth->ok) {
    result["objective_at_truth"] = at_truth->objective;
    if (fit.noise.measured())
      result["truth_within_noise"] =
          fitting::within_noise(at_truth->objective, fit.objective, fit.noise);
  }
  const std::filesystem::path out(out_dir);
  try {
    std::ofstream json_file(out / "fit.json");
    json_file << result.dump(2) << "\n" << std::flush;  // a full disk shows only at the flush
    if (!json_file)
      throw std::runtime_error("cannot write " + (out / "fit.json").string());
    fitting::write_frames_csv((out / "frames.csv").string(), fit.best, setup->frame_interval_s);
    fitting::write_markers_csv((out / "markers.csv").string(), fit.best, *setup);
    std::ofstream svg(out / "errors.svg");
    svg << fitting::render_line_plot(
               fitting::error_plot(fitting::frame_series(fit.best, setup->frame_interval_s),
                                   scenario.name + ": error at the fitted parameters"))
        << std::flush;
    if (!svg)
      throw std::runtime_error("cannot write " + (out / "errors.svg").string());
    if (!evaluation_log)  // flushed row by row
      throw std::runtime_error("cannot write " + log_path.string());
  } catch (const std::exception& e) {
    std::cerr << "clothfit fit: " << e.what() << "\n";
    return kExitFailedRun;
  }
  print_table(scenario.parameters, fit, truth, *setup, at_truth ? &*at_truth : nullptr);
  if (q_interior_point >= 0)
    std::printf("q (interior point) %.4f\n", q_interior_point);
  std::printf("wrote %s, frames.csv, markers.csv, errors.svg and evaluations.csv\n",
              (out / "fit.json").c_str());
  if (!skipped.empty()) {
    std::cerr << "clothfit fit: interrupted (Ctrl-C or SIGTERM) after the search: "
              << skipped.front() << (skipped.size() > 1 ? " and " + skipped.back() : "")
              << (skipped.size() > 1 ? " were" : " was")
              << " not made; the fit's results are written without them\n";
    return kExitFailedRun;
  }
  if (fit.failed_evaluations > 0) {
    std::cerr << "clothfit fit: " << fit.failed_evaluations << " of " << fit.evaluations
              << " simulations failed (the search scored them +inf); the first, at "
              << fit.first_failure << "\n";
  }
  if (!fit.best.ok) {
    std::cerr << "clothfit fit: the run at the optimum failed: " << fit.best.message << "\n";
    return kExitFailedRun;
  }
  if (fit.best.unconverged_steps > 0) {
    // The optimum stands (exit 0), but its run left steps at the projection's iteration cap: its
    // errors are those of a simulation that did not fully meet its own tolerances.
    std::cerr << "clothfit fit: warning: the run at the optimum left " << fit.best.unconverged_steps
              << " steps at the iteration cap (the first at " << fit.best.message
              << "); see unconverged_steps in fit.json and solver.max_iterations\n";
  }
  return kExitOk;
}

}  // namespace clothfit::apps
