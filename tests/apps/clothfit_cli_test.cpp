// The `clothfit` program as a user runs it: exit codes, messages that name the problem, outputs.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mocap/motive_csv_writer.hpp"
#include "mocap/take.hpp"
#include "support/run_clothfit.hpp"
#include "support/sanitizer_build.hpp"
#include "support/test_paths.hpp"

namespace clothfit::apps {
namespace {

using Result = testing::CommandResult;

Result run(const std::string& arguments) {
  return testing::run_clothfit(arguments);
}

std::filesystem::path scratch(const std::string& name) {
  return testing::scratch_folder("cli_test_" + name);
}

TEST(ClothfitCli, HelpListsTheCommands) {
  const Result r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("simulate"), std::string::npos);
  EXPECT_NE(r.output.find("inspect"), std::string::npos);
  EXPECT_EQ(run("no-such-command").exit_code, 2);
}

// A number option's value that Boost cannot convert: its message names the option and the value,
// and now also what was expected (it did not say that 2^63 is one more than a seed can be).
TEST(ClothfitCli, AnOptionValueThatDoesNotConvertSaysWhatWasExpected) {
  const std::string hanging = (testing::source_dir() / "datasets/examples/hanging.json").string();
  const std::string out = (scratch("option_values") / "x").string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"synth " + hanging + " --truth alpha=0.2 --out " + out + ".csv --seed 9223372036854775808",
       "the argument ('9223372036854775808') for option '--seed' is invalid; expected a whole "
       "number of at most 9223372036854775807 in size"},
      {"fit " + hanging + " --out " + out + " --threads 2.5",
       "the argument ('2.5') for option '--threads' is invalid; expected a whole number\n"},
      {"synth " + hanging + " --truth alpha=0.2 --out " + out + ".csv --seed 2.5",
       "the argument ('2.5') for option '--seed' is invalid; expected a whole number\n"},
      // --duration is read as every number clothfit reads (Boost took +0.01, inf and nan).
      {"simulate " + hanging + " --out " + out + " --duration 1e400",
       "--duration: expected a number within a double's range (about 5e-324 to 1.8e308 in size) "
       "> 0, found '1e400'"},
      {"simulate " + hanging + " --out " + out + " --duration +0.01",
       "--duration: expected a number > 0, found '+0.01'"},
      {"simulate " + hanging + " --out " + out + " --duration inf",
       "--duration: expected a finite number > 0, found 'inf'"},
      {"simulate " + hanging + " --out " + out + " --mu x=1e400",
       "--mu: expected NAME=VALUE with a finite VALUE >= 0 (a number within a double's range"}};
  for (const auto& [arguments, message] : cases) {
    const Result r = run(arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  }
}

TEST(ClothfitCli, SimulateWritesTrajectoriesAndASummary) {
  const auto out = scratch("simulate");
  const Result r =
      run("simulate " + (testing::source_dir() / "datasets/examples/hanging.json").string() +
          " --out " + out.string() + " --duration 0.2 --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream summary_file(out / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  EXPECT_EQ(summary["steps"], 20);
  EXPECT_EQ(summary["status"], "converged");
  EXPECT_DOUBLE_EQ(summary["simulated_seconds"].get<double>(), 0.2);
  EXPECT_GT(summary["q"].get<double>(), 0.0);
  for (const char* key : {"wall_seconds", "mean_iterations", "max_constraint_violation",
                          "max_friction_cone_excess"}) {
    EXPECT_TRUE(summary.contains(key)) << key;
  }
  EXPECT_EQ(summary["max_friction_cone_excess"].get<double>(), 0.0);  // no obstacle
  EXPECT_EQ(r.output.find("friction beyond"), std::string::npos) << r.output;
  EXPECT_EQ(summary["unconverged_steps"], 0);
  EXPECT_EQ(summary["retried_steps"], 0);
  EXPECT_EQ(r.output.find("taken again"), std::string::npos) << r.output;
  // Every step factors at least once (the first step has nothing to reuse), and never more often
  // than it iterates.
  EXPECT_GT(summary["mean_factorizations"].get<double>(), 0.0);
  EXPECT_LE(summary["mean_factorizations"].get<double>(), summary["mean_iterations"].get<double>());
  std::ifstream steps(out / "steps.csv");
  std::string header;
  std::getline(steps, header);
  EXPECT_EQ(header,
            "step,time,status,iterations,factorizations,max_violation,held_residual,last_increment,"
            "friction_error,friction_cone_excess,cap_retry");
  // 21 frames (the initial state and 20 steps) × 63 nodes + the header, every number as printf's
  // %.9g writes it (nine significant digits, no trailing zeros).
  std::ifstream trajectory(out / "trajectory.csv");
  std::getline(trajectory, header);
  EXPECT_EQ(header, "frame,time,node,x,y,z");
  int lines = 1, most_digits = 0;
  std::string first;
  for (std::string line; std::getline(trajectory, line); ++lines) {
    if (lines == 1)
      first = line;
    std::stringstream fields(line);
    int count = 0;
    for (std::string field; std::getline(fields, field, ','); ++count) {
      char expected[32];
      std::snprintf(expected, sizeof expected, "%.9g", std::stod(field));
      EXPECT_EQ(field, expected) << line;
      // Significant digits: those of the mantissa after its leading zeros.
      const std::string mantissa = field.substr(0, field.find('e'));
      const auto first_digit = mantissa.find_first_of("123456789");
      int digits = 0;
      for (std::size_t c = first_digit; c < mantissa.size(); ++c)
        digits += std::isdigit(static_cast<unsigned char>(mantissa[c])) ? 1 : 0;
      most_digits = std::max(most_digits, first_digit == std::string::npos ? 0 : digits);
    }
    EXPECT_EQ(count, 6) << line;
  }
  EXPECT_EQ(lines, 1 + 21 * 63);
  EXPECT_EQ(most_digits, 9);
  EXPECT_EQ(first, "0,0,0,0,0,1");  // the held corner at the origin of the sheet, 1 m up
}

TEST(ClothfitCli, SimulateWritesOneRowPerIterationWhenAsked) {
  const auto out = scratch("simulate_iterations");
  const std::string scenario = (testing::source_dir() / "datasets/examples/hanging.json").string();
  std::filesystem::remove(out / "iterations.csv");
  ASSERT_EQ(
      run("simulate " + scenario + " --out " + out.string() + " --duration 0.1 --quiet").exit_code,
      0);
  EXPECT_FALSE(std::filesystem::exists(out / "iterations.csv"));  // only with --iterations
  const Result r = run("simulate " + scenario + " --out " + out.string() +
                       " --duration 0.1 --quiet --iterations");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("iterations.csv"), std::string::npos) << r.output;
  // A later run without --iterations into the same folder leaves no iterations.csv of this one
  // beside its own files.
  const auto rerun = scratch("simulate_iterations_rerun");
  std::filesystem::copy(out / "iterations.csv", rerun / "iterations.csv");
  ASSERT_EQ(run("simulate " + scenario + " --out " + rerun.string() + " --duration 0.02 --quiet")
                .exit_code,
            0);
  EXPECT_FALSE(std::filesystem::exists(rerun / "iterations.csv"));
  // As many rows as the steps' iterations, each numbered within its step.
  std::ifstream steps(out / "steps.csv");
  std::string line;
  std::getline(steps, line);
  std::vector<int> per_step;
  while (std::getline(steps, line)) {
    std::stringstream fields(line);
    std::string field;
    for (int k = 0; k < 4; ++k)
      std::getline(fields, field, ',');
    per_step.push_back(std::stoi(field));
  }
  ASSERT_EQ(per_step.size(), 10u);
  std::ifstream iterations(out / "iterations.csv");
  std::getline(iterations, line);
  EXPECT_EQ(line,
            "step,time,attempt,iteration,model,refactored,theta,constraint_residual,held_residual,"
            "min_contact,qp_working_set_changes,friction_rows_to_bound,friction_rows_returned,"
            "active_rows,step_scale,increment,largest_node,largest_dx,largest_dy,largest_dz");
  std::size_t step = 0;
  int expected_iteration = 0, rows = 0;
  while (std::getline(iterations, line)) {
    ++rows;
    std::vector<std::string> fields;
    std::stringstream in(line);
    for (std::string field; std::getline(in, field, ',');)
      fields.push_back(field);
    ASSERT_EQ(fields.size(), 20u) << line;
    if (std::stoi(fields[0]) != static_cast<int>(step + 1)) {
      EXPECT_EQ(expected_iteration, per_step[step]) << "step " << step + 1;
      ++step;
      expected_iteration = 0;
    }
    EXPECT_EQ(std::stoi(fields[0]), static_cast<int>(step + 1)) << line;
    EXPECT_EQ(std::stoi(fields[3]), expected_iteration++) << line;
    EXPECT_EQ(fields[4], "newton") << line;
  }
  EXPECT_EQ(step + 1, per_step.size());
  EXPECT_EQ(expected_iteration, per_step.back());
  int total = 0;
  for (int k : per_step)
    total += k;
  EXPECT_EQ(rows, total);
}

TEST(ClothfitCli, SimulateTakesFrictionFromTheCommandLine) {
  const auto out = scratch("simulate_mu");
  const std::string scenario = (testing::source_dir() / "datasets/examples/cylinder.json").string();
  const Result ok = run("simulate " + scenario + " --out " + out.string() +
                        " --mu cylinder=0.2 --duration 0.02 --quiet");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  // μ = 0 (frictionless) is a value, not a missing one.
  const Result frictionless = run("simulate " + scenario + " --out " + out.string() +
                                  " --mu cylinder=0 --mu floor=0 --duration 0.02 --quiet");
  EXPECT_EQ(frictionless.exit_code, 0) << frictionless.output;
  const Result unknown = run("simulate " + scenario + " --out " + out.string() + " --mu table=1");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("no obstacle named 'table' (it has: cylinder, floor)"),
            std::string::npos)
      << unknown.output;
  const Result negative =
      run("simulate " + scenario + " --out " + out.string() + " --mu cylinder=-1");
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.output.find("--mu"), std::string::npos) << negative.output;
  for (const char* bad : {"cylinder=", "cylinder", "cylinder=0.2x", "cylinder=nan", "cylinder=inf",
                          "cylinder=0x10"}) {  // a hexadecimal float was read (μ = 16)
    const Result r = run("simulate " + scenario + " --out " + out.string() + " --mu " + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("--mu: expected NAME=VALUE with a finite VALUE >= 0, found '" +
                            std::string(bad) + "'"),
              std::string::npos)
        << r.output;
  }
  // Beyond kMaxFrictionCoefficient (at 1e5 converged steps created energy).
  const Result huge = run("simulate " + scenario + " --out " + out.string() + " --mu cylinder=1e5");
  EXPECT_EQ(huge.exit_code, 2) << huge.output;
  EXPECT_NE(huge.output.find("--mu: expected a VALUE of at most 100 (a contact sticks there as at "
                             "any larger μ), found 'cylinder=1e5'"),
            std::string::npos)
      << huge.output;
  // Given twice, the last one used to win silently.
  const Result twice = run("simulate " + scenario + " --out " + out.string() +
                           " --mu cylinder=0.2 --mu floor=0.1 --mu cylinder=0.9");
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("--mu: 'cylinder' is given more than once"), std::string::npos)
      << twice.output;
}

// A step that reaches the iteration cap is taken again (solver.retry_capped_steps); the run says
// how many were, per step in steps.csv and in all in summary.json, and still exits 1 when the
// retries reach the cap too (2 iterations are too few for either).
TEST(ClothfitCli, SimulateCountsTheStepsTakenAgainAtTheCap) {
  const auto dir = scratch("simulate_retry");
  std::ifstream in(testing::source_dir() / "datasets/examples/hanging.json");
  nlohmann::json scenario = nlohmann::json::parse(in);
  scenario["solver"]["max_iterations"] = 2;
  std::ofstream(dir / "s.json") << scenario.dump();
  const Result r = run("simulate " + (dir / "s.json").string() + " --duration 0.02 --quiet --out " +
                       (dir / "out").string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("steps taken again        2"), std::string::npos) << r.output;
  std::ifstream summary_file(dir / "out" / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  EXPECT_EQ(summary["retried_steps"], 2);
  EXPECT_EQ(summary["unconverged_steps"], 2);
  EXPECT_EQ(summary["max_iterations"], 4);  // both projections counted
  EXPECT_NE(summary["message"].get<std::string>().find("taken again with the compliance centred"),
            std::string::npos)
      << summary["message"];
  std::ifstream steps(dir / "out" / "steps.csv");
  std::string line;
  std::getline(steps, line);
  std::getline(steps, line);
  EXPECT_EQ(line.substr(0, line.find(',', 7)), "1,0.01,iteration_cap") << line;
  EXPECT_EQ(line.substr(line.rfind(',')), ",1") << line;
}

// A cloth that starts inside an obstacle is launched out of it by the first step; the run says
// so (it went on silently, the sheet thrown 2 m up). Held nodes inside stay there, and the
// warning says that of them instead (it said they would be pushed out).
TEST(ClothfitCli, SimulateWarnsWhenTheClothStartsInsideAnObstacle) {
  const auto dir = scratch("simulate_inside");
  std::ifstream in(testing::source_dir() / "datasets/examples/hanging.json");
  nlohmann::json scenario = nlohmann::json::parse(in);  // the sheet lies flat at z = 1
  const auto warning_for = [&](double plane_z) {
    scenario["obstacles"] = {{{"type", "plane"}, {"name", "floor"}, {"point", {0, 0, plane_z}}}};
    std::ofstream(dir / "s.json") << scenario.dump();
    const Result r = run("simulate " + (dir / "s.json").string() +
                         " --duration 0.01 --quiet --out " + (dir / "out").string());
    EXPECT_NE(r.exit_code, 2) << r.output;
    return r.output;
  };
  const std::string inside = warning_for(1.3);
  EXPECT_NE(inside.find("clothfit simulate: warning: " + (dir / "s.json").string() +
                        ": the cloth starts inside obstacle 'floor': node "),
            std::string::npos)
      << inside;
  EXPECT_NE(inside.find(" by 0.3 m (more than contact_tolerance, 0.0001 m)"), std::string::npos)
      << inside;
  // The held corners are inside too; they are not pushed out, and the warning says so.
  EXPECT_NE(inside.find("; held node "), std::string::npos) << inside;
  EXPECT_NE(inside.find(" starts inside obstacle 'floor' by 0.3 m (more than contact_tolerance, "
                        "0.0001 m): held nodes follow their targets, not the contacts, and stay "
                        "inside"),
            std::string::npos)
      << inside;
  EXPECT_EQ(warning_for(0.5).find("warning"), std::string::npos);
  EXPECT_EQ(warning_for(1.0).find("warning"), std::string::npos);  // lying on it
}

// An OBJ tube whose exporter split the vertices along its seam is an open sheet with two edges on
// each other, and a sliver quad may not be held in shape; the run says so before it starts (they
// failed or fell apart in silence). The bundled tube has neither: no warning.
TEST(ClothfitCli, SimulateWarnsOfOpenSeamsAndSliverQuads) {
  const auto dir = scratch("simulate_seam");
  // Three rings (a tube two rings long has no interior node, and is refused below).
  const std::string two_rings =
      "v 0 0 0\nv 0.1 0 0\nv 0.1 0.1 0\nv 0 0.1 0\nv 0 0 0\n"
      "v 0 0 0.1\nv 0.1 0 0.1\nv 0.1 0.1 0.1\nv 0 0.1 0.1\nv 0 0 0.1\n"
      "f 1 2 7 6\nf 2 3 8 7\nf 3 4 9 8\nf 4 5 10 9\n";
  std::ofstream(dir / "open_tube.obj") << two_rings
                                       << "v 0 0 0.2\nv 0.1 0 0.2\nv 0.1 0.1 0.2\nv 0 0.1 0.2\n"
                                          "v 0 0 0.2\nf 6 7 12 11\nf 7 8 13 12\nf 8 9 14 13\n"
                                          "f 9 10 15 14\n";
  const auto simulate = [&](const std::string& obj) {
    std::ofstream(dir / "s.json") << R"({"cloth": {"mesh": {"type": "obj", "path": ")" + obj +
                                         R"("}, "density": 0.1}, "time": {"duration": 0.01}})";
    return run("simulate " + (dir / "s.json").string() + " --quiet --out " +
               (dir / "out").string());
  };
  const Result open = simulate("open_tube.obj");
  EXPECT_EQ(open.exit_code, 0) << open.output;
  EXPECT_NE(open.output.find("clothfit simulate: warning: " + (dir / "s.json").string() +
                             ": nodes 0 and 4 (and 2 other pairs) lie at the same rest position "
                             "without sharing a quad"),
            std::string::npos)
      << open.output;
  // Two rings: no node inside the mesh, so nothing held the quads' shear or the edges between
  // them, and the tube stretched 22-fold in 1 s with every step converged. Refused.
  std::ofstream(dir / "short_tube.obj") << two_rings;
  const Result short_tube = simulate("short_tube.obj");
  EXPECT_EQ(short_tube.exit_code, 2) << short_tube.output;
  EXPECT_NE(short_tube.output.find(
                "cloth.mesh.path: short_tube.obj: quad 1 (vertices 1, 2, 7, 6) has no corner "
                "inside the mesh: the inextensibility constraints sit at interior nodes and "
                "boundary edges, so nothing would hold its shear"),
            std::string::npos)
      << short_tube.output;
  // A sliver quad (1 µm by 10 cm) is said before the run; held still, the sheet failed out of
  // shape at step 13 with a message that blamed held nodes or obstacles.
  std::ofstream(dir / "sliver.obj")
      << "v 0 0 0\nv 0.1 0 0\nv 0.2 0 0\nv 0 0.1 0\nv 0.1 0.1 0\nv 0.2 0.1 0\n"
         "v 0 0.100001 0\nv 0.1 0.100001 0\nv 0.2 0.100001 0\nv 0 0.2 0\nv 0.1 0.2 0\n"
         "v 0.2 0.2 0\nf 1 2 5 4\nf 2 3 6 5\nf 4 5 8 7\nf 5 6 9 8\nf 7 8 11 10\nf 8 9 12 11\n";
  const Result sliver = simulate("sliver.obj");
  EXPECT_NE(sliver.output.find(": quad 3 (nodes 3, 4, 7, 6) is a sliver: edges of 1e-06 m and "
                               "0.1 m at rest"),
            std::string::npos)
      << sliver.output;
  const Result joined = simulate((testing::source_dir() / "datasets/examples/tube.obj").string());
  EXPECT_EQ(joined.exit_code, 0) << joined.output;
  EXPECT_EQ(joined.output.find("warning"), std::string::npos) << joined.output;
}

// Where contacts slide at a corner of their friction box, the run says so (README "Friction").
TEST(ClothfitCli, SimulateReportsFrictionBeyondItsDisk) {
  const auto out = scratch("simulate_cone");
  const Result r =
      run("simulate " + (testing::source_dir() / "datasets/examples/cylinder.json").string() +
          " --out " + out.string() + " --duration 0.3 --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream summary_file(out / "summary.json");
  const double excess =
      nlohmann::json::parse(summary_file)["max_friction_cone_excess"].get<double>();
  EXPECT_GT(excess, 0.3);  // the sheet lands at 0.11 s and slides: 0.414, a corner
  EXPECT_LE(excess, std::sqrt(2.0) - 1.0 + 1e-12);
  EXPECT_NE(r.output.find("friction beyond its disk"), std::string::npos) << r.output;
}

// A recording scenario for `clothfit synth`: a 2 × 2-marker sheet held still for 0.05 s, whose
// take is written to take.csv beside it.
void write_small_synth_scenario(const std::filesystem::path& path) {
  std::ofstream(path) << R"({"recording": "take.csv",
    "cloth": {"width": 0.2, "height": 0.2, "material": "polyester"},
    "layout": {"rows": 2, "columns": 2, "markers": [["A1", "A2"], ["B1", "B2"]]},
    "parameters": {"alpha": {"min": 0.1, "max": 1}, "delta": 0.08},
    "synth": {"duration": 0.05, "settle": 0.05, "motion": {"kind": "keyframes", "held": {
      "A1": [{"time": 0, "position": [0, 0, 1]}], "A2": [{"time": 0, "position": [0.2, 0, 1]}]}}}})";
}

// A still 0.2 × 0.2 m sheet with 3 × 3 markers, 3 frames at 100 Hz, held by A1 and A3, written to
// dir/name.csv with its recording scenario dir/name.json (α free): with `fold`, the last row of
// markers lies 5 cm from the middle one instead of 10 cm. Returns the scenario's path.
std::string write_flat_sheet_recording(const std::filesystem::path& dir, const std::string& name,
                                       bool fold) {
  std::vector<mocap::MarkerInfo> markers;
  std::vector<double> frame;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      markers.push_back({std::string(1, char('A' + i)) + char('1' + j), "", {}});
      frame.insert(frame.end(), {0.1 * j, fold && i == 2 ? -0.15 : -0.1 * i, 1.0});
    }
  }
  std::vector<double> positions;
  for (int f = 0; f < 3; ++f)
    positions.insert(positions.end(), frame.begin(), frame.end());
  mocap::write_motive_csv(mocap::Take({}, 100.0, 0, 3, markers, positions), dir / (name + ".csv"));
  std::ofstream(dir / (name + ".json")) << R"({"recording": ")" << name << R"(.csv",
    "cloth": {"width": 0.2, "height": 0.2, "material": "polyester"},
    "layout": {"rows": 3, "columns": 3,
               "markers": [["A1", "A2", "A3"], ["B1", "B2", "B3"], ["C1", "C2", "C3"]]},
    "parameters": {"alpha": {"min": 0.1, "max": 1}, "delta": 0.08}})";
  return (dir / (name + ".json")).string();
}

// A synthetic take whose simulation left steps at the iteration cap is written (its motion is
// what the fit will match), but the run says so (it was silent; only the truth file counted them).
TEST(ClothfitCli, SynthWarnsOfStepsAtTheIterationCap) {
  const auto dir = scratch("synth_cap");
  write_small_synth_scenario(dir / "synth.json");
  std::ifstream in(dir / "synth.json");
  nlohmann::json scenario = nlohmann::json::parse(in);
  in.close();
  const auto synth = [&] {
    std::ofstream(dir / "synth.json") << scenario.dump();
    return run("synth " + (dir / "synth.json").string() + " --truth alpha=0.2 --quiet --out " +
               (dir / "take.csv").string());
  };
  const Result plain = synth();
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_EQ(plain.output.find("warning"), std::string::npos) << plain.output;
  scenario["solver"] = {{"max_iterations", 1}};
  const Result capped = synth();
  ASSERT_EQ(capped.exit_code, 0) << capped.output;
  std::ifstream truth_file(dir / "take.truth.json");
  const long steps = nlohmann::json::parse(truth_file)["simulation"]["unconverged_steps"];
  EXPECT_GT(steps, 0);
  EXPECT_NE(capped.output.find("clothfit synth: warning: " + std::to_string(steps) +
                               " steps of the simulation ended at the iteration cap, short of "
                               "the solver's tolerances; see simulation.unconverged_steps in " +
                               (dir / "take.truth.json").string() + " and solver.max_iterations"),
            std::string::npos)
      << capped.output;
}

// --from FIT.json takes every parameter's value from the fit; a fit of another scenario left some
// at their start values without a word (sweep.csv does not list the fixed values).
TEST(ClothfitCli, SweepFromAFitOfAnotherScenarioIsRefused) {
  const auto dir = scratch("sweep_from");
  const std::string scenario = write_flat_sheet_recording(dir, "flat", false);
  const auto sweep_from = [&](const std::string& parameters) {
    std::ofstream(dir / "fit.json") << R"({"parameters": )" << parameters << "}";
    return run("sweep " + scenario + " --vary alpha=0.2:0.3:0.1 --quiet --from " +
               (dir / "fit.json").string() + " --out " + (dir / "out").string());
  };
  const Result missing = sweep_from(R"({"alpha": {"value": 0.3}})");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("parameters: no value for delta of the scenario: expected the "
                                "fit.json of a fit of this scenario"),
            std::string::npos)
      << missing.output;
  const Result unknown = sweep_from(
      R"({"alpha": {"value": 0.3}, "delta": {"value": 0.08}, "mu.table": {"value": 0.5}})");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("parameters.mu.table: the scenario has no parameter mu.table"),
            std::string::npos)
      << unknown.output;
  const Result same = sweep_from(R"({"alpha": {"value": 0.3}, "delta": {"value": 0.08}})");
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

// A recording whose sheet is bunched up between two rows of markers at its first frame: the
// initial state cannot follow it without moving markers, and fit and sweep say so (README,
// Initial state). The same sheet lying flat gets no warning.
TEST(ClothfitCli, SweepWarnsWhenTheFirstFrameIsFoldedBetweenMarkers) {
  const auto dir = scratch("sweep_fold");
  for (const bool fold : {false, true}) {
    const std::string name = fold ? "folded" : "flat";
    const Result r = run("sweep " + write_flat_sheet_recording(dir, name, fold) +
                         " --vary alpha=0.2:0.3:0.1 --quiet --out " + (dir / name).string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const bool warned =
        r.output.find("clothfit sweep: warning: the simulation starts") != std::string::npos;
    EXPECT_EQ(warned, fold) << r.output;
    if (fold) {
      EXPECT_NE(r.output.find("from marker C"), std::string::npos) << r.output;
    }
  }
}

// --at may not set a parameter that --vary varies (it was ignored), nor one twice.
TEST(ClothfitCli, SweepRefusesAtValuesItWouldIgnore) {
  const auto dir = scratch("sweep_at");
  const std::string scenario = write_flat_sheet_recording(dir, "flat", false);
  const std::string sweep = "sweep " + scenario + " --vary alpha=0.2:0.3:0.1 --quiet --out " +
                            (dir / "out").string() + " --at ";
  const Result varied = run(sweep + "delta=0.08,alpha=0.5");
  EXPECT_EQ(varied.exit_code, 2) << varied.output;
  EXPECT_NE(varied.output.find("--at sets alpha, which --vary varies"), std::string::npos)
      << varied.output;
  const Result twice = run(sweep + "delta=0.08,delta=0.1");
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("'delta' is given more than once"), std::string::npos)
      << twice.output;
  EXPECT_EQ(run(sweep + "delta=0.08").exit_code, 0);
}

// fit writes evaluations.csv, a row per simulation as it completes: as many rows as fit.json
// counts evaluations, every stage of the search named.
TEST(ClothfitCli, FitLogsEverySimulationAsItCompletes) {
  const auto dir = scratch("fit_log");
  const Result r = run("fit " + write_flat_sheet_recording(dir, "flat", false) +
                       " --grid 3 --refine-iterations 2 --noise-replicas 2 --quiet --out " +
                       (dir / "fit").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream log(dir / "fit/evaluations.csv");
  std::string header;
  ASSERT_TRUE(std::getline(log, header));
  EXPECT_EQ(header,
            "stage,alpha,delta,objective,mean_error_m,mean_spread_m,status,unconverged_steps,"
            "retried_steps");
  long rows = 0;
  std::set<std::string> stages;
  for (std::string line; std::getline(log, line); ++rows) {
    stages.insert(line.substr(0, line.find(',')));
    EXPECT_EQ(line.substr(line.size() - 7), ",ok,0,0") << line;
  }
  std::ifstream fit_file(dir / "fit/fit.json");
  const nlohmann::json fit = nlohmann::json::parse(fit_file);
  EXPECT_EQ(rows, fit["evaluations"].get<long>());
  EXPECT_EQ(fit["unconverged_steps"], 0);
  EXPECT_EQ(fit["retried_steps"], 0);
  for (const char* stage : {"grid search", "profile", "objective noise", "optimum"})
    EXPECT_EQ(stages.count(stage), 1u) << stage;
  // The summary names the run whose replicas measured the noise, as fit.json's
  // objective_noise.at says: the optimum's, or the one the optimum was found from.
  bool at_optimum = true;
  for (const auto& [name, value] : fit["objective_noise"]["at"].items())
    at_optimum = at_optimum && value == fit["parameters"][name]["value"];
  EXPECT_NE(r.output.find(at_optimum ? "perturbed replicas of the optimum's run"
                                     : "perturbed replicas of the run the optimum was found from"),
            std::string::npos)
      << r.output;
}

// fit writes the run at its optimum frame by frame: frames.csv a row per scored frame whose e_n
// and s_n average to fit.json's ē and s̄, markers.csv every marker at every frame (frame 0, the
// initial state, included) and errors.svg the two curves.
TEST(ClothfitCli, FitWritesItsOptimumFrameByFrame) {
  const auto dir = scratch("fit_frames");
  const Result r = run("fit " + write_flat_sheet_recording(dir, "flat", false) +
                       " --grid 2 --refine-iterations 0 --noise-replicas 0 --quiet --out " +
                       (dir / "fit").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream fit_file(dir / "fit/fit.json");
  const nlohmann::json fit = nlohmann::json::parse(fit_file);
  const long frames = fit["frames"].get<long>();
  ASSERT_EQ(frames, 3);

  std::ifstream csv(dir / "fit/frames.csv");
  std::string line;
  ASSERT_TRUE(std::getline(csv, line));
  long rows = 0;
  double error_sum = 0.0, spread_sum = 0.0;
  for (; std::getline(csv, line); ++rows) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');)
      cells.push_back(cell);
    ASSERT_EQ(cells.size(), 6u) << line;
    EXPECT_EQ(std::stol(cells[0]), rows + 1) << line;
    EXPECT_NEAR(std::stod(cells[1]), 0.01 * static_cast<double>(rows + 1), 1e-9) << line;
    EXPECT_EQ(cells[4], "9") << line;
    error_sum += std::stod(cells[2]);
    spread_sum += std::stod(cells[3]);
  }
  ASSERT_EQ(rows, frames - 1);
  EXPECT_NEAR(error_sum / static_cast<double>(rows), fit["mean_error_m"].get<double>(), 1e-8);
  EXPECT_NEAR(spread_sum / static_cast<double>(rows), fit["mean_spread_m"].get<double>(), 1e-8);

  std::ifstream markers(dir / "fit/markers.csv");
  long marker_rows = -1;  // the header
  while (std::getline(markers, line))
    ++marker_rows;
  EXPECT_EQ(marker_rows, frames * 9);
  std::ifstream svg_file(dir / "fit/errors.svg");
  std::stringstream svg;
  svg << svg_file.rdbuf();
  EXPECT_NE(svg.str().find("e_n (mean"), std::string::npos);
  EXPECT_NE(svg.str().find("s_n (mean"), std::string::npos);
}

// An output file on a full disk (a link to /dev/full, where every write fails with ENOSPC) fails
// the command with exit code 1 and a message naming the file. The writes went into buffers whose
// failure nobody checked: the commands said they had written the files and exited 0.
TEST(ClothfitCli, OutputThatCannotBeWrittenFailsTheCommand) {
  if (!std::filesystem::exists("/dev/full"))
    GTEST_SKIP() << "no /dev/full on this system";
  const auto dir = scratch("full_disk");
  const auto full = [&](const std::filesystem::path& path) {
    std::filesystem::create_directories(path.parent_path());
    std::filesystem::create_symlink("/dev/full", path);
    return path.string();
  };
  const std::string hanging = (testing::source_dir() / "datasets/examples/hanging.json").string();
  full(dir / "simulate/trajectory.csv");
  const Result simulate =
      run("simulate " + hanging + " --duration 0.05 --quiet --out " + (dir / "simulate").string());
  EXPECT_EQ(simulate.exit_code, 1) << simulate.output;
  EXPECT_NE(
      simulate.output.find("writing " + (dir / "simulate/trajectory.csv").string() + " failed"),
      std::string::npos)
      << simulate.output;
  EXPECT_NE(
      simulate.output.find("written                  " + (dir / "simulate/steps.csv").string()),
      std::string::npos)
      << simulate.output;

  const std::string recording = write_flat_sheet_recording(dir, "flat", false);
  full(dir / "sweep/sweep.csv.partial");  // sweep.csv is written through it
  const Result sweep = run("sweep " + recording + " --vary alpha=0.2:0.3:0.1 --quiet --out " +
                           (dir / "sweep").string());
  EXPECT_EQ(sweep.exit_code, 1) << sweep.output;
  EXPECT_NE(sweep.output.find("sweep.csv failed"), std::string::npos) << sweep.output;

  // The log of every simulation (the fit's results are removed when it starts: an earlier fit's).
  full(dir / "fit/evaluations.csv");
  const Result fit =
      run("fit " + recording + " --grid 2 --refine-iterations 0 --noise-replicas 0 --quiet --out " +
          (dir / "fit").string());
  EXPECT_EQ(fit.exit_code, 1) << fit.output;
  EXPECT_NE(fit.output.find("cannot write " + (dir / "fit/evaluations.csv").string()),
            std::string::npos)
      << fit.output;

  // synth writes through TAKE.truth.json.partial and a rename.
  write_small_synth_scenario(dir / "synth.json");
  full(dir / "take.truth.json.partial");
  const Result synth = run("synth " + (dir / "synth.json").string() +
                           " --truth alpha=0.2 --quiet --out " + (dir / "take.csv").string());
  EXPECT_EQ(synth.exit_code, 1) << synth.output;
  EXPECT_NE(synth.output.find("cannot write"), std::string::npos) << synth.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "take.csv"));  // nothing half-written left

  std::ofstream(dir / "points.csv")
      << "alpha,objective,mean_error_m,mean_spread_m,status\n0.2,1.5,0.01,0.002,ok\n";
  const Result plot =
      run("plot " + (dir / "points.csv").string() + " --out " + full(dir / "plot.svg"));
  EXPECT_EQ(plot.exit_code, 1) << plot.output;
  EXPECT_NE(plot.output.find("failed (disk full?)"), std::string::npos) << plot.output;
  ASSERT_EQ(
      run("fit " + recording + " --grid 2 --refine-iterations 0 --noise-replicas 0 --quiet --out " +
          (dir / "fit_ok").string())
          .exit_code,
      0);
  const Result table =
      run("table " + (dir / "fit_ok/fit.json").string() + " --out " + full(dir / "table.md"));
  EXPECT_EQ(table.exit_code, 1) << table.output;
  EXPECT_NE(table.output.find("failed (disk full?)"), std::string::npos) << table.output;
}

// What a command prints on standard output is part of its result: a summary or a table that
// could not be written fails the command (it exited 0 with no message).
TEST(ClothfitCli, StandardOutputThatCannotBeWrittenFailsTheCommand) {
  if (!std::filesystem::exists("/dev/full"))
    GTEST_SKIP() << "no /dev/full on this system";
  const auto dir = scratch("full_stdout");
  const std::string hanging = (testing::source_dir() / "datasets/examples/hanging.json").string();
  // stdout to /dev/full, stderr to the pipe the test reads.
  const Result r = testing::run_clothfit("simulate " + hanging + " --duration 0.02 --quiet --out " +
                                         (dir / "out").string() + " 2>&1 >/dev/full; true");
  EXPECT_NE(r.output.find("clothfit simulate: writing to standard output failed"),
            std::string::npos)
      << r.output;
  const Result code =
      testing::run_clothfit("simulate " + hanging + " --duration 0.02 --quiet --out " +
                            (dir / "out").string() + " >/dev/full 2>/dev/null; echo exit=$?; true");
  EXPECT_NE(code.output.find("exit=1"), std::string::npos) << code.output;
}

// An output path that cannot be opened at all (its folder missing, a folder of that name) is bad
// input, said before any work; synth's two outputs must be two files.
TEST(ClothfitCli, OutputPathsThatCannotBeOpenedAreBadInput) {
  const auto dir = scratch("bad_output_path");
  std::ofstream(dir / "points.csv")
      << "alpha,objective,mean_error_m,mean_spread_m,status\n0.2,1.5,0.01,0.002,ok\n";
  const Result plot = run("plot " + (dir / "points.csv").string() + " --out " +
                          (dir / "missing/plot.svg").string());
  EXPECT_EQ(plot.exit_code, 2) << plot.output;
  EXPECT_NE(plot.output.find("clothfit plot: cannot open " + (dir / "missing/plot.svg").string() +
                             " for writing"),
            std::string::npos)
      << plot.output;
  const Result plot_to_folder =
      run("plot " + (dir / "points.csv").string() + " --out " + dir.string());
  EXPECT_EQ(plot_to_folder.exit_code, 2) << plot_to_folder.output;

  write_small_synth_scenario(dir / "synth.json");
  const std::string synth = "synth " + (dir / "synth.json").string() + " --truth alpha=0.2 --out ";
  const Result same =
      run(synth + (dir / "t.csv").string() + " --truth-out " + (dir / "sub/../t.csv").string());
  EXPECT_EQ(same.exit_code, 2) << same.output;
  EXPECT_NE(same.output.find("--out and --truth-out name the same file"), std::string::npos)
      << same.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "t.csv"));
  // The same relative path, once with "./": compared unequal, the run ended in a failed rename
  // that left the take's name holding the truth JSON.
  const std::string relative = std::filesystem::relative(dir / "t.csv").string();
  const Result same_relative = run(synth + relative + " --truth-out ./" + relative);
  EXPECT_EQ(same_relative.exit_code, 2) << same_relative.output;
  EXPECT_NE(same_relative.output.find("--out and --truth-out name the same file"),
            std::string::npos)
      << same_relative.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "t.csv"));
  // The scenario as the take (or the truth) was overwritten with the CSV.
  for (const std::string& option :
       {std::string(" --out "), std::string(" --out t.csv --truth-out ")}) {
    const Result over = run("synth " + (dir / "synth.json").string() + " --truth alpha=0.2" +
                            option + (dir / "synth.json").string());
    EXPECT_EQ(over.exit_code, 2) << over.output;
    EXPECT_NE(over.output.find("is the scenario file; writing it would destroy it"),
              std::string::npos)
        << over.output;
  }
  std::stringstream scenario_text;
  scenario_text << std::ifstream(dir / "synth.json").rdbuf();
  EXPECT_NE(scenario_text.str().find("\"synth\""), std::string::npos) << scenario_text.str();
  const Result missing = run(synth + (dir / "missing/t.csv").string());
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(
      missing.output.find("cannot write '" + (dir / "missing/t.csv").string() + "': its folder '" +
                          (dir / "missing").string() + "' does not exist"),
      std::string::npos)
      << missing.output;
  std::filesystem::create_directories(dir / "folder.csv");
  const Result folder = run(synth + (dir / "folder.csv").string());
  EXPECT_EQ(folder.exit_code, 2) << folder.output;
  EXPECT_NE(folder.output.find("it is a folder"), std::string::npos) << folder.output;

  // One output of several that is a folder: simulate's steps.csv (its trajectory.csv opens), and
  // the file sweep writes sweep.csv through.
  const std::string hanging = (testing::source_dir() / "datasets/examples/hanging.json").string();
  std::filesystem::create_directories(dir / "simulate/steps.csv");
  const Result simulate =
      run("simulate " + hanging + " --duration 0.02 --quiet --out " + (dir / "simulate").string());
  EXPECT_EQ(simulate.exit_code, 2) << simulate.output;
  EXPECT_NE(simulate.output.find("cannot write '" + (dir / "simulate/steps.csv").string() +
                                 "': it is a folder"),
            std::string::npos)
      << simulate.output;
  // Checked before anything is opened: an earlier run's files are left as they were (they were
  // truncated to nothing beside its summary), and an empty folder named summary.json is not
  // removed as an earlier run's summary.
  const auto earlier = dir / "earlier";
  ASSERT_EQ(
      run("simulate " + hanging + " --duration 0.02 --quiet --out " + earlier.string()).exit_code,
      0);
  const auto trajectory_size = std::filesystem::file_size(earlier / "trajectory.csv");
  std::filesystem::create_directories(earlier / "iterations.csv");
  const Result again = run("simulate " + hanging + " --duration 0.02 --quiet --iterations --out " +
                           earlier.string());
  EXPECT_EQ(again.exit_code, 2) << again.output;
  EXPECT_EQ(std::filesystem::file_size(earlier / "trajectory.csv"), trajectory_size);
  // A file that cannot be opened for writing (here a link to a folder that does not exist; a
  // read-only file likewise): refused, named, before the others are truncated.
  std::filesystem::remove(earlier / "iterations.csv");
  std::filesystem::remove(earlier / "steps.csv");
  std::filesystem::create_symlink(dir / "no_such_folder/steps.csv", earlier / "steps.csv");
  const Result unwritable =
      run("simulate " + hanging + " --duration 0.02 --quiet --out " + earlier.string());
  EXPECT_EQ(unwritable.exit_code, 2) << unwritable.output;
  EXPECT_NE(unwritable.output.find("cannot write '" + (earlier / "steps.csv").string() +
                                   "': No such file or directory"),
            std::string::npos)
      << unwritable.output;
  EXPECT_EQ(std::filesystem::file_size(earlier / "trajectory.csv"), trajectory_size);
  std::filesystem::create_directories(dir / "summary/summary.json");
  const Result summary =
      run("simulate " + hanging + " --duration 0.02 --quiet --out " + (dir / "summary").string());
  EXPECT_EQ(summary.exit_code, 2) << summary.output;
  EXPECT_TRUE(std::filesystem::is_directory(dir / "summary/summary.json"));
  // fit: before the search, not after it.
  std::filesystem::create_directories(dir / "fit/fit.json");
  const Result fit = run("fit " + write_flat_sheet_recording(dir, "flat_fit", false) +
                         " --grid 2 --refine-iterations 0 --noise-replicas 0 --quiet --out " +
                         (dir / "fit").string());
  EXPECT_EQ(fit.exit_code, 2) << fit.output;
  EXPECT_NE(
      fit.output.find("cannot write '" + (dir / "fit/fit.json").string() + "': it is a folder"),
      std::string::npos)
      << fit.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "fit/evaluations.csv"));
  std::filesystem::create_directories(dir / "sweep/sweep.csv.partial");
  const Result sweep = run("sweep " + write_flat_sheet_recording(dir, "flat", false) +
                           " --vary alpha=0.2:0.3:0.1 --quiet --out " + (dir / "sweep").string());
  EXPECT_EQ(sweep.exit_code, 2) << sweep.output;
  EXPECT_NE(sweep.output.find("cannot write '" + (dir / "sweep/sweep.csv.partial").string()),
            std::string::npos)
      << sweep.output;
}

TEST(ClothfitCli, ABadScenarioNamesTheFieldAndExitsWithTwo) {
  const auto dir = scratch("bad");
  // Writes `text` to dir/name and simulates it.
  const auto simulate = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return run("simulate " + (dir / name).string() + " --out " + (dir / "out").string());
  };
  const auto grid_scenario = [](const std::string& mesh_fields) {
    return R"({"cloth": {"mesh": {"type": "grid", )" + mesh_fields +
           R"(}, "density": 0.1}, "time": {"duration": 1}})";
  };
  // A 3 × 3 grid (nodes 0..8) held by `nodes`.
  const auto held_nodes = [&](const std::string& nodes) {
    return R"({"held": [{"nodes": )" + nodes + "}], " +
           grid_scenario(R"("width": 1, "height": 1, "nodes_x": 3, "nodes_y": 3)").substr(1);
  };
  struct Case {
    const char* file;
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"bad.json", grid_scenario(R"("width": -1, "height": 1, "nodes_x": 3, "nodes_y": 3)"),
       "cloth.mesh.width: expected a finite number > 0"},
      {"one_column.json", grid_scenario(R"("width": 1, "height": 1, "nodes_x": 1, "nodes_y": 3)"),
       "cloth.mesh.nodes_x: expected an integer >= 3, found 1"},
      // Two nodes across: no interior node, nothing holds the quads' shear (a 50 × 2 strip's
      // 1 cm cross edges reached 7.4 cm, every step converged).
      {"two_rows.json",
       grid_scenario(R"("width": 0.6, "height": 0.01, "nodes_x": 50, "nodes_y": 2)"),
       "cloth.mesh.nodes_y: expected an integer >= 3, found 2"},
      // A number with a fraction is named (it said "found a number").
      {"fraction.json", grid_scenario(R"("width": 1, "height": 1, "nodes_x": 2.5, "nodes_y": 3)"),
       "cloth.mesh.nodes_x: expected an integer (a finite number >= 3), found 2.5"},
      // Quads the mesh check calls degenerate; the message named no file and no field.
      {"tiny.json", grid_scenario(R"("width": 1e-300, "height": 1, "nodes_x": 3, "nodes_y": 3)"),
       "tiny.json: cloth.mesh.width: the 3 × 3 grid's quads would be 5e-301 m × 0.5 m; edges must "
       "be longer than 1e-09 m"},
      // A valid OBJ file scaled down until its quads are degenerate: the scale is at fault.
      // An empty path was opened as "" and reported without any name.
      {"empty_path.json",
       R"({"cloth": {"mesh": {"type": "obj", "path": ""}, "density": 0.1}, "time": {"duration": 1}})",
       "empty_path.json: cloth.mesh.path: expected the path of an OBJ file, found an empty string"},
      {"tiny_obj.json",
       R"({"cloth": {"mesh": {"type": "obj", "path": ")" +
           (testing::source_dir() / "datasets/examples/tube.obj").string() +
           R"(", "scale": 1e-300}, "density": 0.1}, "time": {"duration": 1}})",
       "tiny_obj.json: cloth.mesh.scale: makes tube.obj degenerate: quad 1: degenerate (edge of "
       "zero length)"},
      // A sheet reaching 1e7 m from the origin, where a double cannot resolve the tolerances.
      {"far.json", grid_scenario(R"("width": 1e7, "height": 1, "nodes_x": 3, "nodes_y": 3)"),
       "cloth.mesh: expected the sheet within 1e+06 m of the origin"},
      // Held nodes by index: one past the last and one before the first.
      {"held_past.json", held_nodes("[0, 9]"),
       "held[0].nodes[1]: node index 9 is out of range 0..8"},
      {"held_negative.json", held_nodes("[-1]"),
       "held[0].nodes[0]: node index -1 is out of range 0..8"},
      // Held nodes by [row, column], each bound of the grid crossed alone.
      {"held_row_past.json", held_nodes("[[3, 0]]"),
       "held[0].nodes[0]: [3, 0] is outside the grid of 3 rows × 3 columns"},
      {"held_row_negative.json", held_nodes("[[-1, 0]]"),
       "held[0].nodes[0]: [-1, 0] is outside the grid of 3 rows × 3 columns"},
      {"held_column_past.json", held_nodes("[[0, 3]]"),
       "held[0].nodes[0]: [0, 3] is outside the grid of 3 rows × 3 columns"},
      {"held_column_negative.json", held_nodes("[[0, -1]]"),
       "held[0].nodes[0]: [0, -1] is outside the grid of 3 rows × 3 columns"},
      // Integers as written: a huge one is not wrapped (it said "found -1") nor cut to an int (a
      // row of 2^32 was row 0), and 2.0 is the integer 2.
      {"huge.json",
       grid_scenario(R"("width": 1, "height": 1, "nodes_x": 18446744073709551615, "nodes_y": 3)"),
       "cloth.mesh.nodes_x: expected an integer >= 3 and <= 2147483647, found "
       "18446744073709551615"},
      {"huge_float.json",
       grid_scenario(R"("width": 1, "height": 1, "nodes_x": 1e300, "nodes_y": 3)"),
       "cloth.mesh.nodes_x: expected an integer >= 3 and <= 2147483647, found 1e+300"},
      {"held_huge.json", held_nodes("[18446744073709551615]"),
       "held[0].nodes[0]: node index 18446744073709551615 is out of range 0..8"},
      {"held_row_wraps.json", held_nodes("[[4294967296, 0]]"),
       "held[0].nodes[0]: [4294967296, 0] is outside the grid of 3 rows × 3 columns"},
      {"held_fraction.json", held_nodes("[[0.5, 0]]"),
       "held[0].nodes[0]: expected [row, column] of whole numbers, found [0.5,0]"},
      {"held_text.json", held_nodes(R"([0, "corner"])"),
       "held[0].nodes[1]: expected a node index or [row, column], found \"corner\""},
      {"held_index_fraction.json", held_nodes("[1.5]"),
       "held[0].nodes[0]: expected a node index (a whole number), found 1.5"},
      // An option the chosen solver ignores is refused (the run was the same, bit for bit).
      {"exact_ip.json",
       R"({"solver": {"qp": "interior-point", "exact_curvature": true}, )" +
           grid_scenario(R"("width": 1, "height": 1, "nodes_x": 3, "nodes_y": 3)").substr(1),
       "exact_ip.json: solver.exact_curvature: needs the active-set solver"},
      {"syntax.json", "{\n  \"cloth\": ,\n}", "syntax.json:2:"},
      // nlohmann::json reports a number beyond a double's range as out_of_range, unplaced.
      {"overflow.json", "{\"time\": {\n  \"duration\": 1e400}}",
       "overflow.json:2:15: invalid JSON (the number 1e400 is beyond the range"},
  };
  for (const Case& c : cases) {
    const Result r = simulate(c.file, c.text);
    EXPECT_EQ(r.exit_code, 2) << c.file << ": " << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.file << ": " << r.output;
  }
  EXPECT_EQ(run("simulate " + (dir / "missing.json").string() + " --out x").exit_code, 2);
  EXPECT_EQ(run("simulate --qp simplex " + (dir / "bad.json").string() + " --out x").exit_code, 2);
  // So it is when --qp chooses the solver.
  std::ofstream(dir / "exact.json")
      << R"({"solver": {"exact_curvature": true}, )" +
             grid_scenario(R"("width": 1, "height": 1, "nodes_x": 3, "nodes_y": 3)").substr(1);
  const Result exact_qp = run("simulate " + (dir / "exact.json").string() +
                              " --qp interior-point --out " + (dir / "out").string());
  EXPECT_EQ(exact_qp.exit_code, 2) << exact_qp.output;
  EXPECT_NE(exact_qp.output.find("solver.exact_curvature: needs the active-set solver"),
            std::string::npos)
      << exact_qp.output;
  EXPECT_NE(exact_qp.output.find("(--qp interior-point)"), std::string::npos) << exact_qp.output;
  // A whole number written with a point is that integer (it was "expected an integer, found 3").
  const Result whole = simulate(
      "whole.json",
      R"({"held": [{"nodes": [[0.0, 2.0], 8.0]}], "cloth": {"mesh": {"type": "grid", "width": 1,
      "height": 1, "nodes_x": 3.0, "nodes_y": 3e0}, "density": 0.1}, "time": {"duration": 0.02}})");
  EXPECT_EQ(whole.exit_code, 0) << whole.output;
}

// A run the file or the command line makes absurd is refused before it starts, not run as zero
// steps (an overflowing step count) or until memory runs out.
TEST(ClothfitCli, RunsOfNoStepOrOfTooManyAreRefused) {
  const auto dir = scratch("limits");
  const auto scenario = [&](const std::string& name, const std::string& mesh,
                            const std::string& time) {
    std::ofstream(dir / name) << R"({"cloth": {"mesh": {"type": "grid", "width": 1, "height": 1, )"
                              << mesh << R"(}, "density": 0.1}, "time": {)" << time << "}}";
    return (dir / name).string();
  };
  const std::string ok = scenario("ok.json", R"("nodes_x": 3, "nodes_y": 3)",
                                  R"("duration": 0.02, "time_step": 0.01)");
  const auto simulate = [&](const std::string& args) {
    return run("simulate " + args + " --quiet --out " + (dir / "out").string());
  };
  ASSERT_EQ(simulate(ok).exit_code, 0);

  struct Case {
    const char* file;
    const char* mesh;
    const char* time;
    const char* message;
  };
  for (const Case& c : {
           Case{"huge_mesh.json", R"("nodes_x": 50000, "nodes_y": 50000)", R"("duration": 0.02)",
                "cloth.mesh.nodes_y: expected at most 1000000 nodes in all"},
           Case{"tiny_step.json", R"("nodes_x": 3, "nodes_y": 3)",
                R"("duration": 4, "time_step": 1e-300)",
                "time.duration: expected at most 100000000 steps"},
           Case{"short.json", R"("nodes_x": 3, "nodes_y": 3)",
                R"("duration": 0.01, "time_step": 0.02)",
                "time.duration: expected at least one time step"},
       }) {
    const Result r = simulate(scenario(c.file, c.mesh, c.time));
    EXPECT_EQ(r.exit_code, 2) << c.file << ": " << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.file << ": " << r.output;
  }
  for (const char* duration : {"0.001", "1e300"}) {
    const Result r = simulate(ok + " --duration " + duration);
    EXPECT_EQ(r.exit_code, 2) << duration << ": " << r.output;
    EXPECT_NE(r.output.find("--duration: expected at"), std::string::npos) << r.output;
  }
  // The duration is named as such (the message gave the step count as what was found).
  const Result long_run = simulate(ok + " --duration 1e9");
  EXPECT_NE(long_run.output.find("--duration: expected at most 100000000 steps of 0.01 s (a "
                                 "duration of at most 1e+06 s), found 1e+09 s (1e+11 steps)"),
            std::string::npos)
      << long_run.output;
  for (const char* duration : {"0", "-1"}) {
    const Result r = simulate(ok + " --duration " + duration);
    EXPECT_EQ(r.exit_code, 2) << duration << ": " << r.output;
    EXPECT_NE(r.output.find("--duration: expected a number > 0"), std::string::npos) << r.output;
  }
  for (const char* duration : {"nan", "inf"}) {  // refused as numbers, before the step count
    const Result r = simulate(ok + " --duration " + duration);
    EXPECT_EQ(r.exit_code, 2) << duration << ": " << r.output;
    EXPECT_NE(r.output.find("--duration: expected a finite number > 0"), std::string::npos)
        << r.output;
  }
}

// output.every writes every n-th step and the last one: with n = 7 over 20 steps the file ended at
// step 14, and with n = 1000 it held only the initial state; a run that failed or was interrupted
// lost its last state the same way.
TEST(ClothfitCli, OutputEveryAlsoWritesTheLastStep) {
  const auto dir = scratch("output_every");
  nlohmann::json scenario = nlohmann::json::parse(
      std::ifstream(testing::source_dir() / "datasets/examples/hanging.json"));
  for (const int every : {7, 1000}) {
    scenario["output"] = {{"every", every}};
    std::ofstream(dir / "every.json") << scenario.dump();
    const Result r = run("simulate " + (dir / "every.json").string() +
                         " --duration 0.2 --quiet --out " + (dir / "out").string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::ifstream trajectory(dir / "out/trajectory.csv");
    std::vector<std::string> times;
    std::string line;
    std::getline(trajectory, line);
    while (std::getline(trajectory, line)) {
      const std::string time =
          line.substr(line.find(',') + 1, line.find(',', line.find(',') + 1) - line.find(',') - 1);
      if (times.empty() || times.back() != time)
        times.push_back(time);
    }
    const std::vector<std::string> expected =
        every == 7 ? std::vector<std::string>{"0", "0.07", "0.14", "0.2"}
                   : std::vector<std::string>{"0", "0.2"};
    EXPECT_EQ(times, expected) << "every " << every;
  }
  // A run that fails ends the file with its last state too (it ended at the last n-th step).
  std::ofstream(dir / "fails.json") << R"({"cloth": {"mesh": {"type": "grid", "width": 0.2,
      "height": 0.2, "nodes_x": 3, "nodes_y": 3}, "placement": {"translation": [0, 0, 1]},
      "material": "polyester"}, "time": {"duration": 0.1, "time_step": 0.01},
      "held": [{"node": 0}, {"node": 2, "path": [{"time": 0.04, "offset": [0, 0, 0]},
                                                 {"time": 0.05, "offset": [0.1, 0, 0]}]}],
      "output": {"every": 3}})";
  const Result fails =
      run("simulate " + (dir / "fails.json").string() + " --quiet --out " + (dir / "out").string());
  ASSERT_EQ(fails.exit_code, 1) << fails.output;
  std::ifstream summary_file(dir / "out/summary.json");
  const long steps = nlohmann::json::parse(summary_file)["steps"];
  ASSERT_EQ(steps, 4) << fails.output;  // step 5 fails
  std::ifstream trajectory(dir / "out/trajectory.csv");
  std::string line, last;
  while (std::getline(trajectory, line))
    last = line;
  EXPECT_EQ(last.substr(0, last.find(',', last.find(',') + 1)), "2,0.04") << last;
}

// A run whose first step fails has no step to take means over: its summary gives null for q, the
// iteration counts and the violation, not 0 (which read as an infinitely fast, perfect run).
TEST(ClothfitCli, ARunThatFailsAtItsFirstStepHasNoFiguresOverSteps) {
  const auto dir = scratch("first_step_fails");
  // One held corner jumps 5 m in the first step: no inextensible sheet can follow.
  std::ofstream(dir / "tear.json") << R"({"cloth": {"mesh": {"type": "grid", "width": 0.42,
      "height": 0.594, "nodes_x": 7, "nodes_y": 9}, "material": "polyester", "damping": 0.2,
      "virtual_density": 0.08}, "time": {"duration": 0.1},
      "held": [{"nodes": [[0, 0]]}, {"nodes": [[0, 6]], "path": [
        {"time": 0.0, "offset": [0, 0, 0]}, {"time": 0.01, "offset": [5.0, 0, 0]}]}]})";
  const Result r =
      run("simulate " + (dir / "tear.json").string() + " --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("q, iterations, violation n/a (no step was taken)"), std::string::npos)
      << r.output;
  std::ifstream summary_file(dir / "out/summary.json");
  ASSERT_TRUE(summary_file) << r.output;
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  EXPECT_EQ(summary["status"], "failed");
  EXPECT_EQ(summary["steps"], 0);
  for (const char* key : {"q", "mean_iterations", "max_iterations", "mean_factorizations",
                          "max_constraint_violation"})
    EXPECT_TRUE(summary[key].is_null()) << key << ": " << summary[key];
  EXPECT_NE(summary["message"].get<std::string>().find("step 1 "), std::string::npos)
      << summary["message"];
}

// Ctrl-C (here SIGINT, sent once steps.csv shows steps done) stops a long run after its current
// step, and the run still writes its summary and every frame it reached (exit code 1: not
// complete). The signal killed the process before: no summary, the buffered frames lost.
TEST(ClothfitCli, AnInterruptedSimulationKeepsWhatItDid) {
  const auto dir = scratch("interrupt");
  std::ofstream(dir / "long.json") << R"({"cloth": {"mesh": {"type": "grid", "width": 0.42,
      "height": 0.594, "nodes_x": 7, "nodes_y": 9}, "material": "polyester", "damping": 0.2,
      "virtual_density": 0.08}, "time": {"duration": 1000}, "held": [{"nodes": [[0, 0], [0, 6]]}],
      "output": {"every": 100}})";
  const Result r = testing::run_clothfit_interrupted(
      "simulate " + (dir / "long.json").string() + " --quiet --out " + (dir / "out").string(),
      [&dir](const std::string&) { return testing::has_lines(dir / "out/steps.csv", 2); });
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("interrupted              after "), std::string::npos) << r.output;
  std::ifstream summary_file(dir / "out/summary.json");
  ASSERT_TRUE(summary_file) << r.output;
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  EXPECT_EQ(summary["interrupted"], true);
  const long steps = summary["steps"];
  EXPECT_GT(steps, 0);
  EXPECT_LT(steps, 100000);
  std::ifstream trajectory(dir / "out/trajectory.csv");
  long lines = 0;
  for (std::string line; std::getline(trajectory, line);)
    ++lines;
  // Every 100th step and the last one reached (it was left out when 100 did not divide it).
  EXPECT_EQ(lines, 1 + (steps / 100 + 1 + (steps % 100 != 0 ? 1 : 0)) * 63) << steps << " steps";
}

// A sphere rising through a held corner: the corner follows its target, not the contact, and
// ends inside; the run said nothing (every step converged). It goes on, with a warning and the
// step in summary.json.
TEST(ClothfitCli, SimulateWarnsWhenAnObstacleSweepsOverAHeldNode) {
  const auto dir = scratch("held_inside");
  std::ofstream(dir / "s.json") << R"({"cloth": {"mesh": {"type": "grid", "width": 0.42,
      "height": 0.594, "nodes_x": 7, "nodes_y": 9}, "material": "polyester"},
      "time": {"duration": 0.1}, "held": [{"nodes": [[0, 0], [0, 6]]}],
      "obstacles": [{"type": "sphere", "name": "ball", "centre": [0, 0, -0.2], "radius": 0.05,
        "motion": {"translation": {"keyframes": [{"time": 0, "offset": [0, 0, 0]},
                                                  {"time": 0.1, "offset": [0, 0, 0.2]}]}}}]})";
  const Result r =
      run("simulate " + (dir / "s.json").string() + " --quiet --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: " + (dir / "s.json").string() +
                          ": held node 0 is inside obstacle 'ball' by "),
            std::string::npos)
      << r.output;
  std::ifstream in(dir / "out/summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  EXPECT_NE(summary["held_inside"].get<std::string>().find(" m after step "), std::string::npos)
      << summary["held_inside"];
  // Without the sphere: nothing to say.
  std::ofstream(dir / "still.json") << R"({"cloth": {"mesh": {"type": "grid", "width": 0.42,
      "height": 0.594, "nodes_x": 7, "nodes_y": 9}, "material": "polyester"},
      "time": {"duration": 0.02}, "held": [{"nodes": [[0, 0], [0, 6]]}]})";
  const Result still = run("simulate " + (dir / "still.json").string() + " --quiet --out " +
                           (dir / "still").string());
  EXPECT_EQ(still.output.find("warning"), std::string::npos) << still.output;
  std::ifstream still_in(dir / "still/summary.json");
  EXPECT_EQ(nlohmann::json::parse(still_in)["held_inside"], "");
}

// trajectory.csv keeps 1e-9 m far from the origin: with 9 significant digits a sheet 999,999 m
// out was written to the millimetre, its edges 1.4 % off their length in the file.
TEST(ClothfitCli, TrajectoryKeepsNanometresFarFromTheOrigin) {
  const auto dir = scratch("far");
  std::ofstream(dir / "far.json") << R"({"cloth": {"mesh": {"type": "grid", "width": 0.42,
      "height": 0.594, "nodes_x": 7, "nodes_y": 9}, "material": "polyester",
      "placement": {"translation": [999999, -999999, 999999]}}, "time": {"duration": 0.01}})";
  ASSERT_EQ(
      run("simulate " + (dir / "far.json").string() + " --quiet --out " + (dir / "out").string())
          .exit_code,
      0);
  std::ifstream in(dir / "out/trajectory.csv");
  std::string header, node0, node1;
  std::getline(in, header);
  std::getline(in, node0);
  std::getline(in, node1);
  EXPECT_EQ(node0, "0,0,0,999999,-999999,999999");
  EXPECT_EQ(node1, "0,0,1,999999.07,-999999,999999");  // 0.07 m along x, to the nanometre
  // The step's positions, as written, keep the edge between them to 1e-8 of its length.
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("1,0.01,0,", 0) == 0)
      node0 = line;
    if (line.rfind("1,0.01,1,", 0) == 0)
      node1 = line;
  }
  const auto position = [](const std::string& row) {
    std::stringstream fields(row);
    std::string f;
    for (int k = 0; k < 3; ++k)
      std::getline(fields, f, ',');
    Eigen::Vector3d p;
    for (int d = 0; d < 3; ++d) {
      std::getline(fields, f, ',');
      p[d] = std::stod(f);
    }
    return p;
  };
  EXPECT_NEAR((position(node1) - position(node0)).norm(), 0.07, 0.07 * 1e-6) << node0 << "\n"
                                                                             << node1;
}

// A second Ctrl-C ends a run at once, inside a step that may take minutes: what was written
// before must be in the files. Here the process is killed (SIGKILL) once frame 0 and a step are
// there; with output.every beyond the run, frame 0 sat in the stream's buffer until the end.
TEST(ClothfitCli, AKilledSimulationKeepsItsFirstFrameAndSteps) {
  const auto dir = scratch("killed");
  std::ofstream(dir / "long.json") << R"({"cloth": {"mesh": {"type": "grid", "width": 0.42,
      "height": 0.594, "nodes_x": 7, "nodes_y": 9}, "material": "polyester", "damping": 0.2,
      "virtual_density": 0.08}, "time": {"duration": 1000}, "held": [{"nodes": [[0, 0], [0, 6]]}],
      "output": {"every": 1000000}})";
  const auto trajectory = dir / "out/trajectory.csv", steps = dir / "out/steps.csv";
  const Result r = testing::run_clothfit_interrupted(
      "simulate " + (dir / "long.json").string() + " --quiet --out " + (dir / "out").string(),
      [&](const std::string&) {
        return testing::has_lines(trajectory, 1 + 63) && testing::has_lines(steps, 2);
      },
      SIGKILL, 60.0);
  EXPECT_EQ(r.output.find("[run_clothfit_interrupted"), std::string::npos) << r.output;
  EXPECT_TRUE(testing::has_lines(trajectory, 1 + 63));
  EXPECT_TRUE(testing::has_lines(steps, 2));
}

// Ctrl-C (SIGINT once the first progress line is out, about 2 s in) stops a long sweep: no further
// run starts, the points done are in sweep.csv and the others pending, and the command says so
// (exit code 1).
TEST(ClothfitCli, AnInterruptedSweepSavesItsPointsAndTheOthersPending) {
  const auto dir = scratch("sweep_interrupt");
  const std::string recording =
      (testing::source_dir() / "datasets/recordings/denim_tablecloth_high.json").string();
  const Result r = testing::run_clothfit_interrupted(
      "sweep " + recording + " --vary mu.table=0:2:0.1 --replicas 6 --out " +
          (dir / "out").string(),
      [](const std::string& output) { return output.find(" evaluations, ") != std::string::npos; });
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("clothfit sweep: interrupted (Ctrl-C or SIGTERM) after "),
            std::string::npos)
      << r.output;
  std::ifstream csv(dir / "out/sweep.csv");
  std::string line;
  ASSERT_TRUE(std::getline(csv, line)) << r.output;
  long rows = 0, pending = 0;
  for (; std::getline(csv, line); ++rows)
    pending += line.find(",pending,") != std::string::npos ? 1 : 0;
  EXPECT_EQ(rows, 21);
  EXPECT_GT(pending, 0);  // 126 runs of about 0.15 s each do not fit in 2 s
}

// The bundled polyester_hitting recording scenario cut to its first `frames` frames, with its
// files named by absolute path (the copy lives in a scratch folder).
nlohmann::json short_hitting_scenario(int frames) {
  const auto recordings = testing::source_dir() / "datasets/recordings";
  nlohmann::json scenario =
      nlohmann::json::parse(std::ifstream(recordings / "polyester_hitting.json"));
  scenario["recording"] = (recordings / "polyester_hitting.csv").string();
  scenario["truth"] = (recordings / "polyester_hitting.truth.json").string();
  scenario["frames"] = {{"first", 0}, {"count", frames}};
  return scenario;
}

// Ctrl-C after the search (here during the run with the interior-point solver) skips the runs
// still to come, here the one at the truth, and writes the fit without them (exit code 1). The
// signal killed the process there before, and the finished search was lost.
TEST(ClothfitCli, AFitInterruptedAfterItsSearchIsWrittenWithoutTheLaterRuns) {
  const auto dir = scratch("fit_interrupt_late");
  std::ofstream(dir / "short.json") << short_hitting_scenario(300).dump();
  const Result r = testing::run_clothfit_interrupted(
      "fit " + (dir / "short.json").string() +
          " --grid 2 --refine-iterations 0 --noise-replicas 0 --compare-solvers --out " +
          (dir / "out").string(),
      [](const std::string& output) {
        return output.find("fit: the optimum with the interior-point solver") != std::string::npos;
      });
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("clothfit fit: interrupted (Ctrl-C or SIGTERM) after the search: the "
                          "run at the truth was not made"),
            std::string::npos)
      << r.output;
  std::ifstream fit_file(dir / "out/fit.json");
  ASSERT_TRUE(fit_file) << r.output;
  const nlohmann::json fit = nlohmann::json::parse(fit_file);
  EXPECT_FALSE(fit.contains("objective_at_truth"));
  EXPECT_TRUE(std::filesystem::exists(dir / "out/errors.svg"));
}

// A parameter the scenario fixes at another value than the truth is the scenario's choice: it is
// not marked MISSED (it was, with an interval it does not have), and the run "at the truth" keeps
// the fixed value, which the table says.
TEST(ClothfitCli, AFixedParameterIsNotAMissOfTheFit) {
  const auto dir = scratch("fit_fixed");
  nlohmann::json scenario = short_hitting_scenario(100);
  scenario["parameters"]["delta"] = 0.1;  // the truth is 0.08
  std::ofstream(dir / "fixed.json") << scenario.dump();
  const Result r = run("fit " + (dir / "fixed.json").string() +
                       " --grid 2 --refine-iterations 0 --noise-replicas 0 --quiet --out " +
                       (dir / "out").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::size_t row = r.output.find("\ndelta ");
  ASSERT_NE(row, std::string::npos) << r.output;
  const std::string delta = r.output.substr(row + 1, r.output.find('\n', row + 1) - row - 1);
  EXPECT_EQ(delta.find("MISSED"), std::string::npos) << delta;
  EXPECT_NE(delta.find("fixed by the scenario at another value than the truth"), std::string::npos)
      << delta;
  EXPECT_NE(r.output.find("the fitted parameters at their truth, the fixed ones at the scenario's "
                          "values"),
            std::string::npos)
      << r.output;
  // table and plot refuse to write over what they read (they replaced it).
  const auto out = dir / "out";
  const Result table = run("table " + (out / "fit.json").string() + " --out " +
                           (dir / "out/../out/fit.json").string());
  EXPECT_EQ(table.exit_code, 2) << table.output;
  EXPECT_NE(table.output.find("--out names the input"), std::string::npos) << table.output;
  nlohmann::json still;  // fit.json is still the fit's, not the table
  EXPECT_NO_THROW(still = nlohmann::json::parse(std::ifstream(out / "fit.json")));
  EXPECT_TRUE(still.contains("parameters")) << still.dump();
  const auto frames_size = std::filesystem::file_size(out / "frames.csv");
  const Result plot =
      run("plot " + (out / "frames.csv").string() + " --out " + (out / "frames.csv").string());
  EXPECT_EQ(plot.exit_code, 2) << plot.output;
  EXPECT_EQ(std::filesystem::file_size(out / "frames.csv"), frames_size);
}

// Ctrl-C (SIGINT once evaluations.csv has a run) stops a fit: no further simulation starts, no
// fit.json is written, and evaluations.csv has every run made (exit code 1).
TEST(ClothfitCli, AnInterruptedFitKeepsItsEvaluationsAndWritesNoResult) {
  const auto dir = scratch("fit_interrupt");
  const std::string recording =
      (testing::source_dir() / "datasets/recordings/polyester_hitting.json").string();
  // An earlier fit's results in the folder: they must not stay beside this fit's evaluations.
  std::filesystem::create_directories(dir / "out");
  for (const char* name : {"fit.json", "frames.csv", "markers.csv", "errors.svg"})
    std::ofstream(dir / "out" / name) << "an earlier fit's\n";
  const Result r = testing::run_clothfit_interrupted(
      "fit " + recording + " --quiet --out " + (dir / "out").string(),
      [&dir](const std::string&) { return testing::has_lines(dir / "out/evaluations.csv", 2); });
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("clothfit fit: interrupted (Ctrl-C or SIGTERM) after "),
            std::string::npos)
      << r.output;
  for (const char* name : {"fit.json", "frames.csv", "markers.csv", "errors.svg"})
    EXPECT_FALSE(std::filesystem::exists(dir / "out" / name)) << name;
  std::ifstream log(dir / "out/evaluations.csv");
  std::string header;
  ASSERT_TRUE(std::getline(log, header));
  EXPECT_EQ(header.rfind("stage,alpha,delta,", 0), 0u) << header;
  long rows = 0;
  for (std::string line; std::getline(log, line);)
    ++rows;
  EXPECT_GT(rows, 0);  // the runs made before the signal
}

// A fit whose optimum's run left steps at the iteration cap still succeeds, but says so (only
// fit.json counted them).
TEST(ClothfitCli, FitWarnsWhenItsOptimumLeftStepsAtTheIterationCap) {
  const auto dir = scratch("fit_iteration_cap");
  const std::string scenario = write_flat_sheet_recording(dir, "flat", false);
  std::string text;
  {
    std::ifstream in(scenario);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string capped = (dir / "capped.json").string();
  std::ofstream(capped) << text.substr(0, text.rfind('}'))
                        << R"(, "solver": {"max_iterations": 1}})";
  const std::string options = " --grid 2 --refine-iterations 0 --noise-replicas 0 --quiet --out ";
  const Result r = run("fit " + capped + options + (dir / "capped").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("clothfit fit: warning: the run at the optimum left "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(" steps at the iteration cap (the first at frame "), std::string::npos)
      << r.output;
  const Result plain = run("fit " + scenario + options + (dir / "plain").string());
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_EQ(plain.output.find("iteration cap"), std::string::npos) << plain.output;
}

// --grid sets the grid of every fitted parameter, also one with its own "grid" (it used to be
// ignored for those).
TEST(ClothfitCli, FitGridOptionWinsOverAParametersOwnGrid) {
  const auto dir = scratch("fit_grid_option");
  std::string text;
  {
    std::ifstream in(write_flat_sheet_recording(dir, "flat", false));
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string own = R"("alpha": {"min": 0.1, "max": 1, "grid": 3})";
  const auto at = text.find(R"("alpha": {"min": 0.1, "max": 1})");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, std::string(R"("alpha": {"min": 0.1, "max": 1})").size(), own);
  std::ofstream(dir / "own_grid.json") << text;
  const auto grid_evaluations = [&](const std::string& option, const std::string& name) {
    const Result r =
        run("fit " + (dir / "own_grid.json").string() + option +
            " --refine-iterations 0 --noise-replicas 0 --quiet --out " + (dir / name).string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(dir / name / "fit.json");
    return nlohmann::json::parse(in).at("grid_evaluations").get<int>();
  };
  EXPECT_EQ(grid_evaluations("", "own"), 3);
  EXPECT_EQ(grid_evaluations(" --grid 2", "option"), 2);
}

// A truth that scores exactly the fit's objective (here the optimum itself, and no noise
// measured) is not "preferred" either way (it said "+0.0 %: the model prefers the fitted values").
TEST(ClothfitCli, FitSaysWhenTheTruthScoresTheSame) {
  const auto dir = scratch("fit_same_truth");
  std::string text;
  {
    std::ifstream in(write_flat_sheet_recording(dir, "flat", false));
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The grid's two points are alpha 0.1 and 1; this recording's optimum is the upper bound.
  std::ofstream(dir / "flat.truth.json") << R"({"parameters": {"alpha": 1, "delta": 0.08}})";
  std::ofstream(dir / "with_truth.json")
      << text.substr(0, text.rfind('}')) << R"(, "truth": "flat.truth.json"})";
  const Result r = run("fit " + (dir / "with_truth.json").string() +
                       " --grid 2 --refine-iterations 0 --noise-replicas 0 --quiet --out " +
                       (dir / "out").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_NE(r.output.find("alpha                   1 "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(+0.0 % against the fit: the same objective: the recording cannot "
                          "tell them apart)"),
            std::string::npos)
      << r.output;
}

// A recording scenario given to simulate, or a simulation scenario to fit, is named as the other
// kind of file (it was refused for its first unknown field: "condition", "time").
TEST(ClothfitCli, TheOtherKindOfScenarioIsNamedAsSuch) {
  const auto source = testing::source_dir() / "datasets";
  const std::string recording = (source / "recordings/polyester_hitting.json").string();
  const std::string simulation = (source / "examples/hanging.json").string();
  const Result simulate =
      run("simulate " + recording + " --quiet --out " + scratch("other_kind").string());
  EXPECT_EQ(simulate.exit_code, 2) << simulate.output;
  EXPECT_NE(simulate.output.find(recording + ": recording: expected a simulation scenario"),
            std::string::npos)
      << simulate.output;
  for (const char* command : {"fit", "sweep --vary alpha=0.1:0.2:0.1"}) {
    const Result r = run(std::string(command) + " " + simulation + " --quiet --out " +
                         scratch("other_kind").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(simulation + ": time: expected a recording scenario"),
              std::string::npos)
        << r.output;
  }
}

// A command missing any one of its required inputs says what it needs (exit 2) before reading
// anything.
TEST(ClothfitCli, ACommandMissingAnInputSaysWhatItNeeds) {
  const std::string fit_needs = "clothfit fit: needs a scenario file and --out DIR";
  const std::string simulate_needs = "clothfit simulate: needs a scenario file and --out DIR";
  const std::string sweep_needs = "clothfit sweep: needs a scenario file, --vary and --out DIR";
  const std::string synth_needs =
      "clothfit synth: needs a scenario file, --truth and --out TAKE.csv";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"fit s.json", fit_needs},
      {"fit --out d", fit_needs},
      {"simulate s.json", simulate_needs},
      {"simulate --out d", simulate_needs},
      {"sweep s.json --vary alpha=0.1:0.2:0.1", sweep_needs},
      {"sweep s.json --out d", sweep_needs},
      {"sweep --vary alpha=0.1:0.2:0.1 --out d", sweep_needs},
      {"synth s.json --truth alpha=0.2", synth_needs},
      {"synth s.json --out t.csv", synth_needs},
      {"synth --truth alpha=0.2 --out t.csv", synth_needs},
      {"plot", "clothfit plot: needs a frames.csv or sweep.csv file"},
      {"table", "clothfit table: needs at least one fit.json file"},
  };
  for (const auto& [arguments, message] : cases) {
    const Result r = run(arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments << ": " << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << arguments << ": " << r.output;
  }
}

// Whole-number options outside their range are refused, naming the option (they were taken as
// "not given" and the default used instead).
TEST(ClothfitCli, OptionsOutOfRangeAreRefused) {
  const std::string scenario = " /nonexistent/scenario.json --out /nonexistent/out --quiet";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"sweep --vary alpha=0.1:0.2:0.1 --threads -3",
       "--threads expects a whole number from 0 to 1024 (0: all cores), found -3"},
      // As many threads as simulations were started: 100000 ran out of them.
      {"sweep --vary alpha=0.1:0.2:0.1 --threads 100000",
       "--threads expects a whole number from 0 to 1024 (0: all cores), found 100000"},
      {"fit --threads 1025", "--threads expects a whole number from 0 to 1024"},
      {"sweep --vary alpha=0.1:0.2:0.1 --replicas 0", "--replicas expects a whole number from 1"},
      {"fit --threads -1", "--threads expects a whole number from 0 to 1024"},
      {"fit --grid 1", "--grid expects a whole number from 2 to 100000, found 1"},
      {"fit --refine-iterations -2",
       "--refine-iterations expects a whole number from 0 to 1000 (0: grid only), found -2"},
      {"fit --refine-iterations 1001",
       "--refine-iterations expects a whole number from 0 to 1000 (0: grid only), found 1001"},
      {"fit --noise-replicas 5000", "--noise-replicas expects a whole number from 0 to 1000"},
      // One replica has no spread: it reported an objective noise of 0.
      {"fit --noise-replicas 1",
       "--noise-replicas expects 0 (none) or 2 to 1000: a standard deviation needs two runs"},
      {"synth --truth alpha=0.2 --seed -1", "--seed expects a whole number >= 0, found -1"},
  };
  for (const auto& [arguments, message] : cases) {
    const Result r = run(arguments + scenario);
    EXPECT_EQ(r.exit_code, 2) << arguments << ": " << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << arguments << ": " << r.output;
  }
}

// A fit's grid search or a sweep of more than 100000 points is refused before it starts, naming
// what set it (a fit with --grid 1000 over three parameters ran out of memory allocating 1e9
// points; one of 50 would have run for days).
TEST(ClothfitCli, GridsTooLargeToRunAreRefused) {
  const auto recordings = testing::source_dir() / "datasets/recordings";
  const Result fit = run("fit " + (recordings / "polyester_table_drag.json").string() +
                         " --grid 50 --quiet --out " + scratch("huge_grid").string());
  EXPECT_EQ(fit.exit_code, 2) << fit.output;
  EXPECT_NE(fit.output.find("fit.grid (or --grid, or a parameter's grid): the grid search over 3 "
                            "fitted parameters would run more than 100000 simulations"),
            std::string::npos)
      << fit.output;
  // A grid value alone too large to allocate (it ran out of memory building the axis).
  const Result huge = run("fit " + (recordings / "polyester_table_drag.json").string() +
                          " --grid 2000000000 --quiet --out " + scratch("huge_grid").string());
  EXPECT_EQ(huge.exit_code, 2) << huge.output;
  EXPECT_NE(huge.output.find("--grid expects a whole number from 2 to 100000"), std::string::npos)
      << huge.output;
  const Result sweep = run("sweep " + (recordings / "denim_tablecloth_high.json").string() +
                           " --vary alpha=0:1:0.001 --vary mu.table=0:2:0.001 --quiet --out " +
                           scratch("huge_sweep").string());
  EXPECT_EQ(sweep.exit_code, 2) << sweep.output;
  EXPECT_NE(sweep.output.find("--vary: more than 100000 points in all"), std::string::npos)
      << sweep.output;
}

// A run that runs out of memory says so and exits with 1 (it aborted with std::bad_alloc). The
// million-node mesh is within the limits; 300 MB of address space is not enough for its solver.
// (Skipped in a build with AddressSanitizer, scripts/sanitize.sh.)
TEST(ClothfitCli, RunningOutOfMemoryIsReportedNotAnAbort) {
  if (testing::address_sanitizer_build())
    GTEST_SKIP() << "AddressSanitizer reserves its shadow memory at start, which the 300 MB "
                    "address-space limit of this test does not leave room for";
  const auto dir = scratch("memory");
  std::ofstream(dir / "big.json")
      << R"({"cloth": {"mesh": {"type": "grid", "width": 1, "height": 1, "nodes_x": 1000,)"
      << R"( "nodes_y": 1000}, "density": 0.1}, "time": {"duration": 0.01}})";
  const Result r = testing::run_clothfit(
      "simulate " + (dir / "big.json").string() + " --quiet --out " + (dir / "out").string(),
      "ulimit -v 300000; ");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("clothfit simulate: out of memory"), std::string::npos) << r.output;
}

// The reader reserves room for the frames it expects from the file's size; short rows and blank
// lines made that guess gigabytes for a file of 1.2 MB (2000 markers, three rows, 200000 blank
// lines), which ran out of memory. (Skipped with AddressSanitizer, as above.)
TEST(ClothfitCli, InspectOfAShortWideTakeDoesNotReserveGigabytes) {
  if (testing::address_sanitizer_build())
    GTEST_SKIP() << "AddressSanitizer reserves its shadow memory at start, which the 1 GB "
                    "address-space limit of this test does not leave room for";
  const auto dir = scratch("wide_take");
  {
    std::ofstream take(dir / "wide.csv");
    take << "Format Version,1.23,Export Frame Rate,100,Length Units,Meters\n\n,Type";
    for (int m = 0; m < 2000; ++m)
      take << ",Marker,Marker,Marker";
    take << "\n,Name";
    for (int m = 0; m < 2000; ++m)
      take << ",M" << m << ",M" << m << ",M" << m;
    take << "\n,";
    for (int m = 0; m < 2000; ++m)
      take << ",Position,Position,Position";
    take << "\nFrame,Time (Seconds)";
    for (int m = 0; m < 2000; ++m)
      take << ",X,Y,Z";
    take << "\n0,0.00\n1,0.01\n2,0.02\n" << std::string(200000, '\n');
  }
  const Result r =
      testing::run_clothfit("inspect " + (dir / "wide.csv").string(), "ulimit -v 1000000; ");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("frames            3 "), std::string::npos) << r.output;
}

TEST(ClothfitCli, InspectDescribesARealExport) {
  const auto take = testing::shared_dir() / "fixtures/motive/format-1.23-dropout-120hz.csv";
  std::string reason;
  if (!testing::have_shared_file(take, reason))
    GTEST_SKIP() << reason;
  const Result r = run("inspect " + take.string() + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["format_version"], "1.23");
  const Result text = run("inspect " + take.string());
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_EQ(run("inspect /nonexistent/take.csv").exit_code, 2);
}

// Several takes on one command line are described in turn, in the order given; one that does not
// read is reported (file named) and the others are still described, with exit code 2.
TEST(ClothfitCli, InspectDescribesSeveralTakesInTurn) {
  const auto dir = testing::shared_dir() / "fixtures/motive";
  const auto first = dir / "format-1.23-dropout-120hz.csv";
  const auto second = dir / "format-1.22-gaps-60hz.csv";
  std::string reason;
  if (!testing::have_shared_file(first, reason) || !testing::have_shared_file(second, reason))
    GTEST_SKIP() << reason;
  const std::string missing = "/nonexistent/take.csv";

  const Result both = run("inspect " + first.string() + " " + second.string());
  ASSERT_EQ(both.exit_code, 0) << both.output;
  const std::size_t at_first = both.output.find(first.string() + "\n");
  const std::size_t at_second = both.output.find("\n\n" + second.string() + "\n");
  ASSERT_NE(at_first, std::string::npos) << both.output;
  ASSERT_NE(at_second, std::string::npos) << both.output;
  EXPECT_LT(at_first, at_second);
  EXPECT_NE(both.output.find("1.22"), std::string::npos);
  EXPECT_NE(both.output.find("1.23"), std::string::npos);

  const Result text = run("inspect " + first.string() + " " + missing + " " + second.string());
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_NE(text.output.find("clothfit inspect: " + missing), std::string::npos) << text.output;
  EXPECT_NE(text.output.find(second.string() + "\n"), std::string::npos) << text.output;

  const Result json =
      run("inspect " + first.string() + " " + missing + " " + second.string() + " --json");
  EXPECT_EQ(json.exit_code, 2);
  // The error line on stderr comes first, then the array on stdout.
  EXPECT_EQ(json.output.rfind("clothfit inspect: " + missing, 0), 0u) << json.output;
  const std::size_t array = json.output.find("[\n");
  ASSERT_NE(array, std::string::npos) << json.output;
  const nlohmann::json takes = nlohmann::json::parse(json.output.substr(array));
  ASSERT_TRUE(takes.is_array());
  ASSERT_EQ(takes.size(), 3u);
  EXPECT_EQ(takes[0]["format_version"], "1.23");
  EXPECT_EQ(takes[1]["file"], missing);
  EXPECT_NE(takes[1]["error"].get<std::string>().find(missing), std::string::npos);
  EXPECT_FALSE(takes[1].contains("format_version"));
  EXPECT_EQ(takes[2]["format_version"], "1.22");

  // One take keeps the object of a single description.
  const Result one = run("inspect " + second.string() + " --json");
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_TRUE(nlohmann::json::parse(one.output).is_object());
}

}  // namespace
}  // namespace clothfit::apps
