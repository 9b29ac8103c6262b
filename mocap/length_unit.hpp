// Length units of Motive CSV coordinates (`Length Units` header field). A Take always stores
// metres.
#pragma once

#include <optional>
#include <string_view>

namespace clothfit::mocap {

enum class LengthUnit { kMeters, kCentimeters, kMillimeters };

// Metres per file unit: 1, 0.01 or 0.001.
double metres_per_unit(LengthUnit unit);
// The spelling Motive writes in the header: "Meters", "Centimeters", "Millimeters".
std::string_view motive_unit_name(LengthUnit unit);
// The SI symbol: "m", "cm", "mm".
std::string_view unit_symbol(LengthUnit unit);
// Accepts Motive's spellings (any case, also "Metres"/"Centimetres"/"Millimetres") and the symbols
// m, cm, mm. Empty when the text is none of these.
std::optional<LengthUnit> parse_length_unit(std::string_view text);

}  // namespace clothfit::mocap
