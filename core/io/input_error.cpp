#include "core/io/input_error.hpp"

namespace clothfit {

std::string format_input_error(const InputLocation& location, const std::string& problem) {
  std::string out;
  if (!location.file.empty()) {
    out.append(location.file);
    if (location.line > 0) {
      out.append(":").append(std::to_string(location.line));
      if (location.column > 0)
        out.append(":").append(std::to_string(location.column));
    }
    out.append(": ");
  }
  if (!location.field.empty())
    out.append(location.field).append(": ");
  out.append(problem);
  return out;
}

InputError::InputError(InputLocation location, const std::string& problem)
    : std::runtime_error(format_input_error(location, problem)),
      m_location(std::move(location)),
      m_problem(problem) {}

}  // namespace clothfit
