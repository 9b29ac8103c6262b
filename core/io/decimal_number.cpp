#include "core/io/decimal_number.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace clothfit {

std::string DecimalNumber::expected() const {
  switch (status) {
    case out_of_range:
      return "a number within a double's range (about 5e-324 to 1.8e308 in size)";
    case not_finite:
      return "a finite number";
    case ok:
    case not_a_number:
      break;
  }
  return "a number";
}

DecimalNumber parse_decimal(std::string_view text) {
  DecimalNumber n;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, n.value);
  if (text.empty() || ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range))
    n.status = DecimalNumber::not_a_number;
  else if (ec == std::errc::result_out_of_range)
    n.status = DecimalNumber::out_of_range;
  else
    n.status = std::isfinite(n.value) ? DecimalNumber::ok : DecimalNumber::not_finite;
  return n;
}

}  // namespace clothfit
