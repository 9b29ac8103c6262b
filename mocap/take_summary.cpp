#include "mocap/take_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "mocap/gap_statistics.hpp"

namespace clothfit::mocap {
namespace {

nlohmann::ordered_json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

double tracked_fraction(const Take& take, const RigidBodyTrack& body) {
  std::size_t tracked = 0;
  for (std::size_t f = 0; f < take.frame_count(); ++f)
    tracked += body.tracked(f) ? 1 : 0;
  return take.frame_count() ? static_cast<double>(tracked) / static_cast<double>(take.frame_count())
                            : 0.0;
}

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

// "120 Hz", "119.88 Hz": up to 6 significant digits.
std::string hz(double value) {
  return format("%.6g", value) + " Hz";
}

}  // namespace

nlohmann::ordered_json take_summary_json(const Take& take) {
  using Json = nlohmann::ordered_json;
  const TakeInfo& info = take.info();
  const MotiveHeader& header = info.header;
  Json j;
  j["file"] = info.source;
  j["format_version"] = header.format_version;
  j["take_name"] = header.take_name;
  j["capture_frame_rate_hz"] = optional_json(header.capture_frame_rate_hz);
  j["export_frame_rate_hz"] = optional_json(header.export_frame_rate_hz);
  j["frame_rate_hz"] = take.frame_rate_hz();
  j["frame_rate_source"] = info.frame_rate_source;
  j["frames"] = take.frame_count();
  j["first_frame"] = take.first_frame_number();
  j["last_frame"] = take.frame_number(take.frame_count() - (take.frame_count() > 0 ? 1 : 0));
  j["duration_s"] = take.duration_s();
  j["total_exported_frames"] =
      header.total_exported_frames ? Json(*header.total_exported_frames) : Json(nullptr);
  j["length_units"] = std::string(motive_unit_name(info.file_length_unit));
  j["length_units_assumed"] = info.file_length_unit_assumed;
  j["up_axis"] = std::string(up_axis_name(info.file_up_axis));
  Json assets = Json::array();
  for (const AssetInfo& a : info.assets) {
    assets.push_back({{"type", a.type},
                      {"name", a.name},
                      {"id", a.id},
                      {"first_column", a.first_column},
                      {"columns", a.column_count},
                      {"read", a.read}});
  }
  j["assets"] = std::move(assets);
  Json bodies = Json::array();
  for (const RigidBodyTrack& body : take.rigid_bodies()) {
    bodies.push_back({{"name", body.name},
                      {"rotation", body.file_rotation_type},
                      {"tracked_fraction", tracked_fraction(take, body)}});
  }
  j["rigid_bodies"] = std::move(bodies);
  Json markers = Json::array();
  const std::vector<MarkerGapStatistics> stats = gap_statistics(take);
  for (std::size_t m = 0; m < take.marker_count(); ++m) {
    markers.push_back({{"name", take.marker(m).name},
                       {"kind", std::string(marker_kind_name(take.marker(m).kind))},
                       {"visible_fraction", stats[m].visible_fraction},
                       {"gaps", stats[m].gap_count},
                       {"longest_gap_frames", stats[m].longest_gap_frames}});
  }
  j["markers"] = std::move(markers);
  return j;
}

void print_take_summary(std::ostream& out, const Take& take) {
  const TakeInfo& info = take.info();
  const MotiveHeader& header = info.header;
  auto row = [&](const char* key, const std::string& value) {
    out << "  " << key
        << std::string(18 - std::min<std::size_t>(17, std::char_traits<char>::length(key)), ' ')
        << value << "\n";
  };
  out << info.source << "\n";
  row("format version", header.format_version.empty() ? "(not given)" : header.format_version);
  row("take name", header.take_name.empty() ? "(not given)" : header.take_name);
  row("capture rate",
      header.capture_frame_rate_hz ? hz(*header.capture_frame_rate_hz) : "(not given)");
  row("export rate",
      header.export_frame_rate_hz ? hz(*header.export_frame_rate_hz) : "(not given)");
  row("frame rate", hz(take.frame_rate_hz()) + " (from " + info.frame_rate_source + ")");
  row("frames", take.frame_count() == 0
                    ? std::string("0")
                    : std::to_string(take.frame_count()) + " (frame numbers " +
                          std::to_string(take.first_frame_number()) + " to " +
                          std::to_string(take.frame_number(take.frame_count() - 1)) + ")");
  row("duration", format("%.3f", take.duration_s()) + " s (frames / frame rate)");
  row("length units",
      std::string(motive_unit_name(info.file_length_unit)) +
          (info.file_length_unit_assumed ? " (assumed: no Length Units field)" : "") +
          ", stored in metres");
  row("up axis", std::string(up_axis_name(info.file_up_axis)) + " in the file, stored z up");

  std::size_t unread = 0;
  for (const AssetInfo& a : info.assets)
    unread += a.read ? 0 : 1;
  out << "\n  assets (" << info.assets.size()
      << (unread ? ", " + std::to_string(unread) + " not read" : "") << "):\n";
  std::size_t type_width = 4;
  for (const AssetInfo& a : info.assets)
    type_width = std::max(type_width, a.type.size());
  for (const AssetInfo& a : info.assets) {
    out << "    " << a.type << std::string(type_width + 2 - a.type.size(), ' ') << a.name
        << "  (columns " << a.first_column << "-" << a.first_column + a.column_count - 1
        << (a.read ? "" : ", not read") << ")\n";
  }
  if (!take.rigid_bodies().empty()) {
    out << "\n  rigid bodies:\n";
    for (const RigidBodyTrack& body : take.rigid_bodies()) {
      out << "    " << body.name << "  rotation " << body.file_rotation_type << ", tracked "
          << format("%.1f", 100.0 * tracked_fraction(take, body)) << " %\n";
    }
  }
  const std::vector<MarkerGapStatistics> stats = gap_statistics(take);
  std::size_t name_width = 6;
  for (const MarkerInfo& m : take.markers())
    name_width = std::max(name_width, m.name.size());
  out << "\n  markers (" << take.marker_count() << "):\n";
  out << "    "
      << "marker" << std::string(name_width + 2 - 6, ' ')
      << "kind                visible   gaps   longest gap (frames)\n";
  for (std::size_t m = 0; m < take.marker_count(); ++m) {
    const MarkerInfo& marker = take.marker(m);
    const std::string kind(marker_kind_name(marker.kind));
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "%6.1f %%  %5zu   %zu",
                  100.0 * stats[m].visible_fraction, stats[m].gap_count,
                  stats[m].longest_gap_frames);
    out << "    " << marker.name << std::string(name_width + 2 - marker.name.size(), ' ') << kind
        << std::string(20 - std::min<std::size_t>(19, kind.size()), ' ') << numbers << "\n";
  }
}

}  // namespace clothfit::mocap
