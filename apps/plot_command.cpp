// clothfit plot FILE.csv... [--out FILE.svg] [--title T] [--truth name=value]: SVG plots of the
// CSV files `clothfit fit` and `clothfit sweep` write, recognised by their header:
//   frames.csv (frame,time_s,error_m,spread_m,visible_markers,contact): e_n and s_n over time,
//     frames with contact shaded;
//   sweep.csv (1 parameter): ē over the parameter, optimum and truth marked;
//   sweep.csv (2 parameters): heat map of ē, optimum circled, truth crossed;
//   several 1-parameter sweep.csv over one grid: the paper's Fig. 7, one row per file.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "apps/command_line.hpp"
#include "apps/output_files.hpp"
#include "core/io/decimal_number.hpp"
#include "core/io/input_error.hpp"
#include "fitting/error_plot.hpp"
#include "fitting/svg_plot.hpp"

namespace po = boost::program_options;

namespace clothfit::apps {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* kUsage =
    "usage: clothfit plot FILE.csv... [--out FILE.svg] [--title T] [--truth NAME=VALUE]\n\n"
    "Draws the CSV of `clothfit fit` (DIR/frames.csv: e_n and s_n over time, contact shaded)\n"
    "or of `clothfit sweep` (DIR/sweep.csv: the mean error over one parameter as a line, over\n"
    "two as a heat map with the optimum circled). Several one-parameter sweeps over the same\n"
    "grid make one heat map with a row per file (paper Fig. 7). --truth marks a true value,\n"
    "e.g. --truth mu.table=0.3 (repeatable).\n\noptions";

const std::vector<std::string> kFramesColumns = {"frame",    "time_s",          "error_m",
                                                 "spread_m", "visible_markers", "contact"};
const std::vector<std::string> kSweepTail = {"objective", "mean_error_m", "mean_spread_m",
                                             "status"};
const std::vector<std::string> kReplicaColumns = {"objective_sd", "replicas"};
const std::vector<std::string> kStepColumns = {"unconverged_steps", "retried_steps"};

// A CSV file: header and rows of fields, with the line number of each row (1-based).
struct CsvFile {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  std::string field;
  while (std::getline(in, field, ','))
    fields.push_back(field);
  if (!line.empty() && line.back() == ',')
    fields.emplace_back();
  return fields;
}

std::string join(const std::vector<std::string>& fields) {
  std::string s;
  for (std::size_t i = 0; i < fields.size(); ++i)
    s += (i ? "," : "") + fields[i];
  return s;
}

// An empty or nan field: a frame without visible markers, a point that did not run.
bool is_missing(const std::string& text) {
  return text.empty() || text == "nan" || text == "NaN" || text == "-nan";
}

// Field `column` of row `row` as a finite number; empty and "nan" (a failed point, a frame
// without visible markers) give NaN when allow_nan.
double number(const CsvFile& csv, std::size_t row, std::size_t column, bool allow_nan) {
  const std::string& text = csv.rows[row][column];
  const InputLocation where{csv.path, csv.lines[row], static_cast<int>(column) + 1,
                            csv.header[column]};
  if (is_missing(text)) {
    if (allow_nan)
      return kNaN;
    throw InputError(where, "expected a number, found '" + text + "'");
  }
  const DecimalNumber n = parse_decimal(text);
  if (n.status != DecimalNumber::ok)
    throw InputError(where, "expected " + n.expected() + (allow_nan ? " or an empty field" : "") +
                                ", found '" + text + "'");
  return n.value;
}

// number() that must also not be negative (an error, a spread, an objective: sums of distances).
double non_negative(const CsvFile& csv, std::size_t row, std::size_t column, bool allow_nan) {
  const double v = number(csv, row, column, allow_nan);
  if (v < 0)
    throw InputError({csv.path, csv.lines[row], static_cast<int>(column) + 1, csv.header[column]},
                     "expected a number ≥ 0, found '" + csv.rows[row][column] + "'");
  return v;
}

// Field `column` of row `row` as a count: digits only, at least `minimum`.
long count_field(const CsvFile& csv, std::size_t row, std::size_t column, long minimum) {
  const std::string& text = csv.rows[row][column];
  const InputLocation where{csv.path, csv.lines[row], static_cast<int>(column) + 1,
                            csv.header[column]};
  const bool digits =
      !text.empty() && text.size() <= 12 &&
      std::all_of(text.begin(), text.end(), [](unsigned char c) { return c >= '0' && c <= '9'; });
  const long v = digits ? std::stol(text) : -1;
  if (!digits || v < minimum)
    throw InputError(where,
                     "expected an integer ≥ " + std::to_string(minimum) + ", found '" + text + "'");
  return v;
}

bool is_frames(const CsvFile& csv) {
  return csv.header == kFramesColumns;
}

// Number of varied parameters of a sweep CSV (1 or 2), 0 when it is not one. After the tail a
// sweep run with replicas has two more columns (kReplicaColumns), and then the step counts
// (kStepColumns; absent in the files of clothfit before 2026-12-02).
std::size_t sweep_parameters(const CsvFile& csv) {
  std::size_t size = csv.header.size();
  for (const auto* optional : {&kStepColumns, &kReplicaColumns}) {
    const auto n = static_cast<std::ptrdiff_t>(optional->size());
    if (size > optional->size() &&
        std::equal(optional->begin(), optional->end(),
                   csv.header.begin() + static_cast<std::ptrdiff_t>(size) - n))
      size -= optional->size();
  }
  if (size < kSweepTail.size() + 1 || size > kSweepTail.size() + 2)
    return 0;
  if (!std::equal(kSweepTail.begin(), kSweepTail.end(),
                  csv.header.begin() + static_cast<std::ptrdiff_t>(size - kSweepTail.size())))
    return 0;
  return size - kSweepTail.size();
}

[[noreturn]] void unknown_header(const CsvFile& csv) {
  throw InputError({csv.path, 1, 0, ""},
                   "expected the header of a frames CSV (" + join(kFramesColumns) +
                       ") or of a sweep CSV (PARAMETER[,PARAMETER]," + join(kSweepTail) +
                       "), found '" + join(csv.header) + "'");
}

CsvFile read_csv(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))  // it reads as an empty file
    throw InputError({path, 0, 0, ""}, "is a directory, expected a CSV file");
  std::ifstream in(path);
  if (!in)
    throw InputError({path, 0, 0, ""}, "cannot open file for reading");
  CsvFile csv;
  csv.path = path;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty())
      continue;
    std::vector<std::string> fields = split(line);
    if (csv.header.empty()) {
      csv.header = std::move(fields);
      // Another kind of CSV (a Motive export, say) is told by its header, not by a row of it.
      if (!is_frames(csv) && sweep_parameters(csv) == 0)
        unknown_header(csv);
      continue;
    }
    if (fields.size() != csv.header.size())
      throw InputError({path, number, 0, ""},
                       "expected " + std::to_string(csv.header.size()) +
                           " comma-separated fields as in the header, found " +
                           std::to_string(fields.size()));
    csv.rows.push_back(std::move(fields));
    csv.lines.push_back(number);
  }
  if (csv.header.empty())
    throw InputError({path, 1, 0, ""}, "expected a header line, found an empty file");
  if (csv.rows.empty())
    throw InputError({path, number + 1, 0, ""}, "expected data rows after the header");
  return csv;
}

std::string parameter_label(const std::string& name) {
  if (name == "alpha")
    return "α (damping)";
  if (name == "delta")
    return "δ (virtual density)";
  if (name.rfind("mu.", 0) == 0)
    return "μ (friction with " + name.substr(3) + ")";
  return name;
}

std::string short_value(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

// One sweep CSV read into columns: parameter values, ē (m; NaN when the point failed), objective.
struct Sweep {
  std::vector<std::string> names;               // 1 or 2
  std::vector<std::vector<double>> values;      // per name, one per row
  std::vector<double> mean_error_m, objective;  // one per row
};

// The columns after a sweep row's status as `sweep` writes them: with replicas the objective's
// sd (a number ≥ 0 for a point that ran, empty otherwise) and the replicas that ran (≥ 1 for a
// point that ran); then the steps at the iteration cap (0 for "ok", at least 1 for
// "iteration_cap") and the steps taken again, both empty for a point that did not run.
void check_sweep_tail(const CsvFile& csv, std::size_t row, std::size_t status_column,
                      const std::string& status) {
  const bool ran = status == "ok" || status == "iteration_cap";
  const auto empty_unless_ran = [&](std::size_t c) {
    if (!ran && !csv.rows[row][c].empty())
      throw InputError(
          {csv.path, csv.lines[row], static_cast<int>(c) + 1, csv.header[c]},
          "expected an empty field for a " + status + " point, found '" + csv.rows[row][c] + "'");
    return ran;
  };
  std::size_t c = status_column + 1;
  if (c < csv.header.size() && csv.header[c] == kReplicaColumns[0]) {
    if (empty_unless_ran(c))
      non_negative(csv, row, c, false);
    count_field(csv, row, c + 1, ran ? 1 : 0);
    c += kReplicaColumns.size();
  }
  if (c < csv.header.size() && csv.header[c] == kStepColumns[0]) {
    if (empty_unless_ran(c)) {
      const long unconverged = count_field(csv, row, c, 0);
      if ((unconverged > 0) != (status == "iteration_cap"))
        throw InputError({csv.path, csv.lines[row], static_cast<int>(c) + 1, csv.header[c]},
                         status == "ok"
                             ? "expected 0 for an ok point, found '" + csv.rows[row][c] + "'"
                             : "expected at least 1 for an iteration_cap point, found '" +
                                   csv.rows[row][c] + "'");
    }
    if (empty_unless_ran(c + 1))
      count_field(csv, row, c + 1, 0);
  }
}

Sweep read_sweep(const CsvFile& csv) {
  Sweep s;
  const std::size_t k = sweep_parameters(csv);
  if (k == 2 && csv.header[0] == csv.header[1])
    throw InputError({csv.path, 1, 2, csv.header[1]},
                     "expected two different parameters (a sweep varies two), found '" +
                         csv.header[1] + "' twice");
  s.names.assign(csv.header.begin(), csv.header.begin() + static_cast<std::ptrdiff_t>(k));
  s.values.resize(k);
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    for (std::size_t p = 0; p < k; ++p)
      s.values[p].push_back(number(csv, r, p, false));
    // A status other than "ok" with numbers (e.g. "iteration_cap") still has a usable error;
    // failed and pending points have empty or nan fields and are drawn as gaps / grey cells. A
    // point that ran ("ok", "iteration_cap") has its ē (the objective may be left out: the
    // optimum is then the smallest ē).
    const std::size_t status_column = k + kSweepTail.size() - 1;
    const std::string& status = csv.rows[r][status_column];
    const bool ran = status == "ok" || status == "iteration_cap";
    if (!ran && status != "failed" && status != "pending")
      throw InputError({csv.path, csv.lines[r], static_cast<int>(status_column) + 1, "status"},
                       "expected ok, iteration_cap, failed or pending, found '" + status + "'");
    if (!ran) {  // numbers here would be drawn, even chosen as the optimum, for a point that
                 // has none
      for (std::size_t c = k; c < status_column; ++c) {
        if (!is_missing(csv.rows[r][c]))
          throw InputError(
              {csv.path, csv.lines[r], static_cast<int>(c) + 1, csv.header[c]},
              "expected an empty field for a " + status + " point, found '" + csv.rows[r][c] + "'");
      }
    }
    s.objective.push_back(non_negative(csv, r, k, true));
    s.mean_error_m.push_back(non_negative(csv, r, k + 1, !ran));
    non_negative(csv, r, k + 2, true);
    check_sweep_tail(csv, r, status_column, status);
    // A sweep's grid increases along its (only, or fastest) axis: a 1-D file out of order or
    // with a value twice would be drawn as a zig-zag.
    if (k == 1 && r > 0 && !(s.values[0][r] > s.values[0][r - 1]))
      throw InputError({csv.path, csv.lines[r], 1, s.names[0]},
                       "expected values increasing down the file, found " + csv.rows[r][0] +
                           " after " + csv.rows[r - 1][0]);
  }
  return s;
}

// The distinct values of a column in order of first appearance.
std::vector<double> distinct(const std::vector<double>& column) {
  std::vector<double> out;
  for (double v : column) {
    if (std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  }
  return out;
}

// The row with the smallest objective (smallest ē when no objective is finite); nullopt if none.
std::optional<std::size_t> best_row(const Sweep& s) {
  std::optional<std::size_t> best;
  for (const std::vector<double>* column : {&s.objective, &s.mean_error_m}) {
    for (std::size_t r = 0; r < column->size(); ++r) {
      if (std::isfinite((*column)[r]) && (!best || (*column)[r] < (*column)[*best]))
        best = r;
    }
    if (best)
      return best;
  }
  return best;
}

std::string frames_plot(const CsvFile& csv, const std::string& title) {
  fitting::FrameSeries frames;
  long previous_frame = -1;
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    // The cells in their order, so that a row's first bad cell is the one reported.
    const long frame = count_field(csv, r, 0, 0);
    if (frame <= previous_frame)
      throw InputError({csv.path, csv.lines[r], 1, "frame"},
                       "expected frames increasing down the file, found " + csv.rows[r][0] +
                           " after " + csv.rows[r - 1][0]);
    previous_frame = frame;
    frames.time_s.push_back(number(csv, r, 1, false));
    if (r > 0 && !(frames.time_s[r] > frames.time_s[r - 1]))
      throw InputError({csv.path, csv.lines[r], 2, "time_s"},
                       "expected times increasing down the file, found " + csv.rows[r][1] +
                           " after " + csv.rows[r - 1][1]);
    frames.error_m.push_back(non_negative(csv, r, 2, true));
    frames.spread_m.push_back(non_negative(csv, r, 3, true));
    const long visible = count_field(csv, r, 4, 0);
    // A frame has an error exactly when a marker of it was seen.
    if ((visible == 0) != std::isnan(frames.error_m[r]))
      throw InputError({csv.path, csv.lines[r], 3, "error_m"},
                       visible == 0 ? "expected an empty field: the frame has no visible markers, "
                                      "found '" +
                                          csv.rows[r][2] + "'"
                                    : "expected a number: the frame has " + csv.rows[r][4] +
                                          " visible markers, found '" + csv.rows[r][2] + "'");
    const double c = number(csv, r, 5, false);
    if (c != 0.0 && c != 1.0)
      throw InputError({csv.path, csv.lines[r], 6, "contact"},
                       "expected 0 or 1, found '" + csv.rows[r][5] + "'");
    frames.contact.push_back(c == 1.0);
  }
  const std::vector<double>& t = frames.time_s;
  frames.frame_interval_s =
      t.size() > 1 ? (t.back() - t.front()) / static_cast<double>(t.size() - 1) : 0.01;
  return fitting::render_line_plot(fitting::error_plot(frames, title));
}

// --truth values by parameter name; a name the sweep does not vary is an error.
std::optional<double> truth_for(const std::map<std::string, double>& truth,
                                const std::string& name) {
  auto it = truth.find(name);
  return it == truth.end() ? std::nullopt : std::optional(it->second);
}

std::string sweep_line_plot(const Sweep& s, const std::map<std::string, double>& truth,
                            const std::string& title) {
  fitting::LinePlot plot;
  fitting::LineSeries line;
  line.label = "ē";
  line.x = s.values[0];
  for (double e : s.mean_error_m)
    line.y.push_back(100.0 * e);
  line.points = true;
  plot.series = {line};
  if (const auto best = best_row(s)) {
    fitting::VerticalMarker m;
    m.x = s.values[0][*best];
    m.label = "optimum " + short_value(m.x);
    plot.markers.push_back(m);
  }
  if (const auto t = truth_for(truth, s.names[0])) {
    fitting::VerticalMarker m;
    m.x = *t;
    m.label = "truth " + short_value(*t);
    m.colour = "#207020";
    plot.markers.push_back(m);
  }
  plot.title = title.empty() ? "Mean error over " + s.names[0] : title;
  plot.x_label = parameter_label(s.names[0]);
  plot.y_label = "mean error ē (cm)";
  return fitting::render_line_plot(plot);
}

std::string sweep_heat_map(const CsvFile& csv, const Sweep& s,
                           const std::map<std::string, double>& truth, const std::string& title) {
  // Rows: the first (slowest) parameter; columns: the second.
  const std::vector<double> ys = distinct(s.values[0]);
  const std::vector<double> xs = distinct(s.values[1]);
  for (std::size_t r = 0; r < s.mean_error_m.size(); ++r) {
    if (r >= ys.size() * xs.size() || s.values[0][r] != ys[r / xs.size()] ||
        s.values[1][r] != xs[r % xs.size()])
      throw InputError({csv.path, csv.lines[r], 0, ""},
                       "expected a full grid in order (" + s.names[0] +
                           " slowest): " + std::to_string(ys.size()) + " x " +
                           std::to_string(xs.size()) + " values, this row breaks the order");
  }
  if (s.mean_error_m.size() != ys.size() * xs.size())
    throw InputError({csv.path, csv.lines.back(), 0, ""},
                     "expected " + std::to_string(ys.size() * xs.size()) + " rows for a " +
                         std::to_string(ys.size()) + " x " + std::to_string(xs.size()) +
                         " grid, found " + std::to_string(s.mean_error_m.size()));
  for (const std::vector<double>* axis : {&xs, &ys}) {
    if (!std::is_sorted(axis->begin(), axis->end()))
      throw InputError({csv.path, 0, 0, ""}, "expected increasing parameter values in the grid");
  }
  fitting::HeatMap map;
  map.x_values = xs;
  map.y_values = ys;
  for (double e : s.mean_error_m)
    map.values.push_back(100.0 * e);
  if (const auto best = best_row(s))
    map.circled.push_back({*best % xs.size(), *best / xs.size()});
  map.truth_x = truth_for(truth, s.names[1]);
  map.truth_y = truth_for(truth, s.names[0]);
  if (map.truth_y && !map.truth_x)
    map.truth_y.reset();  // a cross needs both coordinates
  map.title = title.empty() ? "Mean error over " + s.names[0] + " × " + s.names[1] : title;
  map.x_label = parameter_label(s.names[1]);
  map.y_label = parameter_label(s.names[0]);
  map.value_label = "ē (cm)";
  map.show_values = xs.size() * ys.size() <= 64;
  return fitting::render_heat_map(map);
}

// Fig. 7: several 1-parameter sweeps over one grid, a row per file.
std::string sweep_rows_map(const std::vector<CsvFile>& files, const std::vector<Sweep>& sweeps,
                           const std::map<std::string, double>& truth, const std::string& title) {
  fitting::HeatMap map;
  map.x_values = sweeps[0].values[0];
  for (std::size_t f = 0; f < files.size(); ++f) {
    if (sweeps[f].names != sweeps[0].names || sweeps[f].values[0] != map.x_values)
      throw InputError({files[f].path, 0, 0, ""},
                       "expected the same one-parameter grid as " + files[0].path +
                           " (several files make one heat map row each)");
    const std::filesystem::path p(files[f].path);
    const std::string parent = p.parent_path().filename().string();
    map.y_labels.push_back(parent.empty() ? p.stem().string() : parent);
    for (double e : sweeps[f].mean_error_m)
      map.values.push_back(100.0 * e);
  }
  if (!std::is_sorted(map.x_values.begin(), map.x_values.end()))
    throw InputError({files[0].path, 0, 0, ""}, "expected increasing parameter values");
  map.circled = fitting::row_minima(map);
  map.truth_x = truth_for(truth, sweeps[0].names[0]);
  map.title = title.empty() ? "Mean error over " + sweeps[0].names[0] : title;
  map.x_label = parameter_label(sweeps[0].names[0]);
  map.value_label = "ē (cm)";
  map.height_px = std::max(260.0, 120.0 + 36.0 * static_cast<double>(files.size()));
  map.show_values = map.x_values.size() <= 24;  // as in the paper's figure
  return fitting::render_heat_map(map);
}

}  // namespace

int run_plot_command(int argc, char** argv) {
  po::options_description options(kUsage);
  std::string out_path, title;
  std::vector<std::string> files, truth_options;
  options.add_options()("help,h", "show this help")(
      "out,o", po::value(&out_path), "SVG file to write; default: the first CSV with .svg")(
      "title", po::value(&title), "plot title")("truth", po::value(&truth_options)->composing(),
                                                "NAME=VALUE: mark a true parameter value (sweeps)");
  po::options_description hidden;
  hidden.add_options()("files", po::value(&files)->composing());
  po::positional_options_description positional;
  positional.add("files", -1);
  po::variables_map vm;
  if (auto code = parse_command_line("plot", argc, argv, options, hidden, positional, &vm))
    return *code;
  if (files.empty())
    return usage_error("plot", "needs a frames.csv or sweep.csv file");
  std::map<std::string, double> truth;
  for (const std::string& t : truth_options) {
    const std::size_t eq = t.find('=');
    const DecimalNumber n = eq == std::string::npos
                                ? DecimalNumber{}
                                : parse_decimal(std::string_view(t).substr(eq + 1));
    const double v = n.value;
    if (eq == 0 || n.status != DecimalNumber::ok)
      return usage_error("plot", "--truth expects NAME=VALUE, e.g. mu.table=0.3" +
                                     std::string(n.status == DecimalNumber::out_of_range
                                                     ? ", VALUE " + n.expected()
                                                     : "") +
                                     ", not '" + t + "'");
    if (!truth.emplace(t.substr(0, eq), v).second)
      return usage_error("plot", "--truth: '" + t.substr(0, eq) + "' is given more than once");
  }

  std::string svg;
  try {
    std::vector<CsvFile> csvs;
    for (const std::string& f : files)
      csvs.push_back(read_csv(f));
    for (const CsvFile& csv : csvs) {
      if (!is_frames(csv) && sweep_parameters(csv) == 0)
        unknown_header(csv);
    }
    if (csvs.size() == 1 && is_frames(csvs[0])) {
      if (!truth.empty())
        return usage_error("plot",
                           "--truth marks a parameter's true value in a sweep's plot; a "
                           "frames CSV has no parameter axis");
      svg = frames_plot(csvs[0], title);
    } else {
      std::vector<Sweep> sweeps;
      for (const CsvFile& csv : csvs) {
        if (is_frames(csv))
          throw InputError({csv.path, 1, 0, ""},
                           "a frames CSV is plotted on its own; several files must all be "
                           "one-parameter sweep CSVs");
        sweeps.push_back(read_sweep(csv));
        if (!best_row(sweeps.back())) {
          // An interrupted sweep saves the points it did not run as "pending".
          const std::size_t status = sweeps.back().names.size() + kSweepTail.size() - 1;
          const auto pending =
              std::count_if(csv.rows.begin(), csv.rows.end(),
                            [&](const auto& row) { return row[status] == "pending"; });
          std::cerr << "clothfit plot: warning: " << csv.path << ": no point has an error ("
                    << (pending == 0
                            ? std::string("every one failed")
                            : std::to_string(pending) + " of " + std::to_string(csv.rows.size()) +
                                  " pending: an interrupted sweep")
                    << "); the plot shows none\n";
        }
        if (csvs.size() > 1 && sweeps.back().names.size() != 1)
          throw InputError({csv.path, 1, 0, ""},
                           "several files must all be one-parameter sweep CSVs, this one "
                           "varies two");
      }
      for (const auto& [name, value] : truth) {
        if (std::find(sweeps[0].names.begin(), sweeps[0].names.end(), name) ==
            sweeps[0].names.end())
          return usage_error("plot", "--truth names '" + name +
                                         "', which the sweep does not vary (it varies " +
                                         join(sweeps[0].names) + ")");
      }
      if (csvs.size() > 1)
        svg = sweep_rows_map(csvs, sweeps, truth, title);
      else if (sweeps[0].names.size() == 1)
        svg = sweep_line_plot(sweeps[0], truth, title);
      else
        svg = sweep_heat_map(csvs[0], sweeps[0], truth, title);
    }
  } catch (const InputError& e) {
    std::cerr << "clothfit plot: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (out_path.empty())
    out_path = std::filesystem::path(files[0]).replace_extension(".svg").string();
  if (const std::string input = input_named_as_output(out_path, files); !input.empty())
    return usage_error("plot", "--out names the input '" + input + "', which it would overwrite");
  std::ofstream out(out_path);
  if (!out) {  // a missing folder, a folder of that name, no permission: the path is bad input
    std::cerr << "clothfit plot: cannot open " << out_path << " for writing\n";
    return kExitBadInput;
  }
  out << svg << std::flush;  // a full disk shows only at the flush
  if (!out) {
    std::cerr << "clothfit plot: writing " << out_path << " failed (disk full?)\n";
    return kExitFailedRun;
  }
  std::cout << "wrote " << out_path << "\n";
  return kExitOk;
}

}  // namespace clothfit::apps
