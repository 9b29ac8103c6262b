#include "fitting/ceres_refinement.hpp"

#include <ceres/ceres.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace clothfit::fitting {
namespace {

// r_n = √e_n per frame (0 where no marker is visible), so that Σ r_n² = Σ e_n.
void residuals_of(const Evaluation& e, double* residuals) {
  for (std::size_t n = 0; n < e.frames.size(); ++n)
    residuals[n] = e.frames[n].visible > 0 ? std::sqrt(e.frames[n].error_m) : 0.0;
}

// Σ e_n as Ceres' cost, over the fitted parameters in units of their bound intervals
// (y = (x − lower) / (upper − lower), so that y ∈ [0, 1] and the finite-difference step is
// `relative_step` in every coordinate; Ceres' step lengths then compare with it). A coordinate
// still at its starting y keeps its starting value exactly. Ceres asks for the same point more
// than once (the projected line search's last trial is evaluated again as the candidate, and an
// accepted candidate again with its Jacobian), so every run's residuals are kept by point and a
// point is simulated once.
class SimulationCost : public ceres::CostFunction {
 public:
  SimulationCost(ParallelEvaluator& evaluator, const ModelParameters& parameters,
                 std::vector<double> base, std::vector<int> fitted, const Evaluation& at_base,
                 double relative_step)
      : m_evaluator(evaluator),
        m_parameters(parameters),
        m_base(std::move(base)),
        m_fitted(std::move(fitted)),
        m_relative_step(relative_step) {
    for (int i : m_fitted) {
      const ParameterSpec& s = spec(i);
      m_base_y.push_back((m_base[static_cast<std::size_t>(i)] - s.lower) / (s.upper - s.lower));
    }
    mutable_parameter_block_sizes()->push_back(static_cast<int>(m_fitted.size()));
    set_num_residuals(static_cast<int>(at_base.frames.size()));
    remember(m_base, at_base);
  }

  // The starting point in units of the bound intervals.
  const std::vector<double>& base_y() const { return m_base_y; }

  // All parameters at y (the fixed ones as given).
  std::vector<double> values_at(const double* y) const {
    std::vector<double> v = m_base;
    for (std::size_t i = 0; i < m_fitted.size(); ++i) {
      if (y[i] == m_base_y[i])
        continue;
      const ParameterSpec& s = spec(m_fitted[i]);
      v[static_cast<std::size_t>(m_fitted[i])] =
          std::clamp(s.lower + y[i] * (s.upper - s.lower), s.lower, s.upper);
    }
    return v;
  }

  bool Evaluate(double const* const* y, double* residuals, double** jacobians) const override {
    const std::size_t p = m_fitted.size();
    std::vector<std::vector<double>> points{values_at(y[0])};
    std::vector<double> steps(p);
    std::vector<bool> central(p);
    if (jacobians && jacobians[0]) {
      for (std::size_t i = 0; i < p; ++i) {
        const ParameterSpec& s = spec(m_fitted[i]);
        const double h = m_relative_step * (s.upper - s.lower);
        const double xi = points[0][static_cast<std::size_t>(m_fitted[i])];
        central[i] = xi - h >= s.lower && xi + h <= s.upper;
        // One-sided at a bound: forward from the lower, backward from the upper one.
        steps[i] = central[i] || xi + h <= s.upper ? h : -h;
        std::vector<double> plus = points[0];
        plus[static_cast<std::size_t>(m_fitted[i])] = xi + steps[i];
        points.push_back(plus);
        if (central[i]) {
          std::vector<double> minus = points[0];
          minus[static_cast<std::size_t>(m_fitted[i])] = xi - h;
          points.push_back(minus);
        }
      }
    }
    const std::vector<const std::vector<double>*> runs = residuals_at(points);
    for (const std::vector<double>* r : runs) {
      if (!r)
        return false;  // Ceres treats the step as unsuccessful and shrinks the trust region
    }
    std::copy(runs[0]->begin(), runs[0]->end(), residuals);
    if (jacobians && jacobians[0]) {
      const int m = num_residuals();
      std::size_t run = 1;
      for (std::size_t i = 0; i < p; ++i) {
        const std::vector<double>& plus = *runs[run++];
        const double* minus = residuals;
        // The difference is taken in x; ∂r/∂y = ∂r/∂x · (upper − lower).
        const ParameterSpec& s = spec(m_fitted[i]);
        double width = steps[i];
        if (central[i]) {
          minus = runs[run++]->data();
          width = 2.0 * steps[i];
        }
        width /= s.upper - s.lower;
        for (int n = 0; n < m; ++n) {
          jacobians[0][n * static_cast<int>(p) + static_cast<int>(i)] =
              (plus[static_cast<std::size_t>(n)] - minus[n]) / width;
        }
      }
    }
    return true;
  }

 private:
  // Residuals of a run (null: the run failed).
  using Residuals = std::optional<std::vector<double>>;

  void remember(const std::vector<double>& point, const Evaluation& e) const {
    Residuals r;
    if (e.ok) {
      r.emplace(e.frames.size());
      residuals_of(e, r->data());
    }
    m_runs.emplace(point, std::move(r));
  }

  // The residuals at every point, simulating (in one parallel batch) those not run before.
  std::vector<const std::vector<double>*> residuals_at(
      const std::vector<std::vector<double>>& points) const {
    std::vector<std::vector<double>> missing;
    for (const std::vector<double>& point : points) {
      if (!m_runs.count(point) && std::find(missing.begin(), missing.end(), point) == missing.end())
        missing.push_back(point);
    }
    if (!missing.empty()) {
      const std::vector<Evaluation> runs = m_evaluator.evaluate(missing, "refine", true);
      for (std::size_t k = 0; k < missing.size(); ++k)
        remember(missing[k], runs[k]);
    }
    std::vector<const std::vector<double>*> out;
    for (const std::vector<double>& point : points) {
      const Residuals& r = m_runs.at(point);
      out.push_back(r ? &*r : nullptr);
    }
    return out;
  }

  const ParameterSpec& spec(int parameter) const {
    return m_parameters.specs()[static_cast<std::size_t>(parameter)];
  }

  ParallelEvaluator& m_evaluator;
  const ModelParameters& m_parameters;
  std::vector<double> m_base;
  std::vector<int> m_fitted;
  std::vector<double> m_base_y;
  double m_relative_step;
  mutable std::map<std::vector<double>, Residuals> m_runs;  // by point (all parameters)
};

// Prints each iteration to the progress stream, and ends the refinement at the first step Ceres
// rejects (the objective did not fall as the model predicted, at the step's end nor at the
// shorter trials of its line search, down to `shortest_step`) or that is shorter than
// `shortest_step` (in units of the bound intervals).
class IterationMonitor : public ceres::IterationCallback {
 public:
  IterationMonitor(std::ostream* out, double shortest_step)
      : m_out(out), m_shortest_step(shortest_step) {}

  ceres::CallbackReturnType operator()(const ceres::IterationSummary& s) override {
    if (m_out) {
      char line[160];
      std::snprintf(line, sizeof line, "refine: iteration %d, objective %.6g m, step %s\n",
                    s.iteration, 2.0 * s.cost, s.step_is_successful ? "accepted" : "rejected");
      *m_out << line << std::flush;
    }
    // Iteration 0 and invalid steps report a step of length 0 that was never taken.
    if (s.iteration == 0 || !s.step_is_valid)
      return ceres::SOLVER_CONTINUE;
    char why[160];
    if (!s.step_is_successful) {
      std::snprintf(why, sizeof why,
                    "a step and its line search down to %g of the bound intervals did not lower "
                    "the objective as predicted",
                    m_shortest_step);
    } else if (s.step_norm < m_shortest_step) {
      std::snprintf(why, sizeof why, "a step shorter than %g of the bound intervals",
                    m_shortest_step);
    } else {
      return ceres::SOLVER_CONTINUE;
    }
    m_reason = why;
    return ceres::SOLVER_TERMINATE_SUCCESSFULLY;
  }

  // Why the refinement ended here (empty: Ceres ended it).
  const std::string& reason() const { return m_reason; }

 private:
  std::ostream* m_out;
  double m_shortest_step;
  std::string m_reason;
};

}  // namespace

RefinementResult refine_with_ceres(ParallelEvaluator& evaluator, const ModelParameters& parameters,
                                   const std::vector<double>& start,
                                   const RefinementOptions& options, std::ostream* progress) {
  RefinementResult result;
  result.values = start;
  const std::vector<int> fitted = parameters.fitted();
  const Evaluation at_start = evaluator.evaluate({start}, "refine", true)[0];
  result.objective = at_start.objective;
  if (fitted.empty() || options.max_iterations <= 0 || !at_start.ok) {
    result.termination = at_start.ok ? "no refinement" : "start point failed: " + at_start.message;
    return result;
  }
  ceres::Problem problem;
  auto* cost =
      new SimulationCost(evaluator, parameters, start, fitted, at_start, options.relative_step);
  std::vector<double> y = cost->base_y();
  problem.AddResidualBlock(cost, nullptr, y.data());
  for (std::size_t i = 0; i < fitted.size(); ++i) {
    problem.SetParameterLowerBound(y.data(), static_cast<int>(i), 0.0);
    problem.SetParameterUpperBound(y.data(), static_cast<int>(i), 1.0);
  }
  const double shortest_step = options.shortest_step * options.relative_step;
  ceres::Solver::Options solver;
  solver.linear_solver_type = ceres::DENSE_QR;
  solver.max_num_iterations = options.max_iterations;
  solver.function_tolerance = options.function_tolerance;
  solver.parameter_tolerance = options.parameter_tolerance;
  solver.num_threads = 1;  // the simulations inside a cost evaluation run in parallel
  solver.logging_type = ceres::SILENT;
  // With bounds, every step goes through a projected Armijo line search. Its default cubic
  // interpolation asks for the gradient at each trial point, which here is 2p + 1 simulations;
  // quadratic interpolation needs only the cost (one simulation per trial). Its trials stop
  // short of `shortest_step` (the largest component of the trial step, in units of the bound
  // intervals): closer to the current point the objective's noise decides Armijo's test.
  solver.line_search_interpolation_type = ceres::QUADRATIC;
  solver.min_line_search_step_size = shortest_step;
  IterationMonitor monitor(progress, shortest_step);
  solver.callbacks.push_back(&monitor);
  ceres::Solver::Summary summary;
  ceres::Solve(solver, &problem, &summary);
  result.values = cost->values_at(y.data());
  result.objective = 2.0 * summary.final_cost;
  result.iterations = static_cast<int>(summary.iterations.size()) - 1;
  result.successful_steps = summary.num_successful_steps;
  result.unsuccessful_steps = summary.num_unsuccessful_steps;
  result.line_search_steps = summary.num_line_search_steps;
  result.termination = summary.BriefReport();
  if (!monitor.reason().empty())
    result.termination += " (" + monitor.reason() + ")";
  return result;
}

}  // namespace clothfit::fitting
