// libFuzzer target for the OBJ quad-mesh reader. Any input must either read or raise InputError —
// never crash, hang, leak or trip a sanitizer — and a mesh that reads must be one the simulator can
// start from: every node a corner of some quad with a positive, finite lumped area, and the
// inextensibility constraints built on it zero at its rest shape with a finite Jacobian (the rest
// shape is C = 0 by definition; a mesh that reads but breaks that would start every run violated).
// Built by tests/fuzz/CMakeLists.txt; run by scripts/fuzz.sh.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "core/constraints/inextensibility_constraints.hpp"
#include "core/io/input_error.hpp"
#include "core/mesh/obj_reader.hpp"
#include "core/mesh/quad_mesh.hpp"

namespace {

[[noreturn]] void invariant_broken(const char* what) {
  std::fprintf(stderr, "obj_quad_mesh_fuzzer: invariant broken: %s\n", what);
  std::abort();
}

void check_mesh(const clothfit::mesh::QuadMesh& mesh) {
  const int n = mesh.num_nodes();
  if (n <= 0 || mesh.quads.empty())
    invariant_broken("an empty mesh read");
  if (!mesh.rest_positions.allFinite())
    invariant_broken("a non-finite rest position");
  const Eigen::VectorXd areas = clothfit::mesh::lumped_areas(mesh);
  for (int i = 0; i < n; ++i) {
    if (!(areas[i] > 0.0) || !std::isfinite(areas[i]))
      invariant_broken("a node without a positive, finite lumped area");
  }
  const clothfit::constraints::InextensibilityConstraints constraints(mesh);
  Eigen::VectorXd values;
  auto jacobian = constraints.make_jacobian();
  constraints.evaluate(mesh.rest_positions, &values, &jacobian);
  if (values.size() != constraints.size())
    invariant_broken("C has the wrong size");
  if (!values.allFinite())
    invariant_broken("C at the rest shape is not finite");
  for (int k = 0; k < jacobian.nonZeros(); ++k) {
    if (!std::isfinite(jacobian.valuePtr()[k]))
      invariant_broken("the Jacobian at the rest shape is not finite");
  }
  // Rounding only: C_i is a sum of a few dot products of rest edges scaled by their own lengths.
  if (constraints.max_violation(mesh.rest_positions) > 1e-9)
    invariant_broken("C is not zero at the rest shape");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  clothfit::mesh::QuadMesh mesh;
  try {
    mesh = clothfit::mesh::read_obj_quad_mesh(in, "fuzz.obj");
  } catch (const clothfit::InputError& e) {
    if (std::string(e.what()).empty())
      invariant_broken("an InputError without a message");
    return 0;
  }
  check_mesh(mesh);
  return 0;
}
