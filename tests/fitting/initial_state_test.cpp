// The initial state from markers: bilinear interpolation is exact for an affine sheet, and the
// projection restores inextensibility of a stretched sheet.
#include "fitting/initial_state.hpp"

#include <gtest/gtest.h>

#include "core/constraints/inextensibility_constraints.hpp"
#include "core/mesh/quad_mesh.hpp"

namespace clothfit::fitting {
namespace {

TEST(InterpolateMarkerGrid, ReproducesAnAffinelyPlacedSheet) {
  // 3 × 4 markers, refinement 2: a 5 × 7 mesh. Markers on a tilted plane.
  const int rows = 3, columns = 4, k = 2;
  auto place = [](double u, double v) {
    return Eigen::Vector3d(0.3 * v + 0.1, 0.05 * u, 1.0 - 0.2 * u + 0.01 * v);
  };
  Eigen::MatrixX3d markers(rows * columns, 3);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j)
      markers.row(i * columns + j) = place(i, j).transpose();
  }
  const Eigen::VectorXd phi = interpolate_marker_grid(markers, rows, columns, k);
  ASSERT_EQ(phi.size(), 3 * 5 * 7);
  for (int r = 0; r < 5; ++r) {
    for (int c = 0; c < 7; ++c) {
      EXPECT_LT((phi.segment<3>(3 * (r * 7 + c)) - place(r / 2.0, c / 2.0)).norm(), 1e-14);
    }
  }
}

TEST(ProjectOntoConstraints, RestoresInextensibilityOfAStretchedSheetNearTheGuess) {
  stepper::SimulationModel model;
  model.mesh = mesh::make_grid_mesh(0.4, 0.5, 5, 6);
  Eigen::VectorXd guess = model.mesh.rest_positions;
  for (Eigen::Index i = 0; i < guess.size(); i += 3) {
    guess[i] *= 1.03;  // 3 % too wide, and bent
    guess[i + 2] = 0.05 * std::sin(10.0 * guess[i + 1]);
  }
  const ProjectionResult p = project_onto_constraints(model, guess);
  ASSERT_TRUE(p.converged) << p.message;
  const constraints::InextensibilityConstraints constraints(model.mesh);
  EXPECT_LT(constraints.max_violation(p.positions), 2e-6);
  EXPECT_LT(p.moved_m, 0.03);  // the M-closest inextensible sheet stays close to the guess
  EXPECT_GT(p.moved_m, 0.001);
}

}  // namespace
}  // namespace clothfit::fitting
