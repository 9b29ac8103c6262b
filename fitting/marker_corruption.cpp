#include "fitting/marker_corruption.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <stdexcept>

namespace clothfit::fitting {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok)
    throw std::invalid_argument("corrupt_markers: " + what);
}

void validate(const MarkerCorruptionOptions& o) {
  require(std::isfinite(o.noise_sigma_m) && o.noise_sigma_m >= 0, "noise_sigma_m must be ≥ 0");
  require(std::isfinite(o.gap_rate_hz) && o.gap_rate_hz >= 0, "gap_rate_hz must be ≥ 0");
  require(std::isfinite(o.occlusion_rate_hz) && o.occlusion_rate_hz >= 0,
          "occlusion_rate_hz must be ≥ 0");
  require(o.gap_min_frames >= 1 && o.gap_max_frames >= o.gap_min_frames,
          "gap frames must satisfy 1 ≤ min ≤ max");
  require(o.occlusion_min_frames >= 1 && o.occlusion_max_frames >= o.occlusion_min_frames,
          "occlusion frames must satisfy 1 ≤ min ≤ max");
  require(o.protected_max_gap_frames >= 1, "protected_max_gap_frames must be ≥ 1");
}

}  // namespace

CorruptedRecording corrupt_markers(const std::vector<std::string>& marker_names,
                                   std::span<const double> clean_positions_m,
                                   std::size_t frame_count, double frame_rate_hz,
                                   std::span<const std::uint8_t> near_contact,
                                   const MarkerCorruptionOptions& options) {
  validate(options);
  const std::size_t markers = marker_names.size();
  require(std::isfinite(frame_rate_hz) && frame_rate_hz > 0, "frame_rate_hz must be > 0");
  require(frame_count >= 1, "at least one frame");
  require(clean_positions_m.size() == frame_count * markers * 3,
          "clean positions must hold frames × markers × 3 values");
  require(near_contact.empty() || near_contact.size() == frame_count * markers,
          "near_contact must be empty or hold frames × markers flags");
  const std::set<std::string> protected_names(options.protected_markers.begin(),
                                              options.protected_markers.end());
  for (const std::string& name : options.protected_markers) {
    require(std::find(marker_names.begin(), marker_names.end(), name) != marker_names.end(),
            "protected marker '" + name + "' is not among the markers");
  }

  std::mt19937_64 rng(options.seed);
  std::bernoulli_distribution random_gap(std::min(1.0, options.gap_rate_hz / frame_rate_hz));
  std::bernoulli_distribution occlusion(std::min(1.0, options.occlusion_rate_hz / frame_rate_hz));
  std::uniform_int_distribution<int> gap_length(options.gap_min_frames, options.gap_max_frames);
  std::uniform_int_distribution<int> burst_length(options.occlusion_min_frames,
                                                  options.occlusion_max_frames);
  // A normal distribution needs σ > 0; with σ = 0 it is never drawn from (below).
  std::normal_distribution<double> noise(0.0,
                                         options.noise_sigma_m > 0 ? options.noise_sigma_m : 1.0);

  MarkerCorruptionStatistics stats;
  std::vector<double> positions(clean_positions_m.begin(), clean_positions_m.end());
  double noise_sum = 0.0, noise_sum_sq = 0.0;
  std::size_t noise_count = 0;

  // Noise first (every present sample), then gaps per marker.
  for (double& x : positions) {
    if (std::isnan(x))
      continue;
    const double e = options.noise_sigma_m > 0 ? noise(rng) : 0.0;
    x += e;
    noise_sum += e;
    noise_sum_sq += e * e;
    ++noise_count;
  }
  if (noise_count > 1) {
    const double mean = noise_sum / noise_count;
    stats.noise_std_m =
        std::sqrt(std::max(0.0, (noise_sum_sq - noise_count * mean * mean) / (noise_count - 1)));
  }

  const std::size_t last = frame_count - 1;
  for (std::size_t m = 0; m < markers; ++m) {
    const bool is_protected = protected_names.count(marker_names[m]) > 0;
    const std::size_t first_allowed = (is_protected || options.complete_first_frame) ? 1 : 0;
    std::size_t f = first_allowed;
    while (f < frame_count) {
      const bool contact = !near_contact.empty() && near_contact[f * markers + m] != 0;
      // Draw both processes every frame so the random stream does not depend on the branch taken.
      const bool start_random = random_gap(rng);
      const bool burst_draw = occlusion(rng);
      const bool start_burst = contact && burst_draw;
      if (!start_random && !start_burst) {
        ++f;
        continue;
      }
      std::size_t length =
          static_cast<std::size_t>(start_burst ? burst_length(rng) : gap_length(rng));
      if (is_protected) {
        if (f >= last)
          break;
        const std::size_t limit = std::min<std::size_t>(options.protected_max_gap_frames, last - f);
        if (length > limit) {
          length = limit;
          ++stats.shortened_gaps;
        }
      }
      length = std::min(length, frame_count - f);
      if (start_burst)
        ++stats.occlusion_bursts;
      else
        ++stats.random_gaps;
      stats.longest_gap_frames = std::max(stats.longest_gap_frames, length);
      for (std::size_t g = f; g < f + length; ++g) {
        double* p = positions.data() + 3 * (g * markers + m);
        if (!std::isnan(clean_positions_m[3 * (g * markers + m)]))
          ++stats.samples_removed;
        p[0] = p[1] = p[2] = std::nan("");
      }
      f += length + 1;  // at least one visible frame after each gap
    }
  }
  for (std::size_t k = 0; k < frame_count * markers; ++k) {
    if (!std::isnan(clean_positions_m[3 * k]))
      ++stats.samples;
  }

  mocap::TakeInfo info;
  info.source = "synthetic";
  info.header.take_name = options.take_name;
  info.header.format_version = "1.23";
  info.header.capture_frame_rate_hz = frame_rate_hz;
  info.header.export_frame_rate_hz = frame_rate_hz;
  info.header.total_frames_in_take = static_cast<std::int64_t>(frame_count);
  info.header.total_exported_frames = static_cast<std::int64_t>(frame_count);
  info.frame_rate_source = "given";
  std::vector<mocap::MarkerInfo> marker_infos;
  for (const std::string& name : marker_names)
    marker_infos.push_back({name, "", mocap::MarkerKind::kMarker});
  return {mocap::Take(std::move(info), frame_rate_hz, 0, frame_count, std::move(marker_infos),
                      std::move(positions)),
          stats};
}

}  // namespace clothfit::fitting
