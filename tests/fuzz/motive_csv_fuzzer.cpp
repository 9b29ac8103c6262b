// libFuzzer target for the Motive CSV reader. Any input must either read or raise
// MocapInputError — never crash, hang, leak or trip a sanitizer — and a take that reads must
// survive write -> read with the same frames, markers, gaps and positions (to the 6 printed
// decimals). Built by tests/fuzz/CMakeLists.txt; run by scripts/fuzz.sh.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "mocap/gap_statistics.hpp"
#include "mocap/mocap_input_error.hpp"
#include "mocap/motive_csv_reader.hpp"
#include "mocap/motive_csv_writer.hpp"
#include "mocap/take_summary.hpp"

namespace {

using clothfit::mocap::Take;

[[noreturn]] void invariant_broken(const char* what) {
  std::fprintf(stderr, "motive_csv_fuzzer: invariant broken: %s\n", what);
  std::abort();
}

// |a - b| within the 6 printed decimals of metres (plus the doubles' own rounding).
bool close(double a, double b) {
  return std::abs(a - b) <= 1e-6 + 1e-12 * std::abs(a);
}

void check_round_trip(const Take& take) {
  std::ostringstream out;
  clothfit::mocap::write_motive_csv(take, out);
  std::istringstream in(out.str());
  const Take back = clothfit::mocap::read_motive_csv(in, "round-trip.csv");
  if (back.frame_count() != take.frame_count())
    invariant_broken("frame count");
  if (back.marker_count() != take.marker_count())
    invariant_broken("marker count");
  if (back.first_frame_number() != take.first_frame_number())
    invariant_broken("first frame");
  if (back.frame_rate_hz() != take.frame_rate_hz())
    invariant_broken("frame rate");
  if (back.rigid_bodies().size() != take.rigid_bodies().size())
    invariant_broken("rigid bodies");
  for (std::size_t m = 0; m < take.marker_count(); ++m) {
    const auto i = back.find_marker(take.marker(m).name, take.marker(m).kind);
    if (!i)
      invariant_broken("marker name");
    for (std::size_t f = 0; f < take.frame_count(); ++f) {
      if (back.visible(f, *i) != take.visible(f, m))
        invariant_broken("gap pattern");
      if (!take.visible(f, m))
        continue;
      for (int a = 0; a < 3; ++a) {
        if (!close(take.position(f, m)[a], back.position(f, *i)[a]))
          invariant_broken("position");
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // A small chunk size puts chunk boundaries everywhere: inside numbers, CRLF pairs, quotes.
  for (std::size_t chunk : {std::size_t{64}, std::size_t{1} << 16}) {
    clothfit::mocap::MotiveCsvReadOptions options;
    options.chunk_bytes = chunk;
    try {
      std::istringstream in(text);
      const Take take = clothfit::mocap::read_motive_csv(in, "fuzz.csv", options);
      (void)clothfit::mocap::gap_statistics(take);
      (void)clothfit::mocap::take_summary_json(take).dump();
      if (chunk != 64)
        check_round_trip(take);
    } catch (const clothfit::mocap::MocapInputError& e) {
      if (e.problem().empty())
        invariant_broken("an error without a message");
    }
  }
  return 0;
}
