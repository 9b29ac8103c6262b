// CsvRecordReader: records across chunk boundaries, quoted line breaks, CRLF, BOM, line numbers.
#include "mocap/csv_record_reader.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace clothfit::mocap {
namespace {

struct Rec {
  std::string text;
  int line;
  int line_count;
  bool terminated;
  bool open_quote;
};

std::vector<Rec> records(const std::string& input, std::size_t chunk) {
  std::istringstream in(input);
  CsvRecordReader reader(in, chunk);
  CsvRecordReader::Record r;
  std::vector<Rec> out;
  while (reader.next(r)) {
    out.push_back({std::string(r.text), r.line, r.line_count, r.terminated, r.open_quote});
  }
  EXPECT_EQ(reader.bytes_consumed(), input.size());
  return out;
}

TEST(CsvRecordReader, SplitsRecordsWhateverTheChunkSize) {
  const std::string input =
      "\xEF\xBB\xBF"
      "a,b\r\n"
      "\"multi\nline\",x\n"
      "\n"
      "\"q\"\"uote\"\"\",\"a\r\nb\"\r\n"
      "last,unterminated";
  for (std::size_t chunk : {1, 2, 3, 5, 8, 64, 4096}) {
    SCOPED_TRACE(chunk);
    const std::vector<Rec> r = records(input, chunk);
    ASSERT_EQ(r.size(), 5u);
    EXPECT_EQ(r[0].text, "a,b");
    EXPECT_EQ(r[0].line, 1);
    EXPECT_EQ(r[1].text, "\"multi\nline\",x");
    EXPECT_EQ(r[1].line, 2);
    EXPECT_EQ(r[1].line_count, 2);
    EXPECT_EQ(r[2].text, "");
    EXPECT_EQ(r[2].line, 4);
    EXPECT_EQ(r[3].text, "\"q\"\"uote\"\"\",\"a\r\nb\"");
    EXPECT_EQ(r[3].line, 5);
    EXPECT_EQ(r[4].text, "last,unterminated");
    EXPECT_EQ(r[4].line, 7);
    EXPECT_TRUE(r[3].terminated);
    EXPECT_FALSE(r[4].terminated);
    EXPECT_FALSE(r[4].open_quote);
  }
}

TEST(CsvRecordReader, ReportsAnOpenQuoteAtTheEnd) {
  const std::vector<Rec> r = records("a\n\"never closed\nmore\n", 4);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(r[1].open_quote);
  EXPECT_EQ(r[1].line, 2);
  EXPECT_EQ(r[1].text, "\"never closed\nmore\n");
}

TEST(CsvRecordReader, QuotesInsideUnquotedCellsAreText) {
  const std::vector<Rec> r = records("5\" screen,x\nnext\n", 3);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].text, "5\" screen,x");
}

TEST(CsvRecordReader, EmptyStream) {
  EXPECT_TRUE(records("", 16).empty());
}

TEST(SplitCsvRecord, UnquotesCells) {
  std::vector<CsvCell> cells;
  split_csv_record("a, b ,\"c,d\",\"e\"\"f\",,\"x\ny\",z", cells);
  ASSERT_EQ(cells.size(), 7u);
  EXPECT_EQ(cells[0].text, "a");
  EXPECT_EQ(cells[1].text, " b ");
  EXPECT_EQ(cells[2].text, "c,d");
  EXPECT_TRUE(cells[2].quoted);
  EXPECT_EQ(cells[3].text, "e\"f");
  EXPECT_EQ(cells[4].text, "");
  EXPECT_EQ(cells[5].text, "x\ny");
  EXPECT_EQ(cells[6].line_offset, 1);
  split_csv_record("", cells);
  EXPECT_EQ(cells.size(), 1u);
  EXPECT_EQ(trim_blanks(" \tx y\t "), "x y");
}

}  // namespace
}  // namespace clothfit::mocap
