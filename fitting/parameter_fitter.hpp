// The fit of a recording (DESIGN.md §3, paper §7.2): minimise Σ e_n over the fitted parameters by
// a parallel grid search over their bounds, a bounded Ceres refinement from the best grid point,
// and a profile of each parameter around the optimum (objective_profile.hpp).
#pragma once

#include <atomic>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fitting/ceres_refinement.hpp"
#include "fitting/objective_noise.hpp"
#include "fitting/objective_profile.hpp"
#include "fitting/parameter_grid.hpp"
#include "fitting/recording_scenario.hpp"

namespace clothfit::fitting {

struct FitOptions {
  int grid_points = 0;  // per fitted parameter (a parameter's own "grid" wins); 0: 5 for ≤ 2
                        // fitted parameters, 4 for more
  // grid_points for every fitted parameter, its own "grid" too (the command line's --grid).
  bool grid_points_for_all = false;
  int threads = 0;  // 0: all hardware threads
  RefinementOptions refinement;
  double profile_tolerance = 0.05;
  // Perturbed replicas of the refined optimum's run (and of the final one when a profile moved it
  // by more than the noise) that measure the objective's noise; the intervals then use
  // max(profile_tolerance, 2 × relative noise). 0: no replicas, profile_tolerance only.
  int noise_replicas = 6;
  std::ostream* progress = nullptr;  // progress lines (stderr in the CLI)
  // Every simulation of the fit as it completes, as CSV (write_evaluation_log_header first):
  // what a fit that is interrupted keeps. Null: none.
  std::ostream* evaluation_log = nullptr;
  // Once *stop is set, no further simulation starts and the fit returns after the runs under way,
  // FitResult::interrupted set and nothing else meaningful in it. Null: none.
  const std::atomic<bool>* stop = nullptr;
};

// The evaluation log's header and one row: the stage ("grid search", "refine", "profile",
// "objective noise", "optimum"), every parameter, objective (Σ e_n, m), mean_error_m,
// mean_spread_m, status (ok, iteration_cap or failed), unconverged_steps and retried_steps
// (Evaluation); failed rows have no numbers.
void write_evaluation_log_header(std::ostream& out, const ModelParameters& parameters);
void write_evaluation_log_row(std::ostream& out, const std::string& stage,
                              const Evaluation& evaluation);

FitOptions fit_options_from(const FitSettings& settings, std::ostream* progress);

// The grid search's axes: each fitted parameter's bounds at its own "grid" points, or at
// options.grid_points, or the default (FitOptions::grid_points); at options.grid_points for every
// parameter with options.grid_points_for_all.
std::vector<GridAxis> fit_grid_axes(const ModelParameters& parameters, const FitOptions& options);

struct FitResult {
  std::vector<double> values;  // every parameter at the optimum
  double objective = 0.0;      // Σ e_n, m
  Evaluation best;             // the run at the optimum, frames kept
  std::vector<double> grid_best;
  double grid_best_objective = 0.0;
  int grid_evaluations = 0;
  int refinement_iterations = 0;
  std::vector<ParameterInterval> intervals;  // one per fitted parameter
  // Replicas of the run at noise_values: the optimum, or the point the profile found it from when
  // it scored lower by less than twice the noise.
  ObjectiveNoise noise;
  std::vector<double> noise_values;
  double interval_tolerance = 0.0;  // relative, the intervals' threshold above the min
  double interval_reference = 0.0;  // Σ e_n the threshold is measured from (interval_reference())
  long evaluations = 0;             // simulations run in all
  long failed_evaluations = 0;      // of them, runs that failed (scored +∞ by the search)
  std::string first_failure;        // the first failed run's values and message (or empty)
  double wall_seconds = 0.0;
  std::string termination;
  int threads = 1;
  bool interrupted = false;  // FitOptions::stop ended it: only `evaluations` is meaningful
};

FitResult fit_parameters(const RecordingObjective& objective, const FitOptions& options);

// The fit.json document (README.md "`clothfit fit`"); `truth`: parameter name → true value (may be
// empty); q_interior_point < 0 leaves it out.
nlohmann::json fit_result_json(const RecordingScenario& scenario, const RecordingSetup& setup,
                               const ModelParameters& parameters, const FitResult& fit,
                               const nlohmann::json& truth, double q_interior_point = -1.0);

// Per-frame CSV: frame,time_s,error_m,spread_m,visible_markers,contact (n = 1 …).
void write_frames_csv(const std::string& path, const Evaluation& evaluation,
                      double frame_interval_s);

// Per-marker CSV: frame,time_s,marker,x,y,z,recorded_x,recorded_y,recorded_z (m; recorded
// empty where the marker is missing), frames 0 … of the run.
void write_markers_csv(const std::string& path, const Evaluation& evaluation,
                       const RecordingSetup& setup);

}  // namespace clothfit::fitting
