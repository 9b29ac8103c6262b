#include "fitting/error_metrics.hpp"

#include <cassert>
#include <cmath>
#include <limits>

namespace clothfit::fitting {

std::vector<double> marker_grid_weights(int rows, int columns, double width_m, double height_m) {
  assert(rows >= 2 && columns >= 2);
  const double cell = (width_m / (columns - 1)) * (height_m / (rows - 1));
  std::vector<double> w(static_cast<std::size_t>(rows * columns), 0.0);
  for (int r = 0; r + 1 < rows; ++r) {
    for (int c = 0; c + 1 < columns; ++c) {
      for (int dr = 0; dr < 2; ++dr) {
        for (int dc = 0; dc < 2; ++dc)
          w[static_cast<std::size_t>((r + dr) * columns + c + dc)] += 0.25 * cell;
      }
    }
  }
  return w;
}

FrameError frame_error(const Eigen::Ref<const Eigen::MatrixX3d>& simulated,
                       const Eigen::Ref<const Eigen::MatrixX3d>& recorded,
                       std::span<const double> weights) {
  assert(simulated.rows() == recorded.rows());
  assert(static_cast<Eigen::Index>(weights.size()) == recorded.rows());
  double weighted = 0.0, weight = 0.0, sum = 0.0;
  int visible = 0;
  for (Eigen::Index i = 0; i < recorded.rows(); ++i) {
    if (!recorded.row(i).allFinite())
      continue;
    const double d2 = (simulated.row(i) - recorded.row(i)).squaredNorm();
    weighted += weights[static_cast<std::size_t>(i)] * d2;
    weight += weights[static_cast<std::size_t>(i)];
    sum += std::sqrt(d2);
    ++visible;
  }
  FrameError out;
  out.visible = visible;
  if (visible == 0) {
    out.error_m = out.spread_m = std::numeric_limits<double>::quiet_NaN();
    return out;
  }
  out.error_m = std::sqrt(weighted / weight);
  // The variance about the mean, in a second pass: E[d²] − E[d]² subtracts two nearly equal
  // numbers and loses the spread wherever it is far below the mean error.
  const double mean = sum / visible;
  double squares = 0.0;
  for (Eigen::Index i = 0; i < recorded.rows(); ++i) {
    if (recorded.row(i).allFinite()) {
      const double deviation = std::sqrt((simulated.row(i) - recorded.row(i)).squaredNorm()) - mean;
      squares += deviation * deviation;
    }
  }
  out.spread_m = std::sqrt(squares / visible);
  return out;
}

ErrorSummary summarize_errors(std::span<const FrameError> frames) {
  ErrorSummary s;
  double spread = 0.0;
  for (const FrameError& f : frames) {
    if (f.visible == 0)
      continue;
    s.sum_error_m += f.error_m;
    spread += f.spread_m;
    ++s.frames;
  }
  if (s.frames == 0) {
    s.mean_error_m = s.mean_spread_m = std::numeric_limits<double>::quiet_NaN();
    return s;
  }
  s.mean_error_m = s.sum_error_m / s.frames;
  s.mean_spread_m = spread / s.frames;
  return s;
}

}  // namespace clothfit::fitting
