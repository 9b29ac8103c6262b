#include "fitting/error_plot.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace clothfit::fitting {

FrameSeries frame_series(const Evaluation& evaluation, double frame_interval_s) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  FrameSeries out;
  out.frame_interval_s = frame_interval_s;
  for (std::size_t k = 0; k < evaluation.frames.size(); ++k) {
    const FrameError& f = evaluation.frames[k];
    out.time_s.push_back(static_cast<double>(k + 1) * frame_interval_s);
    out.error_m.push_back(f.visible > 0 ? f.error_m : nan);
    out.spread_m.push_back(f.visible > 0 ? f.spread_m : nan);
    out.contact.push_back(k < evaluation.contact.size() && evaluation.contact[k]);
  }
  return out;
}

LinePlot error_plot(const FrameSeries& frames, const std::string& title) {
  LineSeries error, spread;
  double error_sum = 0.0, spread_sum = 0.0;
  int counted = 0;
  for (std::size_t k = 0; k < frames.time_s.size(); ++k) {
    const double e = frames.error_m[k], s = frames.spread_m[k];
    error.x.push_back(frames.time_s[k]);
    error.y.push_back(100.0 * e);
    spread.x.push_back(frames.time_s[k]);
    spread.y.push_back(100.0 * s);
    if (std::isfinite(e) && std::isfinite(s)) {
      error_sum += e;
      spread_sum += s;
      ++counted;
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  char label[96];
  std::snprintf(label, sizeof label, "e_n (mean ē = %.2f cm)",
                counted ? 100.0 * error_sum / counted : nan);
  error.label = label;
  std::snprintf(label, sizeof label, "s_n (mean s̄ = %.2f cm)",
                counted ? 100.0 * spread_sum / counted : nan);
  spread.label = label;
  spread.dashed = true;

  LinePlot plot;
  const std::vector<bool>& contact = frames.contact;
  for (std::size_t k = 0; k < contact.size(); ++k) {
    if (!contact[k])
      continue;
    std::size_t l = k;
    while (l + 1 < contact.size() && contact[l + 1])
      ++l;
    plot.shaded.push_back({frames.time_s[k] - frames.frame_interval_s, frames.time_s[l]});
    k = l;
  }
  plot.title = title.empty() ? "Error e_n and spread s_n per frame" : title;
  plot.x_label = "time (s)";
  plot.y_label = "distance (cm)";
  plot.series = {error, spread};
  plot.shaded_label = "contact";
  return plot;
}

}  // namespace clothfit::fitting
