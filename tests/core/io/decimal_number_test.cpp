// parse_decimal: decimal numbers that fill the text, and why the others are refused.
#include "core/io/decimal_number.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace clothfit {
namespace {

TEST(DecimalNumber, ReadsDecimalNumbersThatFillTheText) {
  EXPECT_EQ(parse_decimal("0.25").value, 0.25);
  EXPECT_EQ(parse_decimal("-3e-2").value, -0.03);
  EXPECT_EQ(parse_decimal("1e308").value, 1e308);
  EXPECT_EQ(parse_decimal("1e-310").value, 1e-310);  // subnormal, still a double
  EXPECT_TRUE(std::signbit(parse_decimal("-0").value));
  for (const char* text : {"0.25", "-3e-2", "7", ".5", "5."})
    EXPECT_EQ(parse_decimal(text).status, DecimalNumber::ok) << text;
}

TEST(DecimalNumber, RefusesWhatStrtodWouldHaveRead) {
  // strtod reads all of these (0x10 as 16, the blank skipped, the '+' taken): none is meant.
  for (const char* text : {"0x10", "0x1p-3", " 1", "1 ", "+1", "", "1e", "0.2x", "--1", "."}) {
    const DecimalNumber n = parse_decimal(text);
    EXPECT_EQ(n.status, DecimalNumber::not_a_number) << "'" << text << "'";
    EXPECT_EQ(n.expected(), "a number") << text;
  }
}

TEST(DecimalNumber, NamesNumbersBeyondRangeAndNonFiniteOnes) {
  for (const char* text : {"1e400", "-1e400", "1e-400"}) {
    const DecimalNumber n = parse_decimal(text);
    EXPECT_EQ(n.status, DecimalNumber::out_of_range) << text;
    EXPECT_EQ(n.expected(), "a number within a double's range (about 5e-324 to 1.8e308 in size)");
  }
  for (const char* text : {"inf", "-inf", "infinity", "nan"}) {
    const DecimalNumber n = parse_decimal(text);
    EXPECT_EQ(n.status, DecimalNumber::not_finite) << text;
    EXPECT_EQ(n.expected(), "a finite number");
  }
}

}  // namespace
}  // namespace clothfit
