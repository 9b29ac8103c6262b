#include "fitting/fit_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "core/io/input_error.hpp"
#include "core/io/json_object.hpp"

namespace clothfit::fitting {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr const char* kNotPinnedNote =
    "* not pinned down by the recording: the interval where sum(e_n) stays within its threshold "
    "of the minimum reaches a search bound";
constexpr const char* kMissedNote =
    "† missed: farther from the truth than the fitting tolerance (α, δ: 10 %; μ: 0.1), and the "
    "truth lies outside the interval";
constexpr const char* kUnresolvedNote =
    "‡ missed, but the truth lies inside the interval: the recording does not pin the parameter "
    "down to the fitting tolerance";
// The fitting issue's recovery tolerances.
constexpr double kRelativeTolerance = 0.10;  // α, δ
constexpr double kFrictionTolerance = 0.1;   // μ, absolute

// Footnote marks a table used.
struct Marks {
  bool not_pinned = false;
  bool missed = false;
  bool unresolved = false;
  void add_notes(std::vector<std::string>* notes) const {
    if (not_pinned)
      notes->push_back(kNotPinnedNote);
    if (missed)
      notes->push_back(kMissedNote);
    if (unresolved)
      notes->push_back(kUnresolvedNote);
  }
};

// A number field that may be null (NaN written by the fitter) → NaN.
double number_or_nan(const JsonObject& o, const std::string& key, Range range = Range::any()) {
  if (o.has(key) && o.raw(key).is_null())
    return kNaN;
  return o.number(key, range);
}

std::string format(const char* pattern, double v) {
  if (!std::isfinite(v))
    return "n/a";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, v);
  return buffer;
}

std::string significant(double v) {
  return format("%.3g", v);
}
std::string centimetres(double metres) {
  return format("%.2f", 100.0 * metres);
}

// "α", "δ", "μ (table)" for alpha, delta, mu.table; other names unchanged.
std::string display_name(const std::string& name) {
  if (name == "alpha")
    return "α";
  if (name == "delta")
    return "δ";
  if (name.rfind("mu.", 0) == 0)
    return "μ (" + name.substr(3) + ")";
  return name;
}

// Whether a fitted parameter with a known truth misses it (misses_truth).
bool missed(const FitReportParameter& p) {
  return p.fitted && p.truth && misses_truth(p.name, p.value, *p.truth);
}

// "0.21 [0.15, 0.3]", "0.8 [0.5, 2]*" when not pinned, "0.5 (fixed)" when not fitted; when it
// misses its truth (missed()) "‡" if the truth lies inside the interval (the recording cannot
// tell them apart to the tolerance), else "†".
std::string parameter_cell(const FitReportParameter& p, Marks* marks) {
  std::string cell = significant(p.value);
  if (!p.fitted)
    return cell + " (fixed)";
  if (p.interval)
    cell += " [" + significant(p.interval->first) + ", " + significant(p.interval->second) + "]";
  if (!p.pinned) {
    cell += "*";
    marks->not_pinned = true;
  }
  if (missed(p)) {
    if (p.interval && p.interval->first <= *p.truth && *p.truth <= p.interval->second) {
      cell += "‡";
      marks->unresolved = true;
    } else {
      cell += "†";
      marks->missed = true;
    }
  }
  return cell;
}

std::string truth_cell(const FitReportParameter* p) {
  return p != nullptr && p->truth ? significant(*p->truth) : "";
}

std::string mu_label(const FitReport& fit) {
  const FitReportParameter* mu = fit.friction();
  return mu != nullptr ? mu->name.substr(3) : "";
}

[[noreturn]] void fail(const FitReport& fit, const std::string& field, const std::string& problem) {
  throw InputError(InputLocation{fit.file, 0, 0, field}, problem);
}

std::string csv_cell(const std::string& cell) {
  if (cell.find_first_of(",\"\n\r") == std::string::npos)
    return cell;
  std::string out = "\"";
  for (char c : cell) {
    if (c == '"')
      out += '"';
    out += c;
  }
  return out + "\"";
}

std::string markdown_cell(const std::string& cell) {
  std::string out;
  for (char c : cell) {
    if (c == '|' || c == '*')  // table separator; emphasis
      out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

}  // namespace

bool misses_truth(const std::string& name, double value, double truth) {
  const double error = std::abs(value - truth);
  return name.rfind("mu.", 0) == 0 ? error > kFrictionTolerance
                                   : error > kRelativeTolerance * std::abs(truth);
}

const FitReportParameter* FitReport::parameter(const std::string& parameter_name) const {
  for (const FitReportParameter& p : parameters) {
    if (p.name == parameter_name)
      return &p;
  }
  return nullptr;
}

const FitReportParameter* FitReport::friction() const {
  const FitReportParameter* first = nullptr;
  for (const FitReportParameter& p : parameters) {
    if (p.name.rfind("mu.", 0) != 0)
      continue;
    if (p.fitted)
      return &p;
    if (first == nullptr)
      first = &p;
  }
  return first;
}

FitReport parse_fit_report(const nlohmann::json& json, const std::string& file) {
  const JsonObject root(json, file);
  FitReport fit;
  fit.file = file;
  fit.name = root.string("name");
  fit.material = root.string("material");
  fit.experiment = root.string("experiment");
  fit.condition =
      root.has("condition") && root.raw("condition").is_null() ? "" : root.string("condition", "");
  fit.recording = root.string("recording", "");
  fit.recording_seconds = root.number("recording_seconds", Range::non_negative());
  const JsonObject parameters = root.object("parameters");
  for (const auto& [key, value] : root.raw("parameters").items()) {
    const JsonObject p = parameters.object(key);
    FitReportParameter out;
    out.name = key;
    // α, δ and every μ are ≥ 0, and a fitted value lies within its search bounds and its
    // interval, the interval within the bounds: a file that says otherwise is not the fitter's.
    out.value = number_or_nan(p, "value", Range::non_negative());
    out.fitted = p.boolean("fitted");
    if (out.fitted && !(p.has("lower") && p.has("upper")))
      p.fail(p.has("lower") ? "upper" : "lower",
             "expected the search bounds of a fitted parameter");
    out.lower = p.has("lower") ? p.number("lower", Range::non_negative()) : kNaN;
    out.upper = p.has("upper") ? p.number("upper", Range::non_negative()) : kNaN;
    const bool bounded = std::isfinite(out.lower) && std::isfinite(out.upper);
    if (bounded && out.lower > out.upper)
      p.fail("upper", "expected upper >= lower (" + significant(out.lower) + "), found " +
                          significant(out.upper));
    if (bounded && out.fitted && std::isfinite(out.value) &&
        (out.value < out.lower || out.value > out.upper))
      p.fail("value", "expected a value within the search bounds [" + significant(out.lower) +
                          ", " + significant(out.upper) + "], found " + significant(out.value));
    if (p.has("interval") && !p.raw("interval").is_null()) {
      if (!p.raw("interval").is_array() || p.array_size("interval") != 2)
        p.fail("interval", "expected [lower, upper]");
      const double a = p.number_at("interval", 0);
      const double b = p.number_at("interval", 1);
      if (a > b)
        p.fail("interval",
               "expected lower <= upper, found [" + significant(a) + ", " + significant(b) + "]");
      out.interval = std::make_pair(a, b);
      // The fitter widens the interval to contain the optimum: a value outside is not its file.
      if (std::isfinite(out.value) && (out.value < a || out.value > b))
        p.fail("interval", "expected an interval containing the value " + significant(out.value) +
                               ", found [" + significant(a) + ", " + significant(b) + "]");
      if (bounded && (a < out.lower || b > out.upper))
        p.fail("interval", "expected an interval within the search bounds [" +
                               significant(out.lower) + ", " + significant(out.upper) +
                               "], found [" + significant(a) + ", " + significant(b) + "]");
    }
    out.pinned = p.boolean("pinned", true);
    // Pinned is what the bound flags say (ParameterInterval::pinned): a file claiming a pinned
    // parameter whose interval reaches a bound would lose the table's "*".
    if (out.interval && p.has("interval_reaches_lower_bound") &&
        p.has("interval_reaches_upper_bound")) {
      const bool at_lower = p.boolean("interval_reaches_lower_bound");
      const bool at_upper = p.boolean("interval_reaches_upper_bound");
      const bool pinned = !(at_lower && out.interval->first > 0.0) && !at_upper;
      if (p.has("pinned") && out.pinned != pinned)
        p.fail("pinned", std::string("expected ") + (pinned ? "true" : "false") +
                             " as the interval's bound flags say, found " +
                             (out.pinned ? "true" : "false"));
    }
    if (p.has("truth") && !p.raw("truth").is_null())
      out.truth = p.number("truth", Range::non_negative());
    fit.parameters.push_back(out);
  }
  // Sums and means of distances, and ratios of times: none is negative.
  fit.objective = number_or_nan(root, "objective", Range::non_negative());
  fit.mean_error_m = number_or_nan(root, "mean_error_m", Range::non_negative());
  fit.mean_spread_m = number_or_nan(root, "mean_spread_m", Range::non_negative());
  fit.q = number_or_nan(root, "q", Range::non_negative());
  if (root.has("q_interior_point") && !root.raw("q_interior_point").is_null())
    fit.q_interior_point = root.number("q_interior_point", Range::non_negative());
  if (root.has("interval_tolerance"))
    fit.interval_tolerance = root.number("interval_tolerance", Range::positive());
  fit.evaluations = root.integer("evaluations", 0, Range::non_negative());
  fit.wall_seconds = root.number("wall_seconds", 0.0, Range::non_negative());
  fit.termination = root.string("termination", "");
  return fit;
}

FitReport read_fit_report(const std::string& path) {
  return parse_fit_report(read_json_file(path), path);
}

TableLayout resolve_layout(TableLayout layout, const std::vector<FitReport>& fits) {
  if (layout != TableLayout::automatic)
    return layout;
  if (fits.empty())
    return TableLayout::list;
  auto all = [&](const char* experiment) {
    return std::all_of(fits.begin(), fits.end(),
                       [&](const FitReport& f) { return f.experiment == experiment; });
  };
  if (all("tablecloth"))
    return TableLayout::tablecloth;
  if (all("hitting"))
    return TableLayout::hitting;
  return TableLayout::list;
}

// What q is, for the notes: the run at the optimum's step time (RunSummary::q).
constexpr const char* kQMeaning = "wall-clock time of the steps over simulated time";

// The intervals' threshold as the fits give it ("5 %", "5–16 %"); for fits that do not say (older
// fit.json files), the default rule.
std::string threshold_phrase(const std::vector<FitReport>& fits) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (const FitReport& f : fits) {
    if (!f.interval_tolerance)
      return "5 %, or twice the objective's noise when larger,";
    lo = std::min(lo, *f.interval_tolerance);
    hi = std::max(hi, *f.interval_tolerance);
  }
  if (fits.empty())
    return "the fit's threshold";
  const std::string low = format("%.3g", 100.0 * lo), high = format("%.3g", 100.0 * hi);
  return low == high ? low + " %" : low + "–" + high + " % (each fit's own threshold)";
}

Table make_list_table(const std::vector<FitReport>& fits) {
  // Parameter columns: the union of names in first-appearance order.
  std::vector<std::string> names;
  std::vector<bool> has_truth;
  for (const FitReport& f : fits) {
    for (const FitReportParameter& p : f.parameters) {
      auto it = std::find(names.begin(), names.end(), p.name);
      if (it == names.end()) {
        names.push_back(p.name);
        has_truth.push_back(false);
        it = names.end() - 1;
      }
      if (p.truth)
        has_truth[static_cast<std::size_t>(it - names.begin())] = true;
    }
  }
  Table table;
  table.columns = {"name", "material"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    table.columns.push_back(display_name(names[i]));
    if (has_truth[i])
      table.columns.push_back(display_name(names[i]) + " truth");
  }
  for (const char* c : {"ē (cm)", "s̄ (cm)", "q", "evaluations", "wall (s)"})
    table.columns.push_back(c);
  Marks marks;
  for (const FitReport& f : fits) {
    std::vector<std::string> row = {f.name, f.material};
    for (std::size_t i = 0; i < names.size(); ++i) {
      const FitReportParameter* p = f.parameter(names[i]);
      row.push_back(p != nullptr ? parameter_cell(*p, &marks) : "");
      if (has_truth[i])
        row.push_back(truth_cell(p));
    }
    row.push_back(centimetres(f.mean_error_m));
    row.push_back(centimetres(f.mean_spread_m));
    row.push_back(format("%.3f", f.q));
    row.push_back(std::to_string(f.evaluations));
    row.push_back(format("%.1f", f.wall_seconds));
    table.rows.push_back(std::move(row));
  }
  table.notes.push_back("value [interval within " + threshold_phrase(fits) +
                        " of the minimum of sum(e_n)]; q: " + kQMeaning);
  marks.add_notes(&table.notes);
  return table;
}

Table make_tablecloth_table(const std::vector<FitReport>& fits) {
  struct Row {
    std::string material;
    const FitReport* low = nullptr;
    const FitReport* high = nullptr;
  };
  std::vector<Row> rows;
  bool any_truth = false;
  std::vector<std::string> obstacles;
  for (const FitReport& f : fits) {
    if (f.experiment != "tablecloth")
      fail(f, "experiment",
           "the tablecloth layout needs tablecloth fits, found '" + f.experiment +
               "' (use --layout list)");
    if (f.condition != "low" && f.condition != "high")
      fail(f, "condition",
           "expected \"low\" or \"high\" for the tablecloth layout, found \"" + f.condition + "\"");
    const FitReportParameter* mu = f.friction();
    if (mu == nullptr)
      fail(f, "parameters", "the tablecloth layout needs a friction parameter mu.<obstacle>");
    // One μ column per condition: with two fitted (or, none fitted, two fixed) friction
    // parameters the column would show one of them, the other dropped without a word.
    std::vector<std::string> candidates;
    for (const FitReportParameter& p : f.parameters) {
      if (p.name.rfind("mu.", 0) == 0 && p.fitted == mu->fitted)
        candidates.push_back(p.name);
    }
    if (candidates.size() > 1)
      fail(f, "parameters",
           "the tablecloth layout needs one " + std::string(mu->fitted ? "fitted " : "") +
               "friction parameter, found " + candidates[0] + " and " + candidates[1] +
               (candidates.size() > 2 ? " (and more)" : "") + " (use --layout list)");
    any_truth = any_truth || mu->truth.has_value();
    if (std::find(obstacles.begin(), obstacles.end(), mu_label(f)) == obstacles.end())
      obstacles.push_back(mu_label(f));
    auto it = std::find_if(rows.begin(), rows.end(),
                           [&](const Row& r) { return r.material == f.material; });
    if (it == rows.end()) {
      rows.push_back({f.material});
      it = rows.end() - 1;
    }
    const FitReport*& slot = f.condition == "low" ? it->low : it->high;
    if (slot != nullptr)
      fail(f, "condition",
           "material '" + f.material + "' already has a " + f.condition + "-friction fit (" +
               slot->file + ")");
    slot = &f;
  }
  Table table;
  table.columns = {"material"};
  for (const char* condition : {"low", "high"}) {
    const std::string c = condition;
    table.columns.push_back("μ_" + c);
    if (any_truth)
      table.columns.push_back("μ_" + c + " truth");
    table.columns.push_back("ē_" + c + " (cm)");
    table.columns.push_back("s̄_" + c + " (cm)");
  }
  Marks marks;
  for (const Row& r : rows) {
    std::vector<std::string> cells = {r.material};
    for (const FitReport* f : {r.low, r.high}) {
      if (f == nullptr) {
        cells.insert(cells.end(), any_truth ? 4 : 3, "");
        continue;
      }
      cells.push_back(parameter_cell(*f->friction(), &marks));
      if (any_truth)
        cells.push_back(truth_cell(f->friction()));
      cells.push_back(centimetres(f->mean_error_m));
      cells.push_back(centimetres(f->mean_spread_m));
    }
    table.rows.push_back(std::move(cells));
  }
  if (obstacles.size() == 1)
    table.notes.push_back("μ: friction coefficient of the cloth on '" + obstacles[0] +
                          "'; value [interval within " + threshold_phrase(fits) +
                          " of the minimum of sum(e_n)]");
  marks.add_notes(&table.notes);
  return table;
}

Table make_hitting_table(const std::vector<FitReport>& fits) {
  bool truth_alpha = false, truth_delta = false;
  for (const FitReport& f : fits) {
    if (f.experiment != "hitting")
      fail(f, "experiment",
           "the hitting layout needs hitting fits, found '" + f.experiment +
               "' (use --layout list)");
    const FitReportParameter* a = f.parameter("alpha");
    const FitReportParameter* d = f.parameter("delta");
    truth_alpha = truth_alpha || (a != nullptr && a->truth);
    truth_delta = truth_delta || (d != nullptr && d->truth);
  }
  Table table;
  table.columns = {"material",     "T_rec (s)",        "ē (cm)", "s̄ (cm)",
                   "q active set", "q interior point", "α"};
  if (truth_alpha)
    table.columns.push_back("α truth");
  table.columns.push_back("δ");
  if (truth_delta)
    table.columns.push_back("δ truth");
  Marks marks;
  for (const FitReport& f : fits) {
    std::vector<std::string> row = {f.material,
                                    format("%.1f", f.recording_seconds),
                                    centimetres(f.mean_error_m),
                                    centimetres(f.mean_spread_m),
                                    format("%.2f", f.q),
                                    f.q_interior_point ? format("%.2f", *f.q_interior_point) : ""};
    for (const char* name : {"alpha", "delta"}) {
      const FitReportParameter* p = f.parameter(name);
      row.push_back(p != nullptr ? parameter_cell(*p, &marks) : "");
      if ((name == std::string("alpha") && truth_alpha) ||
          (name == std::string("delta") && truth_delta))
        row.push_back(truth_cell(p));
    }
    table.rows.push_back(std::move(row));
  }
  table.notes.push_back("q: " + std::string(kQMeaning) +
                        "; α: damping, δ: virtual density; value [interval within " +
                        threshold_phrase(fits) + " of the minimum of sum(e_n)]");
  marks.add_notes(&table.notes);
  return table;
}

Table make_table(TableLayout layout, const std::vector<FitReport>& fits) {
  switch (resolve_layout(layout, fits)) {
    case TableLayout::tablecloth:
      return make_tablecloth_table(fits);
    case TableLayout::hitting:
      return make_hitting_table(fits);
    default:
      return make_list_table(fits);
  }
}

std::string render_table(const Table& table, TableFormat format) {
  std::ostringstream out;
  switch (format) {
    case TableFormat::markdown: {
      out << "|";
      for (const std::string& c : table.columns)
        out << " " << markdown_cell(c) << " |";
      out << "\n|";
      for (std::size_t i = 0; i < table.columns.size(); ++i)
        out << (i < 2 ? " --- |" : " ---: |");
      out << "\n";
      for (const auto& row : table.rows) {
        out << "|";
        for (const std::string& c : row)
          out << " " << markdown_cell(c) << " |";
        out << "\n";
      }
      // Each note its own paragraph; a leading '*' escaped so that it is not a list bullet.
      for (const std::string& n : table.notes)
        out << "\n" << (n.rfind('*', 0) == 0 ? "\\" : "") << n << "\n";
      break;
    }
    case TableFormat::csv: {
      for (std::size_t i = 0; i < table.columns.size(); ++i)
        out << (i ? "," : "") << csv_cell(table.columns[i]);
      out << "\n";
      for (const auto& row : table.rows) {
        for (std::size_t i = 0; i < row.size(); ++i)
          out << (i ? "," : "") << csv_cell(row[i]);
        out << "\n";
      }
      break;
    }
    case TableFormat::json: {
      nlohmann::json j;
      j["columns"] = table.columns;
      j["rows"] = nlohmann::json::array();
      for (const auto& row : table.rows) {
        nlohmann::json r = nlohmann::json::object();
        for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i)
          r[table.columns[i]] = row[i];
        j["rows"].push_back(r);
      }
      j["notes"] = table.notes;
      out << j.dump(2) << "\n";
      break;
    }
  }
  return out.str();
}

}  // namespace clothfit::fitting
