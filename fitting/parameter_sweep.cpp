#include "fitting/parameter_sweep.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/io/decimal_number.hpp"
#include "core/io/json_object.hpp"
#include "core/obstacles/obstacle.hpp"

namespace clothfit::fitting {
namespace {

double parse_number(const std::string& text, const std::string& what) {
  const DecimalNumber n = parse_decimal(text);
  if (n.status != DecimalNumber::ok)
    throw std::invalid_argument("expected " + n.expected() + " for " + what + ", found '" + text +
                                "'");
  return n.value;
}

// A friction coefficient above obstacles::kMaxFrictionCoefficient is refused, as in a scenario.
void check_friction(const ParameterSpec& spec, double value) {
  if (spec.kind == ParameterKind::kFriction && value > obstacles::kMaxFrictionCoefficient) {
    throw std::invalid_argument(
        "expected at most " + format_number(obstacles::kMaxFrictionCoefficient) + " for " +
        spec.name + " (a contact sticks there as at any larger μ), found " + format_number(value));
  }
}

}  // namespace

GridAxis parse_sweep_axis(const std::string& text, const ModelParameters& parameters) {
  const auto eq = text.find('=');
  if (eq == std::string::npos)
    throw std::invalid_argument("expected name=lower:upper:step, found '" + text + "'");
  const std::string name = text.substr(0, eq);
  const int index = parameters.find(name);
  if (index < 0) {
    std::string known;
    for (const ParameterSpec& s : parameters.specs())
      known += (known.empty() ? "" : ", ") + s.name;
    throw std::invalid_argument("unknown parameter '" + name + "' (the scenario has " + known +
                                ")");
  }
  std::vector<std::string> parts;
  std::stringstream in(text.substr(eq + 1));
  std::string part;
  while (std::getline(in, part, ':'))
    parts.push_back(part);
  if (parts.size() != 3)
    throw std::invalid_argument("expected " + name + "=lower:upper:step, found '" + text + "'");
  const double lower = parse_number(parts[0], name + " lower");
  const double upper = parse_number(parts[1], name + " upper");
  const double step = parse_number(parts[2], name + " step");
  if (lower < 0 || !(upper >= lower) || !(step > 0))
    throw std::invalid_argument("expected 0 ≤ lower ≤ upper and step > 0 for " + name);
  check_friction(parameters.specs()[static_cast<std::size_t>(index)], upper);
  // Checked as a double before the cast: a step of 1e-20 makes the count too large for a long
  // (the cast wrapped to a negative count, which passed the check and crashed the sweep).
  const double count = (upper - lower) / step;
  if (!(count + 1e-9 < 10000.0))
    throw std::invalid_argument(name + ": more than 10000 values; use a larger step");
  const long n = static_cast<long>(std::floor(count + 1e-9)) + 1;
  GridAxis axis;
  axis.parameter = index;
  for (long i = 0; i < n; ++i)
    axis.values.push_back(std::min(upper, lower + i * step));
  return axis;
}

std::vector<double> parse_parameter_values(const std::string& text,
                                           const ModelParameters& parameters,
                                           std::vector<double> base) {
  // getline drops a last empty item: "alpha=0.2," would pass as "alpha=0.2".
  if (!text.empty() && text.back() == ',')
    throw std::invalid_argument("expected name=value after the last ',', found nothing");
  std::stringstream in(text);
  std::string item;
  std::vector<int> given;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument("expected name=value, found '" + item + "'");
    const std::string name = item.substr(0, eq);
    const int index = parameters.find(name);
    if (index < 0)
      throw std::invalid_argument("unknown parameter '" + name + "'");
    if (std::find(given.begin(), given.end(), index) != given.end())
      throw std::invalid_argument("'" + name + "' is given more than once");
    given.push_back(index);
    const double v = parse_number(item.substr(eq + 1), name);
    if (v < 0)
      throw std::invalid_argument("expected a value ≥ 0 for " + name);
    check_friction(parameters.specs()[static_cast<std::size_t>(index)], v);
    base[static_cast<std::size_t>(index)] = v;
  }
  return base;
}

Evaluation combine_replicas(std::vector<Evaluation> runs, ObjectiveNoise* noise) {
  Evaluation mean = std::move(runs.at(0));
  const double count = static_cast<double>(runs.size());
  std::vector<double> objectives;
  double error = 0.0, spread = 0.0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Evaluation& e = i == 0 ? mean : runs[i];
    if (mean.ok && !e.ok)
      mean.message = "replica " + std::to_string(i) + ": " + e.message;
    mean.ok = mean.ok && e.ok;
    objectives.push_back(e.ok ? e.objective : INFINITY);
    error += e.errors.mean_error_m / count;
    spread += e.errors.mean_spread_m / count;
    mean.unconverged_steps = std::max(mean.unconverged_steps, e.unconverged_steps);
    mean.retried_steps = std::max(mean.retried_steps, e.retried_steps);
  }
  *noise = summarize_noise(objectives);
  if (mean.ok) {
    mean.objective = noise->mean;
    mean.errors.sum_error_m = mean.objective;
    mean.errors.mean_error_m = error;
    mean.errors.mean_spread_m = spread;
  }
  return mean;
}

SweepResult run_sweep(ParallelEvaluator& evaluator, const std::vector<double>& base,
                      const std::vector<GridAxis>& axes, int replicas,
                      const SweepCheckpoint& checkpoint, double checkpoint_interval_s) {
  using Clock = std::chrono::steady_clock;
  SweepResult sweep;
  sweep.axes = axes;
  sweep.points = grid_points(base, axes);
  sweep.replicas = std::max(replicas, 1);
  const std::size_t r = static_cast<std::size_t>(sweep.replicas);
  const std::size_t count = sweep.points.size();
  // Filled as the runs come in: a point's runs combined once all r are there.
  sweep.evaluations.resize(count);
  sweep.completed.assign(count, false);
  if (r > 1)
    sweep.noise.resize(count);
  std::vector<std::vector<Evaluation>> runs_of(count);  // by replica
  std::vector<std::size_t> runs_done(count, 0);
  auto last_checkpoint = Clock::now();
  evaluator.set_result_observer([&](const std::string&, std::size_t run, const Evaluation& result) {
    const std::size_t k = run / r;
    runs_of[k].resize(r);
    runs_of[k][run % r] = result;
    if (++runs_done[k] < r)
      return;
    if (r == 1)
      sweep.evaluations[k] = std::move(runs_of[k].front());
    else
      sweep.evaluations[k] = combine_replicas(std::move(runs_of[k]), &sweep.noise[k]);
    runs_of[k] = {};
    sweep.completed[k] = true;
    const auto now = Clock::now();
    if (checkpoint &&
        std::chrono::duration<double>(now - last_checkpoint).count() >= checkpoint_interval_s) {
      last_checkpoint = now;
      checkpoint(sweep);
    }
  });
  // A first checkpoint before any run, every point pending: a sweep killed before its first
  // timed checkpoint (SIGKILL, out of memory) left an earlier run's sweep.csv in its folder,
  // complete-looking, for other points.
  if (checkpoint)
    checkpoint(sweep);
  // The observer sees every run that finishes: the whole sweep, or, when the stop flag ended it
  // early, the points whose runs all finished.
  try {
    if (r == 1)
      evaluator.evaluate(sweep.points, "sweep");
    else
      evaluator.evaluate_replicated(sweep.points, sweep.replicas, "sweep");
  } catch (...) {
    evaluator.set_result_observer({});
    throw;
  }
  evaluator.set_result_observer({});
  return sweep;
}

void write_sweep_csv(std::ostream& out, const SweepResult& sweep,
                     const ModelParameters& parameters) {
  for (const GridAxis& axis : sweep.axes)
    out << parameters.specs()[static_cast<std::size_t>(axis.parameter)].name << ',';
  out << "objective,mean_error_m,mean_spread_m,status"
      << (sweep.replicas > 1 ? ",objective_sd,replicas" : "")
      << ",unconverged_steps,retried_steps\n";
  char buffer[64];
  for (std::size_t k = 0; k < sweep.points.size(); ++k) {
    for (const GridAxis& axis : sweep.axes) {
      std::snprintf(buffer, sizeof buffer, "%.9g,",
                    sweep.points[k][static_cast<std::size_t>(axis.parameter)]);
      out << buffer;
    }
    if (!sweep.completed.empty() && !sweep.completed[k]) {
      out << ",,,pending" << (sweep.replicas > 1 ? ",,0" : "") << ",,\n";
      continue;
    }
    const Evaluation& e = sweep.evaluations[k];
    if (e.ok) {
      std::snprintf(buffer, sizeof buffer, "%.9g,%.9g,%.9g,", e.objective, e.errors.mean_error_m,
                    e.errors.mean_spread_m);
      out << buffer << (e.unconverged_steps > 0 ? "iteration_cap" : "ok");
    } else {
      out << ",,,failed";
    }
    if (sweep.replicas > 1) {
      const ObjectiveNoise& noise = sweep.noise[k];
      std::snprintf(buffer, sizeof buffer, ",%.9g,%zu", noise.sd, noise.objectives.size());
      out << (e.ok ? buffer : ",," + std::to_string(noise.objectives.size()));
    }
    if (e.ok)
      out << ',' << e.unconverged_steps << ',' << e.retried_steps << '\n';
    else
      out << ",,\n";
  }
}

std::size_t write_sweep_failures(std::ostream& out, const SweepResult& sweep,
                                 const ModelParameters& parameters) {
  std::size_t failed = 0;
  char buffer[64];
  for (std::size_t k = 0; k < sweep.points.size(); ++k) {
    if (sweep.evaluations[k].ok || (!sweep.completed.empty() && !sweep.completed[k]))
      continue;
    ++failed;
    for (std::size_t a = 0; a < sweep.axes.size(); ++a) {
      const auto p = static_cast<std::size_t>(sweep.axes[a].parameter);
      std::snprintf(buffer, sizeof buffer, "%s%s=%.9g", a > 0 ? "," : "",
                    parameters.specs()[p].name.c_str(), sweep.points[k][p]);
      out << buffer;
    }
    out << ": " << sweep.evaluations[k].message << '\n';
  }
  return failed;
}

}  // namespace clothfit::fitting
