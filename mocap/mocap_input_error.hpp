// MocapInputError: the one exception of clothfit_mocap for bad motion-capture input — a Motive CSV
// file that cannot be read, a marker layout that does not parse or does not fit the take, a held
// marker whose gaps cannot be filled. It says where (file, line, column, or a field such as a JSON
// path or a marker name) and what was expected. clothfit_mocap does not depend on clothfit_core,
// so this mirrors clothfit::InputError instead of deriving from it; callers that catch both print
// what() the same way.
#pragma once

#include <stdexcept>
#include <string>

namespace clothfit::mocap {

struct MocapInputLocation {
  std::string file;   // file or display name as given by the user; empty when not from a file
  int line = 0;       // 1-based; 0 when unknown
  int column = 0;     // 1-based; for CSV files the cell (field) number, not the character
  std::string field;  // JSON path such as "markers[1][2]", or "marker 'A'"; empty when none
};

class MocapInputError : public std::runtime_error {
 public:
  MocapInputError(MocapInputLocation location, const std::string& problem);

  const MocapInputLocation& location() const { return m_location; }
  // The problem alone, without the location prefix.
  const std::string& problem() const { return m_problem; }

 private:
  MocapInputLocation m_location;
  std::string m_problem;
};

// "file:line:column: field: problem" with the empty parts left out, control characters shown as
// '?' (so also in problem()).
std::string format_mocap_input_error(const MocapInputLocation& location,
                                     const std::string& problem);

}  // namespace clothfit::mocap
