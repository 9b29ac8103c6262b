// motive_io_bench: writes a one-hour, 120 Hz, 25-marker take (432,000 frames, ~1 % of the samples
// missing) as Motive CSV 1.23 to a temporary file, reads it back, and prints the file size, the
// write and read speeds (MB/s of file, the file being in the page cache when it is read) and the
// peak memory of the read: the rise of VmHWM (/proc/self/status) over the resident memory before
// the read, the high-water mark being reset just before it (/proc/self/clear_refs). Targets:
// read >= 100 MB/s and peak <= 2 x the numeric payload (frames x markers x 3 doubles).
//
//   motive_io_bench [minutes]     (default 60)
#include <unistd.h>
#include "bench/bench_arguments.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "mocap/motive_csv_reader.hpp"
#include "mocap/motive_csv_writer.hpp"

namespace {

using clothfit::mocap::MarkerInfo;
using clothfit::mocap::MarkerKind;
using clothfit::mocap::Take;
using clothfit::mocap::TakeInfo;

constexpr double kFrameRateHz = 120.0;
constexpr int kGridRows = 5;
constexpr int kGridColumns = 5;  // 25 markers
constexpr double kTargetReadMBps = 100.0;
constexpr double kTargetPeakOverPayload = 2.0;

// A value of /proc/self/status in kB ("VmHWM", "VmRSS"); empty when unavailable.
std::optional<long> status_kb(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string prefix = std::string(key) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0)
      return std::strtol(line.c_str() + prefix.size(), nullptr, 10);
  }
  return std::nullopt;
}

// Resets VmHWM to the current resident size (Linux >= 4.0); false when not allowed.
bool reset_peak_memory() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

// A 5 x 5 marker grid on a sheet waving in the wind, 1 % of the samples missing in short gaps.
Take make_take(std::size_t frames) {
  std::vector<MarkerInfo> markers;
  for (int r = 0; r < kGridRows; ++r) {
    for (int c = 0; c < kGridColumns; ++c) {
      markers.push_back({"cloth:R" + std::to_string(r) + "C" + std::to_string(c),
                         std::to_string(markers.size() + 1), MarkerKind::kMarker});
    }
  }
  std::vector<double> positions;
  positions.reserve(frames * markers.size() * 3);
  unsigned state = 2463534242u;  // xorshift32: deterministic gaps
  std::vector<int> gap_left(markers.size(), 0);
  for (std::size_t f = 0; f < frames; ++f) {
    const double t = static_cast<double>(f) / kFrameRateHz;
    for (std::size_t m = 0; m < markers.size(); ++m) {
      state ^= state << 13;
      state ^= state >> 17;
      state ^= state << 5;
      if (gap_left[m] == 0 && state % 500 == 0)
        gap_left[m] = 5;  // ~1 % missing
      if (gap_left[m] > 0) {
        --gap_left[m];
        positions.insert(positions.end(), 3, std::nan(""));
        continue;
      }
      const double u = 0.1 * static_cast<double>(m % kGridColumns);
      const double v = 0.1 * static_cast<double>(m / kGridColumns);
      positions.push_back(-0.2 + u + 0.01 * std::sin(2.0 * t + v));
      positions.push_back(0.35 + 0.05 * std::sin(1.3 * t + 4.0 * u) * v);
      positions.push_back(1.6 - v + 0.02 * std::cos(0.7 * t + u));
    }
  }
  TakeInfo info;
  info.header.take_name = "motive_io_bench";
  return Take(info, kFrameRateHz, 0, frames, std::move(markers), std::move(positions));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const double minutes = clothfit::bench::positive_argument(
      argc, argv, 1, 60.0, "usage: motive_io_bench [MINUTES]   length of the take (default 60)");
  const auto frames = static_cast<std::size_t>(std::llround(minutes * 60.0 * kFrameRateHz));
  const std::size_t marker_count = kGridRows * kGridColumns;
  const double payload_mb = static_cast<double>(frames * marker_count * 3 * sizeof(double)) / 1e6;
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("clothfit_motive_io_bench_" + std::to_string(getpid()) + ".csv");

  std::printf("motive_io_bench: %.1f min at %.0f Hz = %zu frames x %zu markers\n", minutes,
              kFrameRateHz, frames, marker_count);
  std::printf("  numeric payload      %10.1f MB (frames x markers x 3 doubles)\n", payload_mb);

  double write_s = 0.0;
  {
    const Take take = make_take(frames);
    const auto start = std::chrono::steady_clock::now();
    clothfit::mocap::write_motive_csv(take, path);
    write_s = seconds_since(start);
  }  // the written take is freed before the read is measured
  const double file_mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  std::printf("  file size            %10.1f MB\n", file_mb);
  std::printf("  write                %10.1f MB/s (%.2f s)\n", file_mb / write_s, write_s);

  const bool reset = reset_peak_memory();
  const std::optional<long> rss_before_kb = status_kb("VmRSS");
  const auto start = std::chrono::steady_clock::now();
  std::size_t visible = 0;
  std::size_t read_frames = 0;
  double read_s = 0.0;
  std::optional<long> peak_kb;
  try {
    const Take take = clothfit::mocap::read_motive_csv(path);
    read_s = seconds_since(start);
    peak_kb = status_kb("VmHWM");
    read_frames = take.frame_count();
    for (std::size_t f = 0; f < take.frame_count(); ++f) {
      for (std::size_t m = 0; m < take.marker_count(); ++m)
        visible += take.visible(f, m);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "motive_io_bench: %s\n", e.what());
    std::filesystem::remove(path);
    return 1;
  }
  std::filesystem::remove(path);
  const double read_mbps = file_mb / read_s;
  std::printf(
      "  read                 %10.1f MB/s (%.2f s; %zu frames, %.2f %% samples visible)"
      "  target >= %.0f MB/s: %s\n",
      read_mbps, read_s, read_frames,
      100.0 * static_cast<double>(visible) / static_cast<double>(frames * marker_count),
      kTargetReadMBps, read_mbps >= kTargetReadMBps ? "met" : "NOT met");
  if (peak_kb && rss_before_kb && reset) {
    const double peak_mb = static_cast<double>(*peak_kb - *rss_before_kb) * 1024.0 / 1e6;
    const double ratio = peak_mb / payload_mb;
    std::printf("  read peak memory     %10.1f MB above the %.1f MB resident before it (VmHWM)\n",
                peak_mb, static_cast<double>(*rss_before_kb) * 1024.0 / 1e6);
    std::printf("  peak / payload       %10.2f  target <= %.1f: %s\n", ratio,
                kTargetPeakOverPayload, ratio <= kTargetPeakOverPayload ? "met" : "NOT met");
  } else {
    std::printf(
        "  read peak memory     not measured (/proc/self/status or clear_refs unavailable)\n");
  }
  return 0;
}
