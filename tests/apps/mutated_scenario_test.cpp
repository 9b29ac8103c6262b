// Scenario files a user gets wrong, made at random: each bundled example with one to three of its
// values replaced (by numbers out of range, other types, empty arrays), removed, or joined by an
// unknown field. `clothfit simulate` must end every run with exit code 0 (the file is still
// valid), 1 (the run failed, and said why) or 2 (bad input, named): never a crash, a hang or an
// unexplained error. A run of 300 such files by hand found none; this keeps it so.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "support/json_mutation.hpp"
#include "support/run_clothfit.hpp"
#include "support/test_paths.hpp"

namespace clothfit::apps {
namespace {

TEST(MutatedScenarios, EndWithAnExitCodeAndAMessageNeverACrash) {
  const auto examples = testing::source_dir() / "datasets/examples";
  const auto dir = testing::scratch_folder("mutated_scenarios");
  std::filesystem::copy_file(examples / "tube.obj", dir / "tube.obj");  // tube_drop's mesh
  std::mt19937 random(20261127);
  int runs = 0, valid = 0;
  for (const auto& entry : std::filesystem::directory_iterator(examples)) {
    if (entry.path().extension() != ".json")
      continue;
    std::ifstream in(entry.path());
    const nlohmann::json original = nlohmann::json::parse(in);
    for (int k = 0; k < 25; ++k) {
      nlohmann::json scenario = original;
      const int changes = std::uniform_int_distribution<int>(1, 3)(random);
      for (int c = 0; c < changes; ++c)
        testing::mutate_json(scenario, random);
      const auto file = dir / (entry.path().stem().string() + "_" + std::to_string(k) + ".json");
      std::ofstream(file) << scenario.dump(1);
      // A time step of 1e-9 s would be valid and run for hours: none is among the values, and
      // `timeout` turns a run that hangs into a failure (exit code 124) instead of a stuck test.
      const testing::CommandResult r = testing::run_clothfit(
          "simulate " + file.string() + " --quiet --duration 0.02 --out " + (dir / "out").string(),
          "timeout 120 ");
      ++runs;
      const std::string context = file.filename().string() + ": " + r.output;
      ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2) << context;
      EXPECT_EQ(r.output.find("unexpected"), std::string::npos) << context;
      EXPECT_EQ(r.output.find("out of memory"), std::string::npos) << context;
      if (r.exit_code != 0) {
        EXPECT_NE(r.output.find("clothfit simulate: "), std::string::npos) << context;
      }
      // Bad input names the file it is in (a width of 1e-300 gave "quad 1: degenerate (edge of
      // zero length)" alone), or the command-line option (--duration against a time step the
      // mutation made longer).
      if (r.exit_code == 2) {
        EXPECT_TRUE(r.output.find(file.filename().string() + ":") != std::string::npos ||
                    r.output.find("clothfit simulate: --") != std::string::npos)
            << context;
      }
      valid += r.exit_code == 0 ? 1 : 0;
    }
  }
  EXPECT_EQ(runs, 8 * 25);
  EXPECT_GT(valid, 0);  // some changes leave a valid file (a description removed, say)
  std::printf("%d runs: %d valid, %d refused or failed\n", runs, valid, runs - valid);
}

}  // namespace
}  // namespace clothfit::apps
