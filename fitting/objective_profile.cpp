#include "fitting/objective_profile.hpp"

#include <algorithm>
#include <cmath>

namespace clothfit::fitting {
namespace {

constexpr double kOffsets[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 1.0};

struct SidePoint {
  double value;
  double objective;
};

// Walks outward from the optimum along one side; returns the crossing and whether the side
// stayed below the threshold up to its last point (the bound).
std::pair<double, bool> crossing(double optimum, double optimum_objective,
                                 const std::vector<SidePoint>& side, double threshold,
                                 double bound) {
  double previous_value = optimum, previous_objective = optimum_objective;
  for (const SidePoint& p : side) {
    if (!(p.objective <= threshold)) {  // a failed run (+∞/NaN) counts as outside
      if (!std::isfinite(p.objective))
        return {previous_value, false};
      const double t = (threshold - previous_objective) / (p.objective - previous_objective);
      return {previous_value + std::clamp(t, 0.0, 1.0) * (p.value - previous_value), false};
    }
    previous_value = p.value;
    previous_objective = p.objective;
  }
  return {bound, true};
}

}  // namespace

ProfileResult profile_parameters(ParallelEvaluator& evaluator, const ModelParameters& parameters,
                                 const std::vector<double>& optimum, double optimum_objective,
                                 double tolerance) {
  const std::vector<int> fitted = parameters.fitted();
  std::vector<std::vector<double>> points;
  struct Slot {
    int parameter;
    int side;  // −1 below, +1 above
    double value;
  };
  std::vector<Slot> slots;
  for (int i : fitted) {
    const ParameterSpec& s = parameters.specs()[static_cast<std::size_t>(i)];
    const double x = optimum[static_cast<std::size_t>(i)];
    for (int side : {-1, +1}) {
      double last = x;
      for (double offset : kOffsets) {
        const double v = std::clamp(x + side * offset * (s.upper - s.lower), s.lower, s.upper);
        if (v == last)
          continue;
        last = v;
        points.push_back(optimum);
        points.back()[static_cast<std::size_t>(i)] = v;
        slots.push_back({i, side, v});
        if (v == s.lower || v == s.upper)
          break;
      }
    }
  }
  const std::vector<Evaluation> runs = evaluator.evaluate(points, "profile");

  ProfileResult result;
  result.best_values = optimum;
  result.best_objective = optimum_objective;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    if (runs[k].ok && runs[k].objective < result.best_objective) {
      result.best_objective = runs[k].objective;
      result.best_values = points[k];
      result.improved = true;
    }
  }
  const double threshold = (1.0 + tolerance) * std::min(optimum_objective, result.best_objective);
  for (int i : fitted) {
    const ParameterSpec& s = parameters.specs()[static_cast<std::size_t>(i)];
    const double x = optimum[static_cast<std::size_t>(i)];
    std::vector<SidePoint> below, above;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      if (slots[k].parameter != i)
        continue;
      (slots[k].side < 0 ? below : above).push_back({slots[k].value, runs[k].objective});
    }
    ParameterInterval interval;
    interval.parameter = i;
    std::tie(interval.lower, interval.lower_at_bound) =
        x <= s.lower ? std::pair{s.lower, true}
                     : crossing(x, optimum_objective, below, threshold, s.lower);
    std::tie(interval.upper, interval.upper_at_bound) =
        x >= s.upper ? std::pair{s.upper, true}
                     : crossing(x, optimum_objective, above, threshold, s.upper);
    result.intervals.push_back(interval);
  }
  return result;
}

void extend_to_point(const ModelParameters& parameters, const std::vector<double>& values,
                     std::vector<ParameterInterval>* intervals) {
  for (ParameterInterval& interval : *intervals) {
    const ParameterSpec& s = parameters.specs()[static_cast<std::size_t>(interval.parameter)];
    const double v = values[static_cast<std::size_t>(interval.parameter)];
    if (v < interval.lower) {
      interval.lower = v;
      interval.lower_at_bound = v <= s.lower;
    }
    if (v > interval.upper) {
      interval.upper = v;
      interval.upper_at_bound = v >= s.upper;
    }
  }
}

void widen_to_samples(const ModelParameters& parameters,
                      const std::vector<ObjectiveSample>& samples, double threshold,
                      std::vector<ParameterInterval>* intervals) {
  for (const ObjectiveSample& sample : samples) {
    if (sample.objective <= threshold)
      extend_to_point(parameters, sample.values, intervals);
  }
}

}  // namespace clothfit::fitting
