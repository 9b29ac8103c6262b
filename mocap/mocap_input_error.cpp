#include "mocap/mocap_input_error.hpp"

#include <utility>

namespace clothfit::mocap {

std::string format_mocap_input_error(const MocapInputLocation& location,
                                     const std::string& problem) {
  std::string out;
  if (!location.file.empty()) {
    out += location.file;
    if (location.line > 0) {
      out += ':';
      out += std::to_string(location.line);
      if (location.column > 0) {
        out += ':';
        out += std::to_string(location.column);
      }
    }
    out += ": ";
  }
  if (!location.field.empty())
    out += location.field + ": ";
  return out + problem;
}

MocapInputError::MocapInputError(MocapInputLocation location, const std::string& problem)
    : std::runtime_error(format_mocap_input_error(location, problem)),
      m_location(std::move(location)),
      m_problem(problem) {}

}  // namespace clothfit::mocap
