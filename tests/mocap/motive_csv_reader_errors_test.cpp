// Every way a Motive CSV file can be wrong gives a MocapInputError naming the file, the line, the
// column (CSV cell number) and the problem; none crashes or yields a silent zero.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "mocap/motive_csv_reader.hpp"
#include "tests/mocap/motive_csv_test_support.hpp"

namespace clothfit::mocap {
namespace {

using testing::read_csv_error;
using testing::small_csv;

// `text` with the first occurrence of `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

// Checks the error's line, column, that the problem mentions `expected`, and what()'s format.
void expect_error(const std::string& text, int line, int column, const std::string& expected) {
  const MocapInputError e = read_csv_error(text);
  EXPECT_EQ(e.location().file, "test.csv");
  EXPECT_EQ(e.location().line, line) << e.what();
  EXPECT_EQ(e.location().column, column) << e.what();
  EXPECT_NE(e.problem().find(expected), std::string::npos)
      << "problem: " << e.problem() << "\nexpected to contain: " << expected;
  std::string prefix = "test.csv:" + std::to_string(line) + ":";
  if (column > 0)
    prefix += std::to_string(column) + ":";
  EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
}

TEST(MotiveCsvReaderErrors, Format11RowTypedIsNamed) {
  expect_error(
      "comment,exported by Motive\ninfo,version,1.1\ninfo,framecount,2\n"
      "frame,0,0.0,1,0\n",
      1, 1, "format 1.1");
  expect_error("info,version,1.1\ninfo,framecount,2\nframe,0,0.0,1,0\n", 1, 1,
               "row-typed Motive CSV format 1.1");
  expect_error(replaced(small_csv(), "Format Version,1.23", "Format Version,1.1"), 1, 2,
               "Format Version 1.1 is not supported");
  expect_error(replaced(small_csv(), "Format Version,1.23", "Format Version,one"), 1, 2,
               "expected a version number");
  for (const char* version : {"1.", ".23", "1.2x", "-1.23"}) {
    expect_error(
        replaced(small_csv(), "Format Version,1.23", std::string("Format Version,") + version), 1,
        2, "expected a version number such as 1.23, got '" + std::string(version));
  }
}

TEST(MotiveCsvReaderErrors, MissingAxisRow) {
  // Data right after the asset rows.
  expect_error(replaced(small_csv(), "Frame,Time (Seconds),X,Y,Z,X,Y,Z\n", ""), 7, 1,
               "expected the axis row");
  // The file ends before any axis row.
  const std::string text = small_csv();
  expect_error(text.substr(0, text.find("Frame,")), 7, 0, "no axis row");
  expect_error("", 1, 0, "empty file");
}

TEST(MotiveCsvReaderErrors, NonNumericCells) {
  expect_error(replaced(small_csv(), "1,0.01,1.5,2.5,3.5", "1,0.01,1.5,abc,3.5"), 9, 4,
               "expected a number for Position Y of Marker 'A', got 'abc'");
  // No silent NaN or infinity either.
  expect_error(replaced(small_csv(), "2,0.02,2,3,4,7", "2,0.02,2,3,4,nan"), 10, 6,
               "expected a number for Position X of Marker 'B', got 'nan'");
  expect_error(replaced(small_csv(), "2,0.02,2,3,4,7", "2,0.02,2,3,4,inf"), 10, 6, "got 'inf'");
  expect_error(replaced(small_csv(), "2,0.02,2,3,4", "2,0.02,2,3,4.5.6"), 10, 5, "got '4.5.6'");
  // A number beyond a double's range is named as such (it read as not a number).
  expect_error(replaced(small_csv(), "2,0.02,2,3,4,7", "2,0.02,2,3,4,1e400"), 10, 6,
               "expected a number for Position X of Marker 'B', got '1e400' (beyond the range of a "
               "double");
  // A CR inside a cell (after line 1 a lone CR is no line break) is named, not just shown as '?'.
  expect_error(replaced(small_csv(), "1,0.01,1.5", "1,\r0.01,1.5"), 9, 2,
               "got '?0.01' (a carriage return inside the cell: a lone-CR line break");
  expect_error(replaced(small_csv(), "1,0.01,1.5", "1,-1e999,1.5"), 9, 2,
               "expected the frame time in seconds, got '-1e999' (beyond the range");
  expect_error(replaced(small_csv(), "Export Frame Rate,100", "Export Frame Rate,1e400"), 1, 6,
               "Export Frame Rate: expected a number, got '1e400' (beyond the range");
  expect_error(replaced(small_csv(), "1,0.01,1.5", "1.5,0.01,1.5"), 9, 1,
               "expected a whole frame number, got '1.5'");
  expect_error(replaced(small_csv(), "1,0.01,1.5", "1,soon,1.5"), 9, 2,
               "expected the frame time in seconds, got 'soon'");
  expect_error(replaced(small_csv(), "Total Exported Frames,3", "Total Exported Frames,three"), 1,
               8, "Total Exported Frames: expected a whole number");
  expect_error(replaced(small_csv(), "Export Frame Rate,100", "Export Frame Rate,fast"), 1, 6,
               "Export Frame Rate: expected a number, got 'fast'");
  // A data row whose quoted TimeCode cell holds a line break: the bad cell after it is on the
  // row's second line.
  expect_error(
      "Format Version,1.24,Export Frame Rate,100\n\n"
      ",Type,,Marker,Marker,Marker\n"
      ",Name,,A,A,A\n"
      ",,,Position,Position,Position\n"
      "Frame,Time (Seconds),TimeCode,X,Y,Z\n"
      "0,0.00,00:00:00:00.0,1,2,3\n"
      "1,0.01,\"00:00\n:00:00.1\",1.5,abc,3.5\n",
      9, 5, "expected a number for Position Y of Marker 'A', got 'abc'");
  // A long cell is quoted by its first 40 characters; control characters show as '?'.
  const std::string long_cell = "abcdefghij0123456789ABCDEFGHIJ0123456789xyz";
  expect_error(replaced(small_csv(), "1,0.01,1.5,2.5", "1,0.01,1.5," + long_cell), 9, 4,
               "got 'abcdefghij0123456789ABCDEFGHIJ0123456789...'");
  expect_error(replaced(small_csv(), "1,0.01,1.5,2.5", "1,0.01,1.5,a\tb"), 9, 4, "got 'a?b'");
  // So do they in a marker's name (a tab garbled the terminal, a NUL ended the message).
  std::string tab_name =
      replaced(small_csv(), ",Name,A,A,A,", std::string(",Name,A\tx,A\tx,A\tx,"));
  expect_error(replaced(tab_name, "1,0.01,1.5,2.5", "1,0.01,1.5,abc"), 9, 4,
               "expected a number for Position Y of Marker 'A?x', got 'abc'");
  std::string nul_name =
      replaced(small_csv(), ",Name,A,A,A,", std::string(",Name,A\0,A\0,A\0,", 15));
  const MocapInputError nul =
      testing::read_csv_error(replaced(nul_name, "1,0.01,1.5,2.5", "1,0.01,1.5,abc"));
  EXPECT_NE(std::string(nul.what()).find("Marker 'A?', got 'abc'"), std::string::npos)
      << nul.what();
}

TEST(MotiveCsvReaderErrors, DuplicateColumns) {
  // Marker A has two X columns.
  expect_error(replaced(replaced(small_csv(), ",Name,A,A,A,B,B,B", ",Name,A,A,A,A,B,B"),
                        "Frame,Time (Seconds),X,Y,Z,X,Y,Z", "Frame,Time (Seconds),X,Y,Z,X,Y,Z"),
               7, 6, "duplicate column: Position X of Marker 'A' is also column 3");
  // Marker A appears again after B.
  expect_error(replaced(small_csv(), ",Name,A,A,A,B,B,B", ",Name,A,A,A,B,B,A"), 4, 8,
               "duplicate columns: Marker 'A' appears again (it starts in column 3)");
}

TEST(MotiveCsvReaderErrors, FrameRateZeroOrOutOfRange) {
  expect_error(replaced(small_csv(), "Export Frame Rate,100", "Export Frame Rate,0"), 1, 6,
               "Export Frame Rate is 0: expected a frame rate > 0 Hz");
  expect_error(replaced(small_csv(), "Export Frame Rate,100", "Export Frame Rate,0.000000"), 1, 6,
               "Export Frame Rate is 0");
  expect_error(replaced(small_csv(), "Export Frame Rate,100", "Capture Frame Rate,-120"), 1, 6,
               "expected a frame rate between");
}

TEST(MotiveCsvReaderErrors, TruncatedFile) {
  // The last row cut in the middle (no line break at the end).
  const std::string text = small_csv();
  expect_error(text.substr(0, text.find("2,0.02") + 5), 10, 2,
               "the file ends in the middle of a row (2 of 8 cells and no line break");
  // Whole rows missing: fewer rows than Total Exported Frames.
  expect_error(text.substr(0, text.find("2,0.02")), 10, 0,
               "the file ends after 2 data rows but the header's Total Exported Frames is 3");
  // More rows than announced.
  expect_error(text + "3,0.03,1,2,3,4,5,6\n", 11, 1,
               "more data rows than the header's Total Exported Frames (3)");
  // Nothing after the axis row.
  expect_error(text.substr(0, text.find("0,0.00")), 8, 0, "expected data rows after the axis row");
}

TEST(MotiveCsvReaderErrors, IncompleteSamples) {
  expect_error(replaced(small_csv(), "2,0.02,2,3,4,7,8,9", "2,0.02,2,3,4,7,,9"), 10, 7,
               "Position Y of Marker 'B' is empty but 2 other Position value(s)");
}

TEST(MotiveCsvReaderErrors, FramesMustBeConsecutive) {
  expect_error(replaced(small_csv(), "2,0.02", "3,0.03"), 10, 1,
               "expected frame 2 (frame numbers go up by one from row to row), got 3");
  expect_error(replaced(small_csv(), "1,0.01", "0,0.01"), 9, 1, "expected frame 1");
}

// The take's times come from the header's frame rate; a Time column that contradicts it (the rate
// field is wrong, or rows were thinned) was ignored, every frame put at a wrong time.
TEST(MotiveCsvReaderErrors, TimeColumnContradictsTheFrameRate) {
  expect_error(replaced(small_csv(), "Export Frame Rate,100", "Export Frame Rate,50"), 9, 2,
               "frame 1 is at 0.01 s, but the Export Frame Rate of 50 Hz puts it at 0.02 s (frame "
               "0 at 0 s): expected the Time column to go up by 1 / frame rate per frame");
  expect_error(replaced(small_csv(), "Export Frame Rate,100", "Capture Frame Rate,200"), 9, 2,
               "the Capture Frame Rate of 200 Hz puts it at 0.005 s");
  expect_error(replaced(small_csv(), "2,0.02,", "2,0.04,"), 10, 2,
               "frame 2 is at 0.04 s, but the Export Frame Rate of 100 Hz puts it at 0.02 s");
  // Printed digits are no contradiction: within a quarter of a frame interval.
  EXPECT_NO_THROW(testing::read_csv_text(replaced(small_csv(), "2,0.02,", "2,0.0224,")));
  // Times that start elsewhere than 0 are fine when they step by 1 / rate.
  EXPECT_NO_THROW(testing::read_csv_text(
      replaced(replaced(replaced(small_csv(), "0,0.00,", "0,5.00,"), "1,0.01,", "1,5.01,"),
               "2,0.02,", "2,5.02,")));
}

// Without a rate in the header the Time column gives it, (frames − 1) over its span: rows between
// its ends out of order or unevenly spaced were read at that rate without a word.
TEST(MotiveCsvReaderErrors, TimeColumnWithoutAHeaderRateIsEvenlySpaced) {
  const std::string no_rate = replaced(small_csv(), "Export Frame Rate,100,", "");
  EXPECT_DOUBLE_EQ(testing::read_csv_text(no_rate).frame_rate_hz(), 100.0);
  const std::string four_rows =
      replaced(no_rate, "Total Exported Frames,3", "Total Exported Frames,4") +
      "3,0.03,1,2,3,4,5,6\n";
  // Rows 1 and 2 swapped in time: 0, 0.02, 0.01, 0.03.
  expect_error(replaced(replaced(four_rows, "1,0.01,", "1,0.02,"), "2,0.02,", "2,0.01,"), 9, 2,
               "frame 1 is at 0.02 s, but the rate the Time column gives (100 Hz: 3 frame "
               "intervals from 0 to 0.03 s) puts it at 0.01 s: expected evenly spaced times "
               "increasing down the file");
  // One row set back.
  expect_error(replaced(four_rows, "2,0.02,", "2,0.003,"), 10, 2, "frame 2 is at 0.003 s");
  // Printed digits are no contradiction: within a quarter of a frame interval.
  EXPECT_NO_THROW(testing::read_csv_text(replaced(four_rows, "2,0.02,", "2,0.0224,")));
}

TEST(MotiveCsvReaderErrors, ValuesBeyondTheHeader) {
  expect_error(replaced(small_csv(), "0,0.00,1,2,3,4,5,6", "0,0.00,1,2,3,4,5,6,,7"), 8, 10,
               "a value beyond the header's 8 columns: '7'");
}

TEST(MotiveCsvReaderErrors, HeaderValues) {
  expect_error(replaced(small_csv(), "Length Units,Meters", "Length Units,Inches"), 1, 10,
               "Length Units: expected Meters, Centimeters or Millimeters, got 'Inches'");
  expect_error(replaced(small_csv(), "Length Units,Meters", "Rotation Type,Angles"), 1, 10,
               "Rotation Type: expected Quaternion or an Euler order");
}

// A finite coordinate far outside any capture volume made a fit's objective overflow to inf.
TEST(MotiveCsvReaderErrors, CoordinatesFarFromTheOrigin) {
  expect_error(replaced(small_csv(), "0,0.00,1,2,3", "0,0.00,1,2e7,3"), 8, 4,
               "Position Y of Marker 'A' is 2e+07 m: expected a coordinate within 1e+06 m of the "
               "origin");
  // In the file's unit: 2e9 mm.
  expect_error(replaced(replaced(small_csv(), "Length Units,Meters", "Length Units,Millimeters"),
                        "0,0.00,1,2,3", "0,0.00,1,2,2e9"),
               8, 5, "Position Z of Marker 'A' is 2e+06 m");
}

// UTF-16 files were reported as lone-CR line breaks or a missing axis row.
TEST(MotiveCsvReaderErrors, Utf16IsNamed) {
  std::string utf16 = "\xFF\xFE";
  for (const char c : small_csv()) {
    utf16 += c;
    utf16 += '\0';
  }
  expect_error(utf16, 1, 0, "the file is UTF-16 or UTF-32 text");
  std::string no_mark;
  for (const char c : small_csv()) {
    no_mark += c;
    no_mark += '\0';
  }
  expect_error(no_mark, 1, 0, "the file is UTF-16 or UTF-32 text");
}

// A header whose key/value pairs are out of step would pair every later key with the wrong value.
TEST(MotiveCsvReaderErrors, HeaderOutOfStep) {
  expect_error(replaced(small_csv(), "Export Frame Rate,100,", "Export Frame Rate,100,5,"), 1, 7,
               "expected a header key (Format Version, Take Name, ..., Length Units) or nothing, "
               "got '5' before the key 'Total Exported Frames'");
  expect_error(replaced(small_csv(), "Take Name,small,", "Take Name,"), 1, 4,
               "expected a value for 'Take Name', got the header key 'Export Frame Rate'");
  expect_error(
      replaced(small_csv(), "Length Units,Meters", "Length Units,Meters,Export Frame Rate,50"), 1,
      11, "a second Export Frame Rate field (the first is in column 5)");
}

TEST(MotiveCsvReaderErrors, AssetRows) {
  expect_error(replaced(small_csv(), ",Type,Marker,Marker,Marker,Marker,Marker,Marker\n", ""), 6, 0,
               "expected the asset Type row");
  expect_error(
      replaced(small_csv(), ",,Position,Position,Position,Position,Position,Position\n", ""), 6, 0,
      "expected the quantity row");
  expect_error(
      replaced(small_csv(), "Frame,Time (Seconds),X,Y,Z,X,Y,Z", "Frame,Time (Seconds),X,Y,Z,X,Y,Q"),
      7, 8, "expected axis X, Y or Z for Position of Marker 'B', got 'Q'");
  expect_error(replaced(small_csv(), ",,Position,Position,Position,Position,Position,Position",
                        ",,Position,Position,Position,Position,Position,Quality"),
               7, 6, "Marker 'B' has no Position Z column");
  expect_error(replaced(small_csv(), ",Name,A,A,A,B,B,B", ",Name,A,A,A,B,,B"), 4, 7,
               "empty asset Name above a column of type 'Marker'");
  expect_error(replaced(small_csv(), ",ID,1,1,1,2,2,2", ",Type,1,1,1,2,2,2"), 5, 0,
               "a second 'Type' row (the first is line 3)");
}

TEST(MotiveCsvReaderErrors, RigidBodyRotations) {
  const std::string body =
      "\n\n,Type,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body\n"
      ",Name,S,S,S,S,S,S,S\n"
      ",,Rotation,Rotation,Rotation,Rotation,Position,Position,Position\n"
      "Frame,Time (Seconds),X,Y,Z,W,X,Y,Z\n";
  expect_error(
      "Format Version,1.23,Export Frame Rate,100,Rotation Type,XYZ" + body + "0,0,0,0,0,1,1,2,3\n",
      6, 6, "has a quaternion rotation (X, Y, Z, W) but the header's Rotation Type is XYZ");
  expect_error("Format Version,1.23,Export Frame Rate,100" + body + "0,0,0,0,0,0.5,1,2,3\n", 7, 3,
               "has length 0.5: expected a unit quaternion");
  expect_error("Format Version,1.23,Export Frame Rate,100" + body + "0,0,0,0,0,1,,,\n", 7, 7,
               "Position X of Rigid Body 'S' is empty but 4 other pose value(s)");
  expect_error(
      "Format Version,1.23,Export Frame Rate,100,Rotation Type,Quaternion\n\n"
      ",Type,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body\n"
      ",Name,S,S,S,S,S,S\n"
      ",,Rotation,Rotation,Rotation,Position,Position,Position\n"
      "Frame,Time (Seconds),X,Y,Z,X,Y,Z\n"
      "0,0,0,0,0,1,2,3\n",
      6, 3,
      "three Rotation columns (Euler angles) but the header's Rotation Type is "
      "Quaternion");
}

TEST(MotiveCsvReaderErrors, CsvSyntax) {
  expect_error(replaced(small_csv(), "2,0.02,2,3,4", "2,0.02,\"2,3,4"), 10, 0,
               "a quoted cell that starts on this line is never closed");
  std::string lone_cr = small_csv();
  for (char& c : lone_cr) {
    if (c == '\n')
      c = '\r';
  }
  expect_error(lone_cr, 1, 0, "lone CR");
}

TEST(MotiveCsvReaderErrors, NothingToRead) {
  expect_error(
      "Format Version,1.23,Export Frame Rate,100\n\n"
      ",Type,Bone,Bone,Bone\n"
      ",Name,Hip,Hip,Hip\n"
      ",,Position,Position,Position\n"
      "Frame,Time (Seconds),X,Y,Z\n"
      "0,0,1,2,3\n",
      6, 0, "only assets clothfit does not read (Bone 'Hip', ...)");
  expect_error(
      "Format Version,1.23,Export Frame Rate,100\n\n,Type\n,Name\nx,,\n"
      "Frame,Time (Seconds)\n0,0\n",
      6, 0, "the file has no asset columns");
}

TEST(MotiveCsvReaderErrors, NoFrameRateAnywhere) {
  const std::string no_header_rate = replaced(small_csv(), "Export Frame Rate,100,", "");
  const auto with_times = [&](const char* t1, const char* t2) {
    return replaced(replaced(replaced(no_header_rate, "0,0.00", "0,0"), "1,0.01", t1), "2,0.02",
                    t2);
  };
  expect_error(with_times("1,0", "2,0"), 1, 0, "no frame rate");
  // A Time column that gives a rate outside 1e-3 … 1e6 Hz is not taken for one.
  expect_error(with_times("1,0.0000001", "2,0.0000002"), 1, 0, "no frame rate");  // 1e7 Hz
  expect_error(with_times("1,2000", "2,4000"), 1, 0, "no frame rate");            // 5e-4 Hz
}

TEST(MotiveCsvReaderErrors, FilesThatCannotBeOpened) {
  const auto missing = std::filesystem::temp_directory_path() / "clothfit_no_such_take.csv";
  try {
    read_motive_csv(missing);
    ADD_FAILURE() << "expected an error";
  } catch (const MocapInputError& e) {
    EXPECT_EQ(e.location().file, missing.string());
    EXPECT_EQ(e.problem(), "no such file");
  }
  try {
    read_motive_csv(std::filesystem::temp_directory_path());
    ADD_FAILURE() << "expected an error";
  } catch (const MocapInputError& e) {
    EXPECT_NE(e.problem().find("directory"), std::string::npos);
  }
}

}  // namespace
}  // namespace clothfit::mocap
