#include "mocap/csv_record_reader.hpp"

#include <algorithm>
#include <cstring>

namespace clothfit::mocap {

CsvRecordReader::CsvRecordReader(std::istream& in, std::size_t chunk_bytes)
    : m_in(in), m_buffer(std::max<std::size_t>(chunk_bytes, 64)) {}

void CsvRecordReader::read_more() {
  if (m_eof)
    return;
  m_in.read(m_buffer.data() + m_end, static_cast<std::streamsize>(m_buffer.size() - m_end));
  const std::streamsize got = m_in.gcount();
  m_end += static_cast<std::size_t>(got);
  if (m_in.bad())
    m_stream_failed = true;
  if (!m_in || got == 0)
    m_eof = true;
}

bool CsvRecordReader::next(Record& record) {
  if (!m_started) {
    m_started = true;
    read_more();
    if (m_end >= 3 && std::memcmp(m_buffer.data(), "\xEF\xBB\xBF", 3) == 0)
      m_begin = 3;
  }
  std::size_t scan = m_begin;
  bool in_quotes = false;
  bool cell_start = true;    // the previous character ended a cell (or the record just began)
  bool just_closed = false;  // the previous character closed a quoted part
  int breaks = 0;            // line breaks inside quotes so far
  for (;;) {
    char* data = m_buffer.data();
    const char* nl = static_cast<const char*>(std::memchr(data + scan, '\n', m_end - scan));
    const std::size_t segment_end = nl ? static_cast<std::size_t>(nl - data) : m_end;
    if (in_quotes || std::memchr(data + scan, '"', segment_end - scan) != nullptr) {
      for (std::size_t i = scan; i < segment_end; ++i) {
        const char c = data[i];
        if (in_quotes) {
          if (c == '"') {
            in_quotes = false;
            just_closed = true;
          }
        } else if (c == '"' && (cell_start || just_closed)) {
          in_quotes = true;  // an opening quote, or the second half of an escaped ""
          cell_start = just_closed = false;
        } else {
          cell_start = (c == ',');
          just_closed = false;
        }
      }
    } else if (segment_end > scan) {
      cell_start = data[segment_end - 1] == ',';
      just_closed = false;
    }

    if (nl != nullptr && in_quotes) {  // a line break inside a quoted cell
      ++breaks;
      scan = segment_end + 1;
      cell_start = just_closed = false;
      continue;
    }
    if (nl != nullptr || m_eof) {
      if (nl == nullptr && m_begin == m_end)
        return false;
      std::size_t text_end = segment_end;
      if (text_end > m_begin && data[text_end - 1] == '\r')
        --text_end;
      record.text = std::string_view(data + m_begin, text_end - m_begin);
      record.line = m_next_line;
      record.line_count = breaks + 1;
      record.terminated = nl != nullptr;
      record.open_quote = in_quotes;
      m_next_line += breaks + 1;
      m_begin = nl != nullptr ? segment_end + 1 : m_end;
      return true;
    }
    // The record goes on beyond the buffered bytes: keep its start, make room, read more.
    const std::size_t shift = m_begin;
    if (shift > 0) {
      std::memmove(data, data + shift, m_end - shift);
      m_consumed_before_buffer += shift;
      m_end -= shift;
      m_begin = 0;
    }
    scan = segment_end - shift;
    if (m_end == m_buffer.size())
      m_buffer.resize(2 * m_buffer.size());
    read_more();
  }
}

void split_csv_record(std::string_view record, std::vector<CsvCell>& cells) {
  cells.clear();
  cells.emplace_back();
  int line_offset = 0;
  bool in_quotes = false;
  bool cell_start = true;
  bool just_closed = false;
  for (std::size_t i = 0; i < record.size(); ++i) {
    const char c = record[i];
    CsvCell& cell = cells.back();
    if (in_quotes) {
      if (c == '"') {
        in_quotes = false;
        just_closed = true;
      } else {
        if (c == '\n')
          ++line_offset;
        cell.text += c;
      }
      continue;
    }
    if (c == '"' && (cell_start || just_closed)) {
      if (just_closed)
        cell.text += '"';  // "" inside a quoted cell
      in_quotes = true;
      cell.quoted = true;
      cell_start = just_closed = false;
      continue;
    }
    just_closed = false;
    if (c == ',') {
      cells.emplace_back();
      cells.back().line_offset = line_offset;
      cell_start = true;
      continue;
    }
    cell_start = false;
    if (c == '\n')
      ++line_offset;
    cell.text += c;
  }
}

std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

}  // namespace clothfit::mocap
