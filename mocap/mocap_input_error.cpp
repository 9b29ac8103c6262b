#include "mocap/mocap_input_error.hpp"

#include <utility>

namespace clothfit::mocap {
namespace {

// Control characters of a file (a tab or a NUL in a marker name) would garble the terminal or
// end the message; they show as '?', as the reader's quoted cells do.
std::string printable(std::string text) {
  for (char& c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f)
      c = '?';
  }
  return text;
}

}  // namespace

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
  return printable(out + problem);
}

MocapInputError::MocapInputError(MocapInputLocation location, const std::string& problem)
    : std::runtime_error(format_mocap_input_error(location, problem)),
      m_location(std::move(location)),
      m_problem(printable(problem)) {}

}  // namespace clothfit::mocap
