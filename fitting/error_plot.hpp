// The plot of a run's errors over time: e_n and s_n (cm) with their means in the legend, and the
// frames in contact shaded as in the paper's figures. One definition for `clothfit fit`'s
// errors.svg (from the run at the optimum) and `clothfit plot` of a frames.csv, so that the two
// draw the same run the same way.
#pragma once

#include <string>
#include <vector>

#include "fitting/recording_objective.hpp"
#include "fitting/svg_plot.hpp"

namespace clothfit::fitting {

// Frame by frame (n = 1 …): time, e_n and s_n (m; NaN where no marker is visible) and whether
// anything touched the cloth in the steps from frame n − 1 to frame n.
struct FrameSeries {
  std::vector<double> time_s;
  std::vector<double> error_m;
  std::vector<double> spread_m;
  std::vector<bool> contact;
  double frame_interval_s = 0.0;
};

// The frames a run kept (Evaluation::frames and contact), at t_n = n · frame_interval_s.
FrameSeries frame_series(const Evaluation& evaluation, double frame_interval_s);

// The plot (title "Error e_n and spread s_n per frame" when empty). The legend gives ē and s̄,
// the means over the frames with a visible marker. Contact at frame n happened in
// (t_n − Δt, t_n], so a run of frames k … l in contact is shaded from t_k − Δt to t_l.
LinePlot error_plot(const FrameSeries& frames, const std::string& title);

}  // namespace clothfit::fitting
