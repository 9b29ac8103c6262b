// Writer: write -> read gives the same take (NaN gaps included) to the printed precision, in every
// unit and up axis; the file looks like a Motive 1.23 export.
#include "mocap/motive_csv_writer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "tests/mocap/motive_csv_test_support.hpp"

namespace clothfit::mocap {
namespace {

using testing::make_take;
using testing::motive_fixture;
using testing::read_csv_text;

std::string written(const Take& take, const MotiveCsvWriteOptions& options = {}) {
  std::ostringstream out;
  write_motive_csv(take, out, options);
  return out.str();
}

// A take with markers of both kinds (sharing a name), gaps, a rigid body and awkward names.
Take awkward_take() {
  const std::size_t frames = 7;
  std::vector<MarkerInfo> markers{{"cloth, corner \"A\"", "", MarkerKind::kMarker},
                                  {"S:M1", "C3560", MarkerKind::kMarker},
                                  {"S:M1", "", MarkerKind::kRigidBodyMarker},
                                  {"Unlabeled 17", "", MarkerKind::kMarker}};
  std::vector<double> positions;
  for (std::size_t f = 0; f < frames; ++f) {
    for (std::size_t m = 0; m < markers.size(); ++m) {
      const bool missing = (m == 0 && (f == 0 || f == 3)) || (m == 3 && f >= 5);
      const double t = static_cast<double>(f);
      const Eigen::Vector3d p(0.123456789 * t - 1.5 * m, 2.0 - 0.01 * t * t, 0.333333333 * m);
      for (int a = 0; a < 3; ++a)
        positions.push_back(missing ? std::nan("") : p[a]);
    }
  }
  RigidBodyTrack body;
  body.name = "S";
  body.id = "DF9A";
  for (std::size_t f = 0; f < frames; ++f) {
    const bool tracked = f != 2;
    const Eigen::Quaterniond q(Eigen::AngleAxisd(0.1 * f, Eigen::Vector3d(1, 2, 3).normalized()));
    for (double v : {0.5, -0.25 * f, 1.75})
      body.position_m.push_back(tracked ? v : std::nan(""));
    for (double v : {q.x(), q.y(), q.z(), q.w()}) {
      body.orientation_xyzw.push_back(tracked ? v : std::nan(""));
    }
  }
  TakeInfo info;
  info.header.take_name = "synthetic, take";
  info.header.take_notes = "two\nlines";
  info.header.capture_frame_rate_hz = 240.0;
  return Take(info, 120.0, 16, frames, markers, positions, {body});
}

// Same markers, frames, gaps; positions within `tolerance_m`.
void expect_round_trip(const Take& original, const Take& back, double tolerance_m) {
  ASSERT_EQ(back.frame_count(), original.frame_count());
  ASSERT_EQ(back.marker_count(), original.marker_count());
  EXPECT_EQ(back.first_frame_number(), original.first_frame_number());
  EXPECT_DOUBLE_EQ(back.frame_rate_hz(), original.frame_rate_hz());
  for (std::size_t m = 0; m < original.marker_count(); ++m) {
    const MarkerInfo& info = original.marker(m);
    const auto i = back.find_marker(info.name, info.kind);
    ASSERT_TRUE(i.has_value()) << info.name;
    for (std::size_t f = 0; f < original.frame_count(); ++f) {
      ASSERT_EQ(back.visible(f, *i), original.visible(f, m)) << info.name << " frame " << f;
      if (original.visible(f, m)) {
        EXPECT_LE((back.position(f, *i) - original.position(f, m)).cwiseAbs().maxCoeff(),
                  tolerance_m)
            << info.name << " frame " << f;
      }
    }
  }
  ASSERT_EQ(back.rigid_bodies().size(), original.rigid_bodies().size());
  for (std::size_t r = 0; r < original.rigid_bodies().size(); ++r) {
    const RigidBodyTrack& a = original.rigid_bodies()[r];
    const RigidBodyTrack& b = back.rigid_bodies()[r];
    EXPECT_EQ(a.name, b.name);
    for (std::size_t f = 0; f < original.frame_count(); ++f) {
      ASSERT_EQ(a.tracked(f), b.tracked(f));
      if (!a.tracked(f))
        continue;
      EXPECT_LE((a.position(f) - b.position(f)).cwiseAbs().maxCoeff(), tolerance_m);
      EXPECT_LT(a.orientation(f).angularDistance(b.orientation(f)), 1e-5);
    }
  }
}

TEST(MotiveCsvWriter, RoundTripInEveryUnitAndUpAxis) {
  const Take take = awkward_take();
  for (LengthUnit unit :
       {LengthUnit::kMeters, LengthUnit::kCentimeters, LengthUnit::kMillimeters}) {
    for (UpAxis up : {UpAxis::kY, UpAxis::kZ}) {
      SCOPED_TRACE(std::string(motive_unit_name(unit)) + " " + std::string(up_axis_name(up)));
      MotiveCsvWriteOptions write;
      write.length_unit = unit;
      write.file_up_axis = up;
      MotiveCsvReadOptions read;
      read.file_up_axis = up;
      const Take back = read_csv_text(written(take, write), read);
      // Half a unit in the last printed digit (6 decimals of the file unit).
      expect_round_trip(take, back, 0.5e-6 * metres_per_unit(unit) * (1 + 1e-9));
      EXPECT_EQ(back.info().file_length_unit, unit);
      EXPECT_EQ(back.info().header.take_name, "synthetic, take");
      EXPECT_EQ(back.info().header.take_notes, "two\nlines");
      EXPECT_EQ(back.info().header.capture_frame_rate_hz, 240.0);
    }
  }
}

TEST(MotiveCsvWriter, DecimalsSetThePrecision) {
  const Take take = awkward_take();
  MotiveCsvWriteOptions write;
  write.decimals = 9;
  expect_round_trip(take, read_csv_text(written(take, write)), 0.5e-9 * (1 + 1e-6));
  write.decimals = 2;
  const Take coarse = read_csv_text(written(take, write));
  expect_round_trip(take, coarse, 0.005 * (1 + 1e-9));
  // The tolerance is not loose: 2 decimals do lose digits.
  EXPECT_GT((coarse.position(1, 1) - take.position(1, 1)).norm(), 1e-4);
}

TEST(MotiveCsvWriter, LooksLikeAMotiveExport) {
  MotiveCsvWriteOptions write;
  write.crlf_line_breaks = false;
  const Take take = make_take(2, {"A"}, [](std::size_t f, std::size_t) {
    return f == 0 ? std::optional<Eigen::Vector3d>(Eigen::Vector3d(1, 2, 3)) : std::nullopt;
  });
  EXPECT_EQ(written(take, write),
            "Format Version,1.23,Take Name,,Take Notes,,Capture Frame Rate,100,Export Frame Rate,"
            "100,Capture Start Time,,Total Frames in Take,2,Total Exported Frames,2,Rotation Type,"
            "Quaternion,Length Units,Meters,Coordinate Space,Global\n"
            "\n"
            ",Type,Marker,Marker,Marker\n"
            ",Name,A,A,A\n"
            ",ID,1,1,1\n"
            ",,Position,Position,Position\n"
            "Frame,Time (Seconds),X,Y,Z\n"
            "0,0.000000,1.000000,3.000000,-2.000000\n"  // z up (1, 2, 3) -> y up (1, 3, -2)
            "1,0.010000,,,\n");
  const std::string crlf = written(take);
  EXPECT_NE(crlf.find("Global\r\n\r\n,Type"), std::string::npos);
  EXPECT_EQ(crlf.substr(crlf.size() - 2), "\r\n");
}

TEST(MotiveCsvWriter, RealTakesSurviveARoundTrip) {
  for (const char* name : {testing::kFixture122, testing::kFixture123}) {
    const auto path = motive_fixture(name);
    CLOTHFIT_REQUIRE_FIXTURE(path);
    SCOPED_TRACE(name);
    const Take take = read_motive_csv(path);
    const Take back = read_csv_text(written(take));
    expect_round_trip(take, back, 0.5e-6 * (1 + 1e-9));
    // The files print 6 decimals already: the positions come back exactly as the file had them.
    for (std::size_t i = 0; i < take.positions_m().size(); ++i) {
      const double a = take.positions_m()[i];
      const double b = back.positions_m()[i];
      if (!std::isnan(a)) {
        ASSERT_NEAR(a, b, 1e-12) << i;
      }
    }
  }
}

TEST(MotiveCsvWriter, WritesFiles) {
  const auto path = std::filesystem::temp_directory_path() / "clothfit_writer_test.csv";
  const Take take = awkward_take();
  write_motive_csv(take, path);
  const Take back = read_motive_csv(path);
  std::filesystem::remove(path);
  expect_round_trip(take, back, 0.5e-6 * (1 + 1e-9));
  EXPECT_THROW(write_motive_csv(take, std::filesystem::temp_directory_path()), MocapInputError);
}

}  // namespace
}  // namespace clothfit::mocap
