// Reader for Wavefront OBJ quad meshes of any topology. The OBJ geometry (metres) is the rest
// shape. Only `v` and `f` records matter; `vt`, `vn`, `o`, `g`, `s`, `usemtl`, `mtllib` and
// comments are skipped. Face corners may be written `i`, `i/t`, `i//n` or `i/t/n`, with negative
// (relative) indices allowed.
#pragma once

#include <istream>
#include <string>

#include "core/mesh/quad_mesh.hpp"

namespace clothfit::mesh {

// Throws InputError with file, line and column for: unreadable file, a malformed number, a face
// that is not a quad, an index out of range, and (through finalize) degenerate or non-manifold
// quads.
QuadMesh read_obj_quad_mesh(const std::string& path);
QuadMesh read_obj_quad_mesh(std::istream& in, const std::string& display_name);

}  // namespace clothfit::mesh
