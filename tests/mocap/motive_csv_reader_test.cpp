// The Motive CSV reader on the two real exports in ../shared/fixtures/motive/ and on small files
// that exercise each feature of the format (see motive_csv_reader_errors_test.cpp for errors).
#include "mocap/motive_csv_reader.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "mocap/euler_angles.hpp"
#include "mocap/gap_statistics.hpp"
#include "tests/mocap/motive_csv_test_support.hpp"

namespace clothfit::mocap {
namespace {

using testing::kFixture122;
using testing::kFixture123;
using testing::motive_fixture;
using testing::read_csv_text;
using testing::small_csv;

// Coordinates are printed with 6 decimals; reading them back is exact to far better than this.
constexpr double kReadTolerance = 1e-12;

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void expect_same_takes(const Take& a, const Take& b) {
  ASSERT_EQ(a.frame_count(), b.frame_count());
  ASSERT_EQ(a.marker_count(), b.marker_count());
  EXPECT_EQ(a.first_frame_number(), b.first_frame_number());
  EXPECT_EQ(a.frame_rate_hz(), b.frame_rate_hz());
  for (std::size_t m = 0; m < a.marker_count(); ++m) {
    EXPECT_EQ(a.marker(m).name, b.marker(m).name);
    EXPECT_EQ(a.marker(m).kind, b.marker(m).kind);
  }
  const auto pa = a.positions_m();
  const auto pb = b.positions_m();
  for (std::size_t i = 0; i < pa.size(); ++i) {
    if (std::isnan(pa[i])) {
      ASSERT_TRUE(std::isnan(pb[i])) << "sample " << i;
    } else {
      ASSERT_EQ(pa[i], pb[i]) << "sample " << i;
    }
  }
  ASSERT_EQ(a.rigid_bodies().size(), b.rigid_bodies().size());
  for (std::size_t r = 0; r < a.rigid_bodies().size(); ++r) {
    const RigidBodyTrack& ra = a.rigid_bodies()[r];
    const RigidBodyTrack& rb = b.rigid_bodies()[r];
    for (std::size_t i = 0; i < ra.position_m.size(); ++i) {
      EXPECT_TRUE(ra.position_m[i] == rb.position_m[i] ||
                  (std::isnan(ra.position_m[i]) && std::isnan(rb.position_m[i])));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The real exports.

TEST(MotiveCsvReaderFixtures, Format122GapsAt60Hz) {
  const auto path = motive_fixture(kFixture122);
  CLOTHFIT_REQUIRE_FIXTURE(path);
  const Take take = read_motive_csv(path);
  const MotiveHeader& header = take.info().header;
  EXPECT_EQ(header.format_version, "1.22");
  EXPECT_EQ(header.take_name, "Test");
  EXPECT_EQ(header.capture_frame_rate_hz, 240.0);
  EXPECT_EQ(header.export_frame_rate_hz, 60.0);
  EXPECT_EQ(header.total_exported_frames, 227);
  EXPECT_EQ(header.total_frames_in_take, 904);
  EXPECT_FALSE(header.length_unit.has_value());  // the 1.22 export has no Length Units
  EXPECT_TRUE(take.info().file_length_unit_assumed);
  EXPECT_EQ(take.info().file_length_unit, LengthUnit::kMeters);

  EXPECT_EQ(take.frame_rate_hz(), 60.0);
  EXPECT_EQ(take.frame_count(), 227u);
  EXPECT_EQ(take.first_frame_number(), 0);
  EXPECT_NEAR(take.time_s(1), 1.0 / 60.0, 1e-15);
  EXPECT_NEAR(take.time_s(226), 226.0 / 60.0, 1e-12);  // the file rounds it to 3.766667

  // 2 rigid bodies (Euler), 8 rigid-body markers exported as `Marker` assets, 3 unlabeled.
  ASSERT_EQ(take.rigid_bodies().size(), 2u);
  EXPECT_EQ(take.rigid_bodies()[0].name, "RigidBody 01");
  EXPECT_EQ(take.rigid_bodies()[0].file_rotation_type, "XYZ");
  ASSERT_EQ(take.marker_count(), 11u);
  EXPECT_EQ(take.marker(0).name, "RigidBody 01:Marker1");
  EXPECT_EQ(take.marker(0).id, "FB9B0");
  EXPECT_EQ(take.marker(10).name, "Unlabeled 30390");
  for (const MarkerInfo& m : take.markers())
    EXPECT_EQ(m.kind, MarkerKind::kMarker);
  ASSERT_EQ(take.info().assets.size(), 13u);
  EXPECT_EQ(take.info().assets[2].first_column, 15);

  // Frame 0, "RigidBody 01:Marker1" = (-7.707328, 157.726471, -31.802454) y up, metres assumed.
  const Eigen::Vector3d p = take.position(0, *take.find_marker("RigidBody 01:Marker1"));
  EXPECT_NEAR(p.x(), -7.707328, kReadTolerance);
  EXPECT_NEAR(p.y(), 31.802454, kReadTolerance);   // -z
  EXPECT_NEAR(p.z(), 157.726471, kReadTolerance);  // y is up

  // "Unlabeled 30388": seen at frame 15, missing at 16-17, ..., missing from 163 to the end.
  const std::size_t u88 = take.marker_index("Unlabeled 30388");
  EXPECT_TRUE(take.visible(15, u88));
  EXPECT_NEAR(take.position(15, u88).z(), 167.081772, kReadTolerance);
  EXPECT_FALSE(take.visible(16, u88));
  EXPECT_TRUE(std::isnan(take.position(16, u88).x()));
  const MarkerGapStatistics s88 = marker_gap_statistics(take, u88);
  EXPECT_EQ(s88.gap_count, 8u);
  EXPECT_EQ(s88.longest_gap_frames, 64u);  // frames 163-226
  EXPECT_EQ(s88.visible_frames, 227u - 79u);

  // "Unlabeled 30390": blank for frames 0-171 and at 196.
  const std::size_t u90 = take.marker_index("Unlabeled 30390");
  const MarkerGapStatistics s90 = marker_gap_statistics(take, u90);
  EXPECT_EQ(s90.gap_count, 2u);
  EXPECT_EQ(s90.longest_gap_frames, 172u);
  EXPECT_EQ(s90.first_visible_frame, 172u);
  EXPECT_FALSE(take.visible(171, u90));
  EXPECT_NEAR(take.position(172, u90).x(), 6.961214, kReadTolerance);
  EXPECT_FALSE(take.visible(196, u90));
  EXPECT_NEAR(take.position(197, u90).y(), 21.489975, kReadTolerance);
  EXPECT_NEAR(s90.visible_fraction, 54.0 / 227.0, 1e-15);
}

TEST(MotiveCsvReaderFixtures, Format122UnitsWhenTheHeaderHasNone) {
  const auto path = motive_fixture(kFixture122);
  CLOTHFIT_REQUIRE_FIXTURE(path);
  MotiveCsvReadOptions options;
  options.length_unit_if_absent = LengthUnit::kCentimeters;
  const Take take = read_motive_csv(path, options);
  EXPECT_EQ(take.info().file_length_unit, LengthUnit::kCentimeters);
  EXPECT_NEAR(take.position(0, 0).z(), 1.57726471, 1e-12);
}

TEST(MotiveCsvReaderFixtures, Format123DropoutAt120Hz) {
  const auto path = motive_fixture(kFixture123);
  CLOTHFIT_REQUIRE_FIXTURE(path);
  const Take take = read_motive_csv(path);
  const MotiveHeader& header = take.info().header;
  EXPECT_EQ(header.format_version, "1.23");
  EXPECT_EQ(header.take_name, "Take 2020-01-16 07.07.58 PM");
  EXPECT_EQ(header.take_notes, "");
  EXPECT_EQ(header.rotation_type, "Quaternion");
  EXPECT_EQ(header.length_unit, LengthUnit::kMeters);
  EXPECT_EQ(header.coordinate_space, "Global");
  EXPECT_EQ(header.capture_start_time, "2020-01-16 07.07.59.330");
  EXPECT_FALSE(take.info().file_length_unit_assumed);

  EXPECT_EQ(take.frame_rate_hz(), 120.0);
  EXPECT_EQ(take.frame_count(), 499u);
  EXPECT_NEAR(take.time_s(498), 4.15, 1e-12);
  EXPECT_NEAR(take.duration_s(), 499.0 / 120.0, 1e-12);

  // 1 rigid body, 4 rigid-body markers and 4 markers with the same names.
  ASSERT_EQ(take.rigid_bodies().size(), 1u);
  EXPECT_EQ(take.rigid_bodies()[0].id, "DF9A050D387F11EABB89D61D800D886");  // quoted in the file
  ASSERT_EQ(take.marker_count(), 8u);
  const auto rb1 = take.find_marker("ernesto_body:Marker1", MarkerKind::kRigidBodyMarker);
  const auto m1 = take.find_marker("ernesto_body:Marker1", MarkerKind::kMarker);
  ASSERT_TRUE(rb1 && m1);
  EXPECT_NE(*rb1, *m1);
  EXPECT_EQ(take.find_marker("ernesto_body:Marker1"), m1);  // `Marker` assets come first
  EXPECT_EQ(take.marker(*m1).id, "C3560");

  // The `Marker Quality` column between rigid-body markers (0.899541 at frame 3, column 14) is
  // skipped: Marker2 is columns 15-17, (3.683913, 0.032955, -2.268077).
  const auto rb2 = take.find_marker("ernesto_body:Marker2", MarkerKind::kRigidBodyMarker);
  EXPECT_NEAR(take.position(3, *rb2).x(), 3.683913, kReadTolerance);
  EXPECT_NEAR(take.position(3, *rb2).y(), 2.268077, kReadTolerance);
  EXPECT_NEAR(take.position(3, *rb2).z(), 0.032955, kReadTolerance);

  // Frame 3: Marker1 (3.833430, 0.032376, -2.237594); frame 4 has no rigid-body data at all.
  EXPECT_NEAR(take.position(3, *m1).x(), 3.833430, kReadTolerance);
  EXPECT_NEAR(take.position(3, *m1).y(), 2.237594, kReadTolerance);
  EXPECT_NEAR(take.position(3, *m1).z(), 0.032376, kReadTolerance);
  EXPECT_TRUE(take.visible(4, *m1));
  EXPECT_FALSE(take.visible(4, *rb1));
  EXPECT_FALSE(take.rigid_bodies()[0].tracked(4));
  EXPECT_TRUE(take.rigid_bodies()[0].tracked(5));
  EXPECT_NEAR(take.position(3, *rb1).x(), 3.833362, kReadTolerance);
  for (std::size_t m = 0; m < take.marker_count(); ++m) {
    const MarkerGapStatistics s = marker_gap_statistics(take, m);
    if (take.marker(m).kind == MarkerKind::kRigidBodyMarker) {
      EXPECT_EQ(s.gap_count, 1u);
      EXPECT_EQ(s.longest_gap_frames, 1u);
    } else {
      EXPECT_EQ(s.gap_count, 0u);
      EXPECT_EQ(s.visible_fraction, 1.0);
    }
  }
  // Last row: Marker4 (3.644263, 0.032366, -2.070482).
  const Eigen::Vector3d last = take.position(498, take.marker_index("ernesto_body:Marker4"));
  EXPECT_NEAR(last.x(), 3.644263, kReadTolerance);
  EXPECT_NEAR(last.y(), 2.070482, kReadTolerance);
  EXPECT_NEAR(last.z(), 0.032366, kReadTolerance);
}

// The rigid-body markers Motive solves are fixed in the body frame: with the quaternion read as
// X, Y, Z, W and turned into the z-up frame, R⁻¹ (marker - pivot) is the same at every frame.
// (Without the rotation the offsets drift by ~1 mm: the test can fail.)
TEST(MotiveCsvReaderFixtures, QuaternionAndFrameChangeKeepRigidBodyMarkersFixed) {
  const auto path = motive_fixture(kFixture123);
  CLOTHFIT_REQUIRE_FIXTURE(path);
  const Take take = read_motive_csv(path);
  const RigidBodyTrack& body = take.rigid_bodies()[0];
  double drift_rotated = 0.0;
  double drift_unrotated = 0.0;
  for (std::size_t m = 0; m < take.marker_count(); ++m) {
    if (take.marker(m).kind != MarkerKind::kRigidBodyMarker)
      continue;
    const Eigen::Vector3d d0 = take.position(0, m) - body.position(0);
    const Eigen::Vector3d l0 = body.orientation(0).conjugate() * d0;
    for (std::size_t f = 1; f < take.frame_count(); ++f) {
      if (!body.tracked(f))
        continue;
      const Eigen::Vector3d d = take.position(f, m) - body.position(f);
      drift_rotated = std::max(drift_rotated, (body.orientation(f).conjugate() * d - l0).norm());
      drift_unrotated = std::max(drift_unrotated, (d - d0).norm());
    }
  }
  EXPECT_LT(drift_rotated, 1e-5);  // 6-decimal rounding of positions and quaternions
  EXPECT_GT(drift_unrotated, 5e-4);
}

// The same check for the Euler angles of the 1.22 export decides the convention: R = Rx Ry Rz for
// "XYZ" keeps the body's measured markers fixed far better than any other order.
TEST(MotiveCsvReaderFixtures, EulerXyzConventionFitsTheMeasuredMarkers) {
  const auto path = motive_fixture(kFixture122);
  CLOTHFIT_REQUIRE_FIXTURE(path);
  std::string text = file_text(path);
  const std::size_t padding = text.find(",,,");  // first trailing comma of row 1
  ASSERT_NE(padding, std::string::npos);
  auto drift_for = [&](const char* order) {
    std::string patched = text;
    patched.replace(padding, 3, std::string(",Rotation Type,") + order);
    const Take take = read_csv_text(patched);
    const RigidBodyTrack& body = take.rigid_bodies()[0];  // "RigidBody 01", turns by ~1°
    double drift = 0.0;
    for (std::size_t m = 0; m < take.marker_count(); ++m) {
      if (take.marker(m).name.rfind("RigidBody 01:", 0) != 0)
        continue;
      const Eigen::Vector3d l0 =
          body.orientation(0).conjugate() * (take.position(0, m) - body.position(0));
      for (std::size_t f = 1; f < take.frame_count(); ++f) {
        const Eigen::Vector3d l =
            body.orientation(f).conjugate() * (take.position(f, m) - body.position(f));
        drift = std::max(drift, (l - l0).norm());
      }
    }
    return drift;
  };
  const double xyz = drift_for("XYZ");
  EXPECT_LT(xyz, 0.01);  // file units (no Length Units: read as metres)
  for (const char* other : {"XZY", "YXZ", "YZX", "ZXY", "ZYX"}) {
    EXPECT_GT(drift_for(other), 3.0 * xyz) << other;
  }
}

// Chunk boundaries fall everywhere, including inside CRLF pairs, quoted IDs and numbers.
TEST(MotiveCsvReaderFixtures, ChunkSizeDoesNotChangeTheTake) {
  for (const char* name : {kFixture122, kFixture123}) {
    const auto path = motive_fixture(name);
    CLOTHFIT_REQUIRE_FIXTURE(path);
    const Take reference = read_motive_csv(path);
    for (std::size_t chunk : {64, 97, 1000, 4093}) {
      MotiveCsvReadOptions options;
      options.chunk_bytes = chunk;
      SCOPED_TRACE(std::string(name) + " chunk " + std::to_string(chunk));
      expect_same_takes(reference, read_motive_csv(path, options));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Small files: one feature each.

TEST(MotiveCsvReader, ReadsMarkersInMetresWithZUp) {
  const Take take = read_csv_text(small_csv());
  EXPECT_EQ(take.info().source, "test.csv");
  ASSERT_EQ(take.marker_count(), 2u);
  ASSERT_EQ(take.frame_count(), 3u);
  EXPECT_EQ(take.marker(0).name, "A");
  EXPECT_EQ(take.marker(1).id, "2");
  // File (x, y, z) y up -> simulator (x, -z, y).
  EXPECT_EQ(take.position(0, 0), Eigen::Vector3d(1, -3, 2));
  EXPECT_EQ(take.position(1, 0), Eigen::Vector3d(1.5, -3.5, 2.5));
  EXPECT_EQ(take.position(2, 1), Eigen::Vector3d(7, -9, 8));
  EXPECT_FALSE(take.visible(1, 1));
  EXPECT_TRUE(take.visible(2, 1));
  EXPECT_NEAR(take.time_s(2), 0.02, 1e-15);
  EXPECT_EQ(take.info().frame_rate_source, "Export Frame Rate");
}

TEST(MotiveCsvReader, ZUpFilesAreTakenAsTheyAre) {
  MotiveCsvReadOptions options;
  options.file_up_axis = UpAxis::kZ;
  const Take take = read_csv_text(small_csv(), options);
  EXPECT_EQ(take.position(0, 0), Eigen::Vector3d(1, 2, 3));
  EXPECT_EQ(take.info().file_up_axis, UpAxis::kZ);
}

TEST(MotiveCsvReader, LengthUnitsScaleToMetres) {
  const struct {
    const char* field;
    double scale;
  } cases[] = {{"Meters", 1.0}, {"Centimeters", 0.01}, {"Millimeters", 0.001}};
  for (const auto& c : cases) {
    std::string text = small_csv();
    text.replace(text.find("Meters"), 6, c.field);
    const Take take = read_csv_text(text);
    EXPECT_NEAR(take.position(2, 1).x(), 7.0 * c.scale, 1e-15) << c.field;
    EXPECT_NEAR(take.position(2, 1).z(), 8.0 * c.scale, 1e-15) << c.field;
  }
  // No Length Units field: metres, or the unit the caller says.
  std::string text = small_csv();
  text.replace(text.find(",Length Units,Meters"), 20, "");
  EXPECT_EQ(read_csv_text(text).position(0, 0).z(), 2.0);
  MotiveCsvReadOptions options;
  options.length_unit_if_absent = LengthUnit::kMillimeters;
  EXPECT_NEAR(read_csv_text(text, options).position(0, 0).z(), 0.002, 1e-15);
}

TEST(MotiveCsvReader, CrlfByteOrderMarkAndTrailingCommasChangeNothing) {
  const Take reference = read_csv_text(small_csv());
  std::string crlf;
  for (char c : small_csv()) {
    if (c == '\n') {
      crlf += ",,\r\n";  // trailing commas on every line too
    } else {
      crlf += c;
    }
  }
  expect_same_takes(reference, read_csv_text("\xEF\xBB\xBF" + crlf));
}

TEST(MotiveCsvReader, LastLineWithoutLineBreakIsFine) {
  std::string text = small_csv();
  text.pop_back();
  expect_same_takes(read_csv_text(small_csv()), read_csv_text(text));
}

TEST(MotiveCsvReader, AssetRowsWithoutLabelsAndWithParentRow) {
  const std::string data =
      "Frame,Time (Seconds),X,Y,Z,X,Y,Z\n"
      "0,0.00,1,2,3,4,5,6\n"
      "1,0.01,1.5,2.5,3.5,,,\n"
      "2,0.02,2,3,4,7,8,9\n";
  const std::string header = "Format Version,1.22,Export Frame Rate,100\n,,,,,,,\n";
  const Take reference = read_csv_text(small_csv());
  // 1.22 style: no labels.
  expect_same_takes(reference, read_csv_text(header +
                                             ",,Marker,Marker,Marker,Marker,Marker,Marker\n"
                                             ",,A,A,A,B,B,B\n"
                                             ",,1,1,1,2,2,2\n"
                                             ",,Position,Position,Position,Position,Position,"
                                             "Position\n" +
                                             data));
  // Unlabelled with a Parent row.
  const Take with_parent = read_csv_text(header +
                                         ",,Marker,Marker,Marker,Marker,Marker,Marker\n"
                                         ",,A,A,A,B,B,B\n"
                                         ",,1,1,1,2,2,2\n"
                                         ",,P,P,P,Q,Q,Q\n"
                                         ",,Position,Position,Position,Position,Position,"
                                         "Position\n" +
                                         data);
  expect_same_takes(reference, with_parent);
  EXPECT_EQ(with_parent.info().assets[1].parent, "Q");
  // Labelled, with a Parent row and no ID row.
  const Take labelled = read_csv_text(header +
                                      ",Type,Marker,Marker,Marker,Marker,Marker,Marker\n"
                                      ",Name,A,A,A,B,B,B\n"
                                      ",Parent,P,P,P,Q,Q,Q\n"
                                      ",,Position,Position,Position,Position,Position,Position\n" +
                                      data);
  expect_same_takes(reference, labelled);
  EXPECT_EQ(labelled.info().assets[0].parent, "P");
  EXPECT_EQ(labelled.marker(0).id, "");
}

TEST(MotiveCsvReader, OlderAxisRowAndTimeCodeColumn) {
  const Take reference = read_csv_text(small_csv());
  std::string older = small_csv();
  older.replace(older.find("Time (Seconds)"), 14, "Time");
  expect_same_takes(reference, read_csv_text(older));

  const std::string timecode =
      "Format Version,1.24,Export Frame Rate,100\n"
      "\n"
      ",Type,,Marker,Marker,Marker,Marker,Marker,Marker\n"
      ",Name,,A,A,A,B,B,B\n"
      ",ID,,1,1,1,2,2,2\n"
      ",,,Position,Position,Position,Position,Position,Position\n"
      "Frame,Time (Seconds),TimeCode,X,Y,Z,X,Y,Z\n"
      "0,0.00,00:00:00:00.0,1,2,3,4,5,6\n"
      "1,0.01,00:00:00:00.1,1.5,2.5,3.5,,,\n"
      "2,0.02,00:00:00:00.2,2,3,4,7,8,9\n";
  const Take with_timecode = read_csv_text(timecode);
  expect_same_takes(reference, with_timecode);
  EXPECT_EQ(with_timecode.info().assets[0].first_column, 4);
}

TEST(MotiveCsvReader, CrlfInsideAQuotedNote) {
  std::string text = small_csv();
  text.replace(text.find("Take Name,small"), 15, "Take Notes,\"line 1\r\nline 2\"");
  const Take take = read_csv_text(text);
  EXPECT_EQ(take.info().header.take_notes, "line 1\r\nline 2");
}

TEST(MotiveCsvReader, QuotedCellsAndNotesWithLineBreaks) {
  const Take take = read_csv_text(
      "Format Version,1.23,Take Name,\"cloth, take \"\"3\"\"\",Take Notes,\"first line\n"
      "second line\",Export Frame Rate,\"100\"\n"
      "\n"
      ",Type,Marker,Marker,Marker\n"
      ",Name,\"A, left\",\"A, left\",\"A, left\"\n"
      ",ID,\"1\",\"1\",\"1\"\n"
      ",,Position,Position,Position\n"
      "Frame,Time (Seconds),X,Y,Z\n"
      "\"0\",\"0.0\",\"1.5\",2,\" 3 \"\n"
      "1,0.01,,,\n");
  EXPECT_EQ(take.info().header.take_name, "cloth, take \"3\"");
  EXPECT_EQ(take.info().header.take_notes, "first line\nsecond line");
  EXPECT_EQ(take.marker(0).name, "A, left");
  EXPECT_EQ(take.position(0, 0), Eigen::Vector3d(1.5, -3, 2));
  EXPECT_FALSE(take.visible(1, 0));
}

// Motive writes a take's name and notes without quoting a comma in them; the keys after them
// still pair with their own values (Length Units was lost, and millimetres read as metres).
TEST(MotiveCsvReader, UnquotedCommasInTheTakeNameAndNotes) {
  std::string text = small_csv();
  text.replace(text.find("Take Name,small"), 15, "Take Name,cloth, low,Take Notes,a, b, c");
  text.replace(text.find("Length Units,Meters"), 19, "Length Units,Millimeters");
  const Take take = read_csv_text(text);
  EXPECT_EQ(take.info().header.take_name, "cloth, low");
  EXPECT_EQ(take.info().header.take_notes, "a, b, c");
  EXPECT_EQ(take.info().header.export_frame_rate_hz, 100.0);
  EXPECT_EQ(take.info().header.total_exported_frames, 3);
  EXPECT_FALSE(take.info().file_length_unit_assumed);
  EXPECT_NEAR(take.position(0, 0).z(), 0.002, 1e-15);
  // Notes with a comma at the end of the row.
  text = small_csv();
  text.replace(text.find("Length Units,Meters"), 19, "Length Units,Meters,Take Notes,x, y");
  EXPECT_EQ(read_csv_text(text).info().header.take_notes, "x, y");
}

TEST(MotiveCsvReader, LeadingCommaBeforeTheHeaderKeys) {
  std::string text = small_csv();
  text.insert(0, 1, ',');
  text.replace(text.find("Length Units,Meters"), 19, "Length Units,Centimeters");
  const Take take = read_csv_text(text);
  EXPECT_EQ(take.info().header.format_version, "1.23");
  EXPECT_EQ(take.info().header.take_name, "small");
  EXPECT_NEAR(take.position(0, 0).z(), 0.02, 1e-15);
}

TEST(MotiveCsvReader, RowsShorterThanTheHeaderHaveEmptyCells) {
  const Take take = read_csv_text(
      "Format Version,1.23,Export Frame Rate,100\n\n"
      ",Type,Marker,Marker,Marker,Marker,Marker,Marker\n"
      ",Name,A,A,A,B,B,B\n"
      ",,Position,Position,Position,Position,Position,Position\n"
      "Frame,Time (Seconds),X,Y,Z,X,Y,Z\n"
      "0,0.00,1,2,3\n"
      "1,0.01\n"
      "2,0.02,1,2,3,4,5,6\n");
  EXPECT_FALSE(take.visible(0, 1));
  EXPECT_FALSE(take.visible(1, 0));
  EXPECT_TRUE(take.visible(2, 1));
}

TEST(MotiveCsvReader, QualityColumnsAndUnknownAssetsAreSkipped) {
  const Take take = read_csv_text(
      "Format Version,1.23,Export Frame Rate,100,Some Future Key,whatever\n\n"
      ",Type,Rigid Body Marker,Rigid Body Marker,Rigid Body Marker,Rigid Body Marker,Bone,Bone,"
      "Marker,Marker,Marker\n"
      ",Name,R:M1,R:M1,R:M1,R:M1,Hip,Hip,A,A,A\n"
      ",,Position,Position,Position,Marker Quality,Position,Mean Marker Error,Position,Position,"
      "Position\n"
      "Frame,Time (Seconds),X,Y,Z,,X,,X,Y,Z\n"
      "0,0,1,2,3,0.9,not a number,?,4,5,6\n"
      "1,0.01,1,2,3,,,,4,5,6\n");
  ASSERT_EQ(take.marker_count(), 2u);
  EXPECT_EQ(take.marker(0).kind, MarkerKind::kRigidBodyMarker);
  EXPECT_EQ(take.marker(1).name, "A");
  EXPECT_EQ(take.position(0, 1), Eigen::Vector3d(4, -6, 5));
  ASSERT_EQ(take.info().assets.size(), 3u);
  EXPECT_FALSE(take.info().assets[1].read);
  EXPECT_EQ(take.info().assets[1].type, "Bone");
  const auto& fields = take.info().header.fields;
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[2].first, "Some Future Key");
  EXPECT_EQ(fields[2].second, "whatever");
}

TEST(MotiveCsvReader, RigidBodyQuaternionIsTurnedIntoTheSimulatorFrame) {
  // File rotation: 90° about the file's y (up) axis; in the simulator that is 90° about z.
  const double h = std::sqrt(0.5);
  std::ostringstream text;
  text << "Format Version,1.23,Export Frame Rate,100,Rotation Type,Quaternion,Length Units,"
          "Centimeters\n\n"
          ",Type,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,"
          "Rigid Body\n"
          ",Name,S,S,S,S,S,S,S,S\n"
          ",,Rotation,Rotation,Rotation,Rotation,Position,Position,Position,Mean Marker Error\n"
          "Frame,Time (Seconds),X,Y,Z,W,X,Y,Z,\n"
       << "0,0,0," << h << ",0," << h << ",10,20,30,0.01\n"
       << "1,0.01,,,,,,,,\n";
  const Take take = read_csv_text(text.str());
  ASSERT_EQ(take.rigid_bodies().size(), 1u);
  const RigidBodyTrack& body = take.rigid_bodies()[0];
  EXPECT_EQ(body.file_rotation_type, "Quaternion");
  EXPECT_TRUE(body.position(0).isApprox(Eigen::Vector3d(0.1, -0.3, 0.2), 1e-12));
  const Eigen::Matrix3d expected =
      Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  EXPECT_TRUE(body.orientation(0).toRotationMatrix().isApprox(expected, 1e-5));
  EXPECT_FALSE(body.tracked(1));
  EXPECT_TRUE(std::isnan(body.orientation_xyzw[4]));
}

TEST(MotiveCsvReader, RigidBodyEulerAnglesFollowTheRotationType) {
  auto read = [](const char* rotation_type, const char* angles) {
    return read_csv_text(std::string("Format Version,1.22,Export Frame Rate,60") +
                         (rotation_type ? std::string(",Rotation Type,") + rotation_type : "") +
                         "\n\n"
                         ",,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body\n"
                         ",,B,B,B,B,B,B\n"
                         ",,Rotation,Rotation,Rotation,Position,Position,Position\n"
                         "Frame,Time,X,Y,Z,X,Y,Z\n"
                         "0,0," +
                         angles + ",0,0,0\n");
  };
  const Eigen::Vector3d angles(10, 20, 30);
  // No Rotation Type: XYZ. File frame R = Rx Ry Rz; simulator frame C R Cᵀ.
  const Eigen::Matrix3d c = file_to_simulator_rotation(UpAxis::kY);
  for (const char* order : {static_cast<const char*>(nullptr), "XYZ", "ZYX", "YZX"}) {
    const Take take = read(order, "10,20,30");
    const EulerOrder euler = *parse_euler_order(order ? order : "XYZ");
    const Eigen::Matrix3d file_r = quaternion_from_euler_degrees(angles, euler).toRotationMatrix();
    EXPECT_TRUE(take.rigid_bodies()[0].orientation(0).toRotationMatrix().isApprox(
        c * file_r * c.transpose(), 1e-12))
        << (order ? order : "(none)");
  }
  EXPECT_EQ(read("ZYX", "1,2,3").rigid_bodies()[0].file_rotation_type, "ZYX");
}

TEST(MotiveCsvReader, FrameNumbersGiveTheTime) {
  std::string text = small_csv();
  for (const char* from_to : {"0,0.00|16,0.16", "1,0.01|17,0.17", "2,0.02|18,0.18"}) {
    const std::string s(from_to);
    const std::string from = s.substr(0, s.find('|'));
    text.replace(text.find("\n" + from) + 1, from.size(), s.substr(s.find('|') + 1));
  }
  const Take take = read_csv_text(text);
  EXPECT_EQ(take.first_frame_number(), 16);
  EXPECT_EQ(take.frame_number(2), 18);
  EXPECT_NEAR(take.time_s(0), 0.16, 1e-15);
}

TEST(MotiveCsvReader, FrameRateFallsBackToCaptureRateThenTimeColumn) {
  std::string capture = small_csv();
  capture.replace(capture.find("Export Frame Rate,100"), 21, "Capture Frame Rate,100");
  const Take from_capture = read_csv_text(capture);
  EXPECT_EQ(from_capture.frame_rate_hz(), 100.0);
  EXPECT_EQ(from_capture.info().frame_rate_source, "Capture Frame Rate");

  std::string none = small_csv();
  none.replace(none.find("Export Frame Rate,100,"), 22, "");
  const Take from_times = read_csv_text(none);
  EXPECT_NEAR(from_times.frame_rate_hz(), 100.0, 1e-9);
  EXPECT_EQ(from_times.info().frame_rate_source, "Time column");
}

TEST(MotiveCsvReader, BlankLinesAmongTheDataAreIgnored) {
  std::string text = small_csv();
  text.replace(text.find("1,0.01"), 0, "\n,,,,\n");
  text += "\n\n";
  expect_same_takes(read_csv_text(small_csv()), read_csv_text(text));
}

TEST(MotiveCsvReader, FileWithoutKeyValueRow) {
  std::string text = small_csv();
  text.erase(0, text.find('\n') + 1);
  const Take take = read_csv_text(text);
  EXPECT_TRUE(take.info().header.format_version.empty());
  EXPECT_EQ(take.frame_count(), 3u);
}

TEST(MotiveCsvReader, ReadsFromAPath) {
  const auto path = std::filesystem::temp_directory_path() / "clothfit_reader_path_test.csv";
  {
    std::ofstream out(path, std::ios::binary);
    out << small_csv();
  }
  const Take take = read_motive_csv(path);
  std::filesystem::remove(path);
  EXPECT_EQ(take.info().source, path.string());
  expect_same_takes(read_csv_text(small_csv()), take);
}

}  // namespace
}  // namespace clothfit::mocap
