// The `clothfit` program as a user runs it: exit codes, messages that name the problem, outputs.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "support/test_paths.hpp"

namespace clothfit::apps {
namespace {

struct Result {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

Result run(const std::string& arguments) {
  const std::string command =
      (testing::binary_dir() / "apps/clothfit").string() + " " + arguments + " 2>&1";
  Result result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr)
    return result;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe) != nullptr)
    result.output += buffer.data();
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("clothfit_cli_test_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(ClothfitCli, HelpListsTheCommands) {
  const Result r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("simulate"), std::string::npos);
  EXPECT_NE(r.output.find("inspect"), std::string::npos);
  EXPECT_EQ(run("no-such-command").exit_code, 2);
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
  for (const char* key : {"wall_seconds", "mean_iterations", "max_constraint_violation"}) {
    EXPECT_TRUE(summary.contains(key)) << key;
  }
  // 21 frames (the initial state and 20 steps) × 63 nodes + the header.
  std::ifstream trajectory(out / "trajectory.csv");
  int lines = 0;
  for (std::string line; std::getline(trajectory, line);)
    ++lines;
  EXPECT_EQ(lines, 1 + 21 * 63);
}

TEST(ClothfitCli, ABadScenarioNamesTheFieldAndExitsWithTwo) {
  const auto dir = scratch("bad");
  std::ofstream(dir / "bad.json")
      << R"({"cloth": {"mesh": {"type": "grid", "width": -1, "height": 1, "nodes_x": 3, "nodes_y": 3},)"
      << R"( "density": 0.1}, "time": {"duration": 1}})";
  const Result r =
      run("simulate " + (dir / "bad.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("cloth.mesh.width"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("> 0"), std::string::npos) << r.output;
  std::ofstream(dir / "syntax.json") << "{\n  \"cloth\": ,\n}";
  const Result s =
      run("simulate " + (dir / "syntax.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_NE(s.output.find("syntax.json:2:"), std::string::npos) << s.output;
  EXPECT_EQ(run("simulate " + (dir / "missing.json").string() + " --out x").exit_code, 2);
  EXPECT_EQ(run("simulate --qp simplex " + (dir / "bad.json").string() + " --out x").exit_code, 2);
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

}  // namespace
}  // namespace clothfit::apps
