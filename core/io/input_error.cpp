#include "core/io/input_error.hpp"

namespace clothfit {

std::string format_input_error(const InputLocation& location, const std::string& problem) {
  std::string out;
  if (!location.file.empty()) {
    out += location.file;
    if (location.line > 0) {
      out += ":" + std::to_string(location.line);
      if (location.column > 0) out += ":" + std::to_string(location.column);
    }
    out += ": ";
  }
  if (!location.field.empty()) out += location.field + ": ";
  return out + problem;
}

InputError::InputError(InputLocation location, const std::string& problem)
    : std::runtime_error(format_input_error(location, problem)),
      m_location(std::move(location)),
      m_problem(problem) {}

}  // namespace clothfit
