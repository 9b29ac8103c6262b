// MarkerLayout: which marker sits at cell (row, column) of the r × c marker grid on a sheet.
// Row 0 is the top edge of a hanging sheet (see suggest_layout for a sheet lying flat), column 0
// its first column; the simulation mesh node of marker (i, j) is (k·i, k·j) (DESIGN.md §3).
//
// JSON form, in a scenario file or as printed by `clothfit inspect --suggest-layout RxC`:
//
//   {
//     "rows": 2,
//     "columns": 3,
//     "markers": [["A1", "A2", "A3"],
//                 ["B1", "B2", "B3"]]
//   }
//
// `markers` holds `rows` arrays of `columns` marker names (the names of the take's `Marker`
// assets), all different. No other keys are allowed (typos are errors).
#pragma once

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "mocap/take.hpp"

namespace clothfit::mocap {

struct MarkerLayout {
  int rows = 0;
  int columns = 0;
  std::vector<std::string> names;  // (rows × columns) row-major

  const std::string& name(int row, int column) const {
    return names.at(static_cast<std::size_t>(row * columns + column));
  }
};

// Validates `json` as above. Errors are MocapInputError with file `source` and the field path
// below `path` (e.g. path "layout" gives fields "layout.markers[1][2]").
MarkerLayout parse_marker_layout(const nlohmann::json& json, const std::string& source,
                                 const std::string& path = "");
// Parses JSON text; a syntax error names its line and column.
MarkerLayout parse_marker_layout_text(std::string_view text, const std::string& source);
// Reads a JSON file holding a layout.
MarkerLayout read_marker_layout(const std::filesystem::path& path);

nlohmann::json marker_layout_to_json(const MarkerLayout& layout);
// The JSON as printed for pasting: one row of the grid per line.
std::string format_marker_layout_json(const MarkerLayout& layout);

// Index in take.markers() of each cell's marker, (rows × columns) row-major. Throws
// MocapInputError (file: the take's source) listing the names the take does not have.
std::vector<std::size_t> resolve_marker_layout(const MarkerLayout& layout, const Take& take);

}  // namespace clothfit::mocap
