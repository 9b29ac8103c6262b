// Grid meshes and the mesh validation every mesh goes through (finalize): counts, positions and
// areas of a grid against their closed forms, the limits of a grid, and each kind of invalid mesh
// refused with the quad it concerns.
#include "core/mesh/quad_mesh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "core/constraints/inextensibility_constraints.hpp"
#include "core/io/input_error.hpp"

namespace clothfit::mesh {
namespace {

// The problem finalize() reports for `mesh`, or "(valid)".
std::string finalize_problem(QuadMesh mesh) {
  try {
    finalize(mesh, "hand-made");
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, "hand-made");
    return e.problem();
  }
  return "(valid)";
}

// Two unit quads side by side in the z = 0 plane: nodes 0 1 2 along y = 0, 3 4 5 along y = 1.
QuadMesh strip() {
  QuadMesh mesh;
  mesh.rest_positions.resize(18);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 3; ++c)
      mesh.rest_positions.segment<3>(3 * (3 * r + c)) = Eigen::Vector3d(c, r, 0.0);
  }
  mesh.quads = {{0, 1, 4, 3}, {1, 2, 5, 4}};
  return mesh;
}

TEST(GridMesh, CountsPositionsAndAreasOfADinA2Sheet) {
  const double width = 0.42, height = 0.594;
  const QuadMesh mesh = make_grid_mesh(width, height, 7, 9);
  EXPECT_EQ(mesh.num_nodes(), 63);
  EXPECT_EQ(mesh.quads.size(), 48u);
  EXPECT_EQ(mesh.edges.size(), 6u * 9 + 8u * 7);        // along x, along y
  EXPECT_EQ(mesh.boundary_edges.size(), 2u * (6 + 8));  // the rectangle's perimeter
  EXPECT_EQ(std::count(mesh.is_boundary_node.begin(), mesh.is_boundary_node.end(), true),
            2 * (7 + 9) - 4);
  EXPECT_EQ(mesh.triangles.size(), 96u);
  EXPECT_EQ(mesh.grid_columns, 7);
  EXPECT_EQ(mesh.grid_rows, 9);
  // Node (row, column) sits at (column · width / 6, row · height / 8, 0).
  EXPECT_TRUE(mesh.rest_position(mesh.grid_node(8, 6)).isApprox(Eigen::Vector3d(width, height, 0)));
  EXPECT_TRUE(mesh.rest_position(mesh.grid_node(2, 3))
                  .isApprox(Eigen::Vector3d(3 * width / 6, 2 * height / 8, 0.0)));
  const std::vector<double> areas = quad_areas(mesh);
  for (double a : areas)
    EXPECT_NEAR(a, (width / 6) * (height / 8), 1e-15);
  EXPECT_NEAR(std::accumulate(areas.begin(), areas.end(), 0.0), width * height, 1e-14);
}

TEST(GridMesh, SizesOutsideItsLimitsAreRefused) {
  EXPECT_THROW(make_grid_mesh(0.0, 1.0, 7, 9), InputError);
  EXPECT_THROW(make_grid_mesh(1.0, -1.0, 7, 9), InputError);
  EXPECT_THROW(make_grid_mesh(1.0, 1.0, 1, 9), InputError);
  EXPECT_THROW(make_grid_mesh(1.0, 1.0, 1001, 1000), InputError);  // over kMaxGridNodes
  EXPECT_NO_THROW(make_grid_mesh(1.0, 1.0, 1000, 1000));
}

// grid_spacing_problem() says in advance what finalize() would refuse in make_grid_mesh(), so that
// a scenario reader can name its field; the two must agree on each side of both thresholds.
TEST(GridMesh, SpacingProblemAgreesWithTheValidation) {
  struct Case {
    double width, height;
    int nodes_x, nodes_y;
    std::string field;  // empty: valid
  };
  const Case cases[] = {
      {0.42, 0.594, 7, 9, ""},
      {1e-300, 0.594, 7, 9, "width"},
      {0.42, 1e-300, 7, 9, "height"},
      {6e-9 * 0.99, 1.0, 7, 2, "width"},  // edges just under 1e-9 m
      {6e-9 * 1.01, 1.0, 7, 2, ""},       // just over, quads of 1e-9 m²
      {0.99e-6, 1e-6, 2, 2, "width"},     // edges of a micrometre: quads under 1e-12 m²
      {1.01e-6, 1.01e-6, 2, 2, ""},
      // Areas that overflow (the larger spacing is named): 1e200 m / 6 × 0.125 m has a finite
      // product, but the cross product's norm squares it.
      {1e200, 1.0, 7, 9, "width"},
      {1.0, 1e200, 7, 9, "height"},
      {1e100, 1.0, 7, 9, ""},
      {1e155, 1e-151, 2, 2, "width"},  // an area of 1e4 m², but the width squared overflows
  };
  for (const Case& c : cases) {
    std::string field;
    const std::string problem =
        grid_spacing_problem(c.width, c.height, c.nodes_x, c.nodes_y, &field);
    SCOPED_TRACE(std::to_string(c.width) + " x " + std::to_string(c.height));
    if (c.field.empty()) {
      EXPECT_EQ(problem, "");
      EXPECT_NO_THROW(make_grid_mesh(c.width, c.height, c.nodes_x, c.nodes_y));
    } else {
      EXPECT_EQ(field, c.field);
      const bool overflow = std::max(c.width, c.height) > 1.0;
      EXPECT_NE(
          problem.find(overflow ? "too large for their edge lengths and area to be finite numbers"
                                : "edges must be longer than 1e-09 m"),
          std::string::npos)
          << problem;
      EXPECT_THROW(make_grid_mesh(c.width, c.height, c.nodes_x, c.nodes_y), InputError);
    }
  }
}

// A quad with no interior corner has nothing holding its shape: the metric constraints sit at
// interior nodes, and a mesh two nodes across has none (no metric row at all).
TEST(QuadMesh, QuadsWithoutAnInteriorCornerAreFound) {
  EXPECT_EQ(first_quad_without_interior_node(make_grid_mesh(0.6, 0.01, 50, 2)), 0);
  EXPECT_EQ(constraints::InextensibilityConstraints(make_grid_mesh(0.6, 0.01, 50, 2)).num_metric(),
            0);
  EXPECT_EQ(first_quad_without_interior_node(make_grid_mesh(0.3, 0.3, 2, 2)), 0);
  EXPECT_EQ(first_quad_without_interior_node(make_grid_mesh(0.3, 0.3, 3, 3)), -1);
  EXPECT_EQ(first_quad_without_interior_node(make_grid_mesh(0.42, 0.594, 7, 9)), -1);
  // A 3 × 3 grid with a one-quad arm on its right: the arm's quad (index 4) has only boundary
  // corners.
  QuadMesh arm = make_grid_mesh(0.2, 0.2, 3, 3);
  arm.rest_positions.conservativeResize(arm.rest_positions.size() + 6);
  arm.rest_positions.tail<6>() << 0.3, 0.0, 0.0, 0.3, 0.1, 0.0;
  arm.quads.push_back({2, 9, 10, 5});
  finalize(arm);
  EXPECT_EQ(first_quad_without_interior_node(arm), 4);
}

TEST(QuadMeshValidation, DerivesTheTopologyOfAValidMesh) {
  QuadMesh mesh = strip();
  finalize(mesh);
  EXPECT_EQ(mesh.edges.size(), 7u);
  EXPECT_EQ(mesh.boundary_edges.size(), 6u);  // all but the shared edge 1-4
  EXPECT_EQ(mesh.triangles.size(), 4u);
  EXPECT_TRUE(std::all_of(mesh.is_boundary_node.begin(), mesh.is_boundary_node.end(),
                          [](bool b) { return b; }));
}

TEST(QuadMeshValidation, EachKindOfInvalidMeshIsNamedWithItsQuad) {
  QuadMesh mesh = strip();
  mesh.quads[1] = {1, 2, 6, 4};
  EXPECT_EQ(finalize_problem(mesh), "quad 2: node index 7 is out of range 1..6");
  mesh = strip();
  mesh.quads[1] = {1, 2, 2, 4};
  EXPECT_EQ(finalize_problem(mesh), "quad 2: node 3 repeated");
  mesh = strip();
  mesh.rest_positions.segment<3>(3 * 2) = mesh.rest_position(1);  // node 3 onto node 2
  EXPECT_EQ(finalize_problem(mesh), "quad 2: degenerate (edge of zero length)");
  mesh = strip();
  mesh.rest_positions.segment<3>(3 * 5) = Eigen::Vector3d(1.5, 0.0, 0.0);  // quad 2 collinear
  mesh.rest_positions.segment<3>(3 * 4) = Eigen::Vector3d(1.25, 0.0, 0.0);
  mesh.quads = {{1, 2, 5, 4}};
  EXPECT_EQ(finalize_problem(mesh), "quad 1: degenerate (zero area)");
  mesh = strip();
  mesh.quads.push_back({1, 4, 3, 0});  // a third quad on edge 1-4 (and on 0-1, 3-4, 0-3)
  EXPECT_NE(finalize_problem(mesh).find("shared by 3 quads (non-manifold)"), std::string::npos);
  mesh = strip();
  mesh.rest_positions[4] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(finalize_problem(mesh), "mesh has a non-finite node position");
  mesh = strip();
  mesh.rest_positions[3 * 5 + 2] = 1e200;  // finite, but its squares overflow (found by fuzzing)
  EXPECT_EQ(finalize_problem(mesh),
            "quad 2: an edge's rest length is not a finite number (coordinates too large)");
  mesh = strip();  // a square 1e80 m wide: its edges' squares are finite, its area's square not
  mesh.quads = {{0, 1, 2, 3}};
  mesh.rest_positions.resize(12);
  mesh.rest_positions << 0, 0, 0, 1e80, 0, 0, 1e80, 1e80, 0, 0, 1e80, 0;
  EXPECT_EQ(finalize_problem(mesh),
            "quad 1: its rest area is not a finite number (coordinates too large)");
  mesh = strip();  // a sliver 1e155 m long and 1e-151 m wide: its area is finite, its edges not
  mesh.quads = {{0, 1, 2, 3}};
  mesh.rest_positions.resize(12);
  mesh.rest_positions << 0, 0, 0, 1e155, 0, 0, 1e155, 1e-151, 0, 0, 1e-151, 0;
  EXPECT_EQ(finalize_problem(mesh),
            "quad 1: an edge's rest length is not a finite number (coordinates too large)");
  mesh = strip();
  mesh.quads.clear();
  EXPECT_EQ(finalize_problem(mesh), "mesh has no quads");
  mesh = QuadMesh{};
  EXPECT_EQ(finalize_problem(mesh), "mesh has no nodes");
  mesh = strip();
  mesh.rest_positions.conservativeResize(mesh.rest_positions.size() - 1);
  EXPECT_EQ(finalize_problem(mesh), "mesh has 17 position values, not three per node");
}

}  // namespace
}  // namespace clothfit::mesh
