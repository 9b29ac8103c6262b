// Marker layout JSON: parsing, the errors it gives, printing and resolving against a take.
#include "mocap/marker_layout.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "mocap/mocap_input_error.hpp"
#include "tests/mocap/motive_csv_test_support.hpp"

namespace clothfit::mocap {
namespace {

using testing::make_take;

MocapInputError layout_error(const std::string& text) {
  try {
    parse_marker_layout_text(text, "layout.json");
  } catch (const MocapInputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an error for " << text;
  return MocapInputError({}, "");
}

void expect_layout_error(const std::string& text, const std::string& field,
                         const std::string& expected) {
  const MocapInputError e = layout_error(text);
  EXPECT_EQ(e.location().file, "layout.json");
  EXPECT_EQ(e.location().field, field) << e.what();
  EXPECT_NE(e.problem().find(expected), std::string::npos) << e.what();
}

TEST(MarkerLayout, ParsesRowsOfNames) {
  const MarkerLayout layout = parse_marker_layout_text(
      R"({"rows": 2, "columns": 3, "markers": [["A1", "A2", "A3"], ["B1", "B2", "B3"]]})",
      "layout.json");
  EXPECT_EQ(layout.rows, 2);
  EXPECT_EQ(layout.columns, 3);
  EXPECT_EQ(layout.name(0, 2), "A3");
  EXPECT_EQ(layout.name(1, 0), "B1");
  EXPECT_EQ(layout.names.size(), 6u);
}

TEST(MarkerLayout, JsonAndPrintedFormReadBack) {
  MarkerLayout layout;
  layout.rows = 2;
  layout.columns = 2;
  layout.names = {"top \"left\"", "top right", "Unlabeled 1", "b:r"};
  const MarkerLayout from_json = parse_marker_layout(marker_layout_to_json(layout), "x");
  EXPECT_EQ(from_json.names, layout.names);
  const std::string printed = format_marker_layout_json(layout);
  EXPECT_NE(printed.find("\n    [\"top \\\"left\\\"\", \"top right\"],\n"), std::string::npos)
      << printed;
  EXPECT_EQ(parse_marker_layout_text(printed, "x").names, layout.names);
}

TEST(MarkerLayout, ErrorsNameTheField) {
  expect_layout_error("[1, 2]", "", "expected a marker layout object");
  expect_layout_error(R"({"rows": 1, "columns": 1, "markers": [["A"]], "colums": 2})", "colums",
                      "unknown key");
  expect_layout_error(R"({"columns": 1, "markers": [["A"]]})", "rows", "missing");
  expect_layout_error(R"({"rows": 1.5, "columns": 1, "markers": [["A"]]})", "rows",
                      "expected a whole number between 1 and 100000, got 1.5");
  expect_layout_error(R"({"rows": 0, "columns": 1, "markers": []})", "rows",
                      "expected a whole number");
  expect_layout_error(R"({"rows": 2, "columns": 1, "markers": [["A"]]})", "markers",
                      "expected an array of 2 rows (one per grid row), got 1 rows");
  expect_layout_error(R"({"rows": 1, "columns": 2, "markers": [["A"]]})", "markers[0]",
                      "expected an array of 2 marker names (one per grid column), got 1 names");
  expect_layout_error(R"({"rows": 1, "columns": 2, "markers": [["A", 7]]})", "markers[0][1]",
                      "expected a marker name (a non-empty string), got 7");
  expect_layout_error(R"({"rows": 2, "columns": 1, "markers": [["A"], ["A"]]})", "markers[1][0]",
                      "marker 'A' is already used by another cell");
}

TEST(MarkerLayout, FieldPathsNestInsideAScenario) {
  const nlohmann::json scenario =
      nlohmann::json::parse(R"({"layout": {"rows": 1, "columns": 1, "markers": [[""]]}})");
  try {
    parse_marker_layout(scenario.at("layout"), "scenario.json", "layout");
    ADD_FAILURE() << "expected an error";
  } catch (const MocapInputError& e) {
    EXPECT_EQ(e.location().field, "layout.markers[0][0]");
    EXPECT_EQ(std::string(e.what()).rfind("scenario.json: layout.markers[0][0]: expected", 0), 0u);
  }
}

TEST(MarkerLayout, SyntaxErrorsGiveLineAndColumn) {
  const MocapInputError e = layout_error("{\n  \"rows\": 2,\n  \"columns\": ,\n}");
  EXPECT_EQ(e.location().line, 3);
  EXPECT_EQ(e.location().column, 14);
  EXPECT_NE(e.problem().find("invalid JSON"), std::string::npos) << e.what();
  // The parser's own words, without its exception name and position (the location has those).
  EXPECT_EQ(e.problem().find("json.exception"), std::string::npos) << e.what();
  EXPECT_EQ(e.problem().find("at line"), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("syntax error"), std::string::npos) << e.what();
}

// A number beyond a double's range is a parse error of its own in nlohmann::json (out_of_range,
// with no position); it escaped the reader as an unexpected error.
TEST(MarkerLayout, NumbersBeyondADoubleGiveLineAndColumn) {
  const MocapInputError e = layout_error("{\n  \"rows\": 1e400,\n  \"columns\": 2\n}");
  EXPECT_EQ(e.location().line, 2);
  EXPECT_EQ(e.location().column, 11);
  EXPECT_NE(e.problem().find("the number 1e400 is beyond the range of a double"), std::string::npos)
      << e.what();
}

TEST(MarkerLayout, ReadsAFile) {
  const auto path = std::filesystem::temp_directory_path() / "clothfit_layout_test.json";
  {
    std::ofstream out(path);
    out << R"({"rows": 1, "columns": 2, "markers": [["L", "R"]]})";
  }
  const MarkerLayout layout = read_marker_layout(path);
  std::filesystem::remove(path);
  EXPECT_EQ(layout.name(0, 1), "R");
  EXPECT_THROW(read_marker_layout(path), MocapInputError);
}

TEST(MarkerLayout, ResolvesAgainstATake) {
  const Take take = make_take(1, {"A", "B", "C"}, [](std::size_t, std::size_t) {
    return std::optional<Eigen::Vector3d>(Eigen::Vector3d::Zero());
  });
  MarkerLayout layout;
  layout.rows = 1;
  layout.columns = 2;
  layout.names = {"C", "A"};
  EXPECT_EQ(resolve_marker_layout(layout, take), (std::vector<std::size_t>{2, 0}));
  layout.names = {"C", "D"};
  try {
    resolve_marker_layout(layout, take);
    ADD_FAILURE() << "expected an error";
  } catch (const MocapInputError& e) {
    EXPECT_NE(e.problem().find("1 marker(s) of the layout are not in the take: 'D'"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace clothfit::mocap
