#include "core/mesh/quad_mesh.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/io/input_error.hpp"

namespace clothfit::mesh {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& problem) {
  throw InputError(InputLocation{source, 0, 0, ""}, problem);
}

double quad_area(const Eigen::VectorXd& x, const Quad& q) {
  const Eigen::Vector3d d1 = x.segment<3>(3 * q[2]) - x.segment<3>(3 * q[0]);
  const Eigen::Vector3d d2 = x.segment<3>(3 * q[3]) - x.segment<3>(3 * q[1]);
  return 0.5 * d1.cross(d2).norm();
}

}  // namespace

void finalize(QuadMesh& mesh, const std::string& source) {
  const int n = mesh.num_nodes();
  if (mesh.rest_positions.size() % 3 != 0) {
    fail(source, "mesh has " + std::to_string(mesh.rest_positions.size()) +
                     " position values, not three per node");
  }
  if (n == 0)
    fail(source, "mesh has no nodes");
  if (mesh.quads.empty())
    fail(source, "mesh has no quads");
  if (!mesh.rest_positions.allFinite())
    fail(source, "mesh has a non-finite node position");

  std::map<Edge, int> edge_use;
  for (std::size_t f = 0; f < mesh.quads.size(); ++f) {
    const Quad& q = mesh.quads[f];
    const std::string where = "quad " + std::to_string(f + 1);
    for (int k = 0; k < 4; ++k) {
      if (q[k] < 0 || q[k] >= n) {
        fail(source, where + ": node index " + std::to_string(q[k] + 1) + " is out of range 1.." +
                         std::to_string(n));
      }
      for (int l = 0; l < k; ++l) {
        if (q[k] == q[l])
          fail(source, where + ": node " + std::to_string(q[k] + 1) + " repeated");
      }
    }
    // Finite coordinates can still overflow what is computed from them: an edge's squared length
    // beyond about 1e154 m, a quad's area (the norm of the diagonals' cross product, squared)
    // beyond about 1e77 m. Node masses and the constraints' rest values would be inf or NaN.
    for (int k = 0; k < 4; ++k) {
      const int a = q[k], b = q[(k + 1) % 4];
      const double length = (mesh.rest_position(a) - mesh.rest_position(b)).norm();
      if (length <= kMinEdgeLength_m)
        fail(source, where + ": degenerate (edge of zero length)");
      if (!std::isfinite(length))
        fail(source,
             where + ": an edge's rest length is not a finite number (coordinates too large)");
      ++edge_use[{std::min(a, b), std::max(a, b)}];
    }
    const double area = quad_area(mesh.rest_positions, q);
    if (area <= kMinQuadArea_m2)
      fail(source, where + ": degenerate (zero area)");
    if (!std::isfinite(area))
      fail(source, where + ": its rest area is not a finite number (coordinates too large)");
  }

  mesh.edges.clear();
  mesh.boundary_edges.clear();
  mesh.is_boundary_node.assign(n, false);
  for (const auto& [edge, uses] : edge_use) {
    if (uses > 2) {
      fail(source, "edge between nodes " + std::to_string(edge[0] + 1) + " and " +
                       std::to_string(edge[1] + 1) + " is shared by " + std::to_string(uses) +
                       " quads (non-manifold)");
    }
    mesh.edges.push_back(edge);
    if (uses == 1) {
      mesh.boundary_edges.push_back(edge);
      mesh.is_boundary_node[edge[0]] = mesh.is_boundary_node[edge[1]] = true;
    }
  }
  mesh.triangles.clear();
  mesh.triangles.reserve(2 * mesh.quads.size());
  for (const Quad& q : mesh.quads) {
    mesh.triangles.push_back({q[0], q[1], q[2]});
    mesh.triangles.push_back({q[0], q[2], q[3]});
  }
}

std::string grid_spacing_problem(double width, double height, int nodes_x, int nodes_y,
                                 std::string* field) {
  const double dx = width / (nodes_x - 1), dy = height / (nodes_y - 1);
  char text[240];
  Eigen::VectorXd corners(12);
  corners << 0, 0, 0, dx, 0, 0, dx, dy, 0, 0, dy, 0;
  const bool overflows = !std::isfinite(Eigen::Vector3d(dx, 0, 0).norm()) ||
                         !std::isfinite(Eigen::Vector3d(0, dy, 0).norm()) ||
                         !std::isfinite(quad_area(corners, {0, 1, 2, 3}));  // as finalize() finds
  if (overflows) {
    *field = dx >= dy ? "width" : "height";
    std::snprintf(text, sizeof text,
                  "the %d × %d grid's quads would be %.3g m × %.3g m, too large for their edge "
                  "lengths and area to be finite numbers",
                  nodes_x, nodes_y, dx, dy);
    return text;
  }
  *field = dx <= dy ? "width" : "height";
  if (std::min(dx, dy) > kMinEdgeLength_m && dx * dy > kMinQuadArea_m2)
    return "";
  std::snprintf(text, sizeof text,
                "the %d × %d grid's quads would be %.3g m × %.3g m; edges must be longer than "
                "%.0e m and quads larger than %.0e m²",
                nodes_x, nodes_y, dx, dy, kMinEdgeLength_m, kMinQuadArea_m2);
  return text;
}

QuadMesh make_grid_mesh(double width, double height, int nodes_x, int nodes_y) {
  if (!(width > 0) || !(height > 0) || nodes_x < 2 || nodes_y < 2) {
    throw InputError(InputLocation{},
                     "a grid needs width > 0, height > 0 and at least 2 × 2 nodes");
  }
  if (static_cast<long>(nodes_x) * nodes_y > kMaxGridNodes) {
    throw InputError(InputLocation{}, "a grid may have at most " + std::to_string(kMaxGridNodes) +
                                          " nodes, not " + std::to_string(nodes_x) + " × " +
                                          std::to_string(nodes_y));
  }
  QuadMesh mesh;
  mesh.grid_columns = nodes_x;
  mesh.grid_rows = nodes_y;
  mesh.rest_positions.resize(3 * nodes_x * nodes_y);
  for (int r = 0; r < nodes_y; ++r) {
    for (int c = 0; c < nodes_x; ++c) {
      mesh.rest_positions.segment<3>(3 * mesh.grid_node(r, c)) =
          Eigen::Vector3d(width * c / (nodes_x - 1), height * r / (nodes_y - 1), 0.0);
    }
  }
  for (int r = 0; r + 1 < nodes_y; ++r) {
    for (int c = 0; c + 1 < nodes_x; ++c) {
      mesh.quads.push_back({mesh.grid_node(r, c), mesh.grid_node(r, c + 1),
                            mesh.grid_node(r + 1, c + 1), mesh.grid_node(r + 1, c)});
    }
  }
  finalize(mesh);
  return mesh;
}

std::vector<double> quad_areas(const QuadMesh& mesh) {
  std::vector<double> areas;
  areas.reserve(mesh.quads.size());
  for (const Quad& q : mesh.quads)
    areas.push_back(quad_area(mesh.rest_positions, q));
  return areas;
}

Eigen::VectorXd lumped_areas(const QuadMesh& mesh) {
  Eigen::VectorXd m = Eigen::VectorXd::Zero(mesh.num_nodes());
  const std::vector<double> areas = quad_areas(mesh);
  for (std::size_t f = 0; f < mesh.quads.size(); ++f) {
    for (int node : mesh.quads[f])
      m[node] += 0.25 * areas[f];
  }
  return m;
}

}  // namespace clothfit::mesh
