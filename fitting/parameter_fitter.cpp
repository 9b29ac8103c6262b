#include "fitting/parameter_fitter.hpp"

#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <ostream>
#include <stdexcept>

namespace clothfit::fitting {

FitOptions fit_options_from(const FitSettings& settings, std::ostream* progress) {
  FitOptions o;
  o.grid_points = settings.grid_points;
  o.threads = settings.threads;
  o.refinement.max_iterations = settings.max_refinement_iterations;
  o.profile_tolerance = settings.profile_tolerance;
  o.noise_replicas = settings.noise_replicas;
  o.progress = progress;
  return o;
}

std::vector<GridAxis> fit_grid_axes(const ModelParameters& parameters, const FitOptions& options) {
  const std::vector<int> fitted = parameters.fitted();
  const int default_points = options.grid_points > 0 ? options.grid_points
                             : fitted.size() <= 2    ? 5
                                                     : 4;
  std::vector<GridAxis> axes;
  for (int i : fitted) {
    const ParameterSpec& s = parameters.specs()[static_cast<std::size_t>(i)];
    axes.push_back(
        {i, linspace(s.lower, s.upper,
                     s.grid_points > 0 && !(options.grid_points_for_all && options.grid_points > 0)
                         ? s.grid_points
                         : default_points)});
  }
  return axes;
}

FitResult fit_parameters(const RecordingObjective& objective, const FitOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const ModelParameters& parameters = objective.parameters();
  ParallelEvaluator evaluator(objective, options.threads, options.progress);
  if (options.evaluation_log) {
    evaluator.set_result_observer(
        [log = options.evaluation_log](const std::string& stage, std::size_t, const Evaluation& e) {
          write_evaluation_log_row(*log, stage, e);
        });
  }
  evaluator.set_stop_flag(options.stop);
  FitResult fit;
  fit.threads = evaluator.threads();
  const std::vector<int> fitted = parameters.fitted();
  // Checked after each stage: once stopped, the stages after it would only score runs not made.
  const auto stopped = [&] {
    if (!(options.stop != nullptr && options.stop->load()))
      return false;
    fit.interrupted = true;
    fit.evaluations = evaluator.evaluations();
    fit.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return true;
  };

  // 1. Grid search over the bounds.
  const std::vector<std::vector<double>> points =
      grid_points(parameters.start_values(), fit_grid_axes(parameters, options));
  const std::vector<Evaluation> grid = evaluator.evaluate(points, "grid search");
  if (stopped())
    return fit;
  fit.grid_evaluations = static_cast<int>(grid.size());
  std::size_t best = grid.size();
  for (std::size_t k = 0; k < grid.size(); ++k) {
    if (grid[k].ok && (best == grid.size() || grid[k].objective < grid[best].objective))
      best = k;
  }
  if (best == grid.size()) {
    throw std::runtime_error("every grid point's simulation failed; the first: " +
                             grid.front().message);
  }
  fit.grid_best = points[best];
  fit.grid_best_objective = grid[best].objective;

  // 2. Bounded refinement from the best grid point.
  const RefinementResult refined =
      refine_with_ceres(evaluator, parameters, fit.grid_best, options.refinement, options.progress);
  if (stopped())
    return fit;
  fit.values = refined.values;
  fit.objective = refined.objective;
  fit.refinement_iterations = refined.iterations;
  fit.termination = refined.termination;
  if (!(fit.objective <= fit.grid_best_objective)) {  // never worse than the grid
    fit.values = fit.grid_best;
    fit.objective = fit.grid_best_objective;
    fit.termination += "; kept the best grid point";
  }

  // 3. The objective's noise at the refined point (perturbed replicas of its run): differences
  //    smaller than twice its standard deviation say nothing about the parameters.
  fit.noise = measure_objective_noise(evaluator, fit.values, options.noise_replicas);
  if (stopped())
    return fit;
  fit.noise_values = fit.values;
  std::vector<double> anchor = fit.values;  // the last point reached by a resolved improvement

  // 4. Profile intervals; a better point found there becomes the optimum.
  //    The intervals are always those around the reported optimum: after an improvement the
  //    profile is taken again around the new point (at most kProfileRounds times). When the
  //    improvement is within twice the noise (the profile's samples scatter that much on a rough
  //    objective, so a lower one says nothing), or the last round still improves, the lower point
  //    is reported with the slices just taken around the point before, extended to contain it
  //    (dropping them left intervals of the point alone, claiming a precision nothing measured).
  //    Either way the intervals are then widened to every sample of the search within the tolerance
  //    of the optimum.
  constexpr int kProfileRounds = 3;
  for (int round = 0; round < kProfileRounds && !fitted.empty(); ++round) {
    const ProfileResult profile = profile_parameters(evaluator, parameters, fit.values,
                                                     fit.objective, options.profile_tolerance);
    if (stopped())
      return fit;
    fit.intervals = profile.intervals;
    if (!profile.improved)
      break;
    const bool beyond_noise =
        resolved_improvement(fit.objective, profile.best_objective, fit.noise);
    fit.values = profile.best_values;
    fit.objective = profile.best_objective;
    if (beyond_noise)
      anchor = fit.values;
    if (!beyond_noise || round + 1 == kProfileRounds) {
      fit.termination += beyond_noise ? "; the last profile still found a lower objective (a "
                                        "rough objective)"
                                      : "; the profile found a lower objective within twice the "
                                        "noise";
      fit.termination +=
          ": reported there, intervals from the last profile's slices around the point before "
          "and the samples of the search";
      extend_to_point(parameters, fit.values, &fit.intervals);
      break;
    }
    fit.termination += "; the profile found a lower objective, profiled again there";
  }

  // 5. The noise again where a resolved improvement moved the optimum (the replicas' mean there is
  //    the reference below). The intervals' threshold: where the noise exceeds half the profile
  //    tolerance, the intervals cover every sample within twice the noise of the minimum instead
  //    (the slices were cut at the profile tolerance; the samples of the whole search widen them).
  //    The minimum is the replicas' mean where that is higher: the optimum's own run was picked for
  //    being the lowest sample.
  if (anchor != fit.noise_values) {
    fit.noise = measure_objective_noise(evaluator, anchor, options.noise_replicas);
    if (stopped())
      return fit;
    fit.noise_values = anchor;
  }
  fit.interval_tolerance = interval_tolerance(options.profile_tolerance, fit.noise);
  fit.interval_reference = interval_reference(fit.objective, fit.noise);
  widen_to_samples(parameters, evaluator.samples(),
                   (1.0 + fit.interval_tolerance) * fit.interval_reference, &fit.intervals);

  // 6. The run at the optimum, kept frame by frame (alone on the machine: its q is meaningful).
  fit.best = objective.evaluate(fit.values, true);
  if (options.evaluation_log)
    write_evaluation_log_row(*options.evaluation_log, "optimum", fit.best);
  fit.objective = fit.best.objective;
  fit.evaluations = evaluator.evaluations() + 1;
  fit.failed_evaluations = evaluator.failures() + (fit.best.ok ? 0 : 1);
  fit.first_failure = evaluator.first_failure();
  if (fit.first_failure.empty() && !fit.best.ok)
    fit.first_failure = "the run at the optimum: " + fit.best.message;
  fit.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return fit;
}

namespace {

double round_to(double v, double digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(v * scale) / scale;
}

}  // namespace

nlohmann::json fit_result_json(const RecordingScenario& scenario, const RecordingSetup& setup,
                               const ModelParameters& parameters, const FitResult& fit,
                               const nlohmann::json& truth, double q_interior_point) {
  nlohmann::json j;
  j["name"] = scenario.name;
  j["material"] = scenario.fabric;
  j["experiment"] = scenario.experiment;
  j["condition"] = scenario.condition;
  j["scenario"] = scenario.source_path;
  j["recording"] = scenario.recording_path;
  j["recording_seconds"] = setup.duration_s();
  j["frames"] = setup.frames;
  j["mesh"] = {setup.model.mesh.grid_rows, setup.model.mesh.grid_columns};
  nlohmann::json params = nlohmann::json::object();
  for (std::size_t i = 0; i < parameters.specs().size(); ++i) {
    const ParameterSpec& s = parameters.specs()[i];
    nlohmann::json p;
    p["value"] = fit.values[i];
    p["fitted"] = s.fitted;
    if (s.fitted) {
      p["lower"] = s.lower;
      p["upper"] = s.upper;
      for (const ParameterInterval& in : fit.intervals) {
        if (in.parameter != static_cast<int>(i))
          continue;
        p["interval"] = {in.lower, in.upper};
        p["interval_reaches_lower_bound"] = in.lower_at_bound;
        p["interval_reaches_upper_bound"] = in.upper_at_bound;
        p["pinned"] = in.pinned();
      }
    }
    if (truth.is_object() && truth.contains(s.name))
      p["truth"] = truth[s.name];
    params[s.name] = p;
  }
  j["parameters"] = params;
  j["objective"] = fit.objective;
  nlohmann::json noise;
  noise["replicas"] = fit.noise.objectives.size();
  noise["objectives"] = fit.noise.objectives;
  noise["mean"] = fit.noise.mean;
  noise["sd"] = fit.noise.sd;
  noise["relative"] = fit.noise.relative();
  nlohmann::json at = nlohmann::json::object();  // where the replicas ran: all parameters
  for (std::size_t i = 0; i < fit.noise_values.size() && i < parameters.specs().size(); ++i)
    at[parameters.specs()[i].name] = fit.noise_values[i];
  noise["at"] = at;
  j["objective_noise"] = noise;
  j["interval_tolerance"] = fit.interval_tolerance;
  j["interval_reference"] = fit.interval_reference;
  j["mean_error_m"] = fit.best.errors.mean_error_m;
  j["mean_spread_m"] = fit.best.errors.mean_spread_m;
  j["q"] = round_to(fit.best.q, 6);
  if (q_interior_point >= 0.0)
    j["q_interior_point"] = round_to(q_interior_point, 6);
  j["mean_iterations"] = fit.best.mean_iterations;
  j["unconverged_steps"] = fit.best.unconverged_steps;
  j["retried_steps"] = fit.best.retried_steps;
  j["evaluations"] = fit.evaluations;
  j["failed_evaluations"] = fit.failed_evaluations;
  if (!fit.first_failure.empty())
    j["first_failure"] = fit.first_failure;
  j["grid_evaluations"] = fit.grid_evaluations;
  j["refinement_iterations"] = fit.refinement_iterations;
  j["wall_seconds"] = fit.wall_seconds;
  j["evaluations_per_second"] = fit.wall_seconds > 0 ? fit.evaluations / fit.wall_seconds : 0.0;
  j["threads"] = fit.threads;
  j["termination"] = fit.termination;
  j["initial_projection_m"] = setup.initial_projection_m;
  j["initial_marker_offset_m"] = setup.initial_marker_offset_m;
  j["initial_marker_offset_marker"] = setup.initial_marker_offset_name;
  j["marker_gaps"] = setup.marker_gaps;
  j["initial_settling"] = setup.initial_settling;
  return j;
}

void write_evaluation_log_header(std::ostream& out, const ModelParameters& parameters) {
  out << "stage";
  for (const ParameterSpec& spec : parameters.specs())
    out << ',' << spec.name;
  out << ",objective,mean_error_m,mean_spread_m,status,unconverged_steps,retried_steps\n"
      << std::flush;
}

void write_evaluation_log_row(std::ostream& out, const std::string& stage,
                              const Evaluation& evaluation) {
  char buffer[96];
  out << stage;
  for (double v : evaluation.values) {
    std::snprintf(buffer, sizeof buffer, ",%.9g", v);
    out << buffer;
  }
  if (evaluation.ok) {
    std::snprintf(buffer, sizeof buffer, ",%.9g,%.9g,%.9g,", evaluation.objective,
                  evaluation.errors.mean_error_m, evaluation.errors.mean_spread_m);
    out << buffer << (evaluation.unconverged_steps > 0 ? "iteration_cap" : "ok") << ','
        << evaluation.unconverged_steps << ',' << evaluation.retried_steps;
  } else {
    out << ",,,,failed,,";
  }
  out << '\n' << std::flush;  // a row at a time: an interrupted fit keeps every finished run
}

void write_frames_csv(const std::string& path, const Evaluation& evaluation,
                      double frame_interval_s) {
  std::ofstream out(path);
  if (!out)
    throw std::runtime_error("cannot write " + path);
  out << "frame,time_s,error_m,spread_m,visible_markers,contact\n";
  char line[160];
  for (std::size_t k = 0; k < evaluation.frames.size(); ++k) {
    const FrameError& f = evaluation.frames[k];
    const bool contact = k < evaluation.contact.size() && evaluation.contact[k];
    if (f.visible == 0) {
      std::snprintf(line, sizeof line, "%zu,%.4f,,,0,%d\n", k + 1, (k + 1) * frame_interval_s,
                    contact ? 1 : 0);
    } else {
      std::snprintf(line, sizeof line, "%zu,%.4f,%.9g,%.9g,%d,%d\n", k + 1,
                    (k + 1) * frame_interval_s, f.error_m, f.spread_m, f.visible, contact ? 1 : 0);
    }
    out << line;
  }
  out.flush();  // a full disk shows only here
  if (!out)
    throw std::runtime_error("cannot write " + path);
}

void write_markers_csv(const std::string& path, const Evaluation& evaluation,
                       const RecordingSetup& setup) {
  std::ofstream out(path);
  if (!out)
    throw std::runtime_error("cannot write " + path);
  out << "frame,time_s,marker,x,y,z,recorded_x,recorded_y,recorded_z\n";
  const std::size_t cells = setup.marker_nodes.size();
  const std::size_t frames = evaluation.simulated_m.size() / (3 * cells);
  char line[256];
  for (std::size_t f = 0; f < frames; ++f) {
    const auto recorded = setup.recorded(f);
    for (std::size_t c = 0; c < cells; ++c) {
      const double* p = evaluation.simulated_m.data() + 3 * (f * cells + c);
      const auto r = recorded.row(static_cast<Eigen::Index>(c));
      int n = std::snprintf(line, sizeof line, "%zu,%.4f,%s,%.6f,%.6f,%.6f,", f,
                            f * setup.frame_interval_s, setup.marker_names[c].c_str(), p[0], p[1],
                            p[2]);
      if (r.allFinite())
        std::snprintf(line + n, sizeof line - n, "%.6f,%.6f,%.6f\n", r(0), r(1), r(2));
      else
        std::snprintf(line + n, sizeof line - n, ",,\n");
      out << line;
    }
  }
  out.flush();  // a full disk shows only here
  if (!out)
    throw std::runtime_error("cannot write " + path);
}

}  // namespace clothfit::fitting
