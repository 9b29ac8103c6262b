#include "core/io/json_object.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

namespace clothfit {

std::string format_number(double v) {
  // The shortest form that reads back as v: a stream's six digits made "expected <= 1000, found
  // 1000" of 1000.0001.
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, result.ptr);
}

namespace {

std::string type_name(const nlohmann::json& j) {
  if (j.is_null())
    return "null";
  if (j.is_boolean())
    return "a boolean";
  if (j.is_number())
    return "a number";
  if (j.is_string())
    return "a string";
  if (j.is_array())
    return "an array";
  return "an object";
}

}  // namespace

bool Range::contains(double v) const {
  if (!std::isfinite(v))
    return false;
  const bool above = min_inclusive ? v >= min : v > min;
  const bool below = max_inclusive ? v <= max : v < max;
  return above && below;
}

std::string Range::describe() const {
  const bool has_min = std::isfinite(min);
  const bool has_max = std::isfinite(max);
  std::string out = "a finite number";
  if (has_min)
    out += std::string(min_inclusive ? " >= " : " > ") + format_number(min);
  if (has_min && has_max)
    out += " and";
  if (has_max)
    out += std::string(max_inclusive ? " <= " : " < ") + format_number(max);
  return out;
}

JsonObject::JsonObject(const nlohmann::json& json, std::string file, std::string path)
    : m_json(&json), m_file(std::move(file)), m_path(std::move(path)) {
  if (!json.is_object())
    fail("", "expected a JSON object, found " + type_name(json));
}

std::string JsonObject::field_path(const std::string& key) const {
  if (key.empty())
    return m_path.empty() ? "(top level)" : m_path;
  return m_path.empty() ? key : m_path + "." + key;
}

void JsonObject::fail(const std::string& key, const std::string& problem) const {
  throw InputError(InputLocation{m_file, 0, 0, field_path(key)}, problem);
}

bool JsonObject::has(const std::string& key) const {
  return m_json->contains(key);
}

const nlohmann::json& JsonObject::require(const std::string& key) const {
  auto it = m_json->find(key);
  if (it == m_json->end())
    fail(key, "required field is missing");
  return *it;
}

const nlohmann::json& JsonObject::raw(const std::string& key) const {
  return require(key);
}

double JsonObject::number(const std::string& key, Range range) const {
  const nlohmann::json& j = require(key);
  if (!j.is_number())
    fail(key, "expected " + range.describe() + ", found " + type_name(j));
  const double v = j.get<double>();
  if (!range.contains(v))
    fail(key, "expected " + range.describe() + ", found " + format_number(v));
  return v;
}

double JsonObject::number(const std::string& key, double fallback, Range range) const {
  return has(key) ? number(key, range) : fallback;
}

bool is_whole_number(const nlohmann::json& j) {
  if (j.is_number_integer())  // signed or unsigned
    return true;
  return j.is_number_float() && std::isfinite(j.get<double>()) &&
         std::floor(j.get<double>()) == j.get<double>();
}

std::optional<long long> whole_number(const nlohmann::json& j) {
  if (!is_whole_number(j))
    return std::nullopt;
  if (j.is_number_unsigned()) {
    const auto u = j.get<unsigned long long>();
    if (u > static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
      return std::nullopt;
    return static_cast<long long>(u);
  }
  if (j.is_number_integer())
    return j.get<long long>();
  constexpr double kExact = 9007199254740992.0;  // 2^53: every whole double below is exact
  const double v = j.get<double>();
  return std::abs(v) <= kExact ? std::optional<long long>(static_cast<long long>(v)) : std::nullopt;
}

int JsonObject::integer(const std::string& key, Range range) const {
  const nlohmann::json& j = require(key);
  // The value as written: "found 2.5", "found 18446744073709551615", not a wrapped or rounded one.
  const std::string found = j.is_number() ? j.dump() : type_name(j);
  if (!is_whole_number(j))
    fail(key, "expected an integer (" + range.describe() + "), found " + found);
  const std::optional<long long> v = whole_number(j);
  // A whole number out of range, or too large for an int (or a long long) at all: then the
  // message gives the int's bounds too.
  const bool fits_int =
      v && *v <= std::numeric_limits<int>::max() && *v >= std::numeric_limits<int>::min();
  if (!fits_int || !range.contains(static_cast<double>(*v))) {
    std::string expected =
        "expected an integer" + range.describe().substr(std::string("a finite number").size());
    if (!fits_int && !std::isfinite(range.max))  // a finite max already bounds it
      expected +=
          std::string(std::isfinite(range.min) ? " and" : " >= -2147483648 and") + " <= 2147483647";
    fail(key, expected + ", found " + found);
  }
  return static_cast<int>(*v);
}

int JsonObject::integer(const std::string& key, int fallback, Range range) const {
  return has(key) ? integer(key, range) : fallback;
}

std::string JsonObject::string(const std::string& key) const {
  const nlohmann::json& j = require(key);
  if (!j.is_string())
    fail(key, "expected a string, found " + type_name(j));
  return j.get<std::string>();
}

std::string JsonObject::string(const std::string& key, const std::string& fallback) const {
  return has(key) ? string(key) : fallback;
}

bool JsonObject::boolean(const std::string& key) const {
  const nlohmann::json& j = require(key);
  if (!j.is_boolean())
    fail(key, "expected true or false, found " + type_name(j));
  return j.get<bool>();
}

bool JsonObject::boolean(const std::string& key, bool fallback) const {
  return has(key) ? boolean(key) : fallback;
}

std::string JsonObject::choice(const std::string& key, std::initializer_list<const char*> choices,
                               std::optional<std::string> fallback) const {
  if (!has(key) && fallback)
    return *fallback;
  const std::string v = string(key);
  for (const char* c : choices) {
    if (v == c)
      return v;
  }
  std::string list;
  for (const char* c : choices)
    list += (list.empty() ? "\"" : ", \"") + std::string(c) + "\"";
  fail(key, "expected one of " + list + ", found \"" + v + "\"");
}

Eigen::Vector3d JsonObject::to_vector3(const nlohmann::json& j, const std::string& name) const {
  if (!j.is_array() || j.size() != 3) {
    fail(name, "expected an array of 3 finite numbers [x, y, z], found " +
                   (j.is_array() ? "an array of " + std::to_string(j.size()) + " elements"
                                 : type_name(j)));
  }
  Eigen::Vector3d v;
  for (std::size_t k = 0; k < 3; ++k) {
    const nlohmann::json& e = j[k];
    if (!e.is_number() || !std::isfinite(e.get<double>())) {
      fail(name + "[" + std::to_string(k) + "]",
           std::string("expected a finite number (the ") + "xyz"[k] + " of [x, y, z]), found " +
               (e.is_number() ? format_number(e.get<double>()) : type_name(e)));
    }
    v[static_cast<Eigen::Index>(k)] = e.get<double>();
  }
  return v;
}

Eigen::Vector3d JsonObject::vector3(const std::string& key) const {
  return to_vector3(require(key), key);
}

Eigen::Vector3d JsonObject::direction(const std::string& key) const {
  const Eigen::Vector3d v = vector3(key);
  if (v.isZero(0.0)) {
    fail(key, "expected a nonzero direction [x, y, z], found [" + format_number(v.x()) + ", " +
                  format_number(v.y()) + ", " + format_number(v.z()) + "]");
  }
  return v;
}

JsonObject JsonObject::object(const std::string& key) const {
  return JsonObject(require(key), m_file, field_path(key));
}

std::size_t JsonObject::array_size(const std::string& key) const {
  const nlohmann::json& j = require(key);
  if (!j.is_array())
    fail(key, "expected an array, found " + type_name(j));
  return j.size();
}

JsonObject JsonObject::element(const std::string& key, std::size_t index) const {
  array_size(key);
  return JsonObject(require(key)[index], m_file,
                    field_path(key) + "[" + std::to_string(index) + "]");
}

double JsonObject::number_at(const std::string& key, std::size_t index, Range range) const {
  array_size(key);
  const nlohmann::json& j = require(key)[index];
  const std::string name = key + "[" + std::to_string(index) + "]";
  if (!j.is_number())
    fail(name, "expected " + range.describe() + ", found " + type_name(j));
  const double v = j.get<double>();
  if (!range.contains(v))
    fail(name, "expected " + range.describe() + ", found " + format_number(v));
  return v;
}

Eigen::Vector3d JsonObject::vector3_at(const std::string& key, std::size_t index) const {
  array_size(key);
  return to_vector3(require(key)[index], key + "[" + std::to_string(index) + "]");
}

void JsonObject::reject_unknown(std::initializer_list<const char*> known) const {
  for (auto it = m_json->begin(); it != m_json->end(); ++it) {
    const bool ok =
        std::any_of(known.begin(), known.end(), [&](const char* k) { return it.key() == k; });
    if (!ok) {
      std::string list;
      for (const char* k : known)
        list += (list.empty() ? "" : ", ") + std::string(k);
      fail(it.key(), "unknown field (expected one of: " + list + ")");
    }
  }
}

namespace {

// The 0-based offset of the opening quote of the `index`-th (0-based) object key in `text`, JSON
// read that far without error: a key is a string followed by a colon, and a string is the only
// token that can hold quotes or colons. text.size() if there are fewer keys.
std::size_t nth_key_offset(const std::string& text, int index) {
  int keys = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '"')
      continue;
    std::size_t end = i + 1;
    while (end < text.size() && text[end] != '"')
      end += text[end] == '\\' ? 2 : 1;
    std::size_t next = end + 1;
    while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next])))
      ++next;
    if (next < text.size() && text[next] == ':' && keys++ == index)
      return i;
    i = end;
  }
  return text.size();
}

}  // namespace

nlohmann::json read_json_file(const std::string& path) {
  // A directory opens as a stream that reads nothing, which the parser would report as
  // "unexpected end of input".
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(InputLocation{path, 0, 0, ""}, "is a directory, expected a JSON file");
  std::ifstream in(path);
  if (!in)
    throw InputError(InputLocation{path, 0, 0, ""}, "cannot open file for reading");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  // Line and column of the byte before `offset` (nlohmann's offsets are 1-based).
  const auto location = [&](std::size_t offset) {
    offset = std::min<std::size_t>(offset, text.size());
    InputLocation at{path, 1, 1, ""};
    for (std::size_t i = 0; i + 1 < offset; ++i) {
      if (text[i] == '\n') {
        ++at.line;
        at.column = 1;
      } else {
        ++at.column;
      }
    }
    return at;
  };
  // A key given twice in one object: nlohmann keeps the last silently, so a field written twice
  // (a copy-paste left behind) would be read with one of its two values without a word. The
  // parser's callback sees every object's keys and every array's elements in order; `open` holds
  // one entry per open object or array: its segment of the path (".key" or "[i]"), and for an
  // object its keys so far, for an array the index of its next element.
  struct Container {
    std::string segment;
    bool array = false;
    int next_index = 0;
    std::vector<std::string> keys;
  };
  std::vector<Container> open;
  int keys_read = 0;  // key events so far: the parser reports keys in the order of the text
  const auto path_to = [&open](const std::string& key) {
    std::string path;
    for (const Container& c : open)
      path += c.segment;
    path += "." + key;
    return path[0] == '.' ? path.substr(1) : path;  // "a.b", "[0].a" in a top-level array
  };
  const auto check_keys = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start || event == Event::array_start) {
      std::string segment;
      if (!open.empty()) {
        Container& parent = open.back();
        segment = parent.array ? "[" + std::to_string(parent.next_index++) + "]"
                               : "." + (parent.keys.empty() ? std::string() : parent.keys.back());
      }
      open.push_back({segment, event == Event::array_start, 0, {}});
    } else if (event == Event::object_end || event == Event::array_end) {
      if (!open.empty())
        open.pop_back();
    } else if (event == Event::value && !open.empty() && open.back().array) {
      ++open.back().next_index;
    } else if (event == Event::key && !open.empty()) {
      const std::string key = parsed.get<std::string>();
      ++keys_read;
      std::vector<std::string>& keys = open.back().keys;
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
        InputLocation at = location(nth_key_offset(text, keys_read - 1) + 1);
        at.field = path_to(key);
        throw InputError(at, "given twice in the same object (one of the two would be ignored)");
      }
      keys.push_back(key);
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text, check_keys);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    const auto pos = what.find("parse error");
    if (pos != std::string::npos)
      what = what.substr(pos);
    // The parser's own "at line L, column C" counts the byte it stopped at (past a final line
    // break, "line 2, column 1" for a blank one-line file), the prefix the byte before it: one
    // location, the prefix's, is given.
    const std::string own_location = " at line ";
    const auto at = what.find(own_location);
    const auto colon = at == std::string::npos ? at : what.find(':', at);
    if (at != std::string::npos && colon != std::string::npos && at < what.find(':'))
      what.erase(at, colon - at);
    // The parser quotes what it last read, raw: bytes that are not printable ASCII (a file in
    // another encoding) are shown as \xNN rather than written to the terminal.
    std::string shown;
    for (const char c : what) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte >= 0x20 && byte < 0x7f) {
        shown += c;
      } else {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02X", byte);
        shown += hex;
      }
    }
    throw InputError(location(e.byte), "invalid JSON (" + shown + ")");
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond a double's range (1e400), reported without a position: "number overflow
    // parsing '1e400'". Its first occurrence in the text is where it is.
    const std::string what = e.what();
    const std::size_t open = what.find('\''), close = what.rfind('\'');
    const std::string number =
        open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "";
    const std::size_t at = number.empty() ? std::string::npos : text.find(number);
    throw InputError(at == std::string::npos ? InputLocation{path, 0, 0, ""} : location(at + 1),
                     "invalid JSON (" + (number.empty() ? what : "the number " + number) +
                         " is beyond the range of a double)");
  }
}

}  // namespace clothfit
