// Sticks from two end markers or from a rigid body's markers.
#include "mocap/stick.hpp"

#include <gtest/gtest.h>

#include <set>

#include "mocap/mocap_input_error.hpp"
#include "tests/mocap/motive_csv_test_support.hpp"

namespace clothfit::mocap {
namespace {

using testing::make_take;
using testing::motive_fixture;

TEST(Stick, FromTwoMarkersWithGapsFilled) {
  // A 0.6 m stick translating along x; end "tip" is missing at frame 2.
  const Take take = make_take(5, {"grip", "tip", "middle"}, [](std::size_t f, std::size_t m) {
    if (m == 1 && f == 2)
      return std::optional<Eigen::Vector3d>();
    const double x = 0.1 * static_cast<double>(f);
    const double offsets[3] = {0.0, 0.6, 0.3};
    return std::optional<Eigen::Vector3d>(Eigen::Vector3d(x, offsets[m], 1.0));
  });
  const StickTrack stick = stick_from_markers(take, "grip", "tip");
  EXPECT_EQ(stick.end0_marker, "grip");
  EXPECT_EQ(stick.end1_marker, "tip");
  ASSERT_EQ(stick.frame_count, 5u);
  const StickSegment s2 = stick.segment(2);
  EXPECT_TRUE(s2.end0_m.isApprox(Eigen::Vector3d(0.2, 0.0, 1.0), 1e-15));
  EXPECT_TRUE(s2.end1_m.isApprox(Eigen::Vector3d(0.2, 0.6, 1.0), 1e-15));  // interpolated
  EXPECT_NEAR(stick.mean_length_m, 0.6, 1e-15);
  EXPECT_NEAR(stick.max_length_deviation_m, 0.0, 1e-15);
  EXPECT_THROW(stick_from_markers(take, "grip", "grip"), MocapInputError);
  EXPECT_THROW(stick_from_markers(take, "grip", "nothing"), MocapInputError);
}

TEST(Stick, FromARigidBodyOfTwoMarkersButNotOne) {
  // Two markers named "wand:..." (exported as plain markers) are the least a stick needs; a body
  // with one gets an error that names it and says how many it has. The wand's markers are
  // 0.40, 0.41 and 0.39 m apart in its three frames: its length deviates by up to 0.01 m.
  const Take take =
      make_take(3, {"wand:Marker1", "wand:Marker2", "lamp:Marker1", "other"},
                [](std::size_t f, std::size_t m) {
                  const double stretch[3] = {0.40, 0.41, 0.39};
                  return std::optional<Eigen::Vector3d>(Eigen::Vector3d(
                      0.1 * static_cast<double>(f), stretch[f] * static_cast<double>(m), 1.0));
                });
  const StickTrack stick = stick_from_rigid_body(take, "wand");
  EXPECT_EQ(std::set<std::string>({stick.end0_marker, stick.end1_marker}),
            std::set<std::string>({"wand:Marker1", "wand:Marker2"}));
  EXPECT_NEAR(stick.mean_length_m, 0.4, 1e-12);
  EXPECT_NEAR(stick.max_length_deviation_m, 0.01, 1e-12);
  try {
    stick_from_rigid_body(take, "lamp");
    ADD_FAILURE() << "expected an error";
  } catch (const MocapInputError& e) {
    EXPECT_EQ(e.location().field, "rigid body 'lamp'");
    EXPECT_NE(e.problem().find("the take has 1"), std::string::npos) << e.what();
  }
}

TEST(Stick, FromARigidBodyUsesItsFarthestMarkers) {
  const auto path = motive_fixture(testing::kFixture123);
  CLOTHFIT_REQUIRE_FIXTURE(path);
  const Take take = read_motive_csv(path);
  const StickTrack stick = stick_from_rigid_body(take, "ernesto_body");
  // Its solved `Rigid Body Marker` positions are used; the farthest pair at frame 0 is
  // Marker4 (3.644656, 0.032053, -2.070143) and Marker1 (3.833308, 0.032543, -2.237125) or
  // Marker2 — whichever is farther on average; check it against a brute-force search.
  double best = 0.0;
  for (std::size_t i = 0; i < take.marker_count(); ++i) {
    for (std::size_t j = 0; j < take.marker_count(); ++j) {
      if (take.marker(i).kind != MarkerKind::kRigidBodyMarker ||
          take.marker(j).kind != MarkerKind::kRigidBodyMarker) {
        continue;
      }
      best = std::max(best, (take.position(0, i) - take.position(0, j)).norm());
    }
  }
  const StickSegment s0 = stick.segment(0);
  EXPECT_NEAR((s0.end1_m - s0.end0_m).norm(), best, 1e-9);
  // Frame 4 has no rigid-body data: filled, and the solved markers keep the length to ~µm.
  const StickSegment s4 = stick.segment(4);
  EXPECT_NEAR((s4.end1_m - s4.end0_m).norm(), stick.mean_length_m, 1e-5);
  EXPECT_LT(stick.max_length_deviation_m, 1e-5);

  try {
    stick_from_rigid_body(take, "nobody");
    ADD_FAILURE() << "expected an error";
  } catch (const MocapInputError& e) {
    EXPECT_EQ(e.location().field, "rigid body 'nobody'");
  }
}

TEST(Stick, FromRigidBodyMarkersExportedAsMarkers) {
  const auto path = motive_fixture(testing::kFixture122);
  CLOTHFIT_REQUIRE_FIXTURE(path);
  const Take take = read_motive_csv(path);
  // "RigidBody 02" has Marker2..Marker5 (a ~160 × 110 file-unit rectangle): the farthest pair
  // is a diagonal.
  const StickTrack stick = stick_from_rigid_body(take, "RigidBody 02");
  const std::set<std::string> ends{stick.end0_marker, stick.end1_marker};
  EXPECT_TRUE(ends == std::set<std::string>({"RigidBody 02:Marker2", "RigidBody 02:Marker3"}) ||
              ends == std::set<std::string>({"RigidBody 02:Marker4", "RigidBody 02:Marker5"}))
      << stick.end0_marker << " / " << stick.end1_marker;
  EXPECT_GT(stick.mean_length_m, 180.0);
}

}  // namespace
}  // namespace clothfit::mocap
