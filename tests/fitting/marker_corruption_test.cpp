// Marker corruption: noise statistics, gap rates and lengths, occlusion bursts only near contacts,
// protected markers, reproducibility, and a Motive CSV round trip (y up, millimetres).
#include "fitting/marker_corruption.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "mocap/motive_csv_reader.hpp"
#include "mocap/motive_csv_writer.hpp"

namespace clothfit::fitting {
namespace {

struct Clean {
  std::vector<std::string> names;
  std::vector<double> positions;  // frames × markers × 3
  std::size_t frames = 0;
};

// A slowly moving grid of markers; marker m at frame f sits at (0.1 m, sin, 1 + 0.01 f/100).
Clean clean_recording(std::size_t frames, std::size_t markers) {
  Clean c;
  c.frames = frames;
  for (std::size_t m = 0; m < markers; ++m)
    // (Not "M" + …: inlined with constant sizes, GCC 12 warns falsely about it, -Wrestrict.)
    c.names.push_back(std::string(1, 'M') + std::to_string(m));
  for (std::size_t f = 0; f < frames; ++f) {
    for (std::size_t m = 0; m < markers; ++m) {
      c.positions.push_back(0.1 * static_cast<double>(m));
      c.positions.push_back(0.2 * std::sin(0.01 * static_cast<double>(f)));
      c.positions.push_back(1.0 + 1e-4 * static_cast<double>(f));
    }
  }
  return c;
}

// Gaps of marker m: (first frame, length) of every run of missing frames.
std::vector<std::pair<std::size_t, std::size_t>> gaps(const mocap::Take& take, std::size_t m) {
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::size_t f = 0; f < take.frame_count(); ++f) {
    if (take.visible(f, m))
      continue;
    if (!runs.empty() && runs.back().first + runs.back().second == f)
      ++runs.back().second;
    else
      runs.push_back({f, 1});
  }
  return runs;
}

TEST(MarkerCorruption, NoiseHasTheRequestedStandardDeviation) {
  const Clean c = clean_recording(2000, 10);
  MarkerCorruptionOptions o;
  o.noise_sigma_m = 0.001;
  o.gap_rate_hz = 0.0;
  const CorruptedRecording r = corrupt_markers(c.names, c.positions, c.frames, 100.0, {}, o);
  // Measured against the clean input: 60 000 draws, std within 2 % (its standard error is 0.3 %).
  double sum = 0.0, sum_sq = 0.0;
  const std::span<const double> noisy = r.take.positions_m();
  for (std::size_t k = 0; k < noisy.size(); ++k) {
    const double e = noisy[k] - c.positions[k];
    sum += e;
    sum_sq += e * e;
  }
  const double n = static_cast<double>(noisy.size());
  const double mean = sum / n;
  const double std = std::sqrt(sum_sq / n - mean * mean);
  EXPECT_NEAR(std, 0.001, 0.00002);
  EXPECT_NEAR(mean, 0.0, 0.00002);
  EXPECT_NEAR(r.statistics.noise_std_m, std, 1e-6);
  EXPECT_EQ(r.statistics.samples_removed, 0u);
  EXPECT_EQ(r.statistics.samples, 20000u);
  EXPECT_EQ(r.take.info().source, "synthetic");
  EXPECT_DOUBLE_EQ(r.take.frame_rate_hz(), 100.0);
}

TEST(MarkerCorruption, RandomGapsFollowTheRateAndLengthRange) {
  const Clean c = clean_recording(6000, 20);  // 60 s at 100 Hz, 20 markers: 1200 marker-seconds
  MarkerCorruptionOptions o;
  o.noise_sigma_m = 0.0;
  o.gap_rate_hz = 0.5;  // expected ≈ 600 gaps × (fraction of time not in a gap or its guard frame)
  o.gap_min_frames = 1;
  o.gap_max_frames = 10;
  const CorruptedRecording r = corrupt_markers(c.names, c.positions, c.frames, 100.0, {}, o);
  std::size_t count = 0, missing = 0;
  for (std::size_t m = 0; m < 20; ++m) {
    for (const auto& [first, length] : gaps(r.take, m)) {
      ++count;
      missing += length;
      EXPECT_GE(length, 1u);
      EXPECT_LE(length, 10u);
    }
  }
  EXPECT_EQ(count, r.statistics.random_gaps);  // a visible frame separates gaps
  EXPECT_EQ(missing, r.statistics.samples_removed);
  EXPECT_EQ(r.statistics.occlusion_bursts, 0u);
  // Starts happen only where no gap runs: rate × (time outside gaps and guard frames).
  const double free_seconds = (20.0 * 6000 - static_cast<double>(missing + count)) / 100.0;
  const double expected = 0.5 * free_seconds;
  EXPECT_NEAR(static_cast<double>(count), expected, 4 * std::sqrt(expected));
  // Mean length of uniform 1..10 frames: 5.5.
  EXPECT_NEAR(static_cast<double>(missing) / count, 5.5, 0.5);
  // Noise off: visible samples are the clean ones.
  EXPECT_EQ(r.take.position(0, 0).x(), c.positions[0]);
}

TEST(MarkerCorruption, OcclusionBurstsOnlyNearContactsAndLonger) {
  const Clean c = clean_recording(3000, 4);
  std::vector<std::uint8_t> near(3000 * 4, 0);
  for (std::size_t f = 1000; f < 2000; ++f)
    near[f * 4 + 1] = 1;  // marker 1 near a contact for 10 s
  MarkerCorruptionOptions o;
  o.gap_rate_hz = 0.0;
  o.occlusion_rate_hz = 3.0;
  const CorruptedRecording r = corrupt_markers(c.names, c.positions, c.frames, 100.0, near, o);
  EXPECT_GT(r.statistics.occlusion_bursts, 5u);
  for (std::size_t m : {0u, 2u, 3u})
    EXPECT_TRUE(gaps(r.take, m).empty());
  for (const auto& [first, length] : gaps(r.take, 1)) {
    EXPECT_GE(first, 1000u);
    EXPECT_LT(first, 2000u);
    EXPECT_GE(length, 5u);
    EXPECT_LE(length, 30u);
  }
  EXPECT_EQ(gaps(r.take, 1).size(), r.statistics.occlusion_bursts);
}

// A protected marker's gap counts as shortened only when it was cut: with every drawn length at
// the limit, only the gaps the last frame cuts short count.
TEST(MarkerCorruption, OnlyGapsThatWereCutCountAsShortened) {
  const Clean c = clean_recording(400, 2);
  MarkerCorruptionOptions o;
  o.gap_rate_hz = 20.0;
  o.gap_min_frames = 4;
  o.gap_max_frames = 4;
  o.protected_markers = {"M0", "M1"};
  o.protected_max_gap_frames = 4;
  std::size_t gap_count = 0, cut = 0, shortened = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    o.seed = seed;
    const CorruptedRecording r = corrupt_markers(c.names, c.positions, c.frames, 100.0, {}, o);
    shortened += r.statistics.shortened_gaps;
    for (std::size_t m : {0u, 1u}) {
      for (const auto& [first, length] : gaps(r.take, m)) {
        ++gap_count;
        cut += length < 4 ? 1 : 0;
      }
    }
  }
  EXPECT_GT(gap_count, 200u);
  EXPECT_EQ(shortened, cut);
}

TEST(MarkerCorruption, ProtectedMarkersHaveShortGapsNeverAtTheEnds) {
  const Clean c = clean_recording(400, 6);
  std::vector<std::uint8_t> near(400 * 6, 1);  // everything near a contact all the time
  MarkerCorruptionOptions o;
  o.gap_rate_hz = 5.0;
  o.occlusion_rate_hz = 10.0;
  o.protected_markers = {"M0", "M5"};
  o.protected_max_gap_frames = 4;
  bool some_unprotected_gap_at_first_frame = false;
  std::size_t shortened = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    o.seed = seed;
    const CorruptedRecording r = corrupt_markers(c.names, c.positions, c.frames, 100.0, near, o);
    shortened += r.statistics.shortened_gaps;
    for (std::size_t m : {0u, 5u}) {
      EXPECT_TRUE(r.take.visible(0, m));
      EXPECT_TRUE(r.take.visible(399, m));
      EXPECT_FALSE(gaps(r.take, m).empty());
      for (const auto& [first, length] : gaps(r.take, m))
        EXPECT_LE(length, 4u);
    }
    for (std::size_t m = 1; m < 5; ++m)
      some_unprotected_gap_at_first_frame |= !r.take.visible(0, m);
  }
  EXPECT_GT(shortened, 0u);
  EXPECT_TRUE(some_unprotected_gap_at_first_frame);  // the rule is the protection, not luck
  o.complete_first_frame = true;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    o.seed = seed;
    const CorruptedRecording r = corrupt_markers(c.names, c.positions, c.frames, 100.0, near, o);
    for (std::size_t m = 0; m < 6; ++m)
      EXPECT_TRUE(r.take.visible(0, m));
  }
}

TEST(MarkerCorruption, SameSeedSameRecordingOtherSeedDifferent) {
  const Clean c = clean_recording(500, 5);
  MarkerCorruptionOptions o;
  o.gap_rate_hz = 1.0;
  auto samples = [&](std::uint64_t seed) {
    o.seed = seed;
    const CorruptedRecording r = corrupt_markers(c.names, c.positions, c.frames, 100.0, {}, o);
    const std::span<const double> p = r.take.positions_m();
    return std::vector<double>(p.begin(), p.end());
  };
  const std::vector<double> a = samples(3), b = samples(3), d = samples(4);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (std::isnan(a[k])) {
      EXPECT_TRUE(std::isnan(b[k]));
    } else {
      EXPECT_EQ(a[k], b[k]);
    }
  }
  std::size_t differing = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    differing += (a[k] != d[k]) ? 1 : 0;  // NaN != NaN counts too
  EXPECT_GT(differing, a.size() / 2);
}

TEST(MarkerCorruption, RoundTripsThroughMotiveCsvInMillimetresYUp) {
  const Clean c = clean_recording(300, 5);
  MarkerCorruptionOptions o;
  o.gap_rate_hz = 2.0;
  o.take_name = "synthetic hitting";
  const CorruptedRecording r = corrupt_markers(c.names, c.positions, c.frames, 100.0, {}, o);
  ASSERT_GT(r.statistics.samples_removed, 0u);
  std::ostringstream out;
  mocap::MotiveCsvWriteOptions w;
  w.length_unit = mocap::LengthUnit::kMillimeters;
  w.file_up_axis = mocap::UpAxis::kY;
  mocap::write_motive_csv(r.take, out, w);
  std::istringstream in(out.str());
  const mocap::Take back = mocap::read_motive_csv(in, "synthetic.csv");
  ASSERT_EQ(back.frame_count(), r.take.frame_count());
  ASSERT_EQ(back.marker_count(), r.take.marker_count());
  EXPECT_DOUBLE_EQ(back.frame_rate_hz(), 100.0);
  EXPECT_EQ(back.info().header.take_name, "synthetic hitting");
  for (std::size_t f = 0; f < back.frame_count(); ++f) {
    for (std::size_t m = 0; m < back.marker_count(); ++m) {
      ASSERT_EQ(back.visible(f, m), r.take.visible(f, m)) << f << " " << m;
      if (back.visible(f, m)) {
        EXPECT_LT((back.position(f, m) - r.take.position(f, m)).norm(), 1e-8);
      }
    }
  }
}

TEST(MarkerCorruption, RejectsInconsistentInput) {
  const Clean c = clean_recording(10, 2);
  MarkerCorruptionOptions o;
  EXPECT_THROW(corrupt_markers(c.names, c.positions, 11, 100.0, {}, o), std::invalid_argument);
  EXPECT_THROW(corrupt_markers(c.names, c.positions, 10, 0.0, {}, o), std::invalid_argument);
  const std::vector<std::uint8_t> near(7, 0);
  EXPECT_THROW(corrupt_markers(c.names, c.positions, 10, 100.0, near, o), std::invalid_argument);
  o.protected_markers = {"nope"};
  EXPECT_THROW(corrupt_markers(c.names, c.positions, 10, 100.0, {}, o), std::invalid_argument);
  o.protected_markers.clear();
  o.gap_max_frames = 0;
  EXPECT_THROW(corrupt_markers(c.names, c.positions, 10, 100.0, {}, o), std::invalid_argument);
  // Every option on its own: negative, not finite, or an empty range of lengths.
  const auto refused = [&c](void (*set)(MarkerCorruptionOptions&)) {
    MarkerCorruptionOptions bad;
    set(bad);
    try {
      corrupt_markers(c.names, c.positions, 10, 100.0, {}, bad);
    } catch (const std::invalid_argument&) {
      return true;
    }
    return false;
  };
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(refused([](MarkerCorruptionOptions& b) { b.noise_sigma_m = -1e-3; }));
  EXPECT_TRUE(refused([](MarkerCorruptionOptions& b) { b.noise_sigma_m = nan; }));
  EXPECT_TRUE(refused([](MarkerCorruptionOptions& b) { b.noise_sigma_m = inf; }));
  EXPECT_TRUE(refused([](MarkerCorruptionOptions& b) { b.gap_rate_hz = -0.5; }));
  EXPECT_TRUE(refused([](MarkerCorruptionOptions& b) { b.gap_rate_hz = inf; }));
  EXPECT_TRUE(refused([](MarkerCorruptionOptions& b) { b.occlusion_rate_hz = -0.5; }));
  EXPECT_TRUE(refused([](MarkerCorruptionOptions& b) { b.occlusion_rate_hz = nan; }));
  EXPECT_TRUE(refused([](MarkerCorruptionOptions& b) { b.gap_min_frames = 0; }));
  EXPECT_TRUE(refused([](MarkerCorruptionOptions& b) { b.occlusion_min_frames = 0; }));
  EXPECT_TRUE(refused(
      [](MarkerCorruptionOptions& b) { b.occlusion_max_frames = b.occlusion_min_frames - 1; }));
  EXPECT_TRUE(refused([](MarkerCorruptionOptions& b) { b.protected_max_gap_frames = 0; }));
  EXPECT_FALSE(refused([](MarkerCorruptionOptions& b) {
    b.noise_sigma_m = 0.0;
    b.gap_rate_hz = 0.0;
    b.occlusion_rate_hz = 0.0;
  }));
}

}  // namespace
}  // namespace clothfit::fitting
