#include "mocap/marker_layout.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "mocap/mocap_input_error.hpp"

namespace clothfit::mocap {
namespace {

std::string join_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string json_type(const nlohmann::json& j) {
  return std::string(j.type_name());
}

// Line and column (1-based) of byte offset `byte` in `text`.
std::pair<int, int> line_column(std::string_view text, std::size_t byte) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

}  // namespace

MarkerLayout parse_marker_layout(const nlohmann::json& json, const std::string& source,
                                 const std::string& path) {
  auto fail = [&](const std::string& field, const std::string& problem) {
    throw MocapInputError({source, 0, 0, field}, problem);
  };
  if (!json.is_object()) {
    fail(path, "expected a marker layout object {\"rows\", \"columns\", \"markers\"}, got " +
                   json_type(json));
  }
  for (const auto& item : json.items()) {
    if (item.key() != "rows" && item.key() != "columns" && item.key() != "markers") {
      fail(join_path(path, item.key()),
           "unknown key in a marker layout: expected only rows, columns and markers");
    }
  }
  auto dimension = [&](const char* key) {
    const std::string field = join_path(path, key);
    if (!json.contains(key))
      fail(field, "missing: expected a whole number >= 1");
    const nlohmann::json& v = json.at(key);
    if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 100000) {
      fail(field, "expected a whole number between 1 and 100000, got " + v.dump());
    }
    return static_cast<int>(v.get<long long>());
  };
  MarkerLayout layout;
  layout.rows = dimension("rows");
  layout.columns = dimension("columns");
  const std::string markers_field = join_path(path, "markers");
  if (!json.contains("markers")) {
    fail(markers_field, "missing: expected an array of rows of marker names");
  }
  const nlohmann::json& rows = json.at("markers");
  if (!rows.is_array() || rows.size() != static_cast<std::size_t>(layout.rows)) {
    fail(markers_field,
         "expected an array of " + std::to_string(layout.rows) + " rows (one per grid row), got " +
             (rows.is_array() ? std::to_string(rows.size()) + " rows" : json_type(rows)));
  }
  std::set<std::string> seen;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string row_field = markers_field + "[" + std::to_string(r) + "]";
    const nlohmann::json& row = rows[r];
    if (!row.is_array() || row.size() != static_cast<std::size_t>(layout.columns)) {
      fail(row_field,
           "expected an array of " + std::to_string(layout.columns) +
               " marker names (one per grid column), got " +
               (row.is_array() ? std::to_string(row.size()) + " names" : json_type(row)));
    }
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string cell_field = row_field + "[" + std::to_string(c) + "]";
      if (!row[c].is_string() || row[c].get<std::string>().empty()) {
        fail(cell_field, "expected a marker name (a non-empty string), got " + row[c].dump());
      }
      const std::string& name = row[c].get_ref<const std::string&>();
      if (!seen.insert(name).second) {
        fail(cell_field, "marker '" + name + "' is already used by another cell");
      }
      layout.names.push_back(name);
    }
  }
  return layout;
}

MarkerLayout parse_marker_layout_text(std::string_view text, const std::string& source) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based: the byte after the last one read.
    const auto [line, column] = line_column(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string message = e.what();
    const std::size_t colon = message.find(": ", message.find("parse error"));
    if (colon != std::string::npos)
      message = message.substr(colon + 2);
    throw MocapInputError({source, line, column, ""}, "invalid JSON: " + message);
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond a double's range (1e400), reported without a position: "number overflow
    // parsing '1e400'". Its first occurrence in the text is where it is.
    const std::string what = e.what();
    const std::size_t open = what.find('\''), close = what.rfind('\'');
    const std::string number =
        open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "";
    const std::size_t at = number.empty() ? std::string_view::npos : text.find(number);
    const auto [line, column] =
        at == std::string_view::npos ? std::pair<int, int>{0, 0} : line_column(text, at);
    throw MocapInputError({source, line, column, ""},
                          "invalid JSON: " + (number.empty() ? what : "the number " + number) +
                              " is beyond the range of a double");
  }
  return parse_marker_layout(json, source);
}

MarkerLayout read_marker_layout(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw MocapInputError({path.string(), 0, 0, ""}, "cannot open the file for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_marker_layout_text(text.str(), path.string());
}

nlohmann::json marker_layout_to_json(const MarkerLayout& layout) {
  nlohmann::json rows = nlohmann::json::array();
  for (int r = 0; r < layout.rows; ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (int c = 0; c < layout.columns; ++c)
      row.push_back(layout.name(r, c));
    rows.push_back(std::move(row));
  }
  return {{"rows", layout.rows}, {"columns", layout.columns}, {"markers", std::move(rows)}};
}

std::string format_marker_layout_json(const MarkerLayout& layout) {
  std::string out = "{\n  \"rows\": " + std::to_string(layout.rows) +
                    ",\n  \"columns\": " + std::to_string(layout.columns) + ",\n  \"markers\": [";
  for (int r = 0; r < layout.rows; ++r) {
    out += r == 0 ? "\n    [" : ",\n    [";
    for (int c = 0; c < layout.columns; ++c) {
      if (c > 0)
        out += ", ";
      out += nlohmann::json(layout.name(r, c)).dump();
    }
    out += "]";
  }
  return out + "\n  ]\n}\n";
}

std::vector<std::size_t> resolve_marker_layout(const MarkerLayout& layout, const Take& take) {
  std::vector<std::size_t> indices;
  std::string missing;
  int missing_count = 0;
  for (const std::string& name : layout.names) {
    if (auto i = take.find_marker(name)) {
      indices.push_back(*i);
    } else {
      if (missing_count++ < 8)
        missing += (missing.empty() ? "'" : ", '") + name + "'";
    }
  }
  if (missing_count > 0) {
    if (missing_count > 8)
      missing += ", ...";
    throw MocapInputError(
        {take.info().source, 0, 0, "layout"},
        std::to_string(missing_count) + " marker(s) of the layout are not in the take: " + missing);
  }
  return indices;
}

}  // namespace clothfit::mocap
