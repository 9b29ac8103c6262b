#include "mocap/length_unit.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace clothfit::mocap {

double metres_per_unit(LengthUnit unit) {
  switch (unit) {
    case LengthUnit::kMeters:
      return 1.0;
    case LengthUnit::kCentimeters:
      return 0.01;
    case LengthUnit::kMillimeters:
      return 0.001;
  }
  return 1.0;
}

std::string_view motive_unit_name(LengthUnit unit) {
  switch (unit) {
    case LengthUnit::kMeters:
      return "Meters";
    case LengthUnit::kCentimeters:
      return "Centimeters";
    case LengthUnit::kMillimeters:
      return "Millimeters";
  }
  return "Meters";
}

std::string_view unit_symbol(LengthUnit unit) {
  switch (unit) {
    case LengthUnit::kMeters:
      return "m";
    case LengthUnit::kCentimeters:
      return "cm";
    case LengthUnit::kMillimeters:
      return "mm";
  }
  return "m";
}

std::optional<LengthUnit> parse_length_unit(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "meters" || lower == "metres" || lower == "m")
    return LengthUnit::kMeters;
  if (lower == "centimeters" || lower == "centimetres" || lower == "cm") {
    return LengthUnit::kCentimeters;
  }
  if (lower == "millimeters" || lower == "millimetres" || lower == "mm") {
    return LengthUnit::kMillimeters;
  }
  return std::nullopt;
}

}  // namespace clothfit::mocap
