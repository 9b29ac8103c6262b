#include "mocap/gap_filling.hpp"

#include "mocap/mocap_input_error.hpp"

namespace clothfit::mocap {
namespace {

[[noreturn]] void fail(const Take& take, std::size_t marker, const std::string& problem) {
  throw MocapInputError({take.info().source, 0, 0, "marker '" + take.marker(marker).name + "'"},
                        problem);
}

std::string frame_range(const Take& take, std::size_t first, std::size_t last) {
  return "frames " + std::to_string(take.frame_number(first)) + " to " +
         std::to_string(take.frame_number(last));
}

}  // namespace

FilledMarkers fill_gaps_linear(const Take& take, std::span<const std::size_t> take_markers,
                               const GapFillingOptions& options) {
  FilledMarkers out;
  const std::size_t frames = take.frame_count();
  const std::size_t k = take_markers.size();
  out.frame_count = frames;
  out.positions_m.resize(frames * k * 3);
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t m = take_markers[i];
    out.names.push_back(take.marker(m).name);
    out.take_markers.push_back(m);
    std::size_t filled = 0;
    std::size_t previous = frames;  // last visible frame so far; frames = none yet
    for (std::size_t f = 0; f < frames; ++f) {
      if (!take.visible(f, m))
        continue;
      const Eigen::Vector3d p = take.position(f, m);
      if (previous == frames && f > 0) {
        fail(take, m,
             "missing at the start of the take (" + frame_range(take, 0, f - 1) +
                 "): a leading gap cannot be filled by interpolation");
      }
      if (previous != frames && f > previous + 1) {
        const std::size_t gap = f - previous - 1;
        if (gap > options.max_gap_frames) {
          fail(take, m,
               "gap of " + std::to_string(gap) + " frames (" +
                   frame_range(take, previous + 1, f - 1) +
                   ") is longer than the longest gap filled, " +
                   std::to_string(options.max_gap_frames) + " frames");
        }
        const Eigen::Vector3d p0 = take.position(previous, m);
        for (std::size_t g = previous + 1; g < f; ++g) {
          const double s = static_cast<double>(g - previous) / static_cast<double>(f - previous);
          Eigen::Vector3d::Map(out.positions_m.data() + 3 * (g * k + i)) = p0 + s * (p - p0);
        }
        filled += gap;
      }
      Eigen::Vector3d::Map(out.positions_m.data() + 3 * (f * k + i)) = p;
      previous = f;
    }
    if (previous == frames)
      fail(take, m, "never visible in the take: nothing to fill from");
    if (previous + 1 < frames) {
      fail(take, m,
           "missing at the end of the take (" + frame_range(take, previous + 1, frames - 1) +
               "): a trailing gap cannot be filled by interpolation");
    }
    out.filled_frames.push_back(filled);
  }
  return out;
}

FilledMarkers fill_gaps_linear(const Take& take, const std::vector<std::string>& names,
                               const GapFillingOptions& options) {
  std::vector<std::size_t> indices;
  indices.reserve(names.size());
  for (const std::string& name : names)
    indices.push_back(take.marker_index(name));
  return fill_gaps_linear(take, indices, options);
}

}  // namespace clothfit::mocap
