// clothfit simulate SCENARIO.json --out DIR: runs a scenario and writes
//   DIR/trajectory.csv  frame,time,node,x,y,z (one row per written frame and node, metres)
//   DIR/steps.csv       step,time,status,iterations,factorizations,max_violation,held_residual,
//                       last_increment,friction_error,friction_cone_excess,cap_retry
//   DIR/summary.json    how the run went (documented in README.md)
//   DIR/iterations.csv  with --iterations: one row per projection iteration (stepper::
//                       IterationRecord)
// Files are streamed while the run goes on, so a run that fails halfway keeps what it did.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "apps/command_line.hpp"
#include "apps/output_files.hpp"
#include "apps/stop_on_signal.hpp"
#include "core/io/decimal_number.hpp"
#include "core/io/input_error.hpp"
#include "core/io/json_object.hpp"
#include "core/obstacles/obstacle.hpp"
#include "core/scenario/simulation_run.hpp"

namespace po = boost::program_options;

namespace clothfit::apps {

namespace {

const char* kUsage =
    "usage: clothfit simulate SCENARIO.json --out DIR [options]\n\n"
    "Runs the scenario and writes DIR/trajectory.csv (frame,time,node,x,y,z), DIR/steps.csv\n"
    "(per-step solver status) and DIR/summary.json. Exit code 0 when every step converged,\n"
    "1 when a step failed or hit the iteration cap, 2 for bad input. Ctrl-C (or SIGTERM)\n"
    "stops after the current step and still writes the summary (exit code 1; a second\n"
    "Ctrl-C stops at once).\n\noptions";

// The header of iterations.csv; its columns are IterationRecord's fields in order.
const char* kIterationsHeader =
    "step,time,attempt,iteration,model,refactored,theta,constraint_residual,held_residual,"
    "min_contact,qp_working_set_changes,friction_rows_to_bound,friction_rows_returned,active_rows,"
    "step_scale,increment,largest_node,largest_dx,largest_dy,largest_dz";

// A trajectory row's numbers as text by std::to_chars (the rows are formatted between the timed
// steps, and a stream's formatting took as long as a fifth of the hanging example's steps).
class RowWriter {
 public:
  void add(long value) { m_end = std::to_chars(m_end, std::end(m_buffer), value).ptr; }
  // 9 significant digits, as printf's %.9g (the times, as steps.csv gives them).
  void add(double value) {
    m_end = std::to_chars(m_end, std::end(m_buffer), value, std::chars_format::general, 9).ptr;
  }
  // 9 significant digits and, beyond 1 in size, one more per integer digit, so that coordinates
  // keep 1e-9 m wherever the cloth is (at 1e6 m, 9 digits were 1 mm, and the file's edges were
  // 1.4 % off their length).
  void add_coordinate(double value) {
    int digits = 9;
    for (double size = std::abs(value); size >= 1.0 && digits < 17; size /= 10.0)
      ++digits;
    m_end = std::to_chars(m_end, std::end(m_buffer), value, std::chars_format::general, digits).ptr;
  }
  void add(char c) { *m_end++ = c; }
  // Writes the row and starts the next one.
  void flush_to(std::ostream& out) {
    out.write(m_buffer, m_end - m_buffer);
    m_end = m_buffer;
  }

 private:
  char m_buffer[160];  // a row: two integers (≤ 20 characters) and four numbers (≤ 24) and commas
  char* m_end = m_buffer;
};

}  // namespace

int run_simulate_command(int argc, char** argv) {
  po::options_description options(kUsage);
  std::string scenario_path, out_dir, qp_name;
  std::vector<std::string> friction;
  std::string duration;
  options.add_options()("help,h", "show this help")("out,o", po::value(&out_dir),
                                                    "output folder (created if needed)")(
      "qp", po::value(&qp_name),
      "QP solver: active-set (the paper's method) or interior-point (Ipopt baseline); "
      "default: the scenario's solver.qp, else active-set")(
      "duration", po::value(&duration), "simulated seconds; default: the scenario's time.duration")(
      "mu", po::value(&friction)->composing(),
      "NAME=VALUE: friction coefficient of the obstacle NAME (repeatable), e.g. --mu cylinder=0.2; "
      "default: the obstacle's \"friction\"")(
      "iterations",
      "also write DIR/iterations.csv: one row per projection iteration (the QP's model, whether it "
      "refactored, the contraction rate theta, ||C||inf before it, its working-set changes and "
      "active rows, the line search's scale, the increment and the node that moved most); its "
      "writing is not counted in q")("quiet,q", "no progress output on stderr");
  po::variables_map vm;
  if (auto code =
          parse_command_line("simulate", argc, argv, options, "scenario", &scenario_path, &vm))
    return *code;
  if (scenario_path.empty() || out_dir.empty())
    return usage_error("simulate", "needs a scenario file and --out DIR");
  scenario::ScenarioOverrides overrides;
  if (vm.count("qp")) {
    qp::QpSolverType type;
    if (!qp::parse_qp_solver_type(qp_name, &type)) {
      std::cerr << "clothfit simulate: --qp: expected active-set or interior-point, found '"
                << qp_name << "'\n";
      return kExitBadInput;
    }
    overrides.qp_solver = type;
  }
  if (vm.count("duration")) {
    // Read as every number on the command line (Boost's conversion took "+1", inf and nan).
    const DecimalNumber number = parse_decimal(duration);
    if (number.status != DecimalNumber::ok || !(number.value > 0))
      return usage_error("simulate",
                         "--duration: expected " +
                             (number.status == DecimalNumber::ok ? std::string("a number > 0")
                                                                 : number.expected() + " > 0") +
                             ", found '" + duration + "'");
    overrides.duration = number.value;
  }
  const bool quiet = vm.count("quiet") > 0;

  scenario::Scenario scenario;
  try {
    scenario = scenario::load_scenario(scenario_path, overrides);
  } catch (const InputError& e) {
    std::cerr << "clothfit simulate: " << e.what() << "\n";
    return kExitBadInput;
  }
  for (const std::string& warning :
       {scenario::coincident_nodes_warning(scenario), scenario::sliver_quad_warning(scenario),
        scenario::initial_penetration_warning(scenario),
        scenario::keyframe_sampling_warning(scenario), scenario::stick_start_warning(scenario),
        scenario::thickness_warning(scenario)}) {
    if (!warning.empty())
      std::cerr << "clothfit simulate: warning: " << scenario_path << ": " << warning << "\n";
  }
  std::vector<std::string> mu_names;
  for (const std::string& item : friction) {
    const auto eq = item.find('=');
    const std::string name = item.substr(0, eq);
    const DecimalNumber number = eq == std::string::npos
                                     ? DecimalNumber{}
                                     : parse_decimal(std::string_view(item).substr(eq + 1));
    const double mu = number.value;
    if (number.status != DecimalNumber::ok || !(mu >= 0.0))
      return usage_error("simulate", "--mu: expected NAME=VALUE with a finite VALUE >= 0" +
                                         std::string(number.status == DecimalNumber::out_of_range
                                                         ? " (" + number.expected() + ")"
                                                         : "") +
                                         ", found '" + item + "'");
    if (mu > obstacles::kMaxFrictionCoefficient)
      return usage_error("simulate", "--mu: expected a VALUE of at most " +
                                         format_number(obstacles::kMaxFrictionCoefficient) +
                                         " (a contact sticks there as at any larger μ), found '" +
                                         item + "'");
    if (std::find(mu_names.begin(), mu_names.end(), name) != mu_names.end())
      return usage_error("simulate", "--mu: '" + name + "' is given more than once");
    mu_names.push_back(name);
    bool found = false;
    std::string names;
    for (auto& obstacle : scenario.model.obstacles) {
      names += (names.empty() ? "" : ", ") + obstacle->name();
      if (obstacle->name() != name)
        continue;
      std::unique_ptr<obstacles::Obstacle> copy = obstacle->clone();
      copy->set_friction_coefficient(mu);
      obstacle = std::move(copy);
      found = true;
    }
    if (!found)
      return usage_error("simulate", "--mu: the scenario has no obstacle named '" + name +
                                         "' (it has: " + (names.empty() ? "none" : names) + ")");
  }
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  const std::filesystem::path out(out_dir);
  if (const std::string problem = output_file_problem(
          out, {"trajectory.csv", "steps.csv", "summary.json", "iterations.csv"});
      !problem.empty()) {
    std::cerr << "clothfit simulate: " << problem << "\n";
    return kExitBadInput;
  }
  std::ofstream trajectory(out / "trajectory.csv"), steps(out / "steps.csv");
  const bool write_iterations = vm.count("iterations") > 0;
  std::ofstream iterations;
  if (write_iterations)
    iterations.open(out / "iterations.csv");
  if (ec || !trajectory || !steps || (write_iterations && !iterations)) {
    std::cerr << "clothfit simulate: cannot write into '" << out_dir << "'\n";
    return kExitBadInput;
  }
  // An earlier run's summary.json (written last) or iterations.csv (this run may not write one)
  // would sit beside this run's files as if they were its own.
  std::filesystem::remove(out / "summary.json", ec);
  if (!write_iterations)
    std::filesystem::remove(out / "iterations.csv", ec);
  trajectory << "frame,time,node,x,y,z\n";
  RowWriter row;
  steps << "step,time,status,iterations,factorizations,max_violation,held_residual,"
           "last_increment,friction_error,friction_cone_excess,cap_retry\n";
  steps.precision(9);  // the times as trajectory.csv and iterations.csv give them (6 digits made
                       // 0.00123457 of a step time of 0.00123456789 s)
  stepper::IterationObserver iteration_observer;
  if (write_iterations) {
    iterations << kIterationsHeader << '\n';
    iterations.precision(9);
    iteration_observer = [&iterations](const stepper::IterationRecord& r) {
      iterations << r.step << ',' << r.time << ',' << r.attempt << ',' << r.iteration << ','
                 << to_string(r.model) << ',' << (r.refactored ? 1 : 0) << ',' << r.theta << ','
                 << r.constraint_residual << ',' << r.held_residual << ',' << r.min_contact << ','
                 << r.qp_working_set_changes << ',' << r.friction_rows_to_bound << ','
                 << r.friction_rows_returned << ',' << r.active_rows << ',' << r.step_scale << ','
                 << r.increment << ',' << r.largest_node;
      for (int d = 0; d < 3; ++d)
        iterations << ',' << r.largest_displacement[d];
      iterations << '\n';
    };
  }
  const long total_steps = scenario.step_count();
  long frame = 0;
  const auto write_frame = [&](double time, const Eigen::VectorXd& positions) {
    for (int i = 0; i < scenario.model.mesh.num_nodes(); ++i) {
      row.add(frame);
      row.add(',');
      row.add(time);
      row.add(',');
      row.add(static_cast<long>(i));
      for (int d = 0; d < 3; ++d) {
        row.add(',');
        row.add_coordinate(positions[3 * i + d]);
      }
      row.add('\n');
      row.flush_to(trajectory);
    }
    ++frame;
  };
  bool last_state_pending = false;  // output.every left out the last step taken (kept below)
  double unwritten_time = 0.0;
  Eigen::VectorXd unwritten_positions;
  auto last_progress = std::chrono::steady_clock::now(), last_flush = last_progress;
  const auto observer = [&](const stepper::SimulationState& state,
                            const stepper::StepReport* report) {
    if (report != nullptr) {
      steps << state.step << ',' << state.time << ',' << to_string(report->status) << ','
            << report->iterations << ',' << report->factorizations << ',' << report->max_violation
            << ',' << report->held_residual << ',' << report->last_increment << ','
            << report->friction_error << ',' << report->friction_cone_excess << ','
            << (report->cap_retry ? 1 : 0) << '\n';
    }
    // Every n-th step, and the last: the run's result is always in the file. A step left out is
    // kept until the next, so that a run that fails or is interrupted still ends the file with
    // its last state (written after the run).
    if (state.step % scenario.output_every == 0 || state.step == total_steps) {
      write_frame(state.time, state.positions);
      last_state_pending = false;
    } else {
      last_state_pending = true;
      unwritten_time = state.time;
      unwritten_positions = state.positions;
    }
    const auto now = std::chrono::steady_clock::now();
    // What is written reaches the files right after the initial state and then at least once a
    // second: a second Ctrl-C ends the process at once (StopOnSignal), and a step that runs long
    // must not cost the rows before it (a needle field's first step, killed so, had left the
    // files at 0 bytes).
    if (report == nullptr || now - last_flush > std::chrono::seconds(1)) {
      trajectory.flush();
      steps.flush();
      if (write_iterations)
        iterations.flush();
      last_flush = now;
    }
    if (!quiet && now - last_progress > std::chrono::seconds(1)) {
      std::cerr << "simulate: step " << state.step << " / " << total_steps << " (t = " << state.time
                << " s)\n";
      last_progress = now;
    }
  };
  if (!quiet) {
    std::cerr << "simulate: " << scenario.name << ": " << scenario.model.mesh.num_nodes()
              << " nodes, " << total_steps << " steps of " << scenario.model.options.time_step
              << " s, QP " << qp::to_string(scenario.model.options.qp_solver) << "\n";
  }
  // Ctrl-C or SIGTERM: the run stops after its current step and writes what it has.
  const scenario::RunSummary run = [&] {
    const StopOnSignal stop;
    return scenario::run_simulation(scenario, observer, iteration_observer,
                                    &StopOnSignal::requested());
  }();
  if (last_state_pending)  // failed or interrupted between two written steps
    write_frame(unwritten_time, unwritten_positions);
  // A full disk shows only when the buffers are flushed: every file is checked, and a run whose
  // output was not all written fails.
  std::vector<std::string> unwritten;
  const auto finish = [&unwritten, &out](std::ostream& file, const char* name) {
    file.flush();
    if (!file)
      unwritten.push_back((out / name).string());
  };
  finish(trajectory, "trajectory.csv");
  finish(steps, "steps.csv");
  if (write_iterations)
    finish(iterations, "iterations.csv");

  const auto over_steps = [&run](auto value) {
    return run.steps > 0 ? nlohmann::json(value) : nlohmann::json();
  };
  nlohmann::json summary{
      {"scenario", scenario.name},
      {"nodes", scenario.model.mesh.num_nodes()},
      {"qp_solver", qp::to_string(scenario.model.options.qp_solver)},
      {"time_step", scenario.model.options.time_step},
      {"steps", run.steps},
      {"simulated_seconds", run.simulated_seconds},
      {"wall_seconds", run.wall_seconds},
      // Figures over the steps taken: null when none was (the first step failed).
      {"q", over_steps(run.q)},
      {"mean_iterations", over_steps(run.mean_iterations)},
      {"max_iterations", over_steps(run.max_iterations)},
      {"mean_factorizations", over_steps(run.mean_factorizations)},
      {"max_constraint_violation", over_steps(run.max_constraint_violation)},
      {"unconverged_steps", run.unconverged_steps},
      {"retried_steps", run.retried_steps},
      {"max_friction_cone_excess", run.max_friction_cone_excess},
      {"status", to_string(run.status)},
      {"interrupted", run.interrupted},
      {"message", run.message},
      {"held_inside", run.held_inside},
  };
  if (!run.held_inside.empty())
    std::cerr << "clothfit simulate: warning: " << scenario_path << ": " << run.held_inside << "\n";
  std::ofstream summary_file(out / "summary.json");
  summary_file << summary.dump(2) << "\n";
  finish(summary_file, "summary.json");
  std::cout << "scenario                 " << scenario.name << "\n"
            << "nodes                    " << scenario.model.mesh.num_nodes() << "\n"
            << "steps                    " << run.steps << " (" << run.simulated_seconds << " s)\n"
            << "wall time                " << run.wall_seconds << " s\n";
  if (run.steps > 0) {
    std::cout << "q (wall / simulated)     " << run.q << "\n"
              << "mean iterations / step   " << run.mean_iterations << " ("
              << run.mean_factorizations << " factorisations)\n"
              << "max constraint violation " << run.max_constraint_violation << "\n";
  } else {
    std::cout << "q, iterations, violation n/a (no step was taken)\n";
  }
  if (run.retried_steps > 0) {
    std::cout << "steps taken again        " << run.retried_steps
              << " (they reached the iteration cap; retried with the compliance centred)\n";
  }
  if (run.max_friction_cone_excess > 0.0) {
    std::cout << "friction beyond its disk " << run.max_friction_cone_excess
              << " (max over steps, of the bound: corners of the friction box)\n";
  }
  if (run.interrupted) {
    std::cout << "interrupted              after " << run.steps << " of " << total_steps
              << " steps (Ctrl-C or SIGTERM)\n";
  }
  std::cout << "status                   " << to_string(run.status)
            << (run.message.empty() ? "" : " (" + run.message + ")") << "\n"
            << "written                  ";
  std::string separator;
  for (const char* name : {"trajectory.csv", "steps.csv", "summary.json", "iterations.csv"}) {
    const std::string path = (out / name).string();
    if ((write_iterations || name != std::string("iterations.csv")) &&
        std::find(unwritten.begin(), unwritten.end(), path) == unwritten.end()) {
      std::cout << separator << path;
      separator = ", ";
    }
  }
  std::cout << (separator.empty() ? "none\n" : "\n");
  for (const std::string& path : unwritten)
    std::cerr << "clothfit simulate: writing " << path
              << " failed (disk full?): it is incomplete\n";
  return run.ok() && unwritten.empty() ? kExitOk : kExitFailedRun;
}

}  // namespace clothfit::apps
