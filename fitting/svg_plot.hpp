// SVG plots without dependencies: line plots (e_n and s_n over time with contact intervals shaded,
// ē over a 1-D parameter sweep) and heat maps (ē over a 2-D sweep, or the paper's Fig. 7 with one
// row per recording). Each render_* function returns a complete, standalone SVG document.
// Axes get "nice" ticks (1, 2, 2.5 or 5 × 10^k), labels are XML-escaped.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clothfit::fitting {

// Ticks of one axis: the range [lower, upper] extended to multiples of `step`, and the tick
// values from lower to upper (both included).
struct AxisTicks {
  double lower = 0.0;
  double upper = 1.0;
  double step = 0.2;
  std::vector<double> values;
};

// Nice ticks covering [lo, hi] with about `target_count` intervals. lo == hi (or a non-finite
// range) gives a small range around the value. Requires target_count >= 1.
AxisTicks nice_ticks(double lo, double hi, int target_count = 5);

// A tick label: as few decimals as `step` needs ("0.25", "100", "1e-05" for tiny or huge values).
std::string format_tick(double value, double step);

// Escapes &, <, >, " and ' for XML text and attribute values.
std::string escape_xml(std::string_view text);

struct Rgb {
  int r = 0, g = 0, b = 0;  // 0..255
};
// The heat-map colour scale (viridis-like): t = 0 is dark purple, t = 1 yellow, clamped to
// [0, 1]; NaN gives kMissingColour (grey).
Rgb colour_map(double t);
inline constexpr Rgb kMissingColour{190, 190, 190};
// "#rrggbb".
std::string to_hex(Rgb colour);

struct LineSeries {
  std::string label;
  std::vector<double> x;  // (n)
  std::vector<double> y;  // (n); NaN breaks the line
  std::string colour;     // "#rrggbb"; empty: taken from a default palette
  bool dashed = false;
  bool points = false;  // draw a dot at each point (useful for coarse sweeps)
};

// An x interval [from, to] drawn as a shaded band (e.g. frames with contact).
struct XInterval {
  double from = 0.0;
  double to = 0.0;
};

// A vertical line at x with a label at its top (e.g. the optimum or the true value).
struct VerticalMarker {
  double x = 0.0;
  std::string label;
  std::string colour = "#c00000";
  bool dashed = true;
};

struct LinePlot {
  std::string title;
  std::string x_label;  // with unit, e.g. "time (s)"
  std::string y_label;
  std::vector<LineSeries> series;
  std::vector<XInterval> shaded;  // light yellow bands, as in the paper's figures
  std::string shaded_label;       // legend entry for the bands (none when empty)
  std::vector<VerticalMarker> markers;
  bool y_from_zero = true;  // include y = 0 in the y range
  double width_px = 720.0;
  double height_px = 420.0;
};

std::string render_line_plot(const LinePlot& plot);

// A cell of a heat map: column ix (x index), row iy (y index).
struct HeatCell {
  std::size_t ix = 0;
  std::size_t iy = 0;
};

struct HeatMap {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::string value_label;            // colour-bar label with unit, e.g. "ē (cm)"
  std::vector<double> x_values;       // (nx) column values, increasing
  std::vector<double> y_values;       // (ny) row values, increasing; ignored when y_labels is set
  std::vector<std::string> y_labels;  // (ny) row names instead of numbers (Fig. 7: recordings)
  std::vector<double> values;         // (ny × nx) row-major: values[iy * nx + ix]; NaN: grey cell
  std::vector<HeatCell> circled;      // red circles (the optimum, or each row's minimum)
  std::optional<double> truth_x;      // true parameter values: a white cross (or a vertical line
  std::optional<double> truth_y;      // when only truth_x is given), placed by interpolation
  bool show_values = false;           // print each value in its cell (small grids)
  double width_px = 720.0;
  double height_px = 480.0;
};

// Number of rows of a heat map: y_labels.size() when set, else y_values.size().
std::size_t heat_map_rows(const HeatMap& map);
// The cell with the smallest finite value; nullopt when all are NaN.
std::optional<HeatCell> minimum_cell(const HeatMap& map);
// The smallest finite value of each row (rows of NaN only are skipped).
std::vector<HeatCell> row_minima(const HeatMap& map);

// Throws std::invalid_argument when the sizes do not match (programmer mistake).
std::string render_heat_map(const HeatMap& map);

}  // namespace clothfit::fitting
