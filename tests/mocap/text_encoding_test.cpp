// Header text is always valid UTF-8: valid sequences kept, other bytes read as Latin-1.
#include "mocap/text_encoding.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mocap/take_summary.hpp"
#include "tests/mocap/motive_csv_test_support.hpp"

namespace clothfit::mocap {
namespace {

TEST(TextEncoding, KeepsValidUtf8AndReadsOtherBytesAsLatin1) {
  EXPECT_EQ(utf8_from_utf8_or_latin1("plain ASCII"), "plain ASCII");
  EXPECT_EQ(utf8_from_utf8_or_latin1("\xC3\x84rmel \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "\xC3\x84rmel \xE2\x82\xAC \xF0\x9F\x98\x80");          // Ärmel € 😀
  EXPECT_EQ(utf8_from_utf8_or_latin1("\xC4rmel"), "\xC3\x84rmel");  // Latin-1 Ä
  EXPECT_EQ(utf8_from_utf8_or_latin1("\xFF"), "\xC3\xBF");
  // Overlong forms, surrogates, code points above U+10FFFF and cut sequences are not UTF-8.
  EXPECT_EQ(utf8_from_utf8_or_latin1("\xC0\xAF"), "\xC3\x80\xC2\xAF");
  EXPECT_EQ(utf8_from_utf8_or_latin1("\xED\xA0\x80"), "\xC3\xAD\xC2\xA0\xC2\x80");
  EXPECT_EQ(utf8_from_utf8_or_latin1("\xF4\x90\x80\x80"), "\xC3\xB4\xC2\x90\xC2\x80\xC2\x80");
  EXPECT_EQ(utf8_from_utf8_or_latin1("a\xE2\x82"), "a\xC3\xA2\xC2\x82");
}

// Whether `bytes` pass through as one UTF-8 sequence (or are read byte by byte as Latin-1).
bool kept_as_utf8(const std::string& bytes) {
  return utf8_from_utf8_or_latin1(bytes) == bytes;
}

TEST(TextEncoding, EdgesOfEveryUtf8Range) {
  // Lead bytes: two-byte C2..DF, three-byte E0..EF, four-byte F0..F4.
  EXPECT_FALSE(kept_as_utf8("\xC1\xBF"));  // overlong U+007F
  EXPECT_TRUE(kept_as_utf8("\xC2\x80"));   // U+0080
  EXPECT_TRUE(kept_as_utf8("\xDF\xBF"));   // U+07FF
  EXPECT_TRUE(kept_as_utf8("\xEF\xBF\xBF"));
  EXPECT_TRUE(kept_as_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
  EXPECT_FALSE(kept_as_utf8("\xF5\x80\x80\x80"));
  // Continuation bytes 80..BF, in second and later places.
  EXPECT_FALSE(kept_as_utf8("\xC3\x7F"));
  EXPECT_FALSE(kept_as_utf8("\xC3\xC0"));
  EXPECT_TRUE(kept_as_utf8("\xE2\xBF\xBF"));
  EXPECT_FALSE(kept_as_utf8("\xE2\x82\xC0"));
  EXPECT_FALSE(kept_as_utf8("\xE2\x82\x7F"));
  EXPECT_TRUE(kept_as_utf8("\xF1\x80\xBF\xBF"));
  EXPECT_FALSE(kept_as_utf8("\xF1\x80\x80\xC0"));
  // The narrowed second-byte ranges: E0 A0..BF, ED 80..9F, F0 90..BF, F4 80..8F.
  EXPECT_FALSE(kept_as_utf8("\xE0\x9F\xBF"));  // overlong
  EXPECT_TRUE(kept_as_utf8("\xE0\xA0\x80"));   // U+0800
  EXPECT_TRUE(kept_as_utf8("\xED\x9F\xBF"));   // U+D7FF
  EXPECT_FALSE(kept_as_utf8("\xED\xA0\x80"));  // surrogate U+D800
  EXPECT_FALSE(kept_as_utf8("\xF0\x8F\xBF\xBF"));
  EXPECT_TRUE(kept_as_utf8("\xF0\x90\x80\x80"));  // U+10000
  EXPECT_FALSE(kept_as_utf8("\xF4\x90\x80\x80"));
}

TEST(TextEncoding, Latin1MarkerNamesReadAsUtf8AndPrintAsJson) {
  std::string text = testing::small_csv();
  text.replace(text.find(",Name,A,A,A"), 11, ",Name,\xC4,\xC4,\xC4");
  const Take take = testing::read_csv_text(text);
  EXPECT_EQ(take.marker(0).name, "\xC3\x84");
  EXPECT_NE(take_summary_json(take).dump().find("\xC3\x84"), std::string::npos);
}

}  // namespace
}  // namespace clothfit::mocap
