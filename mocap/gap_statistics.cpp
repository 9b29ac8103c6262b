#include "mocap/gap_statistics.hpp"

#include <algorithm>

namespace clothfit::mocap {

MarkerGapStatistics marker_gap_statistics(const Take& take, std::size_t marker) {
  MarkerGapStatistics stats;
  const std::size_t frames = take.frame_count();
  stats.first_visible_frame = frames;
  stats.last_visible_frame = frames;
  std::size_t run = 0;  // length of the gap being scanned
  for (std::size_t f = 0; f < frames; ++f) {
    if (take.visible(f, marker)) {
      ++stats.visible_frames;
      if (stats.first_visible_frame == frames)
        stats.first_visible_frame = f;
      stats.last_visible_frame = f;
      run = 0;
      continue;
    }
    if (run == 0)
      ++stats.gap_count;
    ++run;
    stats.longest_gap_frames = std::max(stats.longest_gap_frames, run);
  }
  stats.visible_fraction =
      frames > 0 ? static_cast<double>(stats.visible_frames) / static_cast<double>(frames) : 0.0;
  return stats;
}

std::vector<MarkerGapStatistics> gap_statistics(const Take& take) {
  std::vector<MarkerGapStatistics> out;
  out.reserve(take.marker_count());
  for (std::size_t m = 0; m < take.marker_count(); ++m) {
    out.push_back(marker_gap_statistics(take, m));
  }
  return out;
}

}  // namespace clothfit::mocap
