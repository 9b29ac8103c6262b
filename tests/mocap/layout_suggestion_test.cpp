// suggest_layout on synthetic marker grids: lying flat and turned in the plane, hanging, bent,
// transposed, and cases that are not grids.
#include "mocap/layout_suggestion.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "mocap/mocap_input_error.hpp"
#include "tests/mocap/motive_csv_test_support.hpp"

namespace clothfit::mocap {
namespace {

using testing::make_take;

// A take whose frame 0 holds the markers at `points`, named by their grid cell "r{i}c{j}" as
// given by `cell_names`, listed in a scrambled order so that sorting has work to do.
Take grid_take(const std::vector<Eigen::Vector3d>& points, const std::vector<std::string>& names) {
  std::vector<std::size_t> order(points.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = (i * 7 + 3) % order.size();
  std::vector<std::string> scrambled;
  for (std::size_t i : order)
    scrambled.push_back(names[i]);
  return make_take(2, scrambled, [&](std::size_t f, std::size_t m) {
    return std::optional<Eigen::Vector3d>(points[order[m]] + Eigen::Vector3d(0, 0, 0.01 * f));
  });
}

// Points of an r × c grid in the plane spanned by `along_row` (column direction) and `down`
// (from one row to the next), spacing dc and dr, centred at `origin`; names "r{i}c{j}".
struct Grid {
  std::vector<Eigen::Vector3d> points;
  std::vector<std::string> names;
  std::vector<std::string> expected;  // row-major names
};
Grid make_grid(int rows, int columns, const Eigen::Vector3d& origin,
               const Eigen::Vector3d& along_row, const Eigen::Vector3d& down, double dc,
               double dr) {
  Grid g;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      g.points.push_back(origin + j * dc * along_row + i * dr * down);
      std::string name = "r";
      name += std::to_string(i);
      name += 'c';
      name += std::to_string(j);
      g.names.push_back(name);
    }
  }
  g.expected = g.names;
  return g;
}

MocapInputError suggestion_error(const Take& take, int rows, int columns) {
  try {
    suggest_layout(take, rows, columns);
  } catch (const MocapInputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an error";
  return MocapInputError({}, "");
}

TEST(LayoutSuggestion, SheetHangingInTheXzPlane) {
  // 4 × 5 markers, rows 0.1 m apart going down, columns 0.125 m apart along +x.
  const Grid g = make_grid(4, 5, Eigen::Vector3d(0.2, 1.0, 1.5), Eigen::Vector3d::UnitX(),
                           -Eigen::Vector3d::UnitZ(), 0.125, 0.1);
  const MarkerLayout layout = suggest_layout(grid_take(g.points, g.names), 4, 5);
  EXPECT_EQ(layout.rows, 4);
  EXPECT_EQ(layout.columns, 5);
  EXPECT_EQ(layout.names, g.expected);
}

TEST(LayoutSuggestion, HangingSheetThatSagsAndTilts) {
  // Rows sag in the middle by up to 3 cm and the sheet leans 20° out of the vertical and is
  // turned 10° in its plane.
  Grid g = make_grid(4, 5, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitX(),
                     -Eigen::Vector3d::UnitZ(), 0.125, 0.1);
  const Eigen::Matrix3d lean =
      (Eigen::AngleAxisd(20 * std::numbers::pi / 180, Eigen::Vector3d::UnitX()) *
       Eigen::AngleAxisd(10 * std::numbers::pi / 180, Eigen::Vector3d::UnitY()))
          .toRotationMatrix();
  for (std::size_t k = 0; k < g.points.size(); ++k) {
    const double u = g.points[k].x() / 0.5;  // 0..1 along the row
    g.points[k].z() -= 0.03 * std::sin(std::numbers::pi * u);
    g.points[k] = lean * g.points[k] + Eigen::Vector3d(1, 2, 1.2);
  }
  EXPECT_EQ(suggest_layout(grid_take(g.points, g.names), 4, 5).names, g.expected);
}

TEST(LayoutSuggestion, SheetLyingFlatAndTurnedInThePlane) {
  // On a table (z = 0.75), turned by 30°: rows follow each other towards -y', columns along +x'.
  const double a = 30 * std::numbers::pi / 180;
  const Eigen::Vector3d x1(std::cos(a), std::sin(a), 0);
  const Eigen::Vector3d y1(-std::sin(a), std::cos(a), 0);
  const Grid g = make_grid(3, 4, Eigen::Vector3d(0, 0, 0.75), x1, -y1, 0.1, 0.15);
  EXPECT_EQ(suggest_layout(grid_take(g.points, g.names), 3, 4).names, g.expected);
}

TEST(LayoutSuggestion, SquareGridTurnedInThePlane) {
  // A full rectangular grid's principal axes are its grid lines, unless its spread is the same
  // both ways: then they can point anywhere in the plane and the grid directions come from the
  // nearest-neighbour angles alone. A 5 × 5 grid 10 cm apart, lying turned by several angles.
  for (const double degrees : {10.0, 25.0, 40.0, -20.0, -35.0}) {
    const double a = degrees * std::numbers::pi / 180;
    const Eigen::Vector3d x1(std::cos(a), std::sin(a), 0);
    const Eigen::Vector3d y1(-std::sin(a), std::cos(a), 0);
    const Grid g = make_grid(5, 5, Eigen::Vector3d(0.2, -0.1, 0.75), x1, -y1, 0.1, 0.1);
    EXPECT_EQ(suggest_layout(grid_take(g.points, g.names), 5, 5).names, g.expected) << degrees;
  }
}

TEST(LayoutSuggestion, LyingSheetWithItsRowsAlongY) {
  // The 3 × 4 grid lies with its 4-marker rows along y: the transposed reading is used, row 0
  // at the largest x, column 0 at the smallest y.
  const Grid g = make_grid(3, 4, Eigen::Vector3d(0.3, 0, 0), Eigen::Vector3d::UnitY(),
                           -Eigen::Vector3d::UnitX(), 0.1, 0.15);
  EXPECT_EQ(suggest_layout(grid_take(g.points, g.names), 3, 4).names, g.expected);
}

TEST(LayoutSuggestion, HangingSheetAskedTransposed) {
  const Grid g = make_grid(4, 5, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitX(),
                           -Eigen::Vector3d::UnitZ(), 0.125, 0.1);
  const MocapInputError e = suggestion_error(grid_take(g.points, g.names), 5, 4);
  EXPECT_NE(e.problem().find("ask for 4x5"), std::string::npos) << e.what();
  EXPECT_EQ(e.location().field, "suggest-layout");
}

TEST(LayoutSuggestion, WrongMarkerCount) {
  const Grid g = make_grid(2, 3, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitX(),
                           -Eigen::Vector3d::UnitZ(), 0.1, 0.1);
  const MocapInputError e = suggestion_error(grid_take(g.points, g.names), 2, 4);
  EXPECT_NE(e.problem().find("frame 0 has 6 visible markers"), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("a 2 x 4 grid needs 8"), std::string::npos) << e.what();
}

TEST(LayoutSuggestion, MarkersThatAreNotAGrid) {
  // Six markers hanging as a row of 4 above a row of 2: flat, but no 2 x 3 grid; the same lying
  // on the floor.
  const std::vector<Eigen::Vector3d> hanging{{0, 0, 1},   {0.1, 0, 1},    {0.2, 0, 1},
                                             {0.3, 0, 1}, {0.05, 0, 0.9}, {0.25, 0, 0.9}};
  std::vector<Eigen::Vector3d> lying;  // (x, z) -> (x, y) on the floor
  for (const Eigen::Vector3d& p : hanging)
    lying.emplace_back(p.x(), p.z(), 0.0);
  const std::vector<Eigen::Vector3d>* cases[] = {&hanging, &lying};
  for (const std::vector<Eigen::Vector3d>* points : cases) {
    const MocapInputError e =
        suggestion_error(grid_take(*points, {"a", "b", "c", "d", "e", "f"}), 2, 3);
    EXPECT_NE(e.problem().find("do not form a 2 x 3 grid"), std::string::npos) << e.what();
  }
  // Not flat: the corners of a regular tetrahedron.
  const std::vector<Eigen::Vector3d> cloud{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  const MocapInputError e2 = suggestion_error(grid_take(cloud, {"a", "b", "c", "d"}), 2, 2);
  EXPECT_NE(e2.problem().find("do not lie roughly in a plane"), std::string::npos) << e2.what();
  // Four markers at one point (values whose mean is exact, so that their spread is exactly 0).
  const std::vector<Eigen::Vector3d> point(4, Eigen::Vector3d(1.0, 2.0, 0.5));
  const MocapInputError e3 = suggestion_error(grid_take(point, {"a", "b", "c", "d"}), 2, 2);
  EXPECT_NE(e3.problem().find("the markers all sit at one point"), std::string::npos) << e3.what();
}

TEST(LayoutSuggestion, OneLineOfMarkers) {
  const Grid g = make_grid(4, 1, Eigen::Vector3d(0, 0, 2), Eigen::Vector3d::UnitX(),
                           -Eigen::Vector3d::UnitZ(), 0.1, 0.2);
  EXPECT_EQ(suggest_layout(grid_take(g.points, g.names), 4, 1).names, g.expected);
  const Grid h = make_grid(1, 3, Eigen::Vector3d(0, 0, 0), Eigen::Vector3d::UnitX(),
                           -Eigen::Vector3d::UnitY(), 0.1, 0.2);
  EXPECT_EQ(suggest_layout(grid_take(h.points, h.names), 1, 3).names, h.expected);
}

TEST(LayoutSuggestion, LeavesOutRigidBodyMarkersAndMissingOnes) {
  const auto path = testing::motive_fixture(testing::kFixture123);
  CLOTHFIT_REQUIRE_FIXTURE(path);
  // The 1.23 export has only a rigid body's markers: nothing is left for a grid.
  const MocapInputError e = suggestion_error(read_motive_csv(path), 2, 2);
  EXPECT_NE(e.problem().find("has 0 visible markers (not counting rigid-body markers)"),
            std::string::npos)
      << e.what();
}

}  // namespace
}  // namespace clothfit::mocap
