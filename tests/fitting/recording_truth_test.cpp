// The truth file of a recording scenario: the format `clothfit synth` writes is read, and every
// other content is refused when the take is read, before anything is simulated, naming the truth
// file and its field. A truth of {"parameters": {"alpha": "x"}}, or the scenario itself, used to
// be read only after the whole fit, which then ended on nlohmann's raw type_error.302; {} and []
// were taken for no truth at all.
#include "fitting/recording_truth.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/io/input_error.hpp"
#include "mocap/mocap_input_error.hpp"
#include "support/test_paths.hpp"

namespace clothfit::fitting {
namespace {

// α fitted, δ fixed, μ of the obstacle "floor" fitted.
RecordingScenario scenario_with_truth(const std::string& truth) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "recording": "take.csv",
    "cloth": {"width": 0.42, "height": 0.594, "material": "wool"},
    "layout": {"rows": 2, "columns": 3, "markers": [["A1", "A2", "A3"], ["B1", "B2", "B3"]]},
    "obstacles": [{"type": "plane", "name": "floor", "friction": 0.3}],
    "parameters": {"alpha": {"min": 0, "max": 1}, "delta": 0.1, "mu.floor": {"min": 0, "max": 2}}
  })");
  j["truth"] = truth;
  return parse_recording_scenario(j, "dir/s.json");
}

// The InputError of parse_recording_truth for `json` (a failure when there is none).
InputError truth_error(const std::string& json) {
  try {
    parse_recording_truth(nlohmann::json::parse(json), "dir/t.truth.json",
                          scenario_with_truth("t.truth.json"));
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << json;
  return InputError({}, "");
}

TEST(RecordingTruth, ReadsTheParametersOfTheTruthFilesSynthWrites) {
  const std::map<std::string, double> truth = parse_recording_truth(
      nlohmann::json::parse(
          R"({"parameters": {"alpha": 0.2, "delta": 0.08, "mu.floor": 0.6}, "seed": 1,
              "scenario": "s.json", "corruption": {"samples": 10}})"),
      "dir/t.truth.json", scenario_with_truth("t.truth.json"));
  EXPECT_EQ(truth,
            (std::map<std::string, double>{{"alpha", 0.2}, {"delta", 0.08}, {"mu.floor", 0.6}}));
  // The fixed δ may be left out; the fitted ones may not (below).
  EXPECT_EQ(parse_recording_truth(
                nlohmann::json::parse(R"({"parameters": {"alpha": 0.2, "mu.floor": 0}})"),
                "dir/t.truth.json", scenario_with_truth("t.truth.json"))
                .size(),
            2u);
}

// Every bundled recording's truth file (written by `clothfit synth`) is read through its
// scenario, with the values scripts/make_datasets.sh made it with.
TEST(RecordingTruth, TheBundledTruthFilesAreRead) {
  const auto dir = testing::source_dir() / "datasets/recordings";
  int read = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json" || name.find(".truth.") != std::string::npos)
      continue;
    const RecordingScenario scenario = load_recording_scenario(entry.path().string());
    ASSERT_FALSE(scenario.truth_path.empty()) << name;
    const std::map<std::string, double> truth = read_recording_truth(scenario);
    EXPECT_EQ(truth.size(), scenario.parameters.specs().size()) << name;
    if (name == "polyester_table_drag.json") {
      EXPECT_EQ(truth.at("alpha"), 0.2);
      EXPECT_EQ(truth.at("delta"), 0.08);
      EXPECT_EQ(truth.at("mu.table"), 0.4);
    }
    ++read;
  }
  EXPECT_EQ(read, 13);
}

TEST(RecordingTruth, MistakesNameTheTruthFileAndTheField) {
  const struct {
    const char* json;
    const char* field;
    const char* problem;
  } cases[] = {
      {R"({"parameters": {"alpha": "x", "mu.floor": 1}})", "parameters.alpha",
       "expected a finite number >= 0, found a string"},
      {R"({"parameters": {"alpha": -0.1, "mu.floor": 1}})", "parameters.alpha",
       "expected a finite number >= 0, found -0.1"},
      {R"({})", "parameters", "missing: expected the true parameter values"},
      {R"([])", "(top level)", "expected a JSON object, found an array"},
      {R"({"parameters": [0.2, 0.1]})", "parameters", "expected a JSON object, found an array"},
      // The scenario itself given as its truth: its bounds are no values.
      {R"({"parameters": {"alpha": {"min": 0, "max": 1}, "mu.floor": 1}})", "parameters.alpha",
       "expected a finite number >= 0, found an object"},
      {R"({"parameters": {"alpha": 0.2, "mu.floor": 1, "mu.table": 1}})", "parameters.mu.table",
       "unknown parameter; expected one of the scenario's parameters, \"alpha\", \"delta\", "
       "\"mu.floor\""},
      {R"({"parameters": {"alpha": 0.2, "delta": 0.1}})", "parameters.mu.floor",
       "missing: expected the true value of a parameter the scenario fits"},
  };
  for (const auto& c : cases) {
    const InputError e = truth_error(c.json);
    EXPECT_EQ(e.location().file, "dir/t.truth.json") << c.json;
    EXPECT_EQ(e.location().field, c.field) << c.json;
    EXPECT_NE(e.problem().find(c.problem), std::string::npos) << c.json << ": " << e.what();
    EXPECT_NE(e.problem().find("(the \"truth\" file of dir/s.json)"), std::string::npos)
        << e.what();
  }
}

// load_take checks the truth file before it reads the take, so that `clothfit fit` refuses a bad
// one (exit code 2) before the initial state or any run of the fit is simulated. The take here
// does not exist: the truth is what is reported.
TEST(RecordingTruth, IsCheckedWhenTheTakeIsReadBeforeAnySimulation) {
  const auto dir = testing::scratch_folder("recording_truth");
  const auto scenario_path = dir / "s.json";
  {
    std::ofstream(dir / "t.truth.json") << R"({"parameters": {"alpha": "x"}})";
    nlohmann::json j = nlohmann::json::parse(R"({
      "recording": "missing.csv", "truth": "t.truth.json",
      "cloth": {"width": 0.42, "height": 0.594, "material": "wool"},
      "layout": {"rows": 2, "columns": 3, "markers": [["A1", "A2", "A3"], ["B1", "B2", "B3"]]},
      "parameters": {"alpha": {"min": 0, "max": 1}, "delta": 0.1}
    })");
    std::ofstream(scenario_path) << j.dump();
  }
  const RecordingScenario scenario = load_recording_scenario(scenario_path.string());
  try {
    load_take(scenario);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, (dir / "t.truth.json").string());
    EXPECT_EQ(e.location().field, "parameters.alpha");
  } catch (const mocap::MocapInputError& e) {
    ADD_FAILURE() << "the take was read before the truth: " << e.what();
  }
  // A truth file that is not there is named, with the scenario that names it.
  std::filesystem::remove(dir / "t.truth.json");
  try {
    load_take(scenario);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, (dir / "t.truth.json").string());
    EXPECT_NE(e.problem().find("cannot open file"), std::string::npos) << e.what();
    EXPECT_NE(e.problem().find(scenario_path.string()), std::string::npos) << e.what();
  } catch (const mocap::MocapInputError& e) {
    ADD_FAILURE() << "the take was read before the truth: " << e.what();
  }
}

}  // namespace
}  // namespace clothfit::fitting
