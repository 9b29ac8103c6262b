#include "fitting/svg_plot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace clothfit::fitting {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::array<const char*, 6> kPalette = {"#1f4e99", "#d9531e", "#2a9d3f",
                                                 "#7b3fa0", "#8c564b", "#17a2b8"};
constexpr const char* kShadeColour = "#fff3b0";  // light yellow, as in the paper's figures

// A pixel coordinate with two decimals.
std::string px(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", v);
  return buffer;
}

void open_document(std::ostringstream& out, double width, double height) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(width) << "\" height=\""
      << px(height) << "\" viewBox=\"0 0 " << px(width) << " " << px(height)
      << "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
      << "<rect x=\"0\" y=\"0\" width=\"" << px(width) << "\" height=\"" << px(height)
      << "\" fill=\"white\"/>\n";
}

void text(std::ostringstream& out, double x, double y, std::string_view content,
          const char* anchor = "middle", const std::string& extra = "") {
  out << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" text-anchor=\"" << anchor << "\""
      << (extra.empty() ? "" : " ") << extra << ">" << escape_xml(content) << "</text>\n";
}

void line(std::ostringstream& out, double x0, double y0, double x1, double y1,
          const std::string& stroke, double width = 1.0, bool dashed = false) {
  out << "<line x1=\"" << px(x0) << "\" y1=\"" << px(y0) << "\" x2=\"" << px(x1) << "\" y2=\""
      << px(y1) << "\" stroke=\"" << stroke << "\" stroke-width=\"" << px(width) << "\""
      << (dashed ? " stroke-dasharray=\"5,4\"" : "") << "/>\n";
}

void rect(std::ostringstream& out, double x, double y, double w, double h, const std::string& fill,
          const std::string& extra = "") {
  out << "<rect x=\"" << px(x) << "\" y=\"" << px(y) << "\" width=\"" << px(std::max(w, 0.0))
      << "\" height=\"" << px(std::max(h, 0.0)) << "\" fill=\"" << fill << "\""
      << (extra.empty() ? "" : " ") << extra << "/>\n";
}

// The attribute that turns text by -90° about (x, y) (vertical axis labels).
std::string rotated_attribute(double x, double y) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "transform=\"rotate(-90 %.2f %.2f)\"", x, y);
  return buffer;
}

// A grid value as a column or row label: four significant digits ("0.05", "0.3333", "1e+03").
std::string grid_label(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

// A cell value: three significant digits ("1.32", "0.0841").
std::string cell_label(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", v);
  return buffer;
}

// Decimals needed so that multiples of `step` print exactly (at most 8).
int decimals_for(double step) {
  step = std::abs(step);
  if (!(step > 0) || !std::isfinite(step))
    return 2;
  for (int d = 0; d <= 8; ++d) {
    const double scaled = step * std::pow(10.0, d);
    if (std::abs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
      return d;
  }
  return 8;
}

// Finite minimum and maximum of values; nullopt when none is finite.
std::optional<std::pair<double, double>> finite_range(const std::vector<double>& values) {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (double v : values) {
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (lo > hi)
    return std::nullopt;
  return std::make_pair(lo, hi);
}

// Maps an index-space position of value v on increasing `grid` (cell centres at 0, 1, ...);
// nullopt when v is outside the grid.
std::optional<double> grid_position(const std::vector<double>& grid, double v) {
  if (grid.empty() || !std::isfinite(v))
    return std::nullopt;
  if (grid.size() == 1)
    return std::abs(v - grid[0]) <= 1e-12 * std::max(1.0, std::abs(v)) ? std::optional(0.0)
                                                                       : std::nullopt;
  if (v < grid.front() || v > grid.back())
    return std::nullopt;
  for (std::size_t i = 0; i + 1 < grid.size(); ++i) {
    if (v <= grid[i + 1]) {
      const double span = grid[i + 1] - grid[i];
      return static_cast<double>(i) + (span > 0 ? (v - grid[i]) / span : 0.0);
    }
  }
  return static_cast<double>(grid.size() - 1);
}

}  // namespace

AxisTicks nice_ticks(double lo, double hi, int target_count) {
  if (target_count < 1)
    throw std::invalid_argument("nice_ticks: target_count must be >= 1");
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    lo = 0.0;
    hi = 1.0;
  }
  if (lo > hi)
    std::swap(lo, hi);
  if (hi - lo <= 1e-12 * std::max(std::abs(lo), std::abs(hi))) {
    const double pad = lo == 0.0 ? 1.0 : 0.1 * std::abs(lo);
    lo -= pad;
    hi += pad;
  }
  const double raw = (hi - lo) / target_count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10.0 * magnitude;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * magnitude >= raw * (1 - 1e-9)) {
      step = m * magnitude;
      break;
    }
  }
  const double first = std::floor(lo / step + 1e-9);
  const double last = std::ceil(hi / step - 1e-9);
  AxisTicks ticks;
  ticks.step = step;
  ticks.lower = first * step;
  ticks.upper = last * step;
  for (double k = first; k <= last + 0.5; k += 1.0) {
    const double v = k * step;
    ticks.values.push_back(v == 0.0 ? 0.0 : v);  // no "-0"
  }
  return ticks;
}

std::string format_tick(double value, double step) {
  if (!std::isfinite(value))
    return "nan";
  char buffer[48];
  const double a = std::abs(value);
  if (a != 0.0 && (a >= 1e6 || std::abs(step) < 1e-4)) {
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals_for(step), value);
  }
  std::string s = buffer;
  if (s.find_first_not_of("-0.") == std::string::npos && s.front() == '-')
    s.erase(0, 1);  // "-0.00" → "0.00"
  return s;
}

std::string escape_xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

Rgb colour_map(double t) {
  if (std::isnan(t))
    return kMissingColour;
  // Five anchors of matplotlib's viridis.
  static constexpr std::array<Rgb, 5> kAnchors = {
      Rgb{68, 1, 84}, Rgb{59, 82, 139}, Rgb{33, 145, 140}, Rgb{94, 201, 98}, Rgb{253, 231, 37}};
  t = std::clamp(t, 0.0, 1.0);
  const double s = t * (kAnchors.size() - 1);
  const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(s), kAnchors.size() - 2);
  const double f = s - static_cast<double>(i);
  auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + f * (b - a))); };
  return {mix(kAnchors[i].r, kAnchors[i + 1].r), mix(kAnchors[i].g, kAnchors[i + 1].g),
          mix(kAnchors[i].b, kAnchors[i + 1].b)};
}

std::string to_hex(Rgb colour) {
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", std::clamp(colour.r, 0, 255),
                std::clamp(colour.g, 0, 255), std::clamp(colour.b, 0, 255));
  return buffer;
}

std::string render_line_plot(const LinePlot& plot) {
  const double left = 72, right = 20, top = plot.title.empty() ? 20 : 40, bottom = 56;
  const double x0 = left, x1 = plot.width_px - right;
  const double y0 = plot.height_px - bottom, y1 = top;  // y0: bottom edge of the plot area

  std::vector<double> xs, ys;
  for (const LineSeries& s : plot.series) {
    if (s.x.size() != s.y.size())
      throw std::invalid_argument("render_line_plot: series '" + s.label +
                                  "' has x and y of different lengths");
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) {
        xs.push_back(s.x[i]);
        ys.push_back(s.y[i]);
      }
    }
  }
  for (const VerticalMarker& m : plot.markers)
    xs.push_back(m.x);
  if (plot.y_from_zero)
    ys.push_back(0.0);
  const auto xr = finite_range(xs).value_or(std::make_pair(0.0, 1.0));
  const auto yr = finite_range(ys).value_or(std::make_pair(0.0, 1.0));
  const AxisTicks xt = nice_ticks(xr.first, xr.second, 8);
  const AxisTicks yt = nice_ticks(yr.first, yr.second, 5);
  auto sx = [&](double x) { return x0 + (x - xt.lower) / (xt.upper - xt.lower) * (x1 - x0); };
  auto sy = [&](double y) { return y0 - (y - yt.lower) / (yt.upper - yt.lower) * (y0 - y1); };

  std::ostringstream out;
  open_document(out, plot.width_px, plot.height_px);
  if (!plot.title.empty())
    text(out, (x0 + x1) / 2, 24, plot.title, "middle", "font-size=\"15\" font-weight=\"bold\"");
  for (const XInterval& band : plot.shaded) {
    const double a = std::clamp(sx(std::min(band.from, band.to)), x0, x1);
    const double b = std::clamp(sx(std::max(band.from, band.to)), x0, x1);
    rect(out, a, y1, std::max(b - a, 0.5), y0 - y1, kShadeColour);
  }
  // Grid and ticks.
  for (double v : xt.values) {
    line(out, sx(v), y0, sx(v), y1, "#e4e4e4");
    line(out, sx(v), y0, sx(v), y0 + 5, "black");
    text(out, sx(v), y0 + 19, format_tick(v, xt.step));
  }
  for (double v : yt.values) {
    line(out, x0, sy(v), x1, sy(v), "#e4e4e4");
    line(out, x0 - 5, sy(v), x0, sy(v), "black");
    text(out, x0 - 8, sy(v) + 4, format_tick(v, yt.step), "end");
  }
  rect(out, x0, y1, x1 - x0, y0 - y1, "none", "stroke=\"black\"");
  text(out, (x0 + x1) / 2, plot.height_px - 14, plot.x_label);
  const double ly = (y0 + y1) / 2;
  text(out, 18, ly, plot.y_label, "middle", rotated_attribute(18, ly));

  // Series: one path, broken at NaN.
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    const LineSeries& s = plot.series[k];
    const std::string colour = s.colour.empty() ? kPalette[k % kPalette.size()] : s.colour;
    std::string d;
    bool pen_down = false;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) {
        pen_down = false;
        continue;
      }
      d += pen_down ? 'L' : 'M';
      d += px(sx(s.x[i]));
      d += ' ';
      d += px(sy(s.y[i]));
      d += ' ';
      pen_down = true;
    }
    if (!d.empty()) {
      d.pop_back();
      out << "<path d=\"" << d << "\" fill=\"none\" stroke=\"" << colour
          << "\" stroke-width=\"1.8\"" << (s.dashed ? " stroke-dasharray=\"6,4\"" : "") << "/>\n";
    }
    if (s.points) {
      for (std::size_t i = 0; i < s.x.size(); ++i) {
        if (std::isfinite(s.x[i]) && std::isfinite(s.y[i]))
          out << "<circle cx=\"" << px(sx(s.x[i])) << "\" cy=\"" << px(sy(s.y[i]))
              << "\" r=\"2.8\" fill=\"" << colour << "\"/>\n";
      }
    }
  }
  for (std::size_t k = 0; k < plot.markers.size(); ++k) {
    const VerticalMarker& m = plot.markers[k];
    line(out, sx(m.x), y0, sx(m.x), y1, m.colour, 1.4, m.dashed);
    text(out, sx(m.x) + 4, y1 + 14 + 14 * static_cast<double>(k), m.label, "start",
         "fill=\"" + m.colour + "\"");
  }
  // Legend (top right, inside the plot area).
  std::vector<std::pair<std::string, std::string>> entries;  // label, colour
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    if (!plot.series[k].label.empty())
      entries.emplace_back(plot.series[k].label, plot.series[k].colour.empty()
                                                     ? kPalette[k % kPalette.size()]
                                                     : plot.series[k].colour);
  }
  const bool band_entry = !plot.shaded_label.empty() && !plot.shaded.empty();
  const std::size_t rows = entries.size() + (band_entry ? 1 : 0);
  if (rows > 0) {
    std::size_t longest = 0;
    for (const auto& e : entries)
      longest = std::max(longest, e.first.size());
    if (band_entry)
      longest = std::max(longest, plot.shaded_label.size());
    const double w = 36 + 7.0 * static_cast<double>(longest);
    const double lx = x1 - w - 8, ly0 = y1 + 8;
    rect(out, lx, ly0, w, 18.0 * static_cast<double>(rows) + 6, "white",
         "fill-opacity=\"0.85\" stroke=\"#999999\"");
    double y = ly0 + 15;
    for (const auto& e : entries) {
      line(out, lx + 6, y - 4, lx + 26, y - 4, e.second, 2.0);
      text(out, lx + 30, y, e.first, "start");
      y += 18;
    }
    if (band_entry) {
      rect(out, lx + 6, y - 10, 20, 10, kShadeColour, "stroke=\"#d8c060\"");
      text(out, lx + 30, y, plot.shaded_label, "start");
    }
  }
  out << "</svg>\n";
  return out.str();
}

std::size_t heat_map_rows(const HeatMap& map) {
  return map.y_labels.empty() ? map.y_values.size() : map.y_labels.size();
}

std::optional<HeatCell> minimum_cell(const HeatMap& map) {
  const std::size_t nx = map.x_values.size();
  std::optional<HeatCell> best;
  double best_value = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < map.values.size() && nx > 0; ++i) {
    if (std::isfinite(map.values[i]) && map.values[i] < best_value) {
      best_value = map.values[i];
      best = HeatCell{i % nx, i / nx};
    }
  }
  return best;
}

std::vector<HeatCell> row_minima(const HeatMap& map) {
  const std::size_t nx = map.x_values.size();
  std::vector<HeatCell> cells;
  for (std::size_t iy = 0; iy < heat_map_rows(map); ++iy) {
    std::optional<std::size_t> best;
    for (std::size_t ix = 0; ix < nx; ++ix) {
      const std::size_t i = iy * nx + ix;
      if (i < map.values.size() && std::isfinite(map.values[i]) &&
          (!best || map.values[i] < map.values[iy * nx + *best]))
        best = ix;
    }
    if (best)
      cells.push_back({*best, iy});
  }
  return cells;
}

std::string render_heat_map(const HeatMap& map) {
  const std::size_t nx = map.x_values.size();
  const std::size_t ny = heat_map_rows(map);
  if (nx == 0 || ny == 0)
    throw std::invalid_argument("render_heat_map: empty grid");
  if (map.values.size() != nx * ny)
    throw std::invalid_argument("render_heat_map: values has " + std::to_string(map.values.size()) +
                                " entries, expected " + std::to_string(nx) + " x " +
                                std::to_string(ny));
  const bool labelled = !map.y_labels.empty();
  std::size_t longest_label = 0;
  for (const std::string& l : map.y_labels)
    longest_label = std::max(longest_label, l.size());
  const double left = labelled ? 30 + 6.8 * static_cast<double>(longest_label) : 80;
  const double right = 110, top = map.title.empty() ? 20 : 40, bottom = 56;
  const double x0 = left, x1 = map.width_px - right;
  const double y0 = map.height_px - bottom, y1 = top;
  const double cw = (x1 - x0) / static_cast<double>(nx);
  const double ch = (y0 - y1) / static_cast<double>(ny);
  // Numeric rows grow upwards (row 0 at the bottom); labelled rows read top to bottom.
  auto row_top = [&](double iy) { return labelled ? y1 + iy * ch : y0 - (iy + 1) * ch; };
  auto column_left = [&](double ix) { return x0 + ix * cw; };

  const auto range = finite_range(map.values);
  const double vmin = range ? range->first : 0.0;
  const double vmax = range ? range->second : 1.0;
  auto t_of = [&](double v) {
    if (!std::isfinite(v))
      return kNaN;
    return vmax > vmin ? (v - vmin) / (vmax - vmin) : 0.5;
  };

  std::ostringstream out;
  open_document(out, map.width_px, map.height_px);
  if (!map.title.empty())
    text(out, (x0 + x1) / 2, 24, map.title, "middle", "font-size=\"15\" font-weight=\"bold\"");
  bool any_missing = false;
  for (std::size_t iy = 0; iy < ny; ++iy) {
    for (std::size_t ix = 0; ix < nx; ++ix) {
      const double v = map.values[iy * nx + ix];
      any_missing = any_missing || !std::isfinite(v);
      rect(out, column_left(static_cast<double>(ix)), row_top(static_cast<double>(iy)), cw + 0.3,
           ch + 0.3, to_hex(colour_map(t_of(v))));
      if (map.show_values && std::isfinite(v)) {
        const double t = t_of(v);
        text(out, column_left(ix + 0.5), row_top(static_cast<double>(iy)) + ch / 2 + 4,
             cell_label(v), "middle",
             std::string("font-size=\"10\" fill=\"") + (t > 0.6 ? "black" : "white") + "\"");
      }
    }
  }
  rect(out, x0, y1, x1 - x0, y0 - y1, "none", "stroke=\"black\"");

  // x axis: the column values, thinned to at most about 10 labels.
  const std::size_t every = std::max<std::size_t>(1, (nx + 9) / 10);
  for (std::size_t ix = 0; ix < nx; ix += every) {
    const double x = column_left(ix + 0.5);
    line(out, x, y0, x, y0 + 5, "black");
    text(out, x, y0 + 19, grid_label(map.x_values[ix]));
  }
  text(out, (x0 + x1) / 2, map.height_px - 14, map.x_label);
  // y axis: row labels or values.
  const std::size_t every_y = labelled ? 1 : std::max<std::size_t>(1, (ny + 11) / 12);
  for (std::size_t iy = 0; iy < ny; iy += every_y) {
    const double y = row_top(static_cast<double>(iy)) + ch / 2;
    line(out, x0 - 5, y, x0, y, "black");
    text(out, x0 - 8, y + 4, labelled ? map.y_labels[iy] : grid_label(map.y_values[iy]), "end");
  }
  if (!map.y_label.empty()) {
    const double ly = (y0 + y1) / 2;
    text(out, 16, ly, map.y_label, "middle", rotated_attribute(16, ly));
  }

  // Circled cells (the optimum).
  const double radius = std::max(3.0, 0.42 * std::min(cw, ch));
  for (const HeatCell& c : map.circled) {
    if (c.ix >= nx || c.iy >= ny)
      continue;
    out << "<circle cx=\"" << px(column_left(c.ix + 0.5)) << "\" cy=\""
        << px(row_top(static_cast<double>(c.iy)) + ch / 2) << "\" r=\"" << px(radius)
        << "\" fill=\"none\" stroke=\"#e00000\" stroke-width=\"2.5\"/>\n";
  }
  // Truth marker.
  const std::optional<double> tx =
      map.truth_x ? grid_position(map.x_values, *map.truth_x) : std::nullopt;
  const std::optional<double> ty =
      (map.truth_y && !labelled) ? grid_position(map.y_values, *map.truth_y) : std::nullopt;
  if (tx && ty) {
    const double cx = column_left(*tx + 0.5);
    const double cy = labelled ? 0 : y0 - (*ty + 0.5) * ch;
    const double a = std::max(4.0, 0.3 * std::min(cw, ch));
    line(out, cx - a, cy - a, cx + a, cy + a, "white", 2.5);
    line(out, cx - a, cy + a, cx + a, cy - a, "white", 2.5);
    text(out, cx + a + 2, cy - a, "truth", "start", "fill=\"white\" font-size=\"11\"");
  } else if (tx && !map.truth_y) {
    const double cx = column_left(*tx + 0.5);
    line(out, cx, y0, cx, y1, "white", 2.0, true);
    text(out, cx + 4, y1 + 14, "truth", "start", "fill=\"white\" font-size=\"11\"");
  }

  // Colour bar.
  const double bx = x1 + 24, bw = 16;
  constexpr int kSteps = 64;
  for (int k = 0; k < kSteps; ++k) {
    const double t = (k + 0.5) / kSteps;
    rect(out, bx, y0 - (k + 1) * (y0 - y1) / kSteps, bw, (y0 - y1) / kSteps + 0.3,
         to_hex(colour_map(t)));
  }
  rect(out, bx, y1, bw, y0 - y1, "none", "stroke=\"black\"");
  if (range) {
    const AxisTicks ct = nice_ticks(vmin, vmax, 5);
    for (double v : ct.values) {
      if (v < vmin - 1e-12 * std::abs(vmin) || v > vmax + 1e-12 * std::abs(vmax))
        continue;
      const double t = t_of(v);
      const double y = y0 - t * (y0 - y1);
      line(out, bx + bw, y, bx + bw + 4, y, "black");
      text(out, bx + bw + 7, y + 4, format_tick(v, ct.step), "start");
    }
  }
  if (!map.value_label.empty())
    text(out, bx + bw / 2, y1 - 6, map.value_label, "middle");
  if (any_missing) {
    rect(out, bx, y0 + 14, 12, 12, to_hex(kMissingColour));
    text(out, bx + 16, y0 + 24, "failed", "start", "font-size=\"11\"");
  }
  out << "</svg>\n";
  return out.str();
}

}  // namespace clothfit::fitting
