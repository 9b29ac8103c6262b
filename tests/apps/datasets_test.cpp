// The bundled recordings of datasets/recordings/ (paper section 7, made by
// scripts/make_datasets.sh): every scenario names an existing recording and truth file, its fixed
// parameters agree with the truth it was made with, `clothfit inspect` loads every recording, and
// `clothfit fit` builds a setup and runs for one short cut of a recording.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/run_clothfit.hpp"
#include "support/test_paths.hpp"

namespace clothfit::apps {
namespace {

using Result = testing::CommandResult;
using testing::run_clothfit;

std::filesystem::path recordings_dir() {
  return testing::source_dir() / "datasets/recordings";
}

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream file(path);
  return nlohmann::json::parse(file);
}

// The scenario files (<name>.json, not <name>.truth.json), sorted.
std::vector<std::filesystem::path> scenario_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(recordings_dir())) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() == ".json" && file.find(".truth.json") == std::string::npos)
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Datasets, FourFabricsWithTwoTableclothsAndOneHittingEachAndOneTableDrag) {
  std::set<std::string> names;
  for (const auto& path : scenario_files())
    names.insert(path.stem().string());
  for (const char* fabric : {"polyester", "wool", "denim", "stiff-cotton"}) {
    for (const char* kind : {"_tablecloth_low", "_tablecloth_high", "_hitting"})
      EXPECT_TRUE(names.count(std::string(fabric) + kind)) << fabric << kind;
  }
  EXPECT_TRUE(names.count("polyester_table_drag"));
  EXPECT_EQ(names.size(), 13u);
}

TEST(Datasets, ScenariosNameTheirFilesAndAgreeWithTheTruth) {
  for (const auto& path : scenario_files()) {
    SCOPED_TRACE(path.filename().string());
    const nlohmann::json scenario = read_json(path);
    const std::string name = path.stem().string();
    EXPECT_EQ(scenario.at("recording"), name + ".csv");
    EXPECT_EQ(scenario.at("truth"), name + ".truth.json");
    ASSERT_TRUE(std::filesystem::exists(recordings_dir() / (name + ".csv")));
    const nlohmann::json truth = read_json(recordings_dir() / (name + ".truth.json"));
    EXPECT_EQ(truth.at("fabric"), scenario.at("cloth").at("material"));
    EXPECT_DOUBLE_EQ(truth.at("frame_rate").get<double>(), 100.0);
    const nlohmann::json& parameters = scenario.at("parameters");
    for (const auto& [key, value] : parameters.items()) {
      ASSERT_TRUE(truth.at("parameters").contains(key)) << key;
      const double true_value = truth.at("parameters").at(key).get<double>();
      if (value.is_number()) {  // fixed at the truth
        EXPECT_DOUBLE_EQ(value.get<double>(), true_value) << key;
      } else {  // fitted: the truth lies inside the bounds
        EXPECT_LE(value.at("min").get<double>(), true_value) << key;
        EXPECT_GE(value.at("max").get<double>(), true_value) << key;
      }
    }
    if (scenario.at("experiment") == "tablecloth") {
      EXPECT_TRUE(parameters.at("alpha").is_number());
      EXPECT_TRUE(parameters.at("delta").is_number());
      EXPECT_TRUE(parameters.at("mu.table").is_object());
      const double mu = truth.at("parameters").at("mu.table").get<double>();
      EXPECT_EQ(scenario.at("condition"), mu < 0.5 ? "low" : "high");
    } else if (scenario.at("experiment") == "table-drag") {  // all three fitted
      EXPECT_TRUE(parameters.at("alpha").is_object());
      EXPECT_TRUE(parameters.at("delta").is_object());
      EXPECT_TRUE(parameters.at("mu.table").is_object());
      // The fit starts once the sheet lies on the table.
      EXPECT_GT(scenario.at("frames").at("first").get<int>(), 0);
    } else {
      EXPECT_EQ(scenario.at("experiment"), "hitting");
      EXPECT_TRUE(parameters.at("alpha").is_object());
      EXPECT_TRUE(parameters.at("delta").is_object());
      const double duration = truth.at("duration").get<double>();
      EXPECT_GE(duration, 12.0);
      EXPECT_LE(duration, 18.0);
    }
  }
}

TEST(Datasets, EveryRecordingLoads) {
  for (const auto& path : scenario_files()) {
    const auto csv = recordings_dir() / (path.stem().string() + ".csv");
    const Result r = run_clothfit("inspect " + csv.string());
    EXPECT_EQ(r.exit_code, 0) << csv << "\n" << r.output;
    EXPECT_NE(r.output.find("E4"), std::string::npos) << csv;
  }
}

// `clothfit inspect --suggest-layout ROWSxCOLUMNS` on the recordings that start with the sheet
// lying on the table (all but the hitting ones, whose frame 0 also has the stick's markers): the
// layout their scenarios name, in JSON and in text. The grid asked for the wrong way round is
// refused with the size to ask for; a size that is not two whole numbers >= 1 joined by x is bad
// input.
TEST(Datasets, InspectSuggestsTheLayoutOfTheScenario) {
  int checked = 0;
  for (const auto& path : scenario_files()) {
    const nlohmann::json scenario = read_json(path);
    if (scenario.at("experiment") == "hitting")
      continue;
    SCOPED_TRACE(path.filename().string());
    const nlohmann::json& layout = scenario.at("layout");
    const std::string csv = (recordings_dir() / (path.stem().string() + ".csv")).string();
    const std::string size = std::to_string(layout.at("rows").get<int>()) + "x" +
                             std::to_string(layout.at("columns").get<int>());
    const Result r = run_clothfit("inspect " + csv + " --suggest-layout " + size + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json suggested = nlohmann::json::parse(r.output).at("suggested_layout");
    EXPECT_EQ(suggested.at("markers"), layout.at("markers"));
    ++checked;
  }
  ASSERT_GE(checked, 3);

  const std::string csv = (recordings_dir() / "polyester_tablecloth_low.csv").string();
  const Result text = run_clothfit("inspect " + csv + " --suggest-layout 5X4");
  EXPECT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("suggested layout (from frame 0"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find(R"(["E1", "E2", "E3", "E4"])"), std::string::npos) << text.output;

  const Result turned = run_clothfit("inspect " + csv + " --suggest-layout 4x5");
  EXPECT_EQ(turned.exit_code, 2);
  EXPECT_NE(turned.output.find("ask for 5x4"), std::string::npos) << turned.output;

  for (const std::string bad :
       {"4x", "x5", "0x5", "5x0", "5x4x", "' 5x4'", "5x-4", "5", "5y4", "5ax4",
        // Too large for a layout (an int overflow read as a malformed size before).
        "99999999999x3", "100001x2", "4x4294967297",
        // One row or column has no second direction: the guess came out scrambled, exit 0.
        "1x20", "20x1"}) {
    const Result r = run_clothfit("inspect " + csv + " --suggest-layout " + bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.output.find("--suggest-layout: expected ROWSxCOLUMNS such as 4x5, each from 2 to "
                            "100000"),
              std::string::npos)
        << bad << "\n"
        << r.output;
  }
}

// `clothfit fit` on the first 5 frames of the bundled scenario `path` (copied into `dir` with
// "frames", absolute paths and the given truth file), a 2-point grid, no refinement; its
// results are in dir/<name>/.
Result short_fit(const std::filesystem::path& path, const std::filesystem::path& dir,
                 const std::filesystem::path& truth) {
  const std::string name = path.stem().string();
  nlohmann::json scenario = read_json(path);
  scenario["recording"] = (recordings_dir() / (name + ".csv")).string();
  scenario["truth"] = truth.string();
  scenario["frames"] = {{"first", 0}, {"count", 5}};
  const auto short_scenario = dir / (name + ".json");
  std::ofstream(short_scenario) << scenario.dump();
  return run_clothfit("fit " + short_scenario.string() + " --out " + (dir / name).string() +
                      " --grid 2 --refine-iterations 0 --threads 1 --quiet");
}

// Every scenario parses and builds a fit setup.
TEST(Datasets, EveryScenarioBuildsAFitSetup) {
  const auto dir = std::filesystem::temp_directory_path() / "clothfit_datasets_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const auto& path : scenario_files()) {
    const std::string name = path.stem().string();
    SCOPED_TRACE(name);
    const Result r = short_fit(path, dir, recordings_dir() / (name + ".truth.json"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json fit = read_json(dir / name / "fit.json");
    EXPECT_EQ(fit.at("frames").get<int>(), 5);
    EXPECT_TRUE(fit.at("parameters").contains("alpha"));
    // With a truth file the fit also scores the truth (a miss of the search or of the model).
    ASSERT_TRUE(fit.contains("objective_at_truth"));
    EXPECT_GE(fit.at("objective_at_truth").get<double>(), 0.0);
    // The printed table says what fit.json says.
    double e_cm = -1, s_cm = -1, objective = -1, at_truth = -1, excess_percent = 0;
    const std::size_t means = r.output.find("mean error e");
    ASSERT_NE(means, std::string::npos) << r.output;
    ASSERT_EQ(std::sscanf(r.output.c_str() + means,
                          "mean error e %lf cm mean spread s %lf cm objective sum(e_n) %lf m",
                          &e_cm, &s_cm, &objective),
              3)
        << r.output;
    EXPECT_NEAR(e_cm, 100 * fit.at("mean_error_m").get<double>(), 6e-4);
    EXPECT_NEAR(s_cm, 100 * fit.at("mean_spread_m").get<double>(), 6e-4);
    EXPECT_NEAR(objective / fit.at("objective").get<double>(), 1.0, 1e-3);
    const std::size_t truth_line = r.output.find("objective at the truth");
    ASSERT_NE(truth_line, std::string::npos) << r.output;
    ASSERT_EQ(std::sscanf(r.output.c_str() + truth_line, "objective at the truth %lf m (%lf %%",
                          &at_truth, &excess_percent),
              2)
        << r.output;
    EXPECT_NEAR(at_truth / fit.at("objective_at_truth").get<double>(), 1.0, 1e-3);
    EXPECT_NEAR(
        excess_percent,
        100 * (fit.at("objective_at_truth").get<double>() / fit.at("objective").get<double>() - 1),
        0.051);
    // The optimum's run is repeated in perturbed replicas (fit.noise_replicas, default 6); the
    // intervals are cut at 5 % or at twice their relative spread.
    ASSERT_TRUE(fit.contains("objective_noise"));
    EXPECT_EQ(fit["objective_noise"]["replicas"].get<int>(), 6);
    EXPECT_EQ(fit["objective_noise"]["objectives"].size(), 6u);
    EXPECT_GE(fit["interval_tolerance"].get<double>(), 0.05);
    EXPECT_GE(fit["interval_tolerance"].get<double>(),
              2.0 * fit["objective_noise"]["relative"].get<double>());
    EXPECT_TRUE(fit.contains("truth_within_noise"));
    EXPECT_NE(r.output.find("objective noise"), std::string::npos) << r.output;
    // Failed simulations are reported only when there were some.
    EXPECT_EQ(r.output.find("simulations failed") == std::string::npos,
              fit.at("failed_evaluations").get<int>() == 0)
        << r.output;
    const bool cut_at_noise = fit["interval_tolerance"].get<double>() ==
                              2.0 * fit["objective_noise"]["relative"].get<double>();
    EXPECT_EQ(r.output.find("the intervals are cut at twice the noise") != std::string::npos,
              cut_at_noise)
        << r.output;
    // Every interval holds its fitted value.
    for (const auto& [parameter, p] : fit.at("parameters").items()) {
      if (!p.contains("interval"))
        continue;
      EXPECT_LE(p["interval"][0].get<double>(), p["value"].get<double>()) << parameter;
      EXPECT_GE(p["interval"][1].get<double>(), p["value"].get<double>()) << parameter;
    }
  }
}

// A truth file that names none of the fitted parameters is refused before anything is simulated
// (it used to be accepted and left unscored; since 2026-11-29 the truth file is checked when the
// take is read: every fitted parameter, and only the scenario's, see fitting/recording_truth.hpp).
TEST(Datasets, ATruthNamingNoFittedParameterIsRefused) {
  const auto dir = std::filesystem::temp_directory_path() / "clothfit_datasets_unnamed_truth";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::vector<std::filesystem::path> scenarios = scenario_files();
  ASSERT_FALSE(scenarios.empty());
  const auto truth = dir / "unrelated.truth.json";
  std::ofstream(truth) << R"({"parameters": {"not_a_parameter": 0.5}})";
  const Result r = short_fit(scenarios.front(), dir, truth);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(truth.string() + ": parameters.not_a_parameter: unknown parameter"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / scenarios.front().stem() / "evaluations.csv"));
}

}  // namespace
}  // namespace clothfit::apps
