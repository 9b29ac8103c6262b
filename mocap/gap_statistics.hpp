// Per-marker gap statistics of a take: how often a marker was seen and how its missing samples
// are grouped. A gap is a maximal run of consecutive frames in which the marker is missing,
// including runs at the start and at the end of the take.
#pragma once

#include <cstddef>
#include <vector>

#include "mocap/take.hpp"

namespace clothfit::mocap {

struct MarkerGapStatistics {
  std::size_t visible_frames = 0;
  double visible_fraction = 0.0;  // visible_frames / frame_count, in [0, 1]
  std::size_t gap_count = 0;      // number of gaps
  std::size_t longest_gap_frames = 0;
  // Frames (0-based take frame indices) of the first and last visible sample; equal to
  // frame_count when the marker is never visible.
  std::size_t first_visible_frame = 0;
  std::size_t last_visible_frame = 0;
};

// Statistics of marker `marker` (index into take.markers()).
MarkerGapStatistics marker_gap_statistics(const Take& take, std::size_t marker);
// Statistics of every marker, in take.markers() order.
std::vector<MarkerGapStatistics> gap_statistics(const Take& take);

}  // namespace clothfit::mocap
