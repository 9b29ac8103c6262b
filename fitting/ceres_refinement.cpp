#include "fitting/ceres_refinement.hpp"

#include <ceres/ceres.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>

namespace clothfit::fitting {
namespace {

// r_n = √e_n per frame (0 where no marker is visible), so that Σ r_n² = Σ e_n.
void residuals_of(const Evaluation& e, double* residuals) {
  for (std::size_t n = 0; n < e.frames.size(); ++n)
    residuals[n] = e.frames[n].visible > 0 ? std::sqrt(e.frames[n].error_m) : 0.0;
}

// Σ e_n as Ceres' cost. Ceres asks for the same point more than once (the projected line search's
// last trial is evaluated again as the candidate, and an accepted candidate again with its
// Jacobian), so every run's residuals are kept by point and a point is simulated once.
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
    mutable_parameter_block_sizes()->push_back(static_cast<int>(m_fitted.size()));
    set_num_residuals(static_cast<int>(at_base.frames.size()));
    remember(m_base, at_base);
  }

  bool Evaluate(double const* const* x, double* residuals, double** jacobians) const override {
    const std::size_t p = m_fitted.size();
    std::vector<std::vector<double>> points{values_at(x[0])};
    std::vector<double> steps(p);
    std::vector<bool> central(p);
    if (jacobians && jacobians[0]) {
      for (std::size_t i = 0; i < p; ++i) {
        const ParameterSpec& s = m_parameters.specs()[static_cast<std::size_t>(m_fitted[i])];
        const double h = m_relative_step * (s.upper - s.lower);
        const double xi = x[0][i];
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
        double width = steps[i];
        if (central[i]) {
          minus = runs[run++]->data();
          width = 2.0 * steps[i];
        }
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

  std::vector<double> values_at(const double* x) const {
    std::vector<double> v = m_base;
    for (std::size_t i = 0; i < m_fitted.size(); ++i)
      v[static_cast<std::size_t>(m_fitted[i])] = x[i];
    return v;
  }

  ParallelEvaluator& m_evaluator;
  const ModelParameters& m_parameters;
  std::vector<double> m_base;
  std::vector<int> m_fitted;
  double m_relative_step;
  mutable std::map<std::vector<double>, Residuals> m_runs;  // by point (all parameters)
};

class ProgressCallback : public ceres::IterationCallback {
 public:
  explicit ProgressCallback(std::ostream* out) : m_out(out) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& s) override {
    if (m_out) {
      char line[160];
      std::snprintf(line, sizeof line, "refine: iteration %d, objective %.6g m, step %s\n",
                    s.iteration, 2.0 * s.cost, s.step_is_successful ? "accepted" : "rejected");
      *m_out << line << std::flush;
    }
    return ceres::SOLVER_CONTINUE;
  }

 private:
  std::ostream* m_out;
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
  std::vector<double> x;
  for (int i : fitted)
    x.push_back(start[static_cast<std::size_t>(i)]);
  ceres::Problem problem;
  auto* cost =
      new SimulationCost(evaluator, parameters, start, fitted, at_start, options.relative_step);
  problem.AddResidualBlock(cost, nullptr, x.data());
  for (std::size_t i = 0; i < fitted.size(); ++i) {
    const ParameterSpec& s = parameters.specs()[static_cast<std::size_t>(fitted[i])];
    problem.SetParameterLowerBound(x.data(), static_cast<int>(i), s.lower);
    problem.SetParameterUpperBound(x.data(), static_cast<int>(i), s.upper);
  }
  ceres::Solver::Options solver;
  solver.linear_solver_type = ceres::DENSE_QR;
  solver.max_num_iterations = options.max_iterations;
  solver.function_tolerance = options.function_tolerance;
  solver.parameter_tolerance = options.parameter_tolerance;
  solver.num_threads = 1;  // the simulations inside a cost evaluation run in parallel
  solver.logging_type = ceres::SILENT;
  // With bounds, every step goes through a projected Armijo line search. Its default cubic
  // interpolation asks for the gradient at each trial point, which here is 2p + 1 simulations;
  // quadratic interpolation needs only the cost (one simulation per trial).
  solver.line_search_interpolation_type = ceres::QUADRATIC;
  ProgressCallback callback(progress);
  solver.callbacks.push_back(&callback);
  ceres::Solver::Summary summary;
  ceres::Solve(solver, &problem, &summary);
  for (std::size_t i = 0; i < fitted.size(); ++i)
    result.values[static_cast<std::size_t>(fitted[i])] = x[i];
  result.objective = 2.0 * summary.final_cost;
  result.iterations = static_cast<int>(summary.iterations.size()) - 1;
  result.successful_steps = summary.num_successful_steps;
  result.unsuccessful_steps = summary.num_unsuccessful_steps;
  result.line_search_steps = summary.num_line_search_steps;
  result.termination = summary.BriefReport();
  return result;
}

}  // namespace clothfit::fitting
