// The error of a simulated frame against a recorded one (DESIGN.md §3, paper eqs. 17–18), over the
// markers visible at that frame (missing markers are left out, never interpolated):
//
//   e_n = sqrt( Σ_{i∈V} w_i ‖p_i − p̂_i‖² / Σ_{i∈V} w_i )   (the M-norm, normalised to a length)
//   s_n = sqrt( Var_{i∈V} ‖p_i − p̂_i‖ )                   (population variance over V)
//
// w_i is the lumped area weight of marker i on the marker grid (marker_grid_weights).
#pragma once

#include <Eigen/Core>
#include <span>
#include <vector>

namespace clothfit::fitting {

struct FrameError {
  double error_m = 0.0;   // e_n, m (NaN when no marker is visible)
  double spread_m = 0.0;  // s_n, m (NaN when no marker is visible)
  int visible = 0;        // |V_n|
};

// Lumped area weights of a rows × columns marker grid over a width × height sheet (row-major,
// m²): a quarter of each incident cell, so corners weigh 1/4, edge markers 1/2 and interior
// markers 1 cell area. rows, columns ≥ 2.
std::vector<double> marker_grid_weights(int rows, int columns, double width_m, double height_m);

// simulated and recorded: (markers × 3), metres; a recorded row with a NaN is a missing marker.
// weights: (markers), > 0.
FrameError frame_error(const Eigen::Ref<const Eigen::MatrixX3d>& simulated,
                       const Eigen::Ref<const Eigen::MatrixX3d>& recorded,
                       std::span<const double> weights);

// ē and s̄: the means of e_n and s_n over the frames where some marker is visible (NaN if none).
struct ErrorSummary {
  double mean_error_m = 0.0;
  double mean_spread_m = 0.0;
  double sum_error_m = 0.0;  // Σ e_n, the fitting objective (paper eq. 16), m
  int frames = 0;            // frames that entered the means
};
ErrorSummary summarize_errors(std::span<const FrameError> frames);

}  // namespace clothfit::fitting
