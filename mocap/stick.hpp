// A stick: the rigid segment between two recorded markers (its ends), per frame, with the gaps of
// both ends filled by linear interpolation (gap_filling.hpp) so that every frame has a segment.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "mocap/gap_filling.hpp"
#include "mocap/take.hpp"

namespace clothfit::mocap {

struct StickSegment {
  Eigen::Vector3d end0_m;  // metres, simulator frame
  Eigen::Vector3d end1_m;
};

struct StickTrack {
  std::string end0_marker;  // marker names of the two ends
  std::string end1_marker;
  std::size_t frame_count = 0;
  // (frame_count × 2 × 3) row-major: end 0 then end 1 per frame, metres, simulator frame.
  std::vector<double> ends_m;
  // Length over the frames where both ends were measured (not filled), metres: the mean and the
  // largest deviation from it (a rigid stick keeps this near the marker noise).
  double mean_length_m = 0.0;
  double max_length_deviation_m = 0.0;

  StickSegment segment(std::size_t frame) const {
    return {Eigen::Vector3d::Map(ends_m.data() + 6 * frame),
            Eigen::Vector3d::Map(ends_m.data() + 6 * frame + 3)};
  }
};

// The stick between markers `end0` and `end1` (Take::marker_index names). Gap errors as in
// fill_gaps_linear.
StickTrack stick_from_markers(const Take& take, std::string_view end0, std::string_view end1,
                              const GapFillingOptions& options = {});

// The stick of a rigid body: its markers are those named "<rigid_body>:..." — the `Rigid Body
// Marker` assets when the file has them (solved, rigid positions), otherwise the `Marker` assets
// — and its ends are the two of them farthest apart (mean distance over the frames where both
// are visible). Throws MocapInputError (field "rigid body 'NAME'") when fewer than two such
// markers exist or no pair is ever visible together.
StickTrack stick_from_rigid_body(const Take& take, std::string_view rigid_body,
                                 const GapFillingOptions& options = {});

}  // namespace clothfit::mocap
