// Recording scenarios a user gets wrong, made at random: each bundled recording scenario with one
// to three of its values replaced (numbers out of range, other types, empty containers), removed,
// or joined by an unknown field (tests/support/json_mutation.hpp). Reading the file, reading its
// take, building the fit's setup and simulating its first frames must each either work or throw
// the input error that names the file — never another exception, a crash or a hang. The same was
// done by hand through `clothfit sweep` for 150 files on 2026-11-27 (no crash); this keeps it so,
// in-process, so that the sanitized build (scripts/sanitize.sh) watches every step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <typeinfo>

#include "core/io/input_error.hpp"
#include "fitting/recording_objective.hpp"
#include "fitting/recording_scenario.hpp"
#include "fitting/recording_setup.hpp"
#include "mocap/mocap_input_error.hpp"
#include "support/json_mutation.hpp"
#include "support/test_paths.hpp"

namespace clothfit::fitting {
namespace {

// Where a mutated file ended: refused by one of the stages, run, or valid but too costly to run
// in a test (a mesh refined more than 3 times, a time step below 1 ms, an iteration cap above 200:
// values the scenario allows, and a user waits for).
enum class Outcome { kRefused, kRan, kTooCostly };

// Reads, loads, builds and simulates the first 4 frames of the scenario in `file`. Fails the test
// on an exception other than the input errors, which must name the file.
Outcome read_and_run(const std::filesystem::path& file) {
  const std::string path = file.string();
  try {
    RecordingScenario scenario = load_recording_scenario(path);
    if (scenario.refinement > 3 ||
        (scenario.solver.time_step > 0.0 && scenario.solver.time_step < 1e-3) ||
        scenario.solver.max_iterations > 200)
      return Outcome::kTooCostly;
    if (scenario.frame_count == 0 || scenario.frame_count > 4)
      scenario.frame_count = 4;
    const mocap::Take take = load_take(scenario);
    const RecordingSetup setup = build_recording_setup(scenario, take);
    const RecordingObjective objective(setup, scenario.parameters);
    const std::vector<double> values = scenario.parameters.start_values();
    const Evaluation evaluation = objective.evaluate(values);
    if (!evaluation.ok) {
      EXPECT_FALSE(evaluation.message.empty()) << path << ": a failed run must say why";
    }
    return Outcome::kRan;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(file.filename().string()), std::string::npos)
        << "the error does not name the file: " << e.what();
  } catch (const mocap::MocapInputError& e) {
    EXPECT_NE(std::string(e.what()), "") << path;
  } catch (const std::exception& e) {
    ADD_FAILURE() << path << ": " << typeid(e).name() << ": " << e.what();
  }
  return Outcome::kRefused;
}

TEST(MutatedRecordingScenarios, AreReadOrRefusedWithTheFileNamedNeverACrash) {
  const auto recordings = testing::source_dir() / "datasets/recordings";
  const auto dir = testing::scratch_folder("mutated_recording_scenarios");
  std::mt19937 random(20261127);
  int files = 0, refused = 0, ran = 0, costly = 0;
  std::vector<std::filesystem::path> originals;
  for (const auto& entry : std::filesystem::directory_iterator(recordings)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name.find(".truth.") == std::string::npos)
      originals.push_back(entry.path());
  }
  std::sort(originals.begin(), originals.end());  // the directory's order is not fixed
  ASSERT_EQ(originals.size(), 13u);
  for (const auto& original_path : originals) {
    std::ifstream in(original_path);
    nlohmann::json original = nlohmann::json::parse(in);
    original.erase("synth");  // read by `clothfit synth` only
    // The take and the truth stay where the scenario says, resolved against the copy's folder.
    for (const char* key : {"recording", "truth"}) {
      if (original.contains(key))
        original[key] = (recordings / original[key].get<std::string>()).string();
    }
    for (int k = 0; k < 25; ++k) {
      nlohmann::json scenario = original;
      const int changes = std::uniform_int_distribution<int>(1, 3)(random);
      for (int c = 0; c < changes; ++c)
        testing::mutate_json(scenario, random);
      const auto file = dir / (original_path.stem().string() + "_" + std::to_string(k) + ".json");
      std::ofstream(file) << scenario.dump(1);
      switch (read_and_run(file)) {
        case Outcome::kRefused:
          ++refused;
          break;
        case Outcome::kRan:
          ++ran;
          break;
        case Outcome::kTooCostly:
          ++costly;
          break;
      }
      ++files;
    }
  }
  EXPECT_GT(ran, 0);      // some changes leave a valid file (a description removed, say)
  EXPECT_GT(refused, 0);  // and most do not
  std::printf("%d files: %d ran, %d refused, %d valid but too costly to run here\n", files, ran,
              refused, costly);
}

}  // namespace
}  // namespace clothfit::fitting
