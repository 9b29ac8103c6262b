#include "mocap/motive_csv_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "mocap/mocap_input_error.hpp"

namespace clothfit::mocap {
namespace {

// Bytes collected before each write to the stream.
constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

// A CSV cell: quoted when it holds a comma, a quote, a line break or surrounding blanks.
std::string csv_cell(const std::string& text) {
  const bool needs_quotes = text.find_first_of(",\"\r\n") != std::string::npos ||
                            (!text.empty() && (text.front() == ' ' || text.back() == ' ' ||
                                               text.front() == '\t' || text.back() == '\t'));
  if (!needs_quotes)
    return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"')
      out += '"';
    out += c;
  }
  return out + "\"";
}

// Shortest text that reads back as exactly `value`.
std::string shortest(double value) {
  char buffer[64];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

void append_fixed(std::string& out, double value, int decimals) {
  char buffer[400];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  out.append(buffer, result.ptr);
}

}  // namespace

void write_motive_csv(const Take& take, std::ostream& out, const MotiveCsvWriteOptions& options) {
  if (options.decimals < 0 || options.decimals > 17) {
    throw std::invalid_argument("write_motive_csv: decimals must be between 0 and 17");
  }
  const std::string eol = options.crlf_line_breaks ? "\r\n" : "\n";
  const MotiveHeader& header = take.info().header;
  const std::size_t frames = take.frame_count();
  const double rate = take.frame_rate_hz();
  const double capture_rate = header.capture_frame_rate_hz.value_or(rate);

  std::string text;
  text.reserve(kFlushBytes + 4096);
  auto field = [&](const char* key, const std::string& value) {
    if (!text.empty())
      text += ',';
    text += key;
    text += ',';
    text += csv_cell(value);
  };
  field("Format Version", "1.23");
  field("Take Name", header.take_name);
  field("Take Notes", header.take_notes);
  field("Capture Frame Rate", shortest(capture_rate));
  field("Export Frame Rate", shortest(rate));
  field("Capture Start Time", header.capture_start_time);
  field("Total Frames in Take",
        std::to_string(header.total_frames_in_take.value_or(static_cast<std::int64_t>(frames))));
  field("Total Exported Frames", std::to_string(frames));
  field("Rotation Type", "Quaternion");
  field("Length Units", std::string(motive_unit_name(options.length_unit)));
  field("Coordinate Space", "Global");
  text += eol + eol;

  // Columns: (type, name, id, quantity, axis) per column.
  struct Column {
    std::string type, name, id, quantity, axis;
  };
  std::vector<Column> columns;
  auto add = [&](const std::string& type, const std::string& name, const std::string& id,
                 const char* quantity, std::initializer_list<const char*> axes) {
    for (const char* axis : axes)
      columns.push_back({type, name, id, quantity, axis});
  };
  for (const RigidBodyTrack& body : take.rigid_bodies()) {
    add("Rigid Body", body.name, body.id, "Rotation", {"X", "Y", "Z", "W"});
    add("Rigid Body", body.name, body.id, "Position", {"X", "Y", "Z"});
  }
  std::vector<std::size_t> marker_order;
  for (MarkerKind kind : {MarkerKind::kRigidBodyMarker, MarkerKind::kMarker}) {
    for (std::size_t m = 0; m < take.marker_count(); ++m) {
      const MarkerInfo& marker = take.marker(m);
      if (marker.kind != kind)
        continue;
      marker_order.push_back(m);
      const std::string id = marker.id.empty() ? std::to_string(m + 1) : marker.id;
      add(std::string(marker_kind_name(kind)), marker.name, id, "Position", {"X", "Y", "Z"});
    }
  }
  auto header_row = [&](const char* label, auto get) {
    text += ',';
    text += label;
    for (const Column& c : columns) {
      text += ',';
      text += csv_cell(get(c));
    }
    text += eol;
  };
  header_row("Type", [](const Column& c) { return c.type; });
  header_row("Name", [](const Column& c) { return c.name; });
  header_row("ID", [](const Column& c) { return c.id; });
  header_row("", [](const Column& c) { return c.quantity; });
  text += "Frame,Time (Seconds)";
  for (const Column& c : columns)
    text += "," + c.axis;
  text += eol;

  const double scale = 1.0 / metres_per_unit(options.length_unit);
  for (std::size_t f = 0; f < frames; ++f) {
    text += std::to_string(take.frame_number(f));
    text += ',';
    append_fixed(text, take.time_s(f), 6);
    for (const RigidBodyTrack& body : take.rigid_bodies()) {
      if (!body.tracked(f)) {
        text += ",,,,,,,";
        continue;
      }
      const Eigen::Quaterniond q = from_simulator_frame(body.orientation(f), options.file_up_axis);
      const Eigen::Vector3d p = from_simulator_frame(body.position(f), options.file_up_axis);
      for (double v : {q.x(), q.y(), q.z(), q.w()}) {
        text += ',';
        append_fixed(text, v, std::max(options.decimals, 6));
      }
      for (int a = 0; a < 3; ++a) {
        text += ',';
        append_fixed(text, scale * p[a], options.decimals);
      }
    }
    for (std::size_t m : marker_order) {
      if (!take.visible(f, m)) {
        text += ",,,";
        continue;
      }
      const Eigen::Vector3d p = from_simulator_frame(take.position(f, m), options.file_up_axis);
      for (int a = 0; a < 3; ++a) {
        text += ',';
        append_fixed(text, scale * p[a], options.decimals);
      }
    }
    text += eol;
    if (text.size() >= kFlushBytes) {
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
      text.clear();
    }
  }
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void write_motive_csv(const Take& take, const std::filesystem::path& path,
                      const MotiveCsvWriteOptions& options) {
  std::ofstream out(path, std::ios::binary);
  if (!out)
    throw MocapInputError({path.string(), 0, 0, ""}, "cannot open the file for writing");
  write_motive_csv(take, out, options);
  out.flush();
  if (!out)
    throw MocapInputError({path.string(), 0, 0, ""}, "write error");
}

}  // namespace clothfit::mocap
