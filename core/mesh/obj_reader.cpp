#include "core/mesh/obj_reader.hpp"

#include <charconv>
#include <fstream>
#include <string_view>
#include <vector>

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

}  // namespace

QuadMesh read_obj_quad_mesh(std::istream& in, const std::string& name) {
  std::vector<double> coords;
  QuadMesh mesh;
  std::vector<std::pair<int, int>> face_lines;  // (line, column) of each face, for messages
  std::string line_text;
  int line = 0;
  auto fail = [&](int column, const std::string& problem) {
    throw InputError(InputLocation{name, line, column, ""}, problem);
  };
  while (std::getline(in, line_text)) {
    ++line;
    const std::vector<Token> tokens = split(line_text);
    if (tokens.empty() || tokens[0].text[0] == '#')
      continue;
    const std::string_view kind = tokens[0].text;
    if (kind == "v") {
      if (tokens.size() < 4)
        fail(tokens[0].column, "vertex needs 3 coordinates 'v x y z'");
      for (int k = 1; k <= 3; ++k) {
        double value = 0.0;
        const auto [ptr, ec] = std::from_chars(
            tokens[k].text.data(), tokens[k].text.data() + tokens[k].text.size(), value);
        if (ec != std::errc() || ptr != tokens[k].text.data() + tokens[k].text.size()) {
          fail(tokens[k].column, "expected a number, found '" + std::string(tokens[k].text) + "'");
        }
        coords.push_back(value);
      }
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
          fail(t.column, "expected a vertex index (1-based or negative), found '" +
                             std::string(t.text) + "'");
        }
        const long resolved = index > 0 ? index - 1 : known_vertices + index;
        if (resolved < 0 || resolved >= known_vertices) {
          fail(t.column, "vertex index " + std::to_string(index) + " refers to no vertex (" +
                             std::to_string(known_vertices) + " defined so far)");
        }
        quad[k] = static_cast<int>(resolved);
      }
      mesh.quads.push_back(quad);
      face_lines.emplace_back(line, tokens[0].column);
    }
  }
  if (in.bad())
    throw InputError(InputLocation{name, line, 0, ""}, "read error");
  if (coords.empty())
    throw InputError(InputLocation{name, 0, 0, ""}, "no vertices ('v x y z')");
  if (mesh.quads.empty())
    throw InputError(InputLocation{name, 0, 0, ""}, "no faces ('f a b c d')");
  mesh.rest_positions = Eigen::Map<const Eigen::VectorXd>(coords.data(), coords.size());
  try {
    finalize(mesh, name);
  } catch (const InputError& e) {
    // Point at the face's line when the problem names a quad ("quad 12: ...").
    const std::string& problem = e.problem();
    if (problem.rfind("quad ", 0) == 0) {
      const std::size_t f = std::stoul(problem.substr(5)) - 1;
      if (f < face_lines.size()) {
        throw InputError(InputLocation{name, face_lines[f].first, face_lines[f].second, ""},
                         problem);
      }
    }
    throw;
  }
  return mesh;
}

QuadMesh read_obj_quad_mesh(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw InputError(InputLocation{path, 0, 0, ""}, "cannot open OBJ file for reading");
  return read_obj_quad_mesh(in, path);
}

}  // namespace clothfit::mesh
