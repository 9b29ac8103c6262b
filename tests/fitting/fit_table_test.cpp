// Fit tables: reading fit.json (errors name file and field) and the list, tablecloth (paper
// Table 2) and hitting (paper Table 3) layouts in Markdown, CSV and JSON.
#include "fitting/fit_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/io/input_error.hpp"
#include "support/json_mutation.hpp"

namespace clothfit::fitting {
namespace {

std::filesystem::path scratch_dir() {
  const auto dir = std::filesystem::temp_directory_path() / "clothfit_fit_table_test";
  std::filesystem::create_directories(dir);
  return dir;
}

std::string write(const std::string& name, const std::string& text) {
  const auto path = scratch_dir() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string tablecloth_json(const std::string& material, const std::string& condition, double mu,
                            double truth, bool pinned, double error_m) {
  return R"({"name": ")" + material + "-tablecloth-" + condition + R"(", "material": ")" +
         material + R"(", "experiment": "tablecloth", "condition": ")" + condition +
         R"(", "recording": "r.csv", "recording_seconds": 4.0,
   "parameters": {"alpha": {"value": 0.2, "fitted": false},
                  "mu.table": {"value": )" +
         std::to_string(mu) + R"(, "fitted": true, "lower": 0, "upper": 2,
                               "interval": [)" +
         std::to_string(std::min(0.1, mu)) + ", " + std::to_string(std::max(0.4, mu)) +
         R"(], "pinned": )" + (pinned ? "true" : "false") + R"(, "truth": )" +
         std::to_string(truth) + R"(}},
   "objective": 3.1, "mean_error_m": )" +
         std::to_string(error_m) + R"(, "mean_spread_m": 0.0101, "q": 0.031,
   "evaluations": 40, "wall_seconds": 12.5, "termination": "converged"})";
}

constexpr const char* kHitting = R"({"name": "wool-hitting", "material": "wool",
  "experiment": "hitting", "condition": "", "recording": "h.csv", "recording_seconds": 15.2,
  "parameters": {"alpha": {"value": 0.213, "fitted": true, "lower": 0, "upper": 2,
                           "interval": [0.15, 0.3], "pinned": true, "truth": 0.2},
                 "delta": {"value": 1.9, "fitted": true, "lower": 0, "upper": 2,
                           "interval": [1.2, 2.0], "pinned": false}},
  "objective": 12.3, "mean_error_m": 0.0084, "mean_spread_m": 0.0101,
  "q": 0.47, "q_interior_point": 1.31, "evaluations": 250, "wall_seconds": 31.0,
  "termination": "converged"})";

TEST(FitTable, ReadsAFitJson) {
  const FitReport fit = read_fit_report(write("hitting.json", kHitting));
  EXPECT_EQ(fit.name, "wool-hitting");
  EXPECT_EQ(fit.experiment, "hitting");
  ASSERT_EQ(fit.parameters.size(), 2u);
  const FitReportParameter* alpha = fit.parameter("alpha");
  ASSERT_NE(alpha, nullptr);
  EXPECT_DOUBLE_EQ(alpha->value, 0.213);
  ASSERT_TRUE(alpha->interval.has_value());
  EXPECT_DOUBLE_EQ(alpha->interval->second, 0.3);
  EXPECT_DOUBLE_EQ(*alpha->truth, 0.2);
  EXPECT_FALSE(fit.parameter("delta")->pinned);
  EXPECT_FALSE(fit.parameter("delta")->truth.has_value());
  EXPECT_DOUBLE_EQ(*fit.q_interior_point, 1.31);
  EXPECT_EQ(fit.evaluations, 250);
  EXPECT_EQ(fit.friction(), nullptr);
}

TEST(FitTable, ErrorsNameTheFileAndTheField) {
  const std::string missing = write("missing.json", R"({"name": "x", "material": "wool",
    "experiment": "hitting", "recording_seconds": 1, "parameters": {}})");
  try {
    read_fit_report(missing);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, missing);
    EXPECT_EQ(e.location().field, "objective");
  }
  const std::string bad_interval = write("bad_interval.json", R"({"name": "x", "material": "w",
    "experiment": "hitting", "recording_seconds": 1, "objective": 1, "mean_error_m": 0.01,
    "mean_spread_m": 0.01, "q": 0.1,
    "parameters": {"alpha": {"value": 0.2, "fitted": true, "lower": 0, "upper": 1,
                             "interval": [0.3]}}})");
  try {
    read_fit_report(bad_interval);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, bad_interval);
    EXPECT_EQ(e.location().field, "parameters.alpha.interval");
  }
  const std::string syntax = write("syntax.json", "{\"name\": ");
  EXPECT_THROW(read_fit_report(syntax), InputError);
  EXPECT_THROW(read_fit_report((scratch_dir() / "no_such_file.json").string()), InputError);
}

// Numbers no fit writes are refused by field: a negative error or q, an optimum outside its
// interval (the fitter widens the interval to contain it).
TEST(FitTable, ImpossibleNumbersAreRefusedByField) {
  for (const auto& [pointer, value, field] :
       {std::tuple{"/mean_error_m", -0.01, "mean_error_m"},
        std::tuple{"/mean_spread_m", -0.01, "mean_spread_m"},
        std::tuple{"/objective", -3.0, "objective"}, std::tuple{"/q", -0.5, "q"},
        std::tuple{"/q_interior_point", -1.0, "q_interior_point"},
        std::tuple{"/parameters/alpha/value", 0.31, "parameters.alpha.interval"},
        std::tuple{"/parameters/delta/value", 1.1, "parameters.delta.interval"},
        // α, δ, μ and their truths are ≥ 0; a fitted value lies within its search bounds, the
        // bounds are in order, the interval within them (all were tabulated).
        std::tuple{"/parameters/alpha/value", -0.5, "parameters.alpha.value"},
        std::tuple{"/parameters/alpha/truth", -1.0, "parameters.alpha.truth"},
        std::tuple{"/parameters/alpha/lower", 0.25, "parameters.alpha.value"},
        std::tuple{"/parameters/alpha/lower", 3.0, "parameters.alpha.upper"},
        std::tuple{"/parameters/alpha/upper", -1.0, "parameters.alpha.upper"},
        std::tuple{"/parameters/delta/upper", 1.95, "parameters.delta.interval"}}) {
    nlohmann::json json = nlohmann::json::parse(kHitting);
    json[nlohmann::json::json_pointer(pointer)] = value;
    try {
      parse_fit_report(json, "h.json");
      ADD_FAILURE() << pointer << " = " << value << " was read";
    } catch (const InputError& e) {
      EXPECT_EQ(e.location().file, "h.json");
      EXPECT_EQ(e.location().field, field) << e.what();
    }
  }
  // A fitted parameter has its search bounds; "pinned" is what the interval's bound flags say.
  {
    nlohmann::json json = nlohmann::json::parse(kHitting);
    json["parameters"]["alpha"].erase("lower");
    try {
      parse_fit_report(json, "h.json");
      ADD_FAILURE() << "a fitted parameter without bounds was read";
    } catch (const InputError& e) {
      EXPECT_EQ(e.location().field, "parameters.alpha.lower") << e.what();
    }
    json = nlohmann::json::parse(kHitting);
    json["parameters"]["alpha"]["interval_reaches_lower_bound"] = false;
    json["parameters"]["alpha"]["interval_reaches_upper_bound"] = true;
    try {
      parse_fit_report(json, "h.json");
      ADD_FAILURE() << "pinned with the interval at the upper bound was read";
    } catch (const InputError& e) {
      EXPECT_EQ(e.location().field, "parameters.alpha.pinned") << e.what();
    }
    json["parameters"]["alpha"]["pinned"] = false;
    EXPECT_NO_THROW(parse_fit_report(json, "h.json"));
    // At the lower bound 0 the parameter is pinned (0 is a value, not a search limit).
    json = nlohmann::json::parse(kHitting);
    json["parameters"]["alpha"]["interval"] = {0.0, 0.3};
    json["parameters"]["alpha"]["interval_reaches_lower_bound"] = true;
    json["parameters"]["alpha"]["interval_reaches_upper_bound"] = false;
    EXPECT_NO_THROW(parse_fit_report(json, "h.json"));
  }
  // The ends of the interval are inside it, and a zero error is an error (a perfect match).
  nlohmann::json json = nlohmann::json::parse(kHitting);
  json["parameters"]["alpha"]["value"] = 0.3;
  json["mean_error_m"] = 0.0;
  EXPECT_NO_THROW(parse_fit_report(json, "h.json"));
}

TEST(FitTable, NullNumbersFromAFailedFitReadAsNaN) {
  const FitReport fit = parse_fit_report(
      nlohmann::json::parse(R"({"name": "x", "material": "w", "experiment": "other",
        "recording_seconds": 1, "objective": null, "mean_error_m": null,
        "mean_spread_m": null, "q": 0.1, "parameters": {}})"),
      "failed.json");
  EXPECT_TRUE(std::isnan(fit.objective));
  const Table table = make_list_table({fit});
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.rows[0][2], "n/a");  // ē
}

TEST(FitTable, AutomaticLayout) {
  const FitReport hit = parse_fit_report(nlohmann::json::parse(kHitting), "h.json");
  const FitReport cloth = parse_fit_report(
      nlohmann::json::parse(tablecloth_json("wool", "low", 0.3, 0.3, true, 0.01)), "t.json");
  EXPECT_EQ(resolve_layout(TableLayout::automatic, {hit, hit}), TableLayout::hitting);
  EXPECT_EQ(resolve_layout(TableLayout::automatic, {cloth}), TableLayout::tablecloth);
  EXPECT_EQ(resolve_layout(TableLayout::automatic, {cloth, hit}), TableLayout::list);
  EXPECT_EQ(resolve_layout(TableLayout::automatic, {}), TableLayout::list);
  EXPECT_EQ(resolve_layout(TableLayout::hitting, {cloth}), TableLayout::hitting);
}

TEST(FitTable, ListTableMarksParametersNotPinnedDown) {
  const FitReport hit = parse_fit_report(nlohmann::json::parse(kHitting), "h.json");
  const Table table = make_list_table({hit});
  const std::vector<std::string> columns = {"name",   "material", "α", "α truth",     "δ",
                                            "ē (cm)", "s̄ (cm)",   "q", "evaluations", "wall (s)"};
  EXPECT_EQ(table.columns, columns);
  ASSERT_EQ(table.rows.size(), 1u);
  const auto& row = table.rows[0];
  EXPECT_EQ(row[2], "0.213 [0.15, 0.3]");
  EXPECT_EQ(row[3], "0.2");
  EXPECT_EQ(row[4], "1.9 [1.2, 2]*");
  EXPECT_EQ(row[5], "0.84");
  EXPECT_EQ(row[6], "1.01");
  EXPECT_EQ(row[7], "0.470");
  EXPECT_EQ(row[8], "250");
  // The threshold and q are said in a list as in the paper's layouts (they were not).
  ASSERT_EQ(table.notes.size(), 2u);
  EXPECT_EQ(table.notes[0].substr(0, 24), "value [interval within 5");
  EXPECT_NE(table.notes[0].find("of the minimum of sum(e_n)]; q: wall-clock time of the steps "
                                "over simulated time"),
            std::string::npos)
      << table.notes[0];
  EXPECT_NE(table.notes[1].find("not pinned down"), std::string::npos);
}

// A fitted value farther from its truth than the recovery tolerance (α, δ 10 %, μ 0.1) is marked
// with a footnote, so a miss is never silent: "‡" when the truth lies inside the reported interval
// (the recording does not pin the parameter down to the tolerance), "†" when it lies outside;
// within the tolerance, no mark.
TEST(FitTable, MarksFitsThatMissTheirTruth) {
  const FitReport low_miss = parse_fit_report(
      nlohmann::json::parse(tablecloth_json("wool", "low", 0.41, 0.3, true, 0.01)), "l.json");
  const FitReport high_hit = parse_fit_report(
      nlohmann::json::parse(tablecloth_json("wool", "high", 1.55, 1.6, true, 0.01)), "h.json");
  const Table table = make_tablecloth_table({low_miss, high_hit});
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.rows[0][1], "0.41 [0.1, 0.41]‡");  // truth 0.3: inside the interval
  EXPECT_EQ(table.rows[0][5], "1.55 [0.1, 1.55]");
  ASSERT_EQ(table.notes.size(), 2u);
  EXPECT_NE(table.notes[1].find("‡ missed, but the truth lies inside"), std::string::npos);

  FitReport hit = parse_fit_report(nlohmann::json::parse(kHitting), "h.json");
  hit.parameters[0].truth = 0.19;  // α = 0.213: 12 % above, the truth inside [0.15, 0.3]
  EXPECT_EQ(make_list_table({hit}).rows[0][2], "0.213 [0.15, 0.3]‡");
  hit.parameters[0].truth = 0.14;  // 52 % above, outside the interval
  const Table list = make_list_table({hit});
  EXPECT_EQ(list.rows[0][2], "0.213 [0.15, 0.3]†");
  ASSERT_FALSE(list.notes.empty());
  EXPECT_NE(list.notes.back().find("† missed"), std::string::npos);
  EXPECT_NE(list.notes.back().find("outside the interval"), std::string::npos);
  hit.parameters[0].truth = 0.2;  // 6.5 %: within
  EXPECT_EQ(make_list_table({hit}).rows[0][2], "0.213 [0.15, 0.3]");
  // The interval is closed: its ends are profiled points (often grid values, as truths are).
  hit.parameters[0].truth = 0.15;
  EXPECT_EQ(make_list_table({hit}).rows[0][2], "0.213 [0.15, 0.3]‡");
  hit.parameters[0].truth = 0.3;
  EXPECT_EQ(make_list_table({hit}).rows[0][2], "0.213 [0.15, 0.3]‡");
}

TEST(FitTable, MissesTruthUsesTheRecoveryTolerances) {
  EXPECT_FALSE(misses_truth("alpha", 0.219, 0.2));  // 9.5 %
  EXPECT_TRUE(misses_truth("alpha", 0.221, 0.2));   // 10.5 %
  EXPECT_TRUE(misses_truth("delta", 0.0715, 0.08));
  EXPECT_FALSE(misses_truth("mu.table", 1.09, 1.0));  // absolute 0.1 for friction
  EXPECT_TRUE(misses_truth("mu.table", 0.89, 1.0));
  EXPECT_FALSE(misses_truth("mu.table", 0.14, 0.05));
}

TEST(FitTable, TableclothLayoutPairsLowAndHighPerMaterial) {
  std::vector<FitReport> fits;
  fits.push_back(parse_fit_report(
      nlohmann::json::parse(tablecloth_json("polyester", "high", 0.62, 0.6, true, 0.0084)),
      "p-high.json"));
  fits.push_back(parse_fit_report(
      nlohmann::json::parse(tablecloth_json("wool", "low", 0.21, 0.2, true, 0.0120)),
      "w-low.json"));
  fits.push_back(parse_fit_report(
      nlohmann::json::parse(tablecloth_json("polyester", "low", 0.18, 0.2, false, 0.0091)),
      "p-low.json"));
  const Table table = make_tablecloth_table(fits);
  const std::vector<std::string> columns = {"material",     "μ_low",       "μ_low truth",
                                            "ē_low (cm)",   "s̄_low (cm)",  "μ_high",
                                            "μ_high truth", "ē_high (cm)", "s̄_high (cm)"};
  EXPECT_EQ(table.columns, columns);
  ASSERT_EQ(table.rows.size(), 2u);
  const std::vector<std::string> polyester = {"polyester", "0.18 [0.1, 0.4]*", "0.2", "0.91",
                                              "1.01",      "0.62 [0.1, 0.62]", "0.6", "0.84",
                                              "1.01"};
  EXPECT_EQ(table.rows[0], polyester);
  EXPECT_EQ(table.rows[1][0], "wool");
  EXPECT_EQ(table.rows[1][1], "0.21 [0.1, 0.4]");
  EXPECT_EQ(table.rows[1][5], "");  // no high-friction wool fit
  ASSERT_EQ(table.notes.size(), 2u);
  EXPECT_NE(table.notes[0].find("'table'"), std::string::npos);

  // A second fit for the same material and condition, a missing condition, a hitting fit.
  std::vector<FitReport> twice = {fits[0], fits[0]};
  EXPECT_THROW(make_tablecloth_table(twice), InputError);
  FitReport no_condition = fits[1];
  no_condition.condition = "";
  try {
    make_tablecloth_table({no_condition});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, "w-low.json");
    EXPECT_EQ(e.location().field, "condition");
  }
  const FitReport hit = parse_fit_report(nlohmann::json::parse(kHitting), "h.json");
  EXPECT_THROW(make_tablecloth_table({hit}), InputError);

  // Two fitted friction parameters: the μ column showed the first by name, the other dropped.
  nlohmann::json two =
      nlohmann::json::parse(tablecloth_json("denim", "high", 0.5, 0.5, true, 0.01));
  two["parameters"]["mu.floor"] = two["parameters"]["mu.table"];
  try {
    make_tablecloth_table({parse_fit_report(two, "two.json")});
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, "two.json");
    EXPECT_NE(std::string(e.what()).find("one fitted friction parameter, found mu.floor and "
                                         "mu.table (use --layout list)"),
              std::string::npos)
        << e.what();
  }
  // One fitted and one fixed: the fitted one is the column.
  two["parameters"]["mu.floor"] = {{"value", 0.4}, {"fitted", false}};
  EXPECT_EQ(make_tablecloth_table({parse_fit_report(two, "two.json")}).rows[0][5],
            "0.5 [0.1, 0.5]");
}

TEST(FitTable, HittingLayoutLikeTable3) {
  const FitReport hit = parse_fit_report(nlohmann::json::parse(kHitting), "h.json");
  const Table table = make_hitting_table({hit});
  const std::vector<std::string> columns = {"material", "T_rec (s)",    "ē (cm)",
                                            "s̄ (cm)",   "q active set", "q interior point",
                                            "α",        "α truth",      "δ"};
  EXPECT_EQ(table.columns, columns);
  const std::vector<std::string> row = {
      "wool", "15.2", "0.84", "1.01", "0.47", "1.31", "0.213 [0.15, 0.3]", "0.2", "1.9 [1.2, 2]*"};
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.rows[0], row);
  const FitReport cloth = parse_fit_report(
      nlohmann::json::parse(tablecloth_json("wool", "low", 0.3, 0.3, true, 0.01)), "t.json");
  EXPECT_THROW(make_hitting_table({cloth}), InputError);
}

// The notes give the intervals' threshold the fits used (fit.json interval_tolerance), not 5 %
// whatever it was.
TEST(FitTable, NotesGiveTheFitsThreshold) {
  const auto note = [](const std::vector<double>& tolerances) {
    std::vector<FitReport> fits;
    for (const double t : tolerances) {
      nlohmann::json j = nlohmann::json::parse(kHitting);
      if (t > 0)
        j["interval_tolerance"] = t;
      fits.push_back(parse_fit_report(j, "h.json"));
    }
    return make_hitting_table(fits).notes.front();
  };
  EXPECT_NE(note({0.2}).find("[interval within 20 % of the minimum of sum(e_n)]"),
            std::string::npos)
      << note({0.2});
  EXPECT_NE(note({0.05, 0.16}).find("within 5–16 % (each fit's own threshold)"), std::string::npos)
      << note({0.05, 0.16});
  // Older fit.json files do not say: the default rule.
  EXPECT_NE(note({0.0}).find("within 5 %, or twice the objective's noise when larger,"),
            std::string::npos)
      << note({0.0});
}

TEST(FitTable, RendersMarkdownCsvAndJson) {
  Table table;
  table.columns = {"name", "value"};
  table.rows = {{"a, \"b\"", "1|2"}, {"c", "3*"}};
  table.notes = {"* a note"};
  const std::string md = render_table(table, TableFormat::markdown);
  EXPECT_EQ(md,
            "| name | value |\n| --- | --- |\n| a, \"b\" | 1\\|2 |\n| c | 3\\* |\n\n\\* a note\n");
  const std::string csv = render_table(table, TableFormat::csv);
  EXPECT_EQ(csv, "name,value\n\"a, \"\"b\"\"\",1|2\nc,3*\n");
  const nlohmann::json j = nlohmann::json::parse(render_table(table, TableFormat::json));
  EXPECT_EQ(j["columns"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["name"], "a, \"b\"");
  EXPECT_EQ(j["rows"][1]["value"], "3*");
  EXPECT_EQ(j["notes"][0], "* a note");
}

// fit.json files a user edited wrong, made at random (tests/support/json_mutation.hpp): each is
// read, or refused with an InputError naming the file; every table made from the ones read is
// made and rendered in each format, or refused likewise (a fit that does not fit the layout).
// Never another exception. The last session did 300 such files by hand through `clothfit table`.
TEST(FitTable, MutatedFitJsonsAreReadOrRefusedWithTheFileNamed) {
  const std::vector<nlohmann::json> originals = {
      nlohmann::json::parse(kHitting),
      nlohmann::json::parse(tablecloth_json("wool", "low", 0.3, 0.3, true, 0.01)),
      nlohmann::json::parse(tablecloth_json("denim", "high", 0.7, 0.8, false, 0.02))};
  std::mt19937 random(20261127);
  int read = 0, refused = 0, tables = 0;
  for (int k = 0; k < 300; ++k) {
    nlohmann::json json = originals[k % originals.size()];
    const int changes = std::uniform_int_distribution<int>(1, 3)(random);
    for (int c = 0; c < changes; ++c)
      testing::mutate_json(json, random);
    const std::string file = "fit_" + std::to_string(k) + ".json";
    std::vector<FitReport> fits;
    try {
      fits.push_back(parse_fit_report(json, file));
      ++read;
    } catch (const InputError& e) {
      ++refused;
      EXPECT_EQ(e.location().file, file) << e.what();
      continue;
    } catch (const std::exception& e) {
      ADD_FAILURE() << file << ": " << e.what() << "\n" << json.dump();
      continue;
    }
    for (TableLayout layout : {TableLayout::automatic, TableLayout::list, TableLayout::tablecloth,
                               TableLayout::hitting}) {
      try {
        const Table table = make_table(resolve_layout(layout, fits), fits);
        for (TableFormat format : {TableFormat::markdown, TableFormat::csv, TableFormat::json})
          EXPECT_FALSE(render_table(table, format).empty());
        ++tables;
      } catch (const InputError& e) {
        EXPECT_FALSE(std::string(e.what()).empty());
      } catch (const std::exception& e) {
        ADD_FAILURE() << file << ": " << e.what() << "\n" << json.dump();
      }
    }
  }
  EXPECT_GT(read, 0);
  EXPECT_GT(refused, 0);
  std::printf("300 fit.json files: %d read (%d tables made), %d refused\n", read, tables, refused);
}

}  // namespace
}  // namespace clothfit::fitting
