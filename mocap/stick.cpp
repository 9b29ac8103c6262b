#include "mocap/stick.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "mocap/mocap_input_error.hpp"

namespace clothfit::mocap {
namespace {

StickTrack make_stick(const Take& take, std::size_t end0, std::size_t end1,
                      const GapFillingOptions& options) {
  const std::array<std::size_t, 2> ends{end0, end1};
  const FilledMarkers filled = fill_gaps_linear(take, ends, options);
  StickTrack stick;
  stick.end0_marker = take.marker(end0).name;
  stick.end1_marker = take.marker(end1).name;
  stick.frame_count = take.frame_count();
  stick.ends_m = filled.positions_m;  // (frames × 2 × 3): the same layout
  std::vector<double> lengths;
  for (std::size_t f = 0; f < take.frame_count(); ++f) {
    if (take.visible(f, end0) && take.visible(f, end1)) {
      lengths.push_back((take.position(f, end1) - take.position(f, end0)).norm());
    }
  }
  if (!lengths.empty()) {
    double sum = 0.0;
    for (double l : lengths)
      sum += l;
    stick.mean_length_m = sum / static_cast<double>(lengths.size());
    for (double l : lengths) {
      stick.max_length_deviation_m =
          std::max(stick.max_length_deviation_m, std::abs(l - stick.mean_length_m));
    }
  }
  return stick;
}

}  // namespace

StickTrack stick_from_markers(const Take& take, std::string_view end0, std::string_view end1,
                              const GapFillingOptions& options) {
  const std::size_t a = take.marker_index(end0);
  const std::size_t b = take.marker_index(end1);
  if (a == b) {
    throw MocapInputError({take.info().source, 0, 0, "marker '" + std::string(end0) + "'"},
                          "a stick needs two different end markers");
  }
  return make_stick(take, a, b, options);
}

StickTrack stick_from_rigid_body(const Take& take, std::string_view rigid_body,
                                 const GapFillingOptions& options) {
  const std::string prefix = std::string(rigid_body) + ":";
  auto members = [&](MarkerKind kind) {
    std::vector<std::size_t> out;
    for (std::size_t m = 0; m < take.marker_count(); ++m) {
      const MarkerInfo& info = take.marker(m);
      if (info.kind == kind && info.name.compare(0, prefix.size(), prefix) == 0)
        out.push_back(m);
    }
    return out;
  };
  std::vector<std::size_t> markers = members(MarkerKind::kRigidBodyMarker);
  if (markers.size() < 2)
    markers = members(MarkerKind::kMarker);
  const MocapInputLocation where{take.info().source, 0, 0,
                                 "rigid body '" + std::string(rigid_body) + "'"};
  if (markers.size() < 2) {
    throw MocapInputError(where, "a stick needs at least two markers named '" + prefix +
                                     "...'; the take has " + std::to_string(markers.size()));
  }
  double best = -1.0;
  std::size_t best_a = 0;
  std::size_t best_b = 0;
  for (std::size_t i = 0; i < markers.size(); ++i) {
    for (std::size_t j = i + 1; j < markers.size(); ++j) {
      double sum = 0.0;
      std::size_t count = 0;
      for (std::size_t f = 0; f < take.frame_count(); ++f) {
        if (take.visible(f, markers[i]) && take.visible(f, markers[j])) {
          sum += (take.position(f, markers[j]) - take.position(f, markers[i])).norm();
          ++count;
        }
      }
      if (count > 0 && sum / static_cast<double>(count) > best) {
        best = sum / static_cast<double>(count);
        best_a = markers[i];
        best_b = markers[j];
      }
    }
  }
  if (best < 0.0) {
    throw MocapInputError(where, "no two of its markers are ever visible in the same frame");
  }
  return make_stick(take, best_a, best_b, options);
}

}  // namespace clothfit::mocap
