// SVG plots: the documents are well formed (balanced tags, escaped text), ticks are nice on hand
// cases, the colour scale has the right endpoints and NaN cells are grey.
#include "fitting/svg_plot.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <regex>
#include <string>
#include <vector>

namespace clothfit::fitting {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Checks that the document is a single <svg> element with balanced tags, quoted attributes and
// no raw '&' or '<' inside text. Returns an empty string when fine, else what is wrong.
std::string structural_problem(const std::string& doc) {
  std::vector<std::string> stack;
  std::size_t i = 0;
  int roots = 0;
  if (doc.rfind("<?xml", 0) == 0)
    i = doc.find("?>") + 2;
  while (i < doc.size()) {
    if (doc[i] == '<') {
      const std::size_t end = doc.find('>', i);
      if (end == std::string::npos)
        return "unterminated tag at " + std::to_string(i);
      std::string tag = doc.substr(i + 1, end - i - 1);
      // Attributes: every '=' must be followed by a quoted value without '<'.
      for (std::size_t q = tag.find('='); q != std::string::npos; q = tag.find('=', q + 1)) {
        if (q + 1 >= tag.size() || tag[q + 1] != '"')
          return "unquoted attribute in <" + tag + ">";
        const std::size_t close = tag.find('"', q + 2);
        if (close == std::string::npos)
          return "unterminated attribute in <" + tag + ">";
        q = close;
      }
      if (tag.empty())
        return "empty tag";
      if (tag.front() == '/') {
        const std::string name = tag.substr(1);
        if (stack.empty() || stack.back() != name)
          return "unbalanced </" + name + ">";
        stack.pop_back();
      } else if (tag.back() != '/') {
        const std::string name = tag.substr(0, tag.find_first_of(" \n\t"));
        if (stack.empty())
          ++roots;
        stack.push_back(name);
      } else if (stack.empty()) {
        return "self-closing element outside the root";
      }
      i = end + 1;
    } else {
      const std::size_t next = doc.find('<', i);
      const std::string content = doc.substr(i, next - i);
      if (stack.empty() && content.find_first_not_of(" \n\t\r") != std::string::npos)
        return "text outside the root";
      // '&' only as one of the five entities.
      for (std::size_t a = content.find('&'); a != std::string::npos;
           a = content.find('&', a + 1)) {
        static const std::regex kEntity("&(amp|lt|gt|quot|apos);.*");
        if (!std::regex_match(content.substr(a, 8) + std::string(8, ' '), kEntity))
          return "raw & in text: " + content;
      }
      if (content.find('>') != std::string::npos)
        return "raw > in text: " + content;
      i = next == std::string::npos ? doc.size() : next;
    }
  }
  if (!stack.empty())
    return "unclosed <" + stack.back() + ">";
  if (roots != 1)
    return "expected one root element, found " + std::to_string(roots);
  return "";
}

// Text anchored outside the document ("" when every <text> is inside it): what would not show.
std::string text_outside(const std::string& doc) {
  std::smatch size;
  if (!std::regex_search(doc, size,
                         std::regex(R"re(<svg [^>]*width="([0-9.]+)" height="([0-9.]+)")re")))
    return "no document size";
  const double width = std::stod(size[1]), height = std::stod(size[2]);
  const std::regex text(R"re(<text x="([-0-9.]+)" y="([-0-9.]+)"[^>]*>([^<]*)</text>)re");
  for (auto m = std::sregex_iterator(doc.begin(), doc.end(), text); m != std::sregex_iterator();
       ++m) {
    const double x = std::stod((*m)[1]), y = std::stod((*m)[2]);
    if (x < 0 || x > width || y < 0 || y > height)
      return (*m)[3].str() + " at (" + (*m)[1].str() + ", " + (*m)[2].str() + ")";
  }
  return "";
}

LineSeries series(std::string label, std::vector<double> x, std::vector<double> y,
                  bool dashed = false) {
  LineSeries s;
  s.label = std::move(label);
  s.x = std::move(x);
  s.y = std::move(y);
  s.dashed = dashed;
  return s;
}

int count(const std::string& doc, const std::string& what) {
  int n = 0;
  for (std::size_t i = doc.find(what); i != std::string::npos; i = doc.find(what, i + 1))
    ++n;
  return n;
}

TEST(SvgPlot, StructuralCheckerRejectsBrokenDocuments) {
  EXPECT_EQ(structural_problem("<svg><g></g></svg>"), "");
  EXPECT_NE(structural_problem("<svg><g></svg>"), "");
  EXPECT_NE(structural_problem("<svg><text>a & b</text></svg>"), "");
  EXPECT_NE(structural_problem("<svg><rect x=1/></svg>"), "");
  EXPECT_NE(structural_problem("<svg></svg><svg></svg>"), "");
}

TEST(SvgPlot, NiceTicksOnHandCases) {
  AxisTicks t = nice_ticks(0.0, 1.0, 5);
  EXPECT_DOUBLE_EQ(t.step, 0.2);
  EXPECT_DOUBLE_EQ(t.lower, 0.0);
  EXPECT_DOUBLE_EQ(t.upper, 1.0);
  ASSERT_EQ(t.values.size(), 6u);
  EXPECT_NEAR(t.values[3], 0.6, 1e-12);

  t = nice_ticks(0.013, 0.087, 5);  // span 0.074 → raw 0.0148 → step 0.02
  EXPECT_DOUBLE_EQ(t.step, 0.02);
  EXPECT_NEAR(t.lower, 0.0, 1e-15);
  EXPECT_NEAR(t.upper, 0.1, 1e-15);

  t = nice_ticks(-3.0, 7.0, 4);  // raw 2.5 → step 2.5
  EXPECT_DOUBLE_EQ(t.step, 2.5);
  EXPECT_DOUBLE_EQ(t.lower, -5.0);
  EXPECT_DOUBLE_EQ(t.upper, 7.5);
  EXPECT_EQ(t.values.size(), 6u);

  t = nice_ticks(120.0, 980.0, 5);  // raw 172 → step 200
  EXPECT_DOUBLE_EQ(t.step, 200.0);
  EXPECT_DOUBLE_EQ(t.lower, 0.0);
  EXPECT_DOUBLE_EQ(t.upper, 1000.0);

  // Exact multiples stay the ends (no extra tick from rounding 0.1 * 3).
  t = nice_ticks(0.1, 0.3, 2);
  EXPECT_DOUBLE_EQ(t.step, 0.1);
  EXPECT_NEAR(t.lower, 0.1, 1e-15);
  EXPECT_NEAR(t.upper, 0.3, 1e-15);
  EXPECT_EQ(t.values.size(), 3u);

  // A single value gets a range around it; no -0 tick.
  t = nice_ticks(5.0, 5.0, 5);
  EXPECT_LT(t.lower, 5.0);
  EXPECT_GT(t.upper, 5.0);
  t = nice_ticks(-1.0, 1.0, 4);
  for (double v : t.values)
    EXPECT_FALSE(v == 0.0 && std::signbit(v));
}

TEST(SvgPlot, TickLabelsUseTheDecimalsOfTheStep) {
  EXPECT_EQ(format_tick(0.6000000000000001, 0.2), "0.6");
  EXPECT_EQ(format_tick(0.25, 0.25), "0.25");
  EXPECT_EQ(format_tick(200.0, 100.0), "200");
  EXPECT_EQ(format_tick(-0.0, 0.5), "0.0");
  EXPECT_EQ(format_tick(2.5e-6, 1e-6), "2.5e-06");
}

TEST(SvgPlot, EscapesLabels) {
  EXPECT_EQ(escape_xml("a & b < c > \"d\" 'e'"),
            "a &amp; b &lt; c &gt; &quot;d&quot; &apos;e&apos;");
  LinePlot plot;
  plot.title = "fits <high> & low";
  plot.x_label = "time (s)";
  plot.y_label = "e_n & s_n (cm)";
  plot.series.push_back(series("e<n>", {0, 1}, {1, 2}));
  const std::string svg = render_line_plot(plot);
  EXPECT_EQ(structural_problem(svg), "");
  EXPECT_NE(svg.find("fits &lt;high&gt; &amp; low"), std::string::npos);
  EXPECT_NE(svg.find("e&lt;n&gt;"), std::string::npos);
}

TEST(SvgPlot, ColourMapEndpointsAndNaN) {
  const Rgb low = colour_map(0.0), high = colour_map(1.0);
  EXPECT_EQ(to_hex(low), "#440154");   // viridis start
  EXPECT_EQ(to_hex(high), "#fde725");  // viridis end
  EXPECT_EQ(to_hex(colour_map(-3.0)), "#440154");
  EXPECT_EQ(to_hex(colour_map(7.0)), "#fde725");
  EXPECT_EQ(to_hex(colour_map(kNaN)), to_hex(kMissingColour));
  // Brightness (sum of channels) increases along the scale.
  int previous = -1;
  for (int k = 0; k <= 20; ++k) {
    const Rgb c = colour_map(k / 20.0);
    const int brightness = c.r + c.g + c.b;
    EXPECT_GT(brightness, previous) << k;
    previous = brightness;
  }
}

TEST(SvgPlot, LinePlotDrawsSeriesBandsMarkersAndBreaksAtNaN) {
  LinePlot plot;
  plot.x_label = "time (s)";
  plot.y_label = "distance (cm)";
  plot.series.push_back(series("e_n", {0, 1, 2, 3, 4}, {1, 2, kNaN, 2, 1}));
  plot.series.push_back(series("s_n", {0, 4}, {0.5, 0.5}, true));
  plot.shaded = {{1.0, 2.0}, {3.0, 3.5}};
  plot.shaded_label = "contact";
  plot.title = "Error per frame";
  VerticalMarker optimum;
  optimum.x = 2.5;
  optimum.label = "optimum";
  plot.markers.push_back(optimum);
  const std::string svg = render_line_plot(plot);
  EXPECT_EQ(structural_problem(svg), "");
  EXPECT_EQ(text_outside(svg), "");
  EXPECT_NE(svg.find(">Error per frame</text>"), std::string::npos);
  EXPECT_EQ(count(svg, "<path "), 2);
  // The NaN splits the first series into two sub-paths.
  const std::size_t first_path = svg.find("<path d=\"");
  const std::string d = svg.substr(first_path, svg.find('"', first_path + 9) - first_path);
  EXPECT_EQ(count(d, "M"), 2);
  EXPECT_EQ(count(d, "L"), 2);
  EXPECT_EQ(count(svg, "fill=\"#fff3b0\""), 3);  // two bands and the legend swatch
  EXPECT_NE(svg.find(">optimum</text>"), std::string::npos);
  EXPECT_NE(svg.find(">contact</text>"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
}

// Each legend label stands right of its line sample.
TEST(SvgPlot, LinePlotLegendLabelsFollowTheirSamples) {
  LinePlot plot;
  plot.series.push_back(series("e_n", {0, 1}, {1, 2}));
  plot.series.push_back(series("s_n", {0, 1}, {0.5, 0.5}, true));
  const std::string svg = render_line_plot(plot);
  for (const char* label : {"e_n", "s_n"}) {
    std::smatch m;
    const std::regex entry(R"re(<line x1="([-0-9.]+)" y1="[-0-9.]+" x2="([-0-9.]+)" )re"
                           R"re(y2="[-0-9.]+" stroke="[^"]+" stroke-width="2.00"/>\n)re"
                           R"re(<text x="([-0-9.]+)" y="[-0-9.]+" text-anchor="start">)re" +
                           std::string(label) + "</text>");
    ASSERT_TRUE(std::regex_search(svg, m, entry)) << label << "\n" << svg;
    EXPECT_LT(std::stod(m[1]), std::stod(m[2])) << label;
    EXPECT_GT(std::stod(m[3]), std::stod(m[2])) << label;
  }
}

TEST(SvgPlot, LinePlotRejectsSeriesOfDifferentLengths) {
  LinePlot plot;
  plot.series.push_back(series("bad", {0, 1}, {1}));
  EXPECT_THROW(render_line_plot(plot), std::invalid_argument);
}

HeatMap small_map() {
  HeatMap map;
  map.title = "ē over α × δ";
  map.x_label = "α";
  map.y_label = "δ";
  map.value_label = "ē (cm)";
  map.x_values = {0.1, 0.2, 0.3};
  map.y_values = {1.0, 2.0};
  map.values = {3.0,  1.0, 2.0,   // δ = 1
                kNaN, 0.5, 4.0};  // δ = 2
  return map;
}

TEST(SvgPlot, HeatMapMinimaSkipNaN) {
  const HeatMap map = small_map();
  const auto best = minimum_cell(map);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->ix, 1u);
  EXPECT_EQ(best->iy, 1u);
  const auto rows = row_minima(map);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].ix, 1u);
  EXPECT_EQ(rows[1].ix, 1u);
  HeatMap empty = map;
  empty.values.assign(6, kNaN);
  EXPECT_FALSE(minimum_cell(empty).has_value());
  EXPECT_TRUE(row_minima(empty).empty());
}

TEST(SvgPlot, HeatMapColoursCellsByValueWithGreyForNaN) {
  HeatMap map = small_map();
  map.circled = {*minimum_cell(map)};
  map.truth_x = 0.25;
  map.truth_y = 1.5;
  const std::string svg = render_heat_map(map);
  EXPECT_EQ(structural_problem(svg), "");
  EXPECT_EQ(text_outside(svg), "");
  // The smallest value (0.5) gets the start of the scale, the largest (4.0) the end.
  EXPECT_NE(svg.find("fill=\"#440154\""), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#fde725\""), std::string::npos);
  // The NaN cell is grey, and the legend says so.
  EXPECT_GE(count(svg, "fill=\"" + to_hex(kMissingColour) + "\""), 2);
  EXPECT_NE(svg.find(">failed</text>"), std::string::npos);
  EXPECT_EQ(count(svg, "stroke=\"#e00000\""), 1);  // the circled optimum
  EXPECT_NE(svg.find(">truth</text>"), std::string::npos);
  EXPECT_NE(svg.find("ē (cm)"), std::string::npos);
}

// Where things land: each printed value at the centre of its cell (columns left to right, rows
// of numbers bottom to top), the circle on the minimum's cell, the truth a cross of two
// diagonals centred on the truth's cell and within 60 % of it; no truth, no marker.
TEST(SvgPlot, HeatMapPlacesValuesCirclesAndTheTruthInTheirCells) {
  HeatMap map = small_map();
  map.show_values = true;
  map.circled = {*minimum_cell(map)};  // α 0.2, δ 2: the value 0.5
  map.truth_x = 0.2;
  map.truth_y = 2.0;
  const std::string svg = render_heat_map(map);
  EXPECT_EQ(structural_problem(svg), "");
  // The printed values, by label; y is the baseline, 4 px below the cell's centre.
  const auto centre_of = [&svg](const std::string& label) {
    std::smatch m;
    const std::regex value(R"re(<text x="([-0-9.]+)" y="([-0-9.]+)" text-anchor="middle" )re"
                           R"re(font-size="10" fill="[a-z]+">)re" +
                           label + "</text>");
    EXPECT_TRUE(std::regex_search(svg, m, value)) << label;
    return m.empty() ? std::array<double, 2>{kNaN, kNaN}
                     : std::array<double, 2>{std::stod(m[1]), std::stod(m[2]) - 4};
  };
  const auto v3 = centre_of("3"), v1 = centre_of("1"), v2 = centre_of("2");  // δ = 1
  const auto v05 = centre_of("0.5"), v4 = centre_of("4");                    // δ = 2
  const double cw = v1[0] - v3[0], ch = v3[1] - v05[1];
  EXPECT_GT(cw, 0);
  EXPECT_GT(ch, 0);  // δ = 2 above δ = 1
  EXPECT_NEAR(v2[0] - v1[0], cw, 0.02);
  EXPECT_NEAR(v05[0], v1[0], 0.02);
  EXPECT_NEAR(v4[0], v2[0], 0.02);
  EXPECT_NEAR(v1[1], v3[1], 0.02);
  EXPECT_NEAR(v4[1], v05[1], 0.02);
  // Cells fill the plot: the first column's centre is half a cell right of the frame's left edge.
  std::smatch frame;
  ASSERT_TRUE(
      std::regex_search(svg, frame,
                        std::regex(R"re(<rect x="([-0-9.]+)" y="([-0-9.]+)" width="([-0-9.]+)" )re"
                                   R"re(height="([-0-9.]+)" fill="none" stroke="black"/>)re")));
  EXPECT_NEAR(v3[0], std::stod(frame[1]) + cw / 2, 0.02);
  EXPECT_NEAR(std::stod(frame[3]), 3 * cw, 0.05);

  std::smatch circle;
  ASSERT_TRUE(
      std::regex_search(svg, circle, std::regex(R"re(<circle cx="([-0-9.]+)" cy="([-0-9.]+)")re")));
  EXPECT_NEAR(std::stod(circle[1]), v05[0], 0.02);
  EXPECT_NEAR(std::stod(circle[2]), v05[1], 0.02);

  // The cross: two white lines 2.5 px wide, one along each diagonal, both through the cell's
  // centre.
  const std::regex white_line(R"re(<line x1="([-0-9.]+)" y1="([-0-9.]+)" x2="([-0-9.]+)" )re"
                              R"re(y2="([-0-9.]+)" stroke="white" stroke-width="2.50"/>)re");
  std::vector<std::array<double, 4>> lines;
  for (auto m = std::sregex_iterator(svg.begin(), svg.end(), white_line);
       m != std::sregex_iterator(); ++m)
    lines.push_back(
        {std::stod((*m)[1]), std::stod((*m)[2]), std::stod((*m)[3]), std::stod((*m)[4])});
  ASSERT_EQ(lines.size(), 2u) << svg;
  double slope_product = 1;
  for (const auto& l : lines) {
    EXPECT_NEAR((l[0] + l[2]) / 2, v05[0], 0.02);
    EXPECT_NEAR((l[1] + l[3]) / 2, v05[1], 0.02);
    const double dx = l[2] - l[0], dy = l[3] - l[1];
    EXPECT_GT(std::abs(dx), 4);
    EXPECT_NEAR(std::abs(dx), std::abs(dy), 0.02);
    EXPECT_LE(std::abs(dx), 0.6 * std::min(cw, ch) + 0.02);
    slope_product *= dy / dx;
  }
  EXPECT_NEAR(slope_product, -1.0, 1e-3);  // one of each diagonal
  EXPECT_NE(svg.find(">truth</text>"), std::string::npos);

  map.truth_x.reset();
  map.truth_y.reset();
  const std::string without = render_heat_map(map);
  EXPECT_EQ(without.find("truth"), std::string::npos);
  EXPECT_EQ(without.find("stroke=\"white\""), std::string::npos);
}

TEST(SvgPlot, HeatMapWithRowLabelsLikeFigure7) {
  HeatMap map;
  map.x_label = "μ (table)";
  map.value_label = "ē (cm)";
  map.x_values = {0.1, 0.2, 0.3, 0.4};
  map.y_labels = {"polyester & co", "wool", "denim"};
  map.values = {3, 2, 1, 2, 4, 1, 2, 3, 1, 2, 3, 4};
  map.circled = row_minima(map);
  map.truth_x = 0.3;
  const std::string svg = render_heat_map(map);
  EXPECT_EQ(structural_problem(svg), "");
  EXPECT_NE(svg.find(">polyester &amp; co</text>"), std::string::npos);
  EXPECT_EQ(count(svg, "stroke=\"#e00000\""), 3);
  EXPECT_EQ(svg.find(">failed</text>"), std::string::npos);  // no NaN, no legend entry
}

TEST(SvgPlot, HeatMapRejectsMismatchedSizes) {
  HeatMap map = small_map();
  map.values.pop_back();
  EXPECT_THROW(render_heat_map(map), std::invalid_argument);
}

}  // namespace
}  // namespace clothfit::fitting
