// Marker corruption: turns clean sampled marker positions (a simulation sampled at the marker
// nodes) into a realistic motion-capture recording — Gaussian noise on every coordinate, short
// random dropouts, and longer occlusion bursts while a marker is near a contact (a stick or a
// table hides it from the cameras) — as a mocap::Take with NaN gaps.
//
// Gaps are drawn per marker as a Bernoulli process over frames: at every frame where no gap is
// running, a random gap starts with probability gap_rate_hz / frame_rate_hz and, if the marker is
// near a contact, an occlusion burst with probability occlusion_rate_hz / frame_rate_hz (the burst
// wins when both start). Lengths are uniform in their frame ranges. After a gap the marker is
// visible for at least one frame, so every gap has visible frames on both sides unless it touches
// the first or last frame. Protected markers (the held corners, the stick's ends: their paths drive
// the simulator and gaps there must stay short enough to fill) get gaps of at most
// protected_max_gap_frames frames and never at the first or the last frame.
//
// All randomness comes from one std::mt19937_64 seeded with options.seed: same inputs and seed,
// same recording.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mocap/take.hpp"

namespace clothfit::fitting {

struct MarkerCorruptionOptions {
  double noise_sigma_m = 0.001;  // std of the Gaussian noise per coordinate, m (≥ 0)
  // Short random dropouts: expected starts per marker per second, and length range in frames.
  double gap_rate_hz = 0.05;
  int gap_min_frames = 1;
  int gap_max_frames = 10;
  // Occlusion bursts near contacts: starts per marker per second of being near a contact.
  double occlusion_rate_hz = 2.0;
  int occlusion_min_frames = 5;
  int occlusion_max_frames = 30;
  // Markers (by name) whose gaps are at most protected_max_gap_frames long (longer ones are cut)
  // and never cover the first or last frame.
  std::vector<std::string> protected_markers;
  int protected_max_gap_frames = 5;  // ≥ 1
  // When true, no marker is missing at the first frame (the initial state needs every marker).
  bool complete_first_frame = false;
  std::uint64_t seed = 1;
  std::string take_name = "synthetic";  // TakeInfo header take name
};

struct MarkerCorruptionStatistics {
  std::size_t samples = 0;          // frames × markers that were present in the clean input
  std::size_t samples_removed = 0;  // of those, made missing
  std::size_t random_gaps = 0;      // gaps started by the random dropout process
  std::size_t occlusion_bursts = 0;
  std::size_t shortened_gaps = 0;  // protected markers' gaps cut to protected_max_gap_frames
  std::size_t longest_gap_frames = 0;
  double noise_std_m = 0.0;  // sample std of the noise actually added (all coordinates)
};

struct CorruptedRecording {
  mocap::Take take;
  MarkerCorruptionStatistics statistics;
};

// marker_names: unique, one per marker (MarkerKind::kMarker). clean_positions_m:
// (frame_count × markers × 3) row-major, metres, z up; a NaN sample stays missing. near_contact:
// empty (no contacts) or (frame_count × markers), nonzero where the marker is near a contact.
// frame_rate_hz > 0. Throws std::invalid_argument for inconsistent shapes or invalid options.
// The Take has first frame number 0 and TakeInfo source "synthetic".
CorruptedRecording corrupt_markers(const std::vector<std::string>& marker_names,
                                   std::span<const double> clean_positions_m,
                                   std::size_t frame_count, double frame_rate_hz,
                                   std::span<const std::uint8_t> near_contact,
                                   const MarkerCorruptionOptions& options);

}  // namespace clothfit::fitting
