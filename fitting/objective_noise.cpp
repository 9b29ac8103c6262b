#include "fitting/objective_noise.hpp"

#include <algorithm>
#include <cmath>

namespace clothfit::fitting {

ObjectiveNoise summarize_noise(const std::vector<double>& objectives) {
  ObjectiveNoise noise;
  for (double v : objectives) {
    if (std::isfinite(v))
      noise.objectives.push_back(v);
  }
  const double n = static_cast<double>(noise.objectives.size());
  if (n == 0)
    return noise;
  double sum = 0.0;
  for (double v : noise.objectives)
    sum += v;
  noise.mean = sum / n;
  if (n < 2)
    return noise;
  double squares = 0.0;
  for (double v : noise.objectives)
    squares += (v - noise.mean) * (v - noise.mean);
  noise.sd = std::sqrt(squares / (n - 1.0));
  return noise;
}

ObjectiveNoise measure_objective_noise(ParallelEvaluator& evaluator,
                                       const std::vector<double>& values, int replicas) {
  std::vector<double> objectives;
  for (const Evaluation& e : evaluator.evaluate_replicas(values, 1, replicas, "objective noise"))
    objectives.push_back(e.ok ? e.objective : INFINITY);
  return summarize_noise(objectives);
}

double interval_tolerance(double tolerance, const ObjectiveNoise& noise) {
  return std::max(tolerance, 2.0 * noise.relative());
}

double interval_reference(double objective, const ObjectiveNoise& noise) {
  return noise.measured() ? std::max(objective, noise.mean) : objective;
}

bool resolved_improvement(double objective, double lower, const ObjectiveNoise& noise) {
  return !noise.measured() || objective - lower > 2.0 * noise.sd;
}

bool within_noise(double objective, double fit_objective, const ObjectiveNoise& noise) {
  return noise.measured() && (std::abs(objective - noise.mean) <= 2.0 * noise.sd ||
                              std::abs(objective - fit_objective) <= 2.0 * noise.sd);
}

}  // namespace clothfit::fitting
