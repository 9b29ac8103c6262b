// parse_decimal: the one rule for a number typed by a user outside JSON (command-line values, OBJ
// coordinates, clothfit's own CSV cells). A decimal number that fills the text, as std::from_chars
// reads it: no blanks, no '+', no hexadecimal (strtod reads "0x10" as 16 and skips blanks, which
// no one means here). (The Motive reader has its own rule: its cells may have blanks and a '+'.)
//
//   const DecimalNumber n = parse_decimal("1e400");
//   if (n.status != DecimalNumber::ok) fail("expected " + n.expected() + ", found '1e400'");
#pragma once

#include <string>
#include <string_view>

namespace clothfit {

struct DecimalNumber {
  enum Status {
    ok,            // value is finite
    not_a_number,  // not a decimal number filling the text
    out_of_range,  // written right, but beyond a double's range (1e400, 1e-400)
    not_finite,    // inf, infinity or nan
  };
  Status status = not_a_number;
  double value = 0.0;

  // What a message should say was expected: "a number", or for a number out of range "a number
  // within a double's range (about 5e-324 to 1.8e308 in size)", for inf or nan "a finite number".
  std::string expected() const;
};

DecimalNumber parse_decimal(std::string_view text);

}  // namespace clothfit
