// InputError: the one exception type for bad input at the boundaries (scenario files, OBJ meshes,
// command-line values). It says where (file, line, column, or a JSON field path) and what was
// expected. Numerical trouble inside the simulator is reported through Summary structs instead.
#pragma once

#include <stdexcept>
#include <string>

namespace clothfit {

struct InputLocation {
  std::string file;   // path as given by the user; empty when not from a file
  int line = 0;       // 1-based; 0 when unknown
  int column = 0;     // 1-based; 0 when unknown
  std::string field;  // JSON path such as "obstacles[1].radius"; empty when not JSON
};

class InputError : public std::runtime_error {
 public:
  InputError(InputLocation location, const std::string& problem);

  const InputLocation& location() const { return m_location; }
  // The problem alone, without the location prefix.
  const std::string& problem() const { return m_problem; }

 private:
  InputLocation m_location;
  std::string m_problem;
};

// "file:line:column: field: problem" with the empty parts left out.
std::string format_input_error(const InputLocation& location, const std::string& problem);

}  // namespace clothfit
