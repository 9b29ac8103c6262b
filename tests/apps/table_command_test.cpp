// `clothfit table` as a user runs it: layouts chosen from the fits, formats, and errors that name
// the fit.json file and the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_clothfit.hpp"

namespace clothfit::apps {
namespace {

using Result = testing::CommandResult;

Result run(const std::string& arguments) {
  return testing::run_clothfit(arguments);
}

std::filesystem::path scratch() {
  const auto dir = std::filesystem::temp_directory_path() / "clothfit_table_command_test";
  std::filesystem::create_directories(dir);
  return dir;
}

std::string write(const std::string& name, const nlohmann::json& json) {
  const auto path = scratch() / name;
  std::ofstream(path) << json.dump(2);
  return path.string();
}

nlohmann::json fit(const std::string& material, const std::string& experiment,
                   const std::string& condition) {
  nlohmann::json j = {{"name", material + "-" + experiment + "-" + condition},
                      {"material", material},
                      {"experiment", experiment},
                      {"condition", condition},
                      {"recording", "r.csv"},
                      {"recording_seconds", 4.0},
                      {"objective", 3.0},
                      {"mean_error_m", 0.0084},
                      {"mean_spread_m", 0.0101},
                      {"q", 0.45},
                      {"evaluations", 120},
                      {"wall_seconds", 20.0},
                      {"termination", "converged"}};
  j["parameters"]["alpha"] = {{"value", 0.21}, {"fitted", true},          {"lower", 0},
                              {"upper", 2},    {"interval", {0.15, 0.3}}, {"pinned", true},
                              {"truth", 0.2}};
  j["parameters"]["mu.table"] = {{"value", 0.35}, {"fitted", true},         {"lower", 0},
                                 {"upper", 1},    {"interval", {0.2, 1.0}}, {"pinned", false}};
  return j;
}

TEST(TableCommand, AutoLayoutPicksTheTableclothTable) {
  const std::string low = write("wool-low.json", fit("wool", "tablecloth", "low"));
  const std::string high = write("wool-high.json", fit("wool", "tablecloth", "high"));
  const Result r = run("table " + low + " " + high);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("| material | μ_low | ē_low (cm)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("| wool | 0.35 [0.2, 1]\\* | 0.84 | 1.01 |"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("not pinned down"), std::string::npos);
}

TEST(TableCommand, HittingLayoutAsJsonAndListAsCsv) {
  nlohmann::json h = fit("denim", "hitting", "");
  h["q_interior_point"] = 1.4;
  const std::string hit = write("denim-hitting.json", h);
  const Result json = run("table " + hit + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const nlohmann::json table = nlohmann::json::parse(json.output);
  EXPECT_EQ(table["rows"][0]["material"], "denim");
  EXPECT_EQ(table["rows"][0]["q interior point"], "1.40");
  EXPECT_EQ(table["rows"][0]["α"], "0.21 [0.15, 0.3]");
  EXPECT_EQ(table["rows"][0]["α truth"], "0.2");

  const std::string cloth = write("denim-low.json", fit("denim", "tablecloth", "low"));
  const Result csv = run("table " + hit + " " + cloth + " --format csv");  // mixed: list
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  EXPECT_EQ(csv.output.rfind("name,material,α,α truth,μ (table),", 0), 0u) << csv.output;
  EXPECT_EQ(std::count(csv.output.begin(), csv.output.end(), '\n'), 3);

  const auto out = scratch() / "table.md";
  ASSERT_EQ(run("table " + hit + " --layout list --out " + out.string()).exit_code, 0);
  EXPECT_TRUE(std::filesystem::exists(out));
}

TEST(TableCommand, ErrorsNameFileAndField) {
  nlohmann::json broken = fit("wool", "tablecloth", "low");
  broken["parameters"]["alpha"]["fitted"] = "yes";
  const std::string path = write("broken.json", broken);
  const Result r = run("table " + path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("broken.json"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("parameters.alpha.fitted"), std::string::npos) << r.output;

  const std::string cloth = write("w-low.json", fit("wool", "tablecloth", "low"));
  const Result layout = run("table " + cloth + " --layout hitting");
  EXPECT_EQ(layout.exit_code, 2);
  EXPECT_NE(layout.output.find("experiment"), std::string::npos) << layout.output;

  EXPECT_EQ(run("table " + cloth + " --format xml").exit_code, 2);
  EXPECT_EQ(run("table " + cloth + " --layout wide").exit_code, 2);
  EXPECT_EQ(run("table").exit_code, 2);
  EXPECT_EQ(run("table --help").exit_code, 0);
}

}  // namespace
}  // namespace clothfit::apps
