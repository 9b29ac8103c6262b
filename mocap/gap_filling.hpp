// Gap filling by linear interpolation, for the markers that drive the simulation (held corners,
// stick ends) and never for the markers the error is measured on: it returns a filled copy of
// the selected markers and leaves the Take untouched.
//
// A gap between two visible samples at frames a < b is filled with
//   p(f) = p(a) + (f - a) / (b - a) · (p(b) - p(a)),   a < f < b
// (frames are uniformly spaced in time, so this is linear in time). A gap longer than
// max_gap_frames, a gap at the start or at the end of the take (nothing to interpolate from on
// one side), and a marker never visible are errors naming the marker: they are never
// extrapolated.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "mocap/take.hpp"

namespace clothfit::mocap {

struct GapFillingOptions {
  // Longest gap (consecutive missing frames) that is filled. 0.25 s at 120 Hz by default.
  std::size_t max_gap_frames = 30;
};

// Positions of selected markers with every gap filled.
struct FilledMarkers {
  std::vector<std::string> names;          // (k) marker names
  std::vector<std::size_t> take_markers;   // (k) indices into Take::markers()
  std::vector<std::size_t> filled_frames;  // (k) frames filled per marker
  std::size_t frame_count = 0;
  // Metres, simulator frame, (frame_count × k × 3) row-major; no NaN.
  std::vector<double> positions_m;

  std::size_t marker_count() const { return names.size(); }
  Eigen::Vector3d position(std::size_t frame, std::size_t i) const {
    return Eigen::Vector3d::Map(positions_m.data() + 3 * (frame * names.size() + i));
  }
};

// Fills the gaps of the markers `take_markers` (indices into take.markers()). Throws
// MocapInputError (field "marker 'NAME'") for a leading or trailing gap, a gap longer than
// options.max_gap_frames, or a marker that is never visible.
FilledMarkers fill_gaps_linear(const Take& take, std::span<const std::size_t> take_markers,
                               const GapFillingOptions& options = {});
// The same for markers given by name (Take::marker_index: `Marker` assets first).
FilledMarkers fill_gaps_linear(const Take& take, const std::vector<std::string>& names,
                               const GapFillingOptions& options = {});

}  // namespace clothfit::mocap
