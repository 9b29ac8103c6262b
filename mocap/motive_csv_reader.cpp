#include "mocap/motive_csv_reader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "mocap/csv_record_reader.hpp"
#include "mocap/euler_angles.hpp"
#include "mocap/mocap_input_error.hpp"
#include "mocap/text_encoding.hpp"

namespace clothfit::mocap {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Accepted frame rates, Hz: anything a capture system can produce, and far from 0 and infinity so
// that frame_number / rate is always finite.
constexpr double kMinFrameRateHz = 1e-3;
constexpr double kMaxFrameRateHz = 1e6;
// Rows above the axis row that are searched before giving up (real files have 5 or 6).
constexpr int kMaxHeaderRows = 64;
// A file quaternion whose length is further than this from 1 is an error, not a rounding effect.
constexpr double kQuaternionNormTolerance = 0.01;
// Shortest possible data row ("0,0\n"), bytes: bounds the rows a stream of known size can hold.
constexpr std::uint64_t kMinDataRowBytes = 4;
// Frames reserved from `Total Exported Frames` when the stream's size is unknown (a pipe).
constexpr std::uint64_t kMaxFramesReservedBlind = std::uint64_t{1} << 20;
// Positions farther than this from the origin (m) are errors: finite, but no capture's, and their
// squares in the fits' errors overflowed.
constexpr double kMaxCoordinate_m = 1e6;
// At most this many marker coordinates are reserved ahead of reading them (256 MiB).
constexpr std::uint64_t kMaxValuesReserved = std::uint64_t{1} << 25;

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// The keys of a Motive export's first row (formats 1.2x and later).
constexpr std::array<std::string_view, 12> kHeaderKeys = {
    "Format Version",        "Take Name",          "Take Notes",          "Capture Frame Rate",
    "Export Frame Rate",     "Capture Start Time", "Capture Start Frame", "Total Frames in Take",
    "Total Exported Frames", "Rotation Type",      "Length Units",        "Coordinate Space"};

bool is_header_key(std::string_view cell) {
  return std::any_of(kHeaderKeys.begin(), kHeaderKeys.end(),
                     [&](std::string_view key) { return iequals(cell, key); });
}

// Keys whose values are free text, which Motive writes without quoting a comma in them.
bool is_free_text_header_key(std::string_view key) {
  return iequals(key, "Take Name") || iequals(key, "Take Notes");
}

// 'text' for an error message: at most 40 characters, control characters shown as '?'.
std::string quote_text(std::string_view text) {
  constexpr std::size_t kMax = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  }
  if (text.size() > kMax)
    out += "...";
  return out + "'";
}

std::string format_number(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

// A finite decimal number filling all of `text` (blanks around it allowed).
bool parse_double(std::string_view text, double& out) {
  text = trim_blanks(text);
  if (text.size() > 1 && text.front() == '+' && text[1] != '-')
    text.remove_prefix(1);
  if (text.empty())
    return false;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

// Why parse_double refused `text`, after the "got '…'" of a message: a number written right but
// beyond a double's range is named as such rather than as not a number.
std::string not_a_double_reason(std::string_view text) {
  if (text.find('\r') != std::string_view::npos)  // shown as '?' by quote_text
    return " (a carriage return inside the cell: a lone-CR line break, or a CR typed into it)";
  text = trim_blanks(text);
  if (!text.empty() && text.front() == '+')
    text.remove_prefix(1);
  double ignored = 0.0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, ignored);
  return ec == std::errc::result_out_of_range && ptr == end
             ? " (beyond the range of a double: about 5e-324 to 1.8e308 in size)"
             : "";
}

bool parse_int64(std::string_view text, std::int64_t& out) {
  text = trim_blanks(text);
  if (text.size() > 1 && text.front() == '+' && text[1] != '-')
    text.remove_prefix(1);
  if (text.empty())
    return false;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

// A CR that is not part of a CRLF line break (classic Mac OS line ends).
bool has_lone_cr(std::string_view text) {
  for (std::size_t i = text.find('\r'); i != std::string_view::npos; i = text.find('\r', i + 1)) {
    if (i + 1 >= text.size() || text[i + 1] != '\n')
      return true;
  }
  return false;
}

bool is_blank_record(const std::vector<CsvCell>& cells) {
  return std::all_of(cells.begin(), cells.end(),
                     [](const CsvCell& c) { return trim_blanks(c.text).empty(); });
}

bool is_axis_row(const std::vector<CsvCell>& cells) {
  if (cells.size() < 2 || !iequals(trim_blanks(cells[0].text), "Frame"))
    return false;
  const std::string_view time = trim_blanks(cells[1].text);
  return iequals(time, "Time (Seconds)") || iequals(time, "Time");
}

// Axis label -> index: X 0, Y 1, Z 2, W 3; -1 otherwise.
int axis_index(std::string_view label) {
  if (label.size() != 1)
    return -1;
  switch (std::toupper(static_cast<unsigned char>(label[0]))) {
    case 'X':
      return 0;
    case 'Y':
      return 1;
    case 'Z':
      return 2;
    case 'W':
      return 3;
    default:
      return -1;
  }
}

constexpr const char* kAxisNames[4] = {"X", "Y", "Z", "W"};

enum class ColumnRole : std::uint8_t { kSkip, kFrame, kTime, kValue };
enum class AssetKind { kMarker, kRigidBodyMarker, kRigidBody, kOther };

AssetKind asset_kind(std::string_view type) {
  if (iequals(type, "Marker"))
    return AssetKind::kMarker;
  if (iequals(type, "Rigid Body Marker"))
    return AssetKind::kRigidBodyMarker;
  if (iequals(type, "Rigid Body"))
    return AssetKind::kRigidBody;
  return AssetKind::kOther;
}

// The columns of one asset that are read; -1 where absent. Columns are 0-based here.
struct AssetColumns {
  std::size_t asset = 0;  // index in TakeInfo::assets
  AssetKind kind = AssetKind::kOther;
  std::array<int, 3> position{-1, -1, -1};
  std::array<int, 4> rotation{-1, -1, -1, -1};
};

// Where a rigid body's values are in the row's value slots.
struct RigidBodySlots {
  int position = 0;  // x, y, z
  int rotation = 0;  // x, y, z (Euler) or x, y, z, w (quaternion), by axis index
  bool quaternion = true;
  EulerOrder order{0, 1, 2};
};

// One asset row above the axis row.
struct HeaderRow {
  std::vector<std::string> cells;  // trimmed
  int line = 0;
  const std::string& at(std::size_t column) const {
    static const std::string kEmpty;
    return column < cells.size() ? cells[column] : kEmpty;
  }
};

class MotiveCsvParser {
 public:
  MotiveCsvParser(std::istream& in, std::string name, const MotiveCsvReadOptions& options,
                  std::optional<std::uint64_t> stream_bytes)
      : m_records(in, options.chunk_bytes),
        m_name(std::move(name)),
        m_options(options),
        m_stream_bytes(stream_bytes) {}

  Take parse();

 private:
  [[noreturn]] void fail(int line, int column, const std::string& problem) const {
    throw MocapInputError({m_name, line, column, ""}, problem);
  }
  [[noreturn]] void fail_row_typed(int line, const std::string& detail) const;

  void read_header_fields(const std::vector<CsvCell>& cells, int line);
  void find_axis_row();
  void assign_asset_rows();
  void plan_columns();
  void add_asset_column(AssetColumns& asset, int column);
  void finish_assets();
  void reserve_frames(std::size_t first_row_bytes);
  // Fails when one of the three values from `first_slot` on lies beyond kMaxCoordinate_m.
  void check_coordinates(int line, int first_slot, const double* values) const;
  void read_data();
  void parse_data_row(const CsvRecordReader::Record& record);
  void store_row(const CsvRecordReader::Record& record);
  // The header's frame rate, Export Frame Rate else Capture Frame Rate, naming which in
  // `source`; nullopt when the header gives neither.
  std::optional<double> header_frame_rate(std::string& source) const;
  double frame_rate(std::string& source) const;
  std::string describe_column(int column) const;
  int line_of_cell(const CsvRecordReader::Record& record, const char* cell) const;

  CsvRecordReader m_records;
  std::string m_name;
  MotiveCsvReadOptions m_options;
  std::optional<std::uint64_t> m_stream_bytes;

  TakeInfo m_info;
  std::vector<HeaderRow> m_asset_rows;  // non-blank rows between row 1 and the axis row
  HeaderRow m_axis_row;
  const HeaderRow* m_type_row = nullptr;
  const HeaderRow* m_name_row = nullptr;
  const HeaderRow* m_id_row = nullptr;
  const HeaderRow* m_parent_row = nullptr;
  const HeaderRow* m_quantity_row = nullptr;

  int m_width = 0;  // header columns (cells up to the last non-empty header cell)
  std::vector<ColumnRole> m_roles;
  std::vector<int> m_slots;  // value slot per column (kValue only)
  std::vector<AssetColumns> m_asset_columns;
  std::vector<int> m_slot_columns;  // column per value slot (for messages)
  std::vector<MarkerInfo> m_markers;
  std::vector<RigidBodyTrack> m_bodies;
  std::vector<RigidBodySlots> m_body_slots;
  std::size_t m_slot_count = 0;

  // Data.
  std::vector<double> m_values;  // one row's values by slot; NaN for empty cells
  std::string m_cell_scratch;    // unquoted text of a quoted data cell
  std::vector<double> m_positions;
  std::size_t m_frame_count = 0;
  std::int64_t m_first_frame = 0;
  std::int64_t m_last_frame = 0;
  double m_first_time_s = 0.0;
  double m_last_time_s = 0.0;
  double m_row_time_s = 0.0;
  std::int64_t m_row_frame = 0;
  int m_last_data_line = 0;
  double m_metres_per_unit = 1.0;
  std::optional<double> m_header_rate_hz;  // header_frame_rate(), for checking the Time column
  std::string m_header_rate_source;
  // Without a header rate, every row's time and line, for checking the Time column against the
  // rate it gives (check_times_against_their_rate).
  std::vector<double> m_row_times_s;
  std::vector<int> m_row_lines;
  void check_times_against_their_rate(double rate) const;
};

void MotiveCsvParser::fail_row_typed(int line, const std::string& detail) const {
  fail(line, 1,
       detail +
           ": this is the row-typed Motive CSV format 1.1 (rows starting with 'info', 'frame', "
           "'rigidbody', ...), which clothfit does not read; export the take again from Motive "
           "as CSV (format 1.2x)");
}

void MotiveCsvParser::read_header_fields(const std::vector<CsvCell>& cells, int line) {
  MotiveHeader& header = m_info.header;
  const auto text = [&](std::size_t i) {
    return i < cells.size() ? utf8_from_utf8_or_latin1(trim_blanks(cells[i].text)) : std::string();
  };
  std::vector<std::pair<std::string, int>> seen;  // the known keys read, with their columns
  std::size_t step = 2;
  for (std::size_t i = 0; i < cells.size(); i += step) {
    step = 2;
    const std::string key = text(i);
    if (key.empty()) {
      step = 1;  // a leading or trailing comma
      continue;
    }
    const bool after_free_text =
        !header.fields.empty() && is_free_text_header_key(header.fields.back().first);
    if (!is_header_key(key) && after_free_text) {
      // Text where a key should be, after a take's name or notes: Motive wrote a comma in them
      // without quoting it. Every cell up to the next key belongs to that text.
      std::size_t end = i;
      while (end < cells.size() && !is_header_key(text(end)))
        ++end;
      std::size_t last = end;
      while (last > i && text(last - 1).empty())
        --last;  // trailing commas
      std::string& joined = header.fields.back().second;
      for (std::size_t c = i; c < last; ++c) {
        const std::string& raw = cells[c].text;
        joined.push_back(',');
        joined += utf8_from_utf8_or_latin1(
            std::string_view(raw).substr(0, raw.find_last_not_of(" \t") + 1));
      }
      (iequals(header.fields.back().first, "Take Name") ? header.take_name : header.take_notes) =
          joined;
      step = end - i;
      continue;
    }
    if (!is_header_key(key) && is_header_key(text(i + 1))) {
      // Text where a key should be, then a key: the key/value pairs are out of step, and every
      // later key would be paired with the wrong value.
      fail(line + cells[i].line_offset, static_cast<int>(i) + 1,
           "expected a header key (Format Version, Take Name, ..., Length Units) or nothing, got " +
               quote_text(key) + " before the key " + quote_text(text(i + 1)) +
               ": the key/value pairs of the first row are out of step (a value with an "
               "unquoted comma?)");
    }
    const bool has_value = i + 1 < cells.size();
    const std::string value = text(i + 1);
    if (is_header_key(value)) {
      fail(line + cells[i + 1].line_offset, static_cast<int>(i) + 2,
           "expected a value for " + quote_text(key) + ", got the header key " + quote_text(value) +
               ": the key/value pairs of the first row are out of step");
    }
    if (is_header_key(key)) {
      for (const auto& [earlier, column] : seen) {
        if (iequals(earlier, key)) {
          fail(
              line + cells[i].line_offset, static_cast<int>(i) + 1,
              "a second " + key + " field (the first is in column " + std::to_string(column) + ")");
        }
      }
      seen.emplace_back(key, static_cast<int>(i) + 1);
    }
    header.fields.emplace_back(key, value);
    const int value_line = line + (has_value ? cells[i + 1].line_offset : cells[i].line_offset);
    const int value_column = static_cast<int>(i) + 2;
    auto number = [&](const char* what) -> std::optional<double> {
      if (value.empty())
        return std::nullopt;
      double v = 0.0;
      if (!parse_double(value, v)) {
        fail(value_line, value_column,
             std::string(what) + ": expected a number, got " + quote_text(value) +
                 not_a_double_reason(value));
      }
      return v;
    };
    auto rate = [&](const char* what) -> std::optional<double> {
      const std::optional<double> v = number(what);
      if (v && *v == 0.0) {
        fail(value_line, value_column,
             std::string(what) + " is 0: expected a frame rate > 0 Hz (frame times are frame " +
                 "number / frame rate)");
      }
      if (v && (*v < kMinFrameRateHz || *v > kMaxFrameRateHz)) {
        fail(value_line, value_column,
             std::string(what) + " is " + value + ": expected a frame rate between " +
                 format_number(kMinFrameRateHz) + " and " + format_number(kMaxFrameRateHz) + " Hz");
      }
      return v;
    };
    auto count = [&](const char* what) -> std::optional<std::int64_t> {
      if (value.empty())
        return std::nullopt;
      std::int64_t v = 0;
      if (!parse_int64(value, v) || v < 0) {
        fail(value_line, value_column,
             std::string(what) + ": expected a whole number >= 0, got " + quote_text(value));
      }
      return v;
    };
    if (iequals(key, "Format Version")) {
      header.format_version = value;
      // "1.23" -> major 1, first minor digit 2. Versions before 1.2 are the row-typed format.
      const std::size_t dot = value.find('.');
      std::int64_t major = 0;
      if (value.empty())
        continue;
      if (!parse_int64(std::string_view(value).substr(0, dot), major) || major < 0 ||
          (dot != std::string::npos &&
           (dot + 1 >= value.size() ||
            !std::all_of(value.begin() + static_cast<std::ptrdiff_t>(dot) + 1, value.end(),
                         [](unsigned char c) { return std::isdigit(c); })))) {
        fail(value_line, value_column,
             "Format Version: expected a version number such as 1.23, got " + quote_text(value));
      }
      const int first_minor_digit = dot == std::string::npos ? 0 : value[dot + 1] - '0';
      if (major < 1 || (major == 1 && first_minor_digit < 2)) {
        fail(value_line, value_column,
             "Format Version " + value +
                 " is not supported: clothfit reads Motive CSV format 1.2x; export the take "
                 "again from Motive (CSV format 1.2 or later)");
      }
    } else if (iequals(key, "Take Name")) {
      header.take_name = value;
    } else if (iequals(key, "Take Notes")) {
      header.take_notes = value;
    } else if (iequals(key, "Capture Start Time")) {
      header.capture_start_time = value;
    } else if (iequals(key, "Coordinate Space")) {
      header.coordinate_space = value;
    } else if (iequals(key, "Rotation Type")) {
      header.rotation_type = value;
      if (!value.empty() && !iequals(value, "Quaternion") && !parse_euler_order(value)) {
        fail(value_line, value_column,
             "Rotation Type: expected Quaternion or an Euler order (XYZ, XZY, YXZ, YZX, ZXY, "
             "ZYX), got " +
                 quote_text(value));
      }
    } else if (iequals(key, "Capture Frame Rate")) {
      header.capture_frame_rate_hz = rate("Capture Frame Rate");
    } else if (iequals(key, "Export Frame Rate")) {
      header.export_frame_rate_hz = rate("Export Frame Rate");
    } else if (iequals(key, "Capture Start Frame")) {
      header.capture_start_frame = count("Capture Start Frame");
    } else if (iequals(key, "Total Frames in Take")) {
      header.total_frames_in_take = count("Total Frames in Take");
    } else if (iequals(key, "Total Exported Frames")) {
      header.total_exported_frames = count("Total Exported Frames");
    } else if (iequals(key, "Length Units")) {
      if (value.empty())
        continue;
      header.length_unit = parse_length_unit(value);
      if (!header.length_unit) {
        fail(value_line, value_column,
             "Length Units: expected Meters, Centimeters or Millimeters, got " + quote_text(value));
      }
    }
  }
}

// Reads records up to and including the axis row: row 1 (key/value pairs) and the asset rows.
void MotiveCsvParser::find_axis_row() {
  CsvRecordReader::Record record;
  std::vector<CsvCell> cells;
  bool first = true;
  int rows = 0;
  while (m_records.next(record)) {
    if (record.open_quote) {
      fail(record.line, 0, "a quoted cell that starts on this line is never closed");
    }
    if (first && (record.text.rfind("\xFF\xFE", 0) == 0 || record.text.rfind("\xFE\xFF", 0) == 0 ||
                  record.text.find('\0') != std::string::npos)) {
      fail(record.line, 0,
           "the file is UTF-16 or UTF-32 text (a byte-order mark FF FE or FE FF, or NUL bytes): "
           "expected UTF-8 (or Latin-1); save it again as UTF-8 or export it from Motive again");
    }
    if (first && has_lone_cr(record.text)) {
      fail(record.line, 0,
           "lines end with a lone CR (classic Mac OS line breaks); expected LF or CRLF line "
           "breaks");
    }
    split_csv_record(record.text, cells);
    if (is_blank_record(cells))
      continue;
    const std::string_view first_cell = trim_blanks(cells[0].text);
    if (iequals(first_cell, "info") && cells.size() >= 3 &&
        iequals(trim_blanks(cells[1].text), "version")) {
      fail_row_typed(record.line, "format version " + std::string(trim_blanks(cells[2].text)));
    }
    if (is_axis_row(cells)) {
      m_axis_row.line = record.line;
      for (const CsvCell& c : cells)
        m_axis_row.cells.push_back(utf8_from_utf8_or_latin1(trim_blanks(c.text)));
      return;
    }
    std::int64_t number = 0;
    if (parse_int64(first_cell, number)) {
      fail(record.line, 1,
           "expected the axis row (Frame,Time (Seconds),X,Y,Z,...) above the first data row; "
           "the file has no axis row (was it exported without header rows?)");
    }
    if (first) {
      for (const char* row_type : {"comment", "info", "frame", "rigidbody", "trackable"}) {
        if (iequals(first_cell, row_type)) {
          fail_row_typed(record.line,
                         "the first row starts with '" + std::string(first_cell) + "'");
        }
      }
    }
    if (first &&
        (!first_cell.empty() || std::any_of(cells.begin(), cells.end(), [](const CsvCell& c) {
          return is_header_key(trim_blanks(c.text));
        }))) {
      read_header_fields(cells, record.line);
    } else {
      HeaderRow row;
      row.line = record.line;
      for (const CsvCell& c : cells)
        row.cells.push_back(utf8_from_utf8_or_latin1(trim_blanks(c.text)));
      m_asset_rows.push_back(std::move(row));
    }
    first = false;
    if (++rows > kMaxHeaderRows) {
      fail(record.line, 0,
           "no axis row (a row starting with 'Frame,Time (Seconds)') within the first " +
               std::to_string(kMaxHeaderRows) + " rows");
    }
  }
  if (m_records.stream_failed())
    fail(0, 0, "read error");
  fail(record.line + record.line_count, 0,
       first ? "empty file: expected a Motive CSV export"
             : "no axis row: expected a row starting with 'Frame,Time (Seconds)' (or "
               "'Frame,Time') after the asset Type/Name/ID rows");
}

// Gives each asset row its role: labelled rows by their label, the others in the order Type,
// Name, ID, Parent; the last unlabelled row is the quantity row.
void MotiveCsvParser::assign_asset_rows() {
  const HeaderRow** roles[4] = {&m_type_row, &m_name_row, &m_id_row, &m_parent_row};
  constexpr const char* kLabels[4] = {"Type", "Name", "ID", "Parent"};
  std::vector<const HeaderRow*> unlabelled;
  for (const HeaderRow& row : m_asset_rows) {
    int label = -1;
    for (int column = 0; column < 2 && label < 0; ++column) {
      for (int r = 0; r < 4; ++r) {
        if (iequals(row.at(static_cast<std::size_t>(column)), kLabels[r]))
          label = r;
      }
    }
    if (label < 0) {
      unlabelled.push_back(&row);
      continue;
    }
    if (*roles[label] != nullptr) {
      fail(row.line, 0,
           std::string("a second '") + kLabels[label] + "' row (the first is line " +
               std::to_string((*roles[label])->line) + ")");
    }
    *roles[label] = &row;
  }
  if (unlabelled.empty()) {
    fail(m_axis_row.line, 0,
         "expected the quantity row (Position, Rotation, ...) just above the axis row");
  }
  m_quantity_row = unlabelled.back();
  unlabelled.pop_back();
  std::size_t next = 0;
  for (int r = 0; r < 4 && next < unlabelled.size(); ++r) {
    if (*roles[r] == nullptr)
      *roles[r] = unlabelled[next++];
  }
  if (next < unlabelled.size()) {
    fail(unlabelled[next]->line, 0,
         "unexpected row above the axis row: expected only the asset Type, Name, ID, Parent and "
         "quantity rows");
  }
  if (m_type_row == nullptr || m_name_row == nullptr) {
    fail(m_axis_row.line, 0,
         std::string("expected the asset ") + (m_type_row == nullptr ? "Type" : "Name") +
             " row (Marker, Rigid Body, ...) above the quantity and axis rows");
  }
}

std::string MotiveCsvParser::describe_column(int column) const {
  const auto c = static_cast<std::size_t>(column);
  if (column == 0)
    return "the frame number";
  if (column == 1)
    return "the frame time";
  std::string out = m_quantity_row->at(c);
  if (!m_axis_row.at(c).empty())
    out += " " + m_axis_row.at(c);
  return out + " of " + m_type_row->at(c) + " '" + m_name_row->at(c) + "'";
}

void MotiveCsvParser::add_asset_column(AssetColumns& asset, int column) {
  const auto c = static_cast<std::size_t>(column);
  const std::string& quantity = m_quantity_row->at(c);
  const std::string& axis_label = m_axis_row.at(c);
  const bool is_position = iequals(quantity, "Position");
  const bool is_rotation = asset.kind == AssetKind::kRigidBody && iequals(quantity, "Rotation");
  if (!is_position && !is_rotation)
    return;  // quality columns and quantities not read
  const int axis = axis_index(axis_label);
  if (axis < 0 || (is_position && axis > 2)) {
    fail(m_axis_row.line, column + 1,
         "expected axis " + std::string(is_position ? "X, Y or Z" : "X, Y, Z or W") + " for " +
             quantity + " of " + m_type_row->at(c) + " '" + m_name_row->at(c) + "', got " +
             quote_text(axis_label));
  }
  int& slot = is_position ? asset.position[static_cast<std::size_t>(axis)]
                          : asset.rotation[static_cast<std::size_t>(axis)];
  if (slot >= 0) {
    fail(m_axis_row.line, column + 1,
         "duplicate column: " + describe_column(column) + " is also column " +
             std::to_string(slot + 1));
  }
  slot = column;
}

void MotiveCsvParser::plan_columns() {
  const HeaderRow* rows[] = {m_type_row,   m_name_row,     m_id_row,
                             m_parent_row, m_quantity_row, &m_axis_row};
  for (const HeaderRow* row : rows) {
    if (row == nullptr)
      continue;
    for (std::size_t c = row->cells.size(); c > 0; --c) {
      if (!row->cells[c - 1].empty()) {
        m_width = std::max(m_width, static_cast<int>(c));
        break;
      }
    }
  }
  m_roles.assign(static_cast<std::size_t>(m_width), ColumnRole::kSkip);
  m_slots.assign(static_cast<std::size_t>(m_width), -1);
  m_roles[0] = ColumnRole::kFrame;
  m_roles[1] = ColumnRole::kTime;
  int first_asset_column = 2;
  if (iequals(m_axis_row.at(2), "TimeCode"))
    first_asset_column = 3;

  std::set<std::pair<std::string, std::string>> seen_assets;
  for (int column = first_asset_column; column < m_width; ++column) {
    const auto c = static_cast<std::size_t>(column);
    const std::string& type = m_type_row->at(c);
    const std::string& name = m_name_row->at(c);
    if (type.empty() && name.empty()) {
      if (!m_quantity_row->at(c).empty() || !m_axis_row.at(c).empty()) {
        fail(m_type_row->line, column + 1,
             "expected an asset Type and Name above the column " + quote_text(m_axis_row.at(c)));
      }
      continue;
    }
    if (type.empty() || name.empty()) {
      fail((type.empty() ? m_type_row : m_name_row)->line, column + 1,
           type.empty() ? "empty asset Type above a column of asset " + quote_text(name)
                        : "empty asset Name above a column of type " + quote_text(type));
    }
    const bool continues =
        !m_info.assets.empty() && m_info.assets.back().type == type &&
        m_info.assets.back().name == name &&
        m_info.assets.back().first_column + m_info.assets.back().column_count == column + 1;
    if (!continues) {
      std::string type_key(type);
      std::transform(type_key.begin(), type_key.end(), type_key.begin(),
                     [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
      if (!seen_assets.emplace(type_key, name).second) {
        int first_column = 0;
        for (const AssetInfo& a : m_info.assets) {
          if (iequals(a.type, type) && a.name == name)
            first_column = a.first_column;
        }
        fail(m_name_row->line, column + 1,
             "duplicate columns: " + type + " '" + name + "' appears again (it starts in column " +
                 std::to_string(first_column) + ")");
      }
      AssetInfo asset;
      asset.type = type;
      asset.name = name;
      asset.id = m_id_row ? m_id_row->at(c) : "";
      asset.parent = m_parent_row ? m_parent_row->at(c) : "";
      asset.first_column = column + 1;
      asset.read = asset_kind(type) != AssetKind::kOther;
      m_info.assets.push_back(std::move(asset));
      AssetColumns columns;
      columns.asset = m_info.assets.size() - 1;
      columns.kind = asset_kind(type);
      m_asset_columns.push_back(columns);
    }
    ++m_info.assets.back().column_count;
    if (m_asset_columns.back().kind != AssetKind::kOther) {
      add_asset_column(m_asset_columns.back(), column);
    }
  }
  finish_assets();
}

// Checks that each asset read has all its columns and gives every read column a value slot:
// markers first (3 per marker), then rigid bodies (3 position + 3 or 4 rotation each).
void MotiveCsvParser::finish_assets() {
  auto missing_axes = [](const int* columns, int count) {
    std::string out;
    for (int a = 0; a < count; ++a) {
      if (columns[a] < 0)
        out += std::string(out.empty() ? "" : ", ") + kAxisNames[a];
    }
    return out;
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (const AssetColumns& columns : m_asset_columns) {
      if (columns.kind == AssetKind::kOther)
        continue;
      const bool body = columns.kind == AssetKind::kRigidBody;
      if (body != (pass == 1))
        continue;
      const AssetInfo& asset = m_info.assets[columns.asset];
      const std::string what = asset.type + " '" + asset.name + "'";
      const std::string no_position = missing_axes(columns.position.data(), 3);
      if (!no_position.empty()) {
        fail(m_axis_row.line, asset.first_column,
             what + " has no Position " + no_position + " column (expected X, Y and Z)");
      }
      auto take_slots = [&](const int* cols, int count) {
        const int first = static_cast<int>(m_slot_count);
        for (int a = 0; a < count; ++a) {
          m_roles[static_cast<std::size_t>(cols[a])] = ColumnRole::kValue;
          m_slots[static_cast<std::size_t>(cols[a])] = first + a;
          m_slot_columns.push_back(cols[a]);
        }
        m_slot_count += static_cast<std::size_t>(count);
        return first;
      };
      if (!body) {
        take_slots(columns.position.data(), 3);
        MarkerInfo marker;
        marker.name = asset.name;
        marker.id = asset.id;
        marker.kind =
            columns.kind == AssetKind::kMarker ? MarkerKind::kMarker : MarkerKind::kRigidBodyMarker;
        m_markers.push_back(std::move(marker));
        continue;
      }
      RigidBodySlots slots;
      const bool has_w = columns.rotation[3] >= 0;
      const std::string no_rotation = missing_axes(columns.rotation.data(), 3);
      if (!no_rotation.empty()) {
        fail(m_axis_row.line, asset.first_column,
             what + " has no Rotation " + no_rotation +
                 " column (expected X, Y, Z and W for a quaternion, X, Y, Z for Euler angles)");
      }
      const std::string& rotation_type = m_info.header.rotation_type;
      slots.quaternion = has_w;
      if (has_w && !rotation_type.empty() && !iequals(rotation_type, "Quaternion")) {
        fail(m_axis_row.line, columns.rotation[3] + 1,
             what + " has a quaternion rotation (X, Y, Z, W) but the header's Rotation Type is " +
                 rotation_type);
      }
      if (!has_w) {
        if (iequals(rotation_type, "Quaternion")) {
          fail(m_axis_row.line, asset.first_column,
               what +
                   " has three Rotation columns (Euler angles) but the header's Rotation "
                   "Type is Quaternion: expected a W column");
        }
        slots.order =
            rotation_type.empty() ? EulerOrder{0, 1, 2} : *parse_euler_order(rotation_type);
      }
      slots.position = take_slots(columns.position.data(), 3);
      slots.rotation = take_slots(columns.rotation.data(), has_w ? 4 : 3);
      RigidBodyTrack track;
      track.name = asset.name;
      track.id = asset.id;
      track.file_rotation_type =
          has_w ? "Quaternion" : (rotation_type.empty() ? "XYZ" : rotation_type);
      m_bodies.push_back(std::move(track));
      m_body_slots.push_back(slots);
    }
  }
  if (m_markers.empty() && m_bodies.empty()) {
    fail(m_axis_row.line, 0,
         "expected Marker, Rigid Body Marker or Rigid Body columns; the file has " +
             (m_info.assets.empty()
                  ? std::string("no asset columns")
                  : "only assets clothfit does not read (" + m_info.assets.front().type + " '" +
                        m_info.assets.front().name + "', ...)"));
  }
  m_values.assign(m_slot_count, kNaN);
}

// Reserves the arrays for the frames the file will hold so that they never grow by copying:
// `Total Exported Frames` when the header gives it (bounded by what the remaining bytes can hold),
// otherwise twice the estimate from the length of the first data row. Reserving more than is used
// costs address space only, never resident memory. Called once, at the first data row.
void MotiveCsvParser::reserve_frames(std::size_t first_row_bytes) {
  std::optional<std::uint64_t> remaining;  // bytes after the first data row
  if (m_stream_bytes && *m_stream_bytes >= m_records.bytes_consumed()) {
    remaining = *m_stream_bytes - m_records.bytes_consumed();
  }
  std::uint64_t frames = 1;
  const std::optional<std::int64_t>& total = m_info.header.total_exported_frames;
  if (total) {
    frames = std::min(static_cast<std::uint64_t>(*total),
                      remaining ? 1 + *remaining / kMinDataRowBytes : kMaxFramesReservedBlind);
  } else if (remaining) {
    const std::uint64_t row_bytes = std::max<std::uint64_t>(kMinDataRowBytes, first_row_bytes + 1);
    frames = 1 + *remaining / std::max<std::uint64_t>(kMinDataRowBytes, row_bytes / 2);
  }
  // A guess, not a bound: short rows and blank lines take fewer bytes than a frame's values, so
  // the reservation is capped and past it the arrays grow with what the file holds.
  const std::uint64_t per_frame =
      std::max<std::uint64_t>(3 * m_markers.size() + 7 * m_bodies.size(), 1);
  frames = std::min(frames, kMaxValuesReserved / per_frame);
  try {
    m_positions.reserve(static_cast<std::size_t>(frames * 3 * m_markers.size()));
    for (RigidBodyTrack& body : m_bodies) {
      body.position_m.reserve(static_cast<std::size_t>(3 * frames));
      body.orientation_xyzw.reserve(static_cast<std::size_t>(4 * frames));
    }
  } catch (const std::bad_alloc&) {
    // Only a reservation: reading goes on and fails where the take itself does not fit.
  }
}

int MotiveCsvParser::line_of_cell(const CsvRecordReader::Record& record, const char* cell) const {
  const char* begin = record.text.data();
  return record.line + static_cast<int>(std::count(begin, cell, '\n'));
}

// The unquoted text of the quoted cell at `p` (which points at the opening quote) into `out`;
// returns the position of the comma ending the cell, or `end`.
const char* unquote_cell(const char* p, const char* end, std::string& out) {
  out.clear();
  ++p;
  while (p < end) {
    if (*p == '"') {
      if (p + 1 < end && p[1] == '"') {
        out += '"';
        p += 2;
        continue;
      }
      ++p;
      break;
    }
    out += *p++;
  }
  while (p < end && *p != ',')
    out += *p++;  // text after the closing quote belongs to the cell
  return p;
}

void MotiveCsvParser::parse_data_row(const CsvRecordReader::Record& record) {
  std::fill(m_values.begin(), m_values.end(), kNaN);
  const char* p = record.text.data();
  const char* const end = p + record.text.size();
  int column = 0;
  for (;;) {
    const char* const cell_begin = p;
    const char* next;
    std::string_view cell;
    if (p < end && *p == '"') {
      next = unquote_cell(p, end, m_cell_scratch);
      cell = m_cell_scratch;
    } else {
      const void* comma = std::memchr(p, ',', static_cast<std::size_t>(end - p));
      next = comma != nullptr ? static_cast<const char*>(comma) : end;
      cell = std::string_view(p, static_cast<std::size_t>(next - p));
    }
    if (column < m_width) {
      const auto c = static_cast<std::size_t>(column);
      switch (m_roles[c]) {
        case ColumnRole::kValue: {
          if (!trim_blanks(cell).empty()) {
            double value = 0.0;
            if (!parse_double(cell, value)) {
              fail(line_of_cell(record, cell_begin), column + 1,
                   "expected a number for " + describe_column(column) + ", got " +
                       quote_text(cell) + not_a_double_reason(cell));
            }
            m_values[static_cast<std::size_t>(m_slots[c])] = value;
          }
          break;
        }
        case ColumnRole::kFrame:
          if (!parse_int64(cell, m_row_frame)) {
            fail(line_of_cell(record, cell_begin), 1,
                 "expected a whole frame number, got " + quote_text(cell));
          }
          break;
        case ColumnRole::kTime:
          if (!parse_double(cell, m_row_time_s)) {
            fail(line_of_cell(record, cell_begin), 2,
                 "expected the frame time in seconds, got " + quote_text(cell) +
                     not_a_double_reason(cell));
          }
          break;
        case ColumnRole::kSkip:
          break;
      }
    } else if (!trim_blanks(cell).empty()) {
      fail(line_of_cell(record, cell_begin), column + 1,
           "a value beyond the header's " + std::to_string(m_width) +
               " columns: " + quote_text(cell));
    }
    if (next >= end)
      break;
    p = next + 1;
    ++column;
  }
  if (column < 1) {
    fail(record.line, 2, "expected the frame time in seconds after the frame number");
  }
}

void MotiveCsvParser::check_coordinates(int line, int first_slot, const double* values) const {
  for (int a = 0; a < 3; ++a) {
    if (std::abs(values[a] * m_metres_per_unit) > kMaxCoordinate_m) {
      const int column = m_slot_columns[static_cast<std::size_t>(first_slot + a)];
      fail(line, column + 1,
           describe_column(column) + " is " + format_number(values[a] * m_metres_per_unit) +
               " m: expected a coordinate within " + format_number(kMaxCoordinate_m) +
               " m of the origin (a capture volume is metres across)");
    }
  }
}

void MotiveCsvParser::store_row(const CsvRecordReader::Record& record) {
  const std::optional<std::int64_t>& total = m_info.header.total_exported_frames;
  if (m_frame_count == 0) {
    m_first_frame = m_row_frame;
    m_first_time_s = m_row_time_s;
  } else if (m_last_frame == std::numeric_limits<std::int64_t>::max() ||
             m_row_frame != m_last_frame + 1) {
    fail(record.line, 1,
         "expected frame " +
             (m_last_frame == std::numeric_limits<std::int64_t>::max()
                  ? std::string("numbers to stay below 2^63")
                  : std::to_string(m_last_frame + 1)) +
             " (frame numbers go up by one from row to row), got " + std::to_string(m_row_frame));
  }
  // The Time column against the header's frame rate: the take's times come from the rate, so a
  // rate the rows contradict (a wrong field, a file whose rows were thinned) would put every
  // frame at a wrong time. A quarter of a frame interval allows for the printed digits.
  if (m_header_rate_hz && m_frame_count > 0) {
    const double rate = *m_header_rate_hz;
    const double expected =
        m_first_time_s + static_cast<double>(m_row_frame - m_first_frame) / rate;
    if (!(std::abs(m_row_time_s - expected) <= 0.25 / rate)) {
      fail(record.line, 2,
           "frame " + std::to_string(m_row_frame) + " is at " + format_number(m_row_time_s) +
               " s, but the " + m_header_rate_source + " of " + format_number(rate) +
               " Hz puts it at " + format_number(expected) + " s (frame " +
               std::to_string(m_first_frame) + " at " + format_number(m_first_time_s) +
               " s): expected the Time column to go up by 1 / frame rate per frame");
    }
  }
  if (total && m_frame_count == static_cast<std::uint64_t>(*total)) {
    fail(record.line, 1,
         "more data rows than the header's Total Exported Frames (" + std::to_string(*total) + ")");
  }
  // A sample with some of its values empty: names the first empty cell.
  auto fail_incomplete = [&](int first_slot, int count, int given, const std::string& what) {
    for (int a = 0; a < count; ++a) {
      const auto slot = static_cast<std::size_t>(first_slot + a);
      if (!std::isnan(m_values[slot]))
        continue;
      const int column = m_slot_columns[slot];
      fail(record.line, column + 1,
           describe_column(column) + " is empty but " + std::to_string(given) + " other " + what +
               " value(s) of this sample are given: a sample gives all of them or none");
    }
  };
  const double s = m_metres_per_unit;
  const bool y_up = m_options.file_up_axis == UpAxis::kY;
  for (std::size_t m = 0; m < m_markers.size(); ++m) {
    const double* v = &m_values[3 * m];
    const int missing = std::isnan(v[0]) + std::isnan(v[1]) + std::isnan(v[2]);
    if (missing == 0) {
      check_coordinates(record.line, static_cast<int>(3 * m), v);
      const Eigen::Vector3d p =
          y_up ? Eigen::Vector3d(v[0], -v[2], v[1]) : Eigen::Vector3d(v[0], v[1], v[2]);
      m_positions.push_back(s * p.x());
      m_positions.push_back(s * p.y());
      m_positions.push_back(s * p.z());
    } else if (missing == 3) {
      m_positions.insert(m_positions.end(), 3, kNaN);
    } else {
      fail_incomplete(static_cast<int>(3 * m), 3, 3 - missing, "Position");
    }
  }
  for (std::size_t b = 0; b < m_bodies.size(); ++b) {
    const RigidBodySlots& slots = m_body_slots[b];
    RigidBodyTrack& body = m_bodies[b];
    const double* position = &m_values[static_cast<std::size_t>(slots.position)];
    const double* rotation = &m_values[static_cast<std::size_t>(slots.rotation)];
    const int rotation_count = slots.quaternion ? 4 : 3;
    int missing_position = 0;
    int missing_rotation = 0;
    for (int a = 0; a < 3; ++a)
      missing_position += std::isnan(position[a]);
    for (int a = 0; a < rotation_count; ++a)
      missing_rotation += std::isnan(rotation[a]);
    if (missing_position == 3 && missing_rotation == rotation_count) {
      body.position_m.insert(body.position_m.end(), 3, kNaN);
      body.orientation_xyzw.insert(body.orientation_xyzw.end(), 4, kNaN);
      continue;
    }
    const int given = 3 + rotation_count - missing_position - missing_rotation;
    if (missing_position != 0)
      fail_incomplete(slots.position, 3, given, "pose");
    if (missing_rotation != 0)
      fail_incomplete(slots.rotation, rotation_count, given, "pose");
    check_coordinates(record.line, slots.position, position);
    const Eigen::Vector3d p = to_simulator_frame(
        Eigen::Vector3d(position[0], position[1], position[2]), m_options.file_up_axis);
    Eigen::Quaterniond q;
    if (slots.quaternion) {
      q = Eigen::Quaterniond(rotation[3], rotation[0], rotation[1], rotation[2]);
      const double norm = q.norm();
      if (!(std::abs(norm - 1.0) <= kQuaternionNormTolerance)) {
        fail(record.line, m_slot_columns[static_cast<std::size_t>(slots.rotation)] + 1,
             "the Rotation of Rigid Body '" + body.name + "' has length " + format_number(norm) +
                 ": expected a unit quaternion (X, Y, Z, W)");
      }
      q.normalize();
    } else {
      q = quaternion_from_euler_degrees(Eigen::Vector3d(rotation[0], rotation[1], rotation[2]),
                                        slots.order);
    }
    q = to_simulator_frame(q, m_options.file_up_axis);
    for (int a = 0; a < 3; ++a)
      body.position_m.push_back(s * p[a]);
    body.orientation_xyzw.insert(body.orientation_xyzw.end(), {q.x(), q.y(), q.z(), q.w()});
  }
  if (m_frame_count == 0 || m_row_time_s > m_last_time_s)
    m_last_time_s = m_row_time_s;
  if (!m_header_rate_hz) {
    m_row_times_s.push_back(m_row_time_s);
    m_row_lines.push_back(record.line);
  }
  m_last_frame = m_row_frame;
  ++m_frame_count;
}

// The rate a Time column gives is (frames − 1) over its span: rows out of order or unevenly
// spaced between its ends (two rows swapped, one set back to 0.3 s) read without a word at that
// rate. Each row's time must be within a quarter frame of where the rate puts it, as with a
// header rate.
void MotiveCsvParser::check_times_against_their_rate(double rate) const {
  for (std::size_t k = 1; k < m_row_times_s.size(); ++k) {
    const double expected = m_first_time_s + static_cast<double>(k) / rate;
    if (!(std::abs(m_row_times_s[k] - expected) <= 0.25 / rate)) {
      fail(m_row_lines[k], 2,
           "frame " + std::to_string(m_first_frame + static_cast<std::int64_t>(k)) + " is at " +
               format_number(m_row_times_s[k]) + " s, but the rate the Time column gives (" +
               format_number(rate) + " Hz: " + std::to_string(m_row_times_s.size() - 1) +
               " frame intervals from " + format_number(m_first_time_s) + " to " +
               format_number(m_last_time_s) + " s) puts it at " + format_number(expected) +
               " s: expected evenly spaced times increasing down the file");
    }
  }
}

bool is_blank_text(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ',' || c == ' ' || c == '\t'; });
}

void MotiveCsvParser::read_data() {
  CsvRecordReader::Record record;
  std::vector<CsvCell> cells;
  const std::optional<std::int64_t>& total = m_info.header.total_exported_frames;
  while (m_records.next(record)) {
    if (record.open_quote) {
      fail(record.line, 0, "a quoted cell that starts on this line is never closed");
    }
    if (is_blank_text(record.text))
      continue;
    if (!record.terminated) {
      split_csv_record(record.text, cells);
      const int count = static_cast<int>(cells.size());
      if (count < m_width) {
        fail(record.line + record.line_count - 1, count,
             "the file ends in the middle of a row (" + std::to_string(count) + " of " +
                 std::to_string(m_width) +
                 " cells and no line break at the end): the file looks truncated");
      }
    }
    if (m_frame_count == 0)
      reserve_frames(record.text.size());
    parse_data_row(record);
    store_row(record);
    m_last_data_line = record.line + record.line_count - 1;
  }
  if (m_records.stream_failed())
    fail(0, 0, "read error");
  if (m_frame_count == 0) {
    fail(m_axis_row.line + 1, 0,
         "expected data rows after the axis row (line " + std::to_string(m_axis_row.line) +
             "); the file has none");
  }
  if (total && m_frame_count < static_cast<std::uint64_t>(*total)) {
    fail(m_last_data_line + 1, 0,
         "the file ends after " + std::to_string(m_frame_count) +
             " data rows but the header's Total Exported Frames is " + std::to_string(*total) +
             ": the file looks truncated");
  }
}

std::optional<double> MotiveCsvParser::header_frame_rate(std::string& source) const {
  const MotiveHeader& header = m_info.header;
  if (header.export_frame_rate_hz) {
    source = "Export Frame Rate";
    return header.export_frame_rate_hz;
  }
  if (header.capture_frame_rate_hz) {
    source = "Capture Frame Rate";
    return header.capture_frame_rate_hz;
  }
  return std::nullopt;
}

double MotiveCsvParser::frame_rate(std::string& source) const {
  if (const std::optional<double> rate = header_frame_rate(source))
    return *rate;
  if (m_frame_count >= 2 && m_last_time_s > m_first_time_s) {
    const double rate = static_cast<double>(m_frame_count - 1) / (m_last_time_s - m_first_time_s);
    if (rate >= kMinFrameRateHz && rate <= kMaxFrameRateHz) {
      source = "Time column";
      return rate;
    }
  }
  fail(1, 0,
       "no frame rate: expected an Export Frame Rate or Capture Frame Rate field in the header "
       "(the Time column does not give one either)");
}

Take MotiveCsvParser::parse() {
  find_axis_row();
  assign_asset_rows();
  plan_columns();
  m_info.source = m_name;
  m_info.file_up_axis = m_options.file_up_axis;
  m_info.file_length_unit_assumed = !m_info.header.length_unit.has_value();
  m_info.file_length_unit = m_info.header.length_unit.value_or(m_options.length_unit_if_absent);
  m_metres_per_unit = metres_per_unit(m_info.file_length_unit);
  m_header_rate_hz = header_frame_rate(m_header_rate_source);
  read_data();
  const double rate = frame_rate(m_info.frame_rate_source);
  if (!m_header_rate_hz)
    check_times_against_their_rate(rate);
  try {
    return Take(std::move(m_info), rate, m_first_frame, m_frame_count, std::move(m_markers),
                std::move(m_positions), std::move(m_bodies));
  } catch (const std::invalid_argument& e) {
    fail(m_axis_row.line, 0, e.what());  // not expected: the checks above come first
  }
}

std::optional<std::uint64_t> remaining_stream_bytes(std::istream& in) {
  const std::istream::pos_type start = in.tellg();
  if (start == std::istream::pos_type(-1)) {
    in.clear();
    return std::nullopt;
  }
  in.seekg(0, std::ios::end);
  const std::istream::pos_type end = in.tellg();
  in.clear();
  in.seekg(start);
  if (end == std::istream::pos_type(-1) || end < start || !in) {
    in.clear();
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(end - start);
}

}  // namespace

Take read_motive_csv(std::istream& in, const std::string& display_name,
                     const MotiveCsvReadOptions& options) {
  const std::optional<std::uint64_t> bytes = remaining_stream_bytes(in);
  MotiveCsvParser parser(in, display_name, options, bytes);
  return parser.parse();
}

Take read_motive_csv(const std::filesystem::path& path, const MotiveCsvReadOptions& options) {
  std::error_code ec;
  const std::string name = path.string();
  if (std::filesystem::is_directory(path, ec)) {
    throw MocapInputError({name, 0, 0, ""}, "expected a Motive CSV file, got a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw MocapInputError({name, 0, 0, ""}, std::filesystem::exists(path, ec)
                                                ? "cannot open the file for reading"
                                                : "no such file");
  }
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  MotiveCsvParser parser(in, name, options, ec ? std::nullopt : std::optional<std::uint64_t>(size));
  return parser.parse();
}

}  // namespace clothfit::mocap
