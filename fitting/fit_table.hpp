// Fit tables: read the fit.json files `clothfit fit` writes and lay them out as a generic list
// (one row per fit), as the paper's Table 2 (tablecloth: μ, ē, s̄ per material on the low- and
// high-friction table) or Table 3 (hitting: T_rec, ē, s̄, q of both QP solvers, α, δ), each with
// the true values beside the fitted ones when the recording is synthetic. Rendered as Markdown,
// CSV or JSON. A parameter whose profile interval reaches a bound is marked "*" with a footnote.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace clothfit::fitting {

// One parameter of a fit.json ("alpha", "delta", "mu.<obstacle>").
struct FitReportParameter {
  std::string name;
  double value = 0.0;
  bool fitted = false;
  double lower = 0.0;  // search bounds (NaN when the file leaves them out: fixed parameters)
  double upper = 0.0;
  // Where sum(e_n) stays within 5 % (or 2 × noise).
  std::optional<std::pair<double, double>> interval;
  bool pinned = true;  // false: the interval reaches a bound
  std::optional<double> truth;
};

// The content of one fit.json (README "`clothfit fit`").
struct FitReport {
  std::string file;  // where it was read from (for messages)
  std::string name;
  std::string material;
  std::string experiment;  // "tablecloth", "hitting" or another word
  std::string condition;   // "high", "low" or "" (friction of the tablecloth's table)
  std::string recording;
  double recording_seconds = 0.0;
  std::vector<FitReportParameter> parameters;  // in file order
  double objective = 0.0;                      // sum of e_n (m)
  double mean_error_m = 0.0;                   // ē
  double mean_spread_m = 0.0;                  // s̄
  double q = 0.0;  // the optimum's run: steps' wall time / simulated time (active set)
  std::optional<double> q_interior_point;
  // The intervals' relative threshold (fit.json interval_tolerance; absent in older files).
  std::optional<double> interval_tolerance;
  int evaluations = 0;
  double wall_seconds = 0.0;
  std::string termination;

  // The parameter called `name`, or nullptr.
  const FitReportParameter* parameter(const std::string& name) const;
  // The first friction parameter ("mu.*"), preferring a fitted one; nullptr when none.
  const FitReportParameter* friction() const;
};

// Whether `value` misses the true value of parameter `name` by more than the fitting issue's
// recovery tolerance: 0.1 absolute for friction ("mu.*"), 10 % of the truth otherwise (α, δ).
bool misses_truth(const std::string& name, double value, double truth);

// Validates a parsed fit.json; errors are InputError naming `file` and the field.
FitReport parse_fit_report(const nlohmann::json& json, const std::string& file);
// Reads and validates a fit.json file.
FitReport read_fit_report(const std::string& path);

enum class TableLayout { automatic, list, tablecloth, hitting };
enum class TableFormat { markdown, csv, json };

// automatic → tablecloth when every fit is a tablecloth fit, hitting when every one is a hitting
// fit, list otherwise (also for no fits). Other layouts are returned unchanged.
TableLayout resolve_layout(TableLayout layout, const std::vector<FitReport>& fits);

// A table of text cells with footnotes (shown below the Markdown table, in JSON's "notes").
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // each of columns.size() cells
  std::vector<std::string> notes;
};

// One row per fit: name, material, each parameter (value [interval], * when not pinned), its
// truth when any fit has one, ē (cm), s̄ (cm), q, evaluations, wall time (s).
Table make_list_table(const std::vector<FitReport>& fits);
// Paper Table 2: one row per material (first-appearance order); μ, ē, s̄ on the low- and the
// high-friction table. Throws InputError when a fit is not a tablecloth fit, its condition is not
// low/high, it has no friction parameter, or a material has two fits for one condition.
Table make_tablecloth_table(const std::vector<FitReport>& fits);
// Paper Table 3: one row per fit: material, T_rec (s), ē, s̄ (cm), q (active set), q (interior
// point), α, δ with truth. Throws InputError when a fit is not a hitting fit.
Table make_hitting_table(const std::vector<FitReport>& fits);
// The table for a resolved layout.
Table make_table(TableLayout layout, const std::vector<FitReport>& fits);

// Markdown: a pipe table then the notes; CSV: header and rows (RFC 4180 quoting, notes left
// out); JSON: {"columns": [...], "rows": [{column: cell}], "notes": [...]}.
std::string render_table(const Table& table, TableFormat format);

}  // namespace clothfit::fitting
