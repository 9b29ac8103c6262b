#include "core/mesh/obj_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/io/decimal_number.hpp"
#include "core/io/input_error.hpp"

namespace clothfit::mesh {

namespace {

struct Token {
  std::string_view text;
  int column;  // 1-based
};

std::vector<Token> split(std::string_view line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
      ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
      ++i;
    if (i > start)
      tokens.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
  }
  return tokens;
}

// `text` in quotes, with bytes below 0x20 written as \xNN (a NUL would end the message).
std::string quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X",
                    static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += hex;
    } else {
      out += c;
    }
  }
  return out + "'";
}

// The records a cloth mesh does not need, skipped: texture and normal data, names, groups,
// smoothing, materials.
bool is_skipped_record(std::string_view kind) {
  for (const char* skipped : {"vt", "vn", "vp", "o", "g", "s", "usemtl", "mtllib"}) {
    if (kind == skipped)
      return true;
  }
  return false;
}

// Whether what follows a face corner's vertex index is empty, "/t", "//n" or "/t/n" with t and n
// whole numbers (which are not used).
bool texture_and_normal_parts_are_indices(std::string_view rest) {
  if (rest.empty())
    return true;
  const auto whole = [](std::string_view t) {
    long value = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    return !t.empty() && ec == std::errc() && ptr == t.data() + t.size() && value != 0;
  };
  if (rest[0] != '/')
    return false;
  rest.remove_prefix(1);
  const std::size_t slash = rest.find('/');
  const std::string_view texture = rest.substr(0, slash);
  if (slash == std::string_view::npos)
    return whole(texture);
  const std::string_view normal = rest.substr(slash + 1);
  return (texture.empty() || whole(texture)) && whole(normal);
}

// Where a record starts: its line and the column of its keyword ('v' or 'f'), 1-based.
struct RecordPosition {
  int line = 0;
  int column = 0;
};

// "lines 3, 5 and 9"
std::string line_list(const std::vector<int>& lines) {
  std::string out = "lines ";
  for (std::size_t k = 0; k < lines.size(); ++k) {
    if (k > 0)
      out += k + 1 == lines.size() ? " and " : ", ";
    out += std::to_string(lines[k]);
  }
  return out;
}

// Checks that need every face, each reported at the line of the face that breaks it: the same
// quad listed twice (its corners in any order), an edge shared by more than two quads. Quads that
// repeat a corner are left to finalize(), which names them.
void check_faces(const QuadMesh& mesh, const std::vector<RecordPosition>& faces,
                 const std::string& name) {
  const auto fail = [&](std::size_t f, const std::string& problem) {
    throw InputError(InputLocation{name, faces[f].line, faces[f].column, ""}, problem);
  };
  std::map<Quad, std::size_t> face_of_corners;  // sorted corners → first face with them
  std::map<Edge, std::vector<std::size_t>> faces_of_edge;
  for (std::size_t f = 0; f < mesh.quads.size(); ++f) {
    const Quad& q = mesh.quads[f];
    Quad sorted = q;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      continue;
    const auto [first, inserted] = face_of_corners.emplace(sorted, f);
    if (!inserted) {
      fail(f, "face repeats the face on line " + std::to_string(faces[first->second].line) +
                  " (the same vertices " + std::to_string(sorted[0] + 1) + ", " +
                  std::to_string(sorted[1] + 1) + ", " + std::to_string(sorted[2] + 1) + " and " +
                  std::to_string(sorted[3] + 1) + "); expected each quad once");
    }
    for (int k = 0; k < 4; ++k) {
      const int a = q[k], b = q[(k + 1) % 4];
      const Edge edge{std::min(a, b), std::max(a, b)};
      std::vector<std::size_t>& users = faces_of_edge[edge];
      users.push_back(f);
      if (users.size() > 2) {
        std::vector<int> lines;
        for (std::size_t g : users)
          lines.push_back(faces[g].line);
        fail(f, "edge between vertices " + std::to_string(edge[0] + 1) + " and " +
                    std::to_string(edge[1] + 1) + " is shared by the faces on " + line_list(lines) +
                    " (non-manifold); expected at most 2 faces on an edge");
      }
    }
  }
}

// A vertex that no quad uses would have no mass and leave the step's equations singular
// ("factorisation of the equality KKT matrix failed"); it is reported at its own line.
void check_vertices_used(const QuadMesh& mesh, const std::vector<RecordPosition>& vertices,
                         const std::string& name) {
  std::vector<bool> used(vertices.size(), false);
  for (const Quad& q : mesh.quads) {
    for (int node : q)
      used[node] = true;
  }
  const auto unused = std::find(used.begin(), used.end(), false);
  if (unused == used.end())
    return;
  const std::size_t v = static_cast<std::size_t>(unused - used.begin());
  throw InputError(InputLocation{name, vertices[v].line, vertices[v].column, ""},
                   "vertex " + std::to_string(v + 1) +
                       " is used by no face; expected every vertex to be a corner of a quad");
}

}  // namespace

QuadMesh read_obj_quad_mesh(std::istream& in, const std::string& name) {
  std::vector<double> coords;
  QuadMesh mesh;
  std::vector<RecordPosition> vertex_records, face_records;  // for messages
  std::string line_text;
  int line = 0;
  auto fail = [&](int column, const std::string& problem) {
    throw InputError(InputLocation{name, line, column, ""}, problem);
  };
  while (std::getline(in, line_text)) {
    ++line;
    if (line == 1 && line_text.rfind("\xEF\xBB\xBF", 0) == 0)
      line_text.replace(0, 3, 3, ' ');  // a UTF-8 byte-order mark (columns stay those of the file)
    if (const std::size_t cr = line_text.find('\r');
        cr != std::string::npos && cr + 1 < line_text.size()) {
      fail(static_cast<int>(cr) + 1,
           "a CR inside the line: expected LF or CRLF line breaks (lone-CR line breaks are "
           "classic Mac OS text)");
    }
    if (const std::size_t hash = line_text.find('#'); hash != std::string::npos)
      line_text.resize(hash);  // a comment, at the start of the line or after a record
    const std::vector<Token> tokens = split(line_text);
    if (tokens.empty())
      continue;
    const std::string_view kind = tokens[0].text;
    if (kind == "v") {
      // x y z, optionally w (4 numbers) or a colour r g b (6), as exporters write them.
      if (tokens.size() != 4 && tokens.size() != 5 && tokens.size() != 7) {
        fail(tokens[0].column, "vertex has " + std::to_string(tokens.size() - 1) +
                                   " numbers: expected 'v x y z', 'v x y z w' or 'v x y z r g b'");
      }
      // The w or colour numbers are not used, but must be numbers; x, y and z finite ones.
      for (std::size_t k = 1; k < tokens.size(); ++k) {
        const DecimalNumber n = parse_decimal(tokens[k].text);
        const bool unused = k >= 4;
        if (n.status != DecimalNumber::ok && !(unused && n.status == DecimalNumber::not_finite))
          fail(tokens[k].column, "expected " + n.expected() + ", found " + quoted(tokens[k].text));
        if (!unused)
          coords.push_back(n.value);
      }
      vertex_records.push_back({line, tokens[0].column});
    } else if (kind == "f") {
      if (tokens.size() != 5) {
        fail(tokens[0].column, "face has " + std::to_string(tokens.size() - 1) +
                                   " corners; clothfit needs a quad mesh (4 corners per face)");
      }
      Quad quad{};
      const int known_vertices = static_cast<int>(coords.size() / 3);
      for (int k = 0; k < 4; ++k) {
        const Token& t = tokens[k + 1];
        const std::string_view index_text = t.text.substr(0, t.text.find('/'));
        long index = 0;
        const auto [ptr, ec] =
            std::from_chars(index_text.data(), index_text.data() + index_text.size(), index);
        if (ec != std::errc() || ptr != index_text.data() + index_text.size() || index == 0) {
          fail(t.column, "expected a vertex index (1-based or negative), found " + quoted(t.text));
        }
        if (!texture_and_normal_parts_are_indices(t.text.substr(index_text.size()))) {
          fail(t.column,
               "expected a face corner 'i', 'i/t', 'i//n' or 'i/t/n' with whole "
               "numbers, found " +
                   quoted(t.text));
        }
        const long resolved = index > 0 ? index - 1 : known_vertices + index;
        if (resolved < 0 || resolved >= known_vertices) {
          fail(t.column, "vertex index " + std::to_string(index) + " refers to no vertex (" +
                             std::to_string(known_vertices) + " defined so far)");
        }
        quad[k] = static_cast<int>(resolved);
      }
      mesh.quads.push_back(quad);
      face_records.push_back({line, tokens[0].column});
    } else if (!is_skipped_record(kind)) {
      // A mistyped 'f' or 'v' would leave a hole or shift every index after it.
      fail(tokens[0].column,
           "unknown record " + quoted(kind) +
               ": expected 'v' or 'f' (or vt, vn, vp, o, g, s, usemtl, mtllib, which are "
               "skipped)" +
               (kind == "l" ? "; line elements ('l') are not part of a quad mesh" : ""));
    }
  }
  if (in.bad())
    throw InputError(InputLocation{name, line, 0, ""}, "read error");
  if (coords.empty())
    throw InputError(InputLocation{name, 0, 0, ""}, "no vertices ('v x y z')");
  if (mesh.quads.empty())
    throw InputError(InputLocation{name, 0, 0, ""}, "no faces ('f a b c d')");
  check_faces(mesh, face_records, name);
  orient_quads_consistently(mesh.quads);
  mesh.rest_positions = Eigen::Map<const Eigen::VectorXd>(coords.data(), coords.size());
  try {
    finalize(mesh, name);
  } catch (const InputError& e) {
    // Point at the face's line when the problem names a quad ("quad 12: ...").
    const std::string& problem = e.problem();
    if (problem.rfind("quad ", 0) == 0) {
      const std::size_t f = std::stoul(problem.substr(5)) - 1;
      if (f < face_records.size()) {
        throw InputError(InputLocation{name, face_records[f].line, face_records[f].column, ""},
                         problem);
      }
    }
    throw;
  }
  check_vertices_used(mesh, vertex_records, name);
  return mesh;
}

QuadMesh read_obj_quad_mesh(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(InputLocation{path, 0, 0, ""}, "is a directory, expected an OBJ file");
  std::ifstream in(path);
  if (!in)
    throw InputError(InputLocation{path, 0, 0, ""}, "cannot open OBJ file for reading");
  return read_obj_quad_mesh(in, path);
}

}  // namespace clothfit::mesh
