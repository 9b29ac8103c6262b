// CsvRecordReader: splits a CSV byte stream into records (RFC 4180: a quoted cell may hold commas,
// doubled quotes "" and line breaks), reading the stream in large chunks so that a file is never
// held in memory as a whole. Line breaks are "\n" or "\r\n"; a UTF-8 byte-order mark at the start
// of the stream is skipped.
//
//   CsvRecordReader reader(stream);
//   CsvRecordReader::Record record;
//   while (reader.next(record)) use(record.text, record.line);
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace clothfit::mocap {

class CsvRecordReader {
 public:
  struct Record {
    std::string_view text;    // the record without its line break; valid until the next next()
    int line = 0;             // 1-based line where the record starts
    int line_count = 1;       // physical lines it spans (> 1 when a quoted cell holds line breaks)
    bool terminated = false;  // ended by a line break (false only for a last, unfinished line)
    bool open_quote = false;  // the stream ended inside a quoted cell
  };

  // chunk_bytes: bytes read from `in` at a time (the buffer grows only for a longer record).
  explicit CsvRecordReader(std::istream& in, std::size_t chunk_bytes = std::size_t{4} << 20);

  // Reads the next record; false at the end of the stream.
  bool next(Record& record);
  // Bytes of the stream consumed so far (including the byte-order mark and line breaks).
  std::uint64_t bytes_consumed() const { return m_consumed_before_buffer + m_begin; }
  // True when the stream reported an I/O error (not just its end).
  bool stream_failed() const { return m_stream_failed; }

 private:
  void read_more();

  std::istream& m_in;
  std::vector<char> m_buffer;
  std::size_t m_begin = 0;  // first unread byte in m_buffer
  std::size_t m_end = 0;    // one past the last buffered byte
  std::uint64_t m_consumed_before_buffer = 0;
  bool m_eof = false;
  bool m_started = false;
  bool m_stream_failed = false;
  int m_next_line = 1;
};

// One cell of a record split by split_csv_record.
struct CsvCell {
  std::string text;     // unquoted: surrounding quotes removed, "" turned into "
  int line_offset = 0;  // line breaks inside the record before this cell
  bool quoted = false;
};

// Splits `record` into cells (at least one; an empty record gives one empty cell). Spaces are
// kept; callers trim where they want to.
void split_csv_record(std::string_view record, std::vector<CsvCell>& cells);

// `text` without leading and trailing spaces and tabs.
std::string_view trim_blanks(std::string_view text);

}  // namespace clothfit::mocap
