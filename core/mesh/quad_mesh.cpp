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

int orient_quads_consistently(std::vector<Quad>& quads) {
  // The quads on each edge (at most two, as finalize() checks; others are left alone).
  std::map<Edge, std::vector<int>> quads_of_edge;
  const auto edge_of = [](int a, int b) { return Edge{std::min(a, b), std::max(a, b)}; };
  for (int q = 0; q < static_cast<int>(quads.size()); ++q) {
    for (int k = 0; k < 4; ++k)
      quads_of_edge[edge_of(quads[q][k], quads[q][(k + 1) % 4])].push_back(q);
  }
  std::vector<bool> placed(quads.size(), false);
  std::vector<int> queue;
  int relabelled = 0;
  for (int root = 0; root < static_cast<int>(quads.size()); ++root) {
    if (placed[root])
      continue;
    placed[root] = true;
    queue.assign(1, root);
    for (std::size_t next = 0; next < queue.size(); ++next) {
      const Quad q = quads[queue[next]];
      for (int k = 0; k < 4; ++k) {
        const int u = q[k], v = q[(k + 1) % 4];
        const std::vector<int>& sharing = quads_of_edge[edge_of(u, v)];
        if (sharing.size() != 2)
          continue;
        const int r = sharing[0] == queue[next] ? sharing[1] : sharing[0];
        if (placed[r])
          continue;
        // Across q's edge k (u → v) the neighbour has the same edge at k + 2, run v → u: its far
        // ξ (or η) side is q's near one. The other two corners follow round its own face.
        Quad face = quads[r];
        int at = 0;
        while (face[at] != v)
          ++at;
        if (face[(at + 1) % 4] != u) {  // wound the other way round: reverse it
          std::reverse(face.begin(), face.end());
          at = 3 - at;
        }
        Quad oriented;
        for (int j = 0; j < 4; ++j)
          oriented[(k + 2 + j) % 4] = face[(at + j) % 4];
        if (oriented != quads[r]) {
          quads[r] = oriented;
          ++relabelled;
        }
        placed[r] = true;
        queue.push_back(r);
      }
    }
  }
  return relabelled;
}

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

int first_quad_without_interior_node(const QuadMesh& mesh) {
  for (std::size_t q = 0; q < mesh.quads.size(); ++q) {
    const Quad& quad = mesh.quads[q];
    if (std::all_of(quad.begin(), quad.end(), [&](int node) {
          return mesh.is_boundary_node[static_cast<std::size_t>(node)];
        }))
      return static_cast<int>(q);
  }
  return -1;
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
