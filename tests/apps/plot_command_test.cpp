// `clothfit plot` as a user runs it: recognises frames and sweep CSVs, writes SVG, and names the
// file, line and what was expected when a CSV is wrong.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "support/run_clothfit.hpp"

namespace clothfit::apps {
namespace {

using Result = testing::CommandResult;

Result run(const std::string& arguments) {
  return testing::run_clothfit(arguments);
}

std::filesystem::path scratch(const std::string& name) {
  return testing::scratch_folder("plot_test_" + name);
}

std::string write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
  return path.string();
}

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t i = text.find(what); i != std::string::npos; i = text.find(what, i + 1))
    ++n;
  return n;
}

constexpr const char* kFrames =
    "frame,time_s,error_m,spread_m,visible_markers,contact\n"
    "0,0.00,0.010,0.012,20,0\n"
    "1,0.01,0.020,0.012,20,1\n"
    "2,0.02,0.030,0.012,19,1\n"
    "3,0.03,0.020,0.012,20,0\n"
    "4,0.04,0.020,0.012,20,1\n";

constexpr const char* kSweep1 =
    "mu.table,objective,mean_error_m,mean_spread_m,status\n"
    "0.1,4.0,0.010,0.01,ok\n"
    "0.2,2.0,0.005,0.01,ok\n"
    "0.3,,,,failed\n"
    "0.4,3.0,0.0075,0.01,ok\n";

TEST(PlotCommand, FramesCsvGivesErrorsOverTimeWithContactShaded) {
  const auto dir = scratch("frames");
  const std::string csv = write(dir / "frames.csv", kFrames);
  const Result r = run("plot " + csv);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string svg = read(dir / "frames.svg");  // default: next to the CSV
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "<path "), 2);  // e_n and s_n
  // Two contact intervals (frames 1-2 and 4) and the legend swatch.
  EXPECT_EQ(count(svg, "fill=\"#fff3b0\""), 3);
  EXPECT_NE(svg.find("mean ē = 2.00 cm"), std::string::npos);
  EXPECT_NE(svg.find("time (s)"), std::string::npos);
  // --truth marks a parameter in a sweep; a frames CSV has none (it was ignored).
  const Result truth = run("plot " + csv + " --truth alpha=0.2");
  EXPECT_EQ(truth.exit_code, 2) << truth.output;
  EXPECT_NE(truth.output.find("a frames CSV has no parameter axis"), std::string::npos)
      << truth.output;
}

// A frame's contact flag says that something touched the cloth in the steps since the frame
// before, so each run of frames in contact is shaded from the frame before its first to its
// last (the same bands as the fit's errors.svg): one frame alone is a third as wide as three in
// a row. The frames start at 0.5 s, as a fit's scored frames may: the frame interval is the
// span of the times over their count less one, wherever they start.
TEST(PlotCommand, ContactShadingCoversTheStepsBeforeEachFrameInContact) {
  const auto dir = scratch("frames_bands");
  const std::string csv = write(dir / "frames.csv",
                                "frame,time_s,error_m,spread_m,visible_markers,contact\n"
                                "50,0.50,0.01,0.01,20,0\n51,0.51,0.01,0.01,20,1\n"
                                "52,0.52,0.01,0.01,20,0\n53,0.53,0.01,0.01,20,1\n"
                                "54,0.54,0.01,0.01,20,1\n55,0.55,0.01,0.01,20,1\n"
                                "56,0.56,0.01,0.01,20,0\n");
  ASSERT_EQ(run("plot " + csv).exit_code, 0);
  const std::string svg = read(dir / "frames.svg");
  // The bands (the legend's swatch has a stroke and does not match).
  const std::regex band(R"re(<rect x="([-0-9.]+)" y="[-0-9.]+" width="([-0-9.]+)" )re"
                        R"re(height="[-0-9.]+" fill="#fff3b0"/>)re");
  std::vector<double> left, width;
  for (auto m = std::sregex_iterator(svg.begin(), svg.end(), band); m != std::sregex_iterator();
       ++m) {
    left.push_back(std::stod((*m)[1]));
    width.push_back(std::stod((*m)[2]));
  }
  ASSERT_EQ(width.size(), 2u) << svg;
  EXPECT_NEAR(width[1] / width[0], 3.0, 0.01);
  // Frame 51's band ends at frame 51 and frame 53's starts at frame 52: the gap between them is
  // one frame, as wide as the first band.
  EXPECT_NEAR((left[1] - (left[0] + width[0])) / width[0], 1.0, 0.01);
  // Frame 51's band starts at frame 50, where the e_n curve starts.
  const std::smatch curve = [&svg] {
    std::smatch m;
    std::regex_search(svg, m, std::regex(R"re(<path d="M([-0-9.]+))re"));
    return m;
  }();
  ASSERT_FALSE(curve.empty()) << svg;
  EXPECT_NEAR(left[0], std::stod(curve[1]), 0.05);
}

// The optimum marked is the row of the smallest objective (not the first that improves on the
// first row), and the smallest ē where no row has an objective.
TEST(PlotCommand, TheOptimumIsTheSmallestObjectiveElseTheSmallestError) {
  const auto dir = scratch("sweep_optimum");
  const std::string falling = write(dir / "falling.csv",
                                    "alpha,objective,mean_error_m,mean_spread_m,status\n"
                                    "0.1,4.0,0.010,0.01,ok\n0.2,3.0,0.009,0.01,ok\n"
                                    "0.3,1.0,0.003,0.01,ok\n0.4,2.0,0.002,0.01,ok\n");
  ASSERT_EQ(run("plot " + falling).exit_code, 0);
  EXPECT_NE(read(dir / "falling.svg").find(">optimum 0.3</text>"), std::string::npos);

  const std::string errors_only = write(dir / "errors.csv",
                                        "alpha,objective,mean_error_m,mean_spread_m,status\n"
                                        "0.1,,0.010,0.01,ok\n0.2,,0.009,0.01,ok\n"
                                        "0.3,,0.004,0.01,ok\n0.4,,0.006,0.01,ok\n");
  const Result r = run("plot " + errors_only);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(read(dir / "errors.svg").find(">optimum 0.3</text>"), std::string::npos);
}

TEST(PlotCommand, OneParameterSweepGivesALineWithOptimumAndTruth) {
  const auto dir = scratch("sweep1");
  const std::string csv = write(dir / "sweep.csv", kSweep1);
  const Result r =
      run("plot " + csv + " --out " + (dir / "mu.svg").string() + " --truth mu.table=0.25");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const Result twice = run("plot " + csv + " --out " + (dir / "mu.svg").string() +
                           " --truth mu.table=0.25 --truth mu.table=0.3");
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("--truth: 'mu.table' is given more than once"), std::string::npos)
      << twice.output;
  const std::string svg = read(dir / "mu.svg");
  EXPECT_NE(svg.find(">optimum 0.2</text>"), std::string::npos);
  EXPECT_NE(svg.find(">truth 0.25</text>"), std::string::npos);
  EXPECT_NE(svg.find("μ (friction with table)"), std::string::npos);
  // The failed point breaks the line: two sub-paths, three dots.
  const std::size_t d = svg.find("<path d=\"");
  ASSERT_NE(d, std::string::npos);
  const std::string path = svg.substr(d, svg.find("\"", d + 9) - d);
  EXPECT_EQ(count(path, "M"), 2);
  EXPECT_EQ(count(svg, "<circle "), 3);

  const Result wrong = run("plot " + csv + " --truth alpha=0.2");
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.output.find("does not vary"), std::string::npos) << wrong.output;
  EXPECT_EQ(run("plot " + csv + " --truth mu.table").exit_code, 2);
  const Result unnamed = run("plot " + csv + " --truth =0.25");
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_NE(unnamed.output.find("--truth expects NAME=VALUE"), std::string::npos) << unnamed.output;
  // Decimal only, as --mu and --vary: strtod read 0x1p-2 as 0.25 and skipped a leading blank.
  for (const char* bad : {"mu.table=0x1p-2", "mu.table= 0.25", "mu.table=1e400"}) {
    const Result r = run("plot " + csv + " --truth '" + std::string(bad) + "'");
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.output.find("--truth expects NAME=VALUE"), std::string::npos) << r.output;
  }
}

// A sweep whose every point failed still gives an SVG, but the command says why it is empty.
TEST(PlotCommand, ASweepWithoutAnyErrorIsPlottedWithAWarning) {
  const auto dir = scratch("all_failed");
  const std::string csv =
      write(dir / "sweep.csv",
            "alpha,objective,mean_error_m,mean_spread_m,status\n0.1,nan,nan,nan,failed\n"
            "0.2,,,,failed\n");
  const Result r = run("plot " + csv + " --out " + (dir / "a.svg").string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "a.svg"));
  EXPECT_NE(r.output.find("warning: " + csv + ": no point has an error"), std::string::npos)
      << r.output;
  const Result fine = run("plot " + write(dir / "ok.csv", kSweep1));
  EXPECT_EQ(fine.output.find("warning"), std::string::npos) << fine.output;
  // An interrupted sweep's points not yet run are pending, not failed.
  const std::string pending =
      write(dir / "pending.csv",
            "alpha,objective,mean_error_m,mean_spread_m,status\n0.1,,,,pending\n"
            "0.2,,,,pending\n0.3,,,,failed\n");
  const Result p = run("plot " + pending);
  EXPECT_EQ(p.exit_code, 0) << p.output;
  EXPECT_NE(p.output.find("no point has an error (2 of 3 pending: an interrupted sweep)"),
            std::string::npos)
      << p.output;
  // A point that ran has its ē.
  const Result ran =
      run("plot " + write(dir / "ran.csv",
                          "alpha,objective,mean_error_m,mean_spread_m,status\n0.1,,nan,nan,ok\n"));
  EXPECT_EQ(ran.exit_code, 2) << ran.output;
  EXPECT_NE(ran.output.find("ran.csv:2:3: mean_error_m: expected a number, found 'nan'"),
            std::string::npos)
      << ran.output;
}

// After the status a sweep CSV may have `objective_sd,replicas` (`clothfit sweep --replicas R`)
// and then, since 2026-12-02, the step counts `unconverged_steps,retried_steps`; every form plots
// like the plain one, and so do older files without the counts.
TEST(PlotCommand, SweepWithReplicaAndStepColumnsPlotsLikeOneWithout) {
  const auto dir = scratch("sweep_columns");
  const auto plot_line = [&dir](const std::string& name, const std::string& text, int circles) {
    SCOPED_TRACE(name);
    const std::string csv = write(dir / (name + ".csv"), text);
    const Result r = run("plot " + csv + " --out " + (dir / (name + ".svg")).string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string svg = read(dir / (name + ".svg"));
    EXPECT_NE(svg.find(">optimum 0.2</text>"), std::string::npos);
    EXPECT_EQ(count(svg, "<circle "), circles);
  };
  plot_line("replicas",
            "mu.table,objective,mean_error_m,mean_spread_m,status,objective_sd,replicas\n"
            "0.1,4.0,0.010,0.01,ok,0.2,4\n"
            "0.2,2.0,0.005,0.01,ok,0.1,4\n"
            "0.3,,,,failed,,3\n"
            "0.4,3.0,0.0075,0.01,ok,0.3,4\n",
            3);
  plot_line("steps",
            "mu.table,objective,mean_error_m,mean_spread_m,status,unconverged_steps,"
            "retried_steps\n"
            "0.1,4.0,0.010,0.01,ok,0,0\n"
            "0.2,2.0,0.005,0.01,iteration_cap,1,3\n"
            "0.3,,,,failed,,\n"
            "0.4,,,,pending,,\n",
            2);
  plot_line("both",
            "mu.table,objective,mean_error_m,mean_spread_m,status,objective_sd,replicas,"
            "unconverged_steps,retried_steps\n"
            "0.1,4.0,0.010,0.01,ok,0.2,4,0,0\n"
            "0.2,2.0,0.005,0.01,ok,0.1,4,0,2\n"
            "0.3,,,,failed,,3,,\n",
            2);
}

// A heat map prints each cell's value while there are at most 64 cells (an 8 × 8 grid), and
// none beyond, where they would not fit.
TEST(PlotCommand, HeatMapValuesUpToSixtyFourCells) {
  const auto dir = scratch("sweep2_values");
  const auto sweep = [&dir](int rows, int columns) {
    std::string text = "alpha,delta,objective,mean_error_m,mean_spread_m,status\n";
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < columns; ++c)
        text += std::to_string(0.1 * (r + 1)) + "," + std::to_string(c + 1) + ",1," +
                std::to_string(0.01 * (r + c + 1)) + ",0.01,ok\n";
    }
    const std::string name = std::to_string(rows) + "x" + std::to_string(columns);
    EXPECT_EQ(run("plot " + write(dir / (name + ".csv"), text)).exit_code, 0) << name;
    return count(read(dir / (name + ".svg")), "text-anchor=\"middle\" font-size=\"10\" fill=");
  };
  EXPECT_EQ(sweep(8, 8), 64);
  EXPECT_EQ(sweep(9, 8), 0);
  EXPECT_EQ(sweep(2, 40), 0);
}

TEST(PlotCommand, TwoParameterSweepGivesAHeatMapWithTheOptimumCircled) {
  const auto dir = scratch("sweep2");
  const std::string csv =
      write(dir / "sweep.csv",
            "alpha,delta,objective,mean_error_m,mean_spread_m,status\n"
            "0.1,1,5,0.05,0.01,ok\n0.1,2,4,0.04,0.01,ok\n0.1,3,3,0.03,0.01,ok\n"
            "0.2,1,2,0.02,0.01,ok\n0.2,2,1,0.01,0.01,ok\n0.2,3,nan,nan,nan,failed\n");
  const Result r = run("plot " + csv + " --truth alpha=0.2 --truth delta=2 --title 'a & b'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string svg = read(dir / "sweep.svg");
  EXPECT_EQ(count(svg, "stroke=\"#e00000\""), 1);
  // The circle is on the cell of the smallest objective (α 0.2, δ 2: ē 1 cm, labelled "1").
  std::smatch circle, cell;
  const std::regex circle_centre(R"re(<circle cx="([-0-9.]+)" cy="([-0-9.]+)")re");
  const std::regex cell_label(R"re(<text x="([-0-9.]+)" y="([-0-9.]+)" text-anchor="middle" )re"
                              R"re(font-size="10" fill="[a-z]+">1</text>)re");
  ASSERT_TRUE(std::regex_search(svg, circle, circle_centre)) << svg;
  ASSERT_TRUE(std::regex_search(svg, cell, cell_label)) << svg;
  EXPECT_NEAR(std::stod(circle[1]), std::stod(cell[1]), 0.011);
  EXPECT_NEAR(std::stod(circle[2]) + 4, std::stod(cell[2]), 0.011);
  EXPECT_NE(svg.find(">truth</text>"), std::string::npos);
  EXPECT_NE(svg.find(">failed</text>"), std::string::npos);
  EXPECT_NE(svg.find(">a &amp; b</text>"), std::string::npos);

  // Rows out of grid order are an error naming the line.
  const std::string shuffled = write(dir / "shuffled.csv",
                                     "alpha,delta,objective,mean_error_m,mean_spread_m,status\n"
                                     "0.1,1,5,0.05,0.01,ok\n0.1,2,4,0.04,0.01,ok\n"
                                     "0.2,2,1,0.01,0.01,ok\n0.2,1,2,0.02,0.01,ok\n");
  const Result bad = run("plot " + shuffled);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("shuffled.csv:4"), std::string::npos) << bad.output;
}

TEST(PlotCommand, SeveralSweepsMakeOneRowEach) {
  const auto dir = scratch("fig7");
  const std::string a = write(dir / "polyester" / "sweep.csv", kSweep1);
  const std::string b = write(dir / "wool" / "sweep.csv", kSweep1);
  const Result r = run("plot " + a + " " + b + " --out " + (dir / "fig7.svg").string() +
                       " --truth mu.table=0.2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string svg = read(dir / "fig7.svg");
  EXPECT_NE(svg.find(">polyester</text>"), std::string::npos);
  EXPECT_NE(svg.find(">wool</text>"), std::string::npos);
  EXPECT_EQ(count(svg, "stroke=\"#e00000\""), 2);  // each row's minimum

  // The figure grows by a row's height (36 px) with every file beyond the fourth, so that the
  // rows of a long comparison stay as tall.
  const auto height_for = [&](int files) {
    std::string arguments;
    for (int f = 0; f < files; ++f) {
      const std::filesystem::path folder = dir / "fabric" / std::to_string(f);
      arguments.append(" ").append(write(folder / "sweep.csv", kSweep1));
    }
    const auto out = dir / ("rows" + std::to_string(files) + ".svg");
    EXPECT_EQ(run("plot" + arguments + " --out " + out.string()).exit_code, 0);
    std::smatch m;
    const std::string text = read(out);
    return std::regex_search(text, m, std::regex(R"re(<svg [^>]*height="([0-9.]+)")re"))
               ? std::stod(m[1])
               : -1.0;
  };
  EXPECT_NEAR(height_for(8) - height_for(5), 3 * 36.0, 1e-9);

  const std::string other = write(dir / "denim" / "sweep.csv",
                                  "mu.table,objective,mean_error_m,mean_spread_m,status\n"
                                  "0.5,1,0.01,0.01,ok\n");
  const Result mismatch = run("plot " + a + " " + other);
  EXPECT_EQ(mismatch.exit_code, 2);
  EXPECT_NE(mismatch.output.find("same one-parameter grid"), std::string::npos);
}

TEST(PlotCommand, BadCsvNamesFileLineAndExpectation) {
  const auto dir = scratch("bad");
  const Result header = run("plot " + write(dir / "h.csv", "a,b\n1,2\n"));
  EXPECT_EQ(header.exit_code, 2);
  EXPECT_NE(header.output.find("h.csv:1"), std::string::npos) << header.output;
  EXPECT_NE(header.output.find("expected the header of a frames CSV"), std::string::npos);
  // Another kind of CSV is told by its header, not by a row of another length (a Motive export
  // was refused for its second line's field count).
  const Result other = run("plot " + write(dir / "o.csv", "a,b\n1,2,3,4,5\n"));
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.output.find("o.csv:1: expected the header of a frames CSV"), std::string::npos)
      << other.output;

  std::string frames = kFrames;
  frames += "5,0.05,oops,0.01,20,0\n";
  const Result number = run("plot " + write(dir / "n.csv", frames));
  EXPECT_EQ(number.exit_code, 2);
  // error_m may be empty (a frame without visible markers), and the message says so.
  EXPECT_NE(
      number.output.find("n.csv:7:3: error_m: expected a number or an empty field, found 'oops'"),
      std::string::npos)
      << number.output;

  // Time and contact may not be missing or infinite (error_m and spread_m may: a frame
  // without markers).
  for (const auto& [file, row, message] :
       {std::tuple{"t.csv", "5,,0.01,0.01,20,0", "t.csv:7:2: time_s: expected a number, found ''"},
        std::tuple{"i.csv", "5,inf,0.01,0.01,20,0",
                   "i.csv:7:2: time_s: expected a finite number, found 'inf'"},
        std::tuple{"cn.csv", "5,0.05,,nan,0,nan",
                   "cn.csv:7:6: contact: expected a number, found 'nan'"},
        // A number followed by other characters is not a number.
        std::tuple{"tx.csv", "5,0.05x,0.01,0.01,20,0",
                   "tx.csv:7:2: time_s: expected a number, found '0.05x'"},
        // A missing error is empty or nan; inf is not an error of any frame (it was dropped).
        std::tuple{
            "ei.csv", "5,0.05,inf,0.01,20,0",
            "ei.csv:7:3: error_m: expected a finite number or an empty field, found 'inf'"}}) {
    const Result r = run("plot " + write(dir / file, kFrames + std::string(row) + "\n"));
    EXPECT_EQ(r.exit_code, 2) << file;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  }
  frames = kFrames;
  frames += "5,0.05,,nan,0,0\n";
  EXPECT_EQ(run("plot " + write(dir / "e.csv", frames)).exit_code, 0);

  frames = kFrames;
  frames += "5,0.05\n";
  const Result fields = run("plot " + write(dir / "f.csv", frames));
  EXPECT_EQ(fields.exit_code, 2);
  EXPECT_NE(fields.output.find("f.csv:7: expected 6 comma-separated fields"), std::string::npos)
      << fields.output;

  const Result contact =
      run("plot " +
          write(dir / "c.csv",
                "frame,time_s,error_m,spread_m,visible_markers,contact\n0,0,0.01,0.01,20,2\n"));
  EXPECT_EQ(contact.exit_code, 2);
  EXPECT_NE(contact.output.find("contact: expected 0 or 1"), std::string::npos);

  EXPECT_EQ(run("plot " + (dir / "missing.csv").string()).exit_code, 2);
  const Result folder = run("plot " + dir.string());  // "found an empty file"
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_NE(folder.output.find(dir.string() + ": is a directory, expected a CSV file"),
            std::string::npos)
      << folder.output;
  EXPECT_EQ(run("plot").exit_code, 2);
  EXPECT_EQ(run("plot --help").exit_code, 0);
}

// Rows that parse but cannot be what fit or sweep wrote are refused by cell, not drawn: a plot of
// them would show a wrong answer (a failed point chosen as the optimum, a negative ē, a time axis
// that runs back).
TEST(PlotCommand, RowsThatNoRunWritesAreRefusedByCell) {
  const auto dir = scratch("impossible");
  for (const auto& [file, row, message] :
       {std::tuple{"fr.csv", "x,0.05,0.01,0.01,20,0",
                   "fr.csv:7:1: frame: expected an integer ≥ 0, found 'x'"},
        std::tuple{"fd.csv", "4.5,0.05,0.01,0.01,20,0",
                   "fd.csv:7:1: frame: expected an integer ≥ 0, found '4.5'"},
        std::tuple{"fo.csv", "3,0.05,0.01,0.01,20,0",
                   "fo.csv:7:1: frame: expected frames increasing down the file, found 3 after 4"},
        std::tuple{"to.csv", "5,0.04,0.01,0.01,20,0",
                   "to.csv:7:2: time_s: expected times increasing down the file, found 0.04 "
                   "after 0.04"},
        std::tuple{"en.csv", "5,0.05,-0.01,0.01,20,0",
                   "en.csv:7:3: error_m: expected a number ≥ 0, found '-0.01'"},
        std::tuple{"sn.csv", "5,0.05,0.01,-1,20,0",
                   "sn.csv:7:4: spread_m: expected a number ≥ 0, found '-1'"},
        std::tuple{"vm.csv", "5,0.05,0.01,0.01,-2,0",
                   "vm.csv:7:5: visible_markers: expected an integer ≥ 0, found '-2'"},
        std::tuple{"v0.csv", "5,0.05,0.01,0.01,0,0",
                   "v0.csv:7:3: error_m: expected an empty field: the frame has no visible "
                   "markers, found '0.01'"},
        std::tuple{"ve.csv", "5,0.05,,,20,0",
                   "ve.csv:7:3: error_m: expected a number: the frame has 20 visible markers, "
                   "found ''"}}) {
    const Result r = run("plot " + write(dir / file, kFrames + std::string(row) + "\n"));
    EXPECT_EQ(r.exit_code, 2) << file;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  }

  const auto expect_refused = [&dir](const std::string& file, const std::string& text,
                                     const std::string& message) {
    const Result r = run("plot " + write(dir / file, text));
    EXPECT_EQ(r.exit_code, 2) << file;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  };
  const std::string header = "mu.table,objective,mean_error_m,mean_spread_m,status\n";
  for (const auto& [file, rows, message] :
       {// A failed point with numbers was drawn and chosen as the optimum.
        std::tuple{"fn.csv", "0.1,4.0,0.010,0.01,ok\n0.2,0.5,0.001,0.01,failed\n",
                   "fn.csv:3:2: objective: expected an empty field for a failed point, found "
                   "'0.5'"},
        std::tuple{"pn.csv", "0.1,4.0,0.010,0.01,ok\n0.2,,0.001,,pending\n",
                   "pn.csv:3:3: mean_error_m: expected an empty field for a pending point, "
                   "found '0.001'"},
        std::tuple{"st.csv", "0.1,4.0,0.010,0.01,ok\n0.2,,,,diverged\n",
                   "st.csv:3:5: status: expected ok, iteration_cap, failed or pending, found "
                   "'diverged'"},
        std::tuple{"ob.csv", "0.1,-4.0,0.010,0.01,ok\n",
                   "ob.csv:2:2: objective: expected a number ≥ 0, found '-4.0'"},
        std::tuple{"me.csv", "0.1,4.0,-0.010,0.01,ok\n",
                   "me.csv:2:3: mean_error_m: expected a number ≥ 0, found '-0.010'"},
        std::tuple{"ms.csv", "0.1,4.0,0.010,-0.01,iteration_cap\n",
                   "ms.csv:2:4: mean_spread_m: expected a number ≥ 0, found '-0.01'"},
        // A 1-D sweep runs up its grid; a value twice or back would draw a zig-zag.
        std::tuple{"dx.csv", "0.1,4.0,0.010,0.01,ok\n0.1,3.0,0.009,0.01,ok\n",
                   "dx.csv:3:1: mu.table: expected values increasing down the file, found 0.1 "
                   "after 0.1"},
        std::tuple{"ux.csv", "0.2,4.0,0.010,0.01,ok\n0.1,3.0,0.009,0.01,ok\n",
                   "ux.csv:3:1: mu.table: expected values increasing down the file, found 0.1 "
                   "after 0.2"}}) {
    expect_refused(file, header + rows, message);
  }
  // The columns after the status: the replicas' sd and count, the steps at the cap and taken
  // again (they were not read at all: text, negative counts and a cap count against its status
  // plotted).
  const std::string tail_header =
      "mu.table,objective,mean_error_m,mean_spread_m,status,objective_sd,replicas,"
      "unconverged_steps,retried_steps\n";
  for (const auto& [file, rows, message] :
       {std::tuple{"uc.csv", "0.1,4.0,0.010,0.01,ok,0.1,2,abc,0\n",
                   "uc.csv:2:8: unconverged_steps: expected an integer ≥ 0, found 'abc'"},
        std::tuple{"rt.csv", "0.1,4.0,0.010,0.01,ok,0.1,2,0,-1\n",
                   "rt.csv:2:9: retried_steps: expected an integer ≥ 0, found '-1'"},
        std::tuple{"ok.csv", "0.1,4.0,0.010,0.01,ok,0.1,2,3,0\n",
                   "ok.csv:2:8: unconverged_steps: expected 0 for an ok point, found '3'"},
        std::tuple{"ic.csv", "0.1,4.0,0.010,0.01,iteration_cap,0.1,2,0,0\n",
                   "ic.csv:2:8: unconverged_steps: expected at least 1 for an iteration_cap "
                   "point, found '0'"},
        std::tuple{"sd.csv", "0.1,4.0,0.010,0.01,ok,-0.001,2,0,0\n",
                   "sd.csv:2:6: objective_sd: expected a number ≥ 0, found '-0.001'"},
        std::tuple{"rp.csv", "0.1,4.0,0.010,0.01,ok,0.001,0,0,0\n",
                   "rp.csv:2:7: replicas: expected an integer ≥ 1, found '0'"},
        std::tuple{"fs.csv", "0.1,,,,failed,,2,0,\n",
                   "fs.csv:2:8: unconverged_steps: expected an empty field for a failed point, "
                   "found '0'"}}) {
    expect_refused(file, tail_header + rows, message);
  }
  expect_refused(
      "twice.csv",
      "alpha,alpha,objective,mean_error_m,mean_spread_m,status\n0.1,0.2,1,0.01,0.01,ok\n",
      "twice.csv:1:2: alpha: expected two different parameters");
  // What fit and sweep write still plots: frames without markers, failed and pending points with
  // nan or nothing, the replica columns of a failed point.
  EXPECT_EQ(run("plot " + write(dir / "fine_frames.csv", kFrames + std::string("5,0.05,,,0,0\n")))
                .exit_code,
            0);
  EXPECT_EQ(run("plot " + write(dir / "fine_sweep.csv",
                                header + "0.1,4.0,0.010,0.01,ok\n0.2,nan,nan,nan,failed\n"
                                         "0.3,,,,pending\n0.4,0,0,0,iteration_cap\n"))
                .exit_code,
            0);
}

// CSV files a user edited wrong, made at random from a frames.csv, a 1-D and a 2-D sweep: a field
// replaced (by nothing, nan, inf, a huge, tiny or negative number, text), removed or added, a line
// removed, repeated or blanked, the file cut short. `clothfit plot` must end each with exit code 0
// or 2, and a refusal names the file; never a crash. 150 such files were run by hand on
// 2026-11-27 (nothing found); this keeps it so, also under the sanitizers.
TEST(PlotCommand, MutatedCsvFilesArePlottedOrRefusedByName) {
  const auto dir = scratch("mutated");
  const std::vector<std::string> originals = {
      kFrames, kSweep1,
      "alpha,delta,objective,mean_error_m,mean_spread_m,status\n"
      "0.1,1,5,0.05,0.01,ok\n0.1,2,4,0.04,0.01,ok\n0.2,1,2,0.02,0.01,ok\n"
      "0.2,2,nan,nan,nan,failed\n"};
  const std::vector<std::string> tokens = {"",      "nan",  "inf", "-1",    "1e308", "1e-300",
                                           "0",     "x",    "ok",  "2",     "-inf",  "\"a,b\"",
                                           "1e400", "0x10", " 3",  "failed"};
  std::mt19937 random(20261127);
  const auto pick = [&random](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  int plotted = 0, refused = 0;
  for (int k = 0; k < 150; ++k) {
    // The file as lines of fields.
    std::vector<std::vector<std::string>> lines;
    std::stringstream in(originals[k % originals.size()]);
    for (std::string line; std::getline(in, line);) {
      std::vector<std::string> fields;
      std::stringstream fs(line);
      for (std::string f; std::getline(fs, f, ',');)
        fields.push_back(f);
      lines.push_back(fields);
    }
    const int changes = std::uniform_int_distribution<int>(1, 3)(random);
    bool cut = false;
    for (int c = 0; c < changes && !lines.empty(); ++c) {
      auto& line = lines[pick(lines.size())];
      switch (pick(7)) {
        case 0:
        case 1:
          if (!line.empty())
            line[pick(line.size())] = tokens[pick(tokens.size())];
          break;
        case 2:
          if (!line.empty())
            line.erase(line.begin() + static_cast<std::ptrdiff_t>(pick(line.size())));
          break;
        case 3:
          line.push_back(tokens[pick(tokens.size())]);
          break;
        case 4:
          lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(pick(lines.size())));
          break;
        case 5:
          lines.push_back(lines[pick(lines.size())]);
          break;
        default:
          cut = true;
      }
    }
    std::string text;
    for (const auto& line : lines) {
      for (std::size_t i = 0; i < line.size(); ++i)
        text += (i ? "," : "") + line[i];
      text += "\n";
    }
    if (cut && !text.empty())
      text.resize(pick(text.size()));
    const std::string name = "mutated_" + std::to_string(k) + ".csv";
    const std::string csv = write(dir / name, text);
    const Result r = run("plot " + csv + " --out " + (dir / "out.svg").string());
    const std::string context = name + ":\n" + text + "\n" + r.output;
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 2) << context;
    if (r.exit_code == 2) {
      EXPECT_NE(r.output.find(name), std::string::npos) << context;
      ++refused;
    } else {
      ++plotted;
    }
  }
  EXPECT_GT(plotted, 0);
  EXPECT_GT(refused, 0);
  std::printf("150 CSV files: %d plotted, %d refused\n", plotted, refused);
}

}  // namespace
}  // namespace clothfit::apps
