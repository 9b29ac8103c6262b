// QuadMesh: the cloth's discretisation. Node positions are stacked node-major in one flat vector
// φ = (x_0, y_0, z_0, x_1, y_1, z_1, …) of size 3N; node i occupies entries 3i … 3i+2.
//
// Quads list their four nodes counter-clockwise (seen from the side the normal points to). Each
// quad carries its own local parametrisation (ξ along its first edge 0→1, η along its last edge
// 0→3), which the inextensibility constraints use; for grids these are the sheet's x and y.
#pragma once

#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

namespace clothfit::mesh {

using Quad = std::array<int, 4>;
using Edge = std::array<int, 2>;  // node indices, first < second
using Triangle = std::array<int, 3>;

struct QuadMesh {
  Eigen::VectorXd rest_positions;  // (3N) rest shape, metres
  std::vector<Quad> quads;         // node indices, counter-clockwise

  // Derived topology, filled by finalize().
  std::vector<Edge> edges;             // all unique edges
  std::vector<Edge> boundary_edges;    // edges used by exactly one quad
  std::vector<bool> is_boundary_node;  // (N)
  std::vector<Triangle> triangles;     // two per quad (0,1,2) and (0,2,3), for collision geometry

  // Grid meshes only: nodes per row (columns) and per column (rows); 0 for general meshes.
  int grid_columns = 0;
  int grid_rows = 0;

  int num_nodes() const { return static_cast<int>(rest_positions.size() / 3); }
  Eigen::Vector3d rest_position(int node) const { return rest_positions.segment<3>(3 * node); }
  // Grid node at (row, column); row 0 is y = 0, column 0 is x = 0.
  int grid_node(int row, int column) const { return row * grid_columns + column; }
};

// finalize() calls a quad degenerate when an edge is at most kMinEdgeLength_m long or its rest area
// at most kMinQuadArea_m2.
inline constexpr double kMinEdgeLength_m = 1e-9;
inline constexpr double kMinQuadArea_m2 = 1e-12;

// Builds the derived topology and validates the mesh: indices in range, no repeated node in a quad,
// no degenerate quad (above), every edge's rest length and quad's rest area a finite number
// (finite coordinates can still overflow them), no edge shared by more than two quads. Throws
// InputError (with `source` as the file name) on failure.
void finalize(QuadMesh& mesh, const std::string& source = "");

// Relabels the quads' corners (order and winding, not the set of corners) so that the local
// parametrisations of neighbouring quads agree: across every edge two quads share, ξ and η carry
// on in the same directions, as on a grid. The metric constraints sum ξ and η terms of the quads
// round a node, so without this the constraints (and the simulation) depended on the corner each
// face line of an OBJ happened to start at: one face line started one corner later moved a
// sheet's nodes by 2 cm in 0.2 s. Each connected part keeps the labelling of its first quad
// (relabelling a whole part is a symmetry of the constraints); where no consistent labelling
// exists (an interior node with other than four quads, a Möbius strip) the first one reached from
// there, quad by quad in a breadth-first walk over shared edges, is kept. Returns the number of
// quads relabelled.
int orient_quads_consistently(std::vector<Quad>& quads);

// The most nodes a generated grid may have: a million nodes is far beyond what the simulator runs
// in useful time (49 × 65 takes about a minute per simulated second), and the limit keeps node
// indices, which are ints, from overflowing.
inline constexpr long kMaxGridNodes = 1'000'000;

// A width × height rectangle (metres) in the z = 0 plane with nodes_x × nodes_y nodes, x along the
// width, y along the height, the corner node 0 at the origin. At most kMaxGridNodes nodes.
QuadMesh make_grid_mesh(double width, double height, int nodes_x, int nodes_y);

// Why make_grid_mesh(width, height, nodes_x, nodes_y) would make degenerate quads (see finalize),
// with `field` set to "width" or "height", whichever spacing is the smaller, or quads whose edge
// lengths or area overflow, with `field` naming the larger; empty when it would do neither. For
// scenario readers, which know the field and file to name.
std::string grid_spacing_problem(double width, double height, int nodes_x, int nodes_y,
                                 std::string* field);

// The first quad none of whose corners is an interior node (finalize()'d mesh), or -1. The
// metric constraints sit at interior nodes (constraints::InextensibilityConstraints), so such a
// quad's shear and its edges shared with other quads are held by nothing: the cloth stretches
// there without any constraint being violated (a 2 × N grid's quads grew 7-fold, a tube two rings
// long 22-fold, every step "converged"). Scenario readers refuse such meshes.
int first_quad_without_interior_node(const QuadMesh& mesh);

// Rest area of each quad (m²), as half the norm of the cross product of its diagonals.
std::vector<double> quad_areas(const QuadMesh& mesh);

// Lumped (row-sum) area per node: a quarter of each incident quad's rest area, m². (N)
Eigen::VectorXd lumped_areas(const QuadMesh& mesh);

}  // namespace clothfit::mesh
