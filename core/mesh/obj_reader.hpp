// Reader for Wavefront OBJ quad meshes of any topology. The OBJ geometry (metres) is the rest
// shape. Only `v` and `f` records matter; `vt`, `vn`, `vp`, `o`, `g`, `s`, `usemtl`, `mtllib` and
// comments (also after a record) are skipped, any other record is an error. Face corners may be
// written `i`, `i/t`, `i//n` or `i/t/n`, with negative (relative) indices allowed. The quads'
// corners are relabelled so that neighbours agree on ξ and η (orient_quads_consistently).
#pragma once

#include <istream>
#include <string>

#include "core/mesh/quad_mesh.hpp"

namespace clothfit::mesh {

// Throws InputError with file, line and column for: a path that is a directory or cannot be read,
// a malformed or non-finite number, a face that is not a quad, an index out of range, the same
// quad listed twice (at the second one's line, naming the first's), an edge shared by more than
// two quads (at the third one's line, naming all of theirs), (through finalize) a quad that
// repeats a corner, is degenerate or whose edge length or area overflows, and a vertex used by no
// quad (at the vertex's line).
QuadMesh read_obj_quad_mesh(const std::string& path);
QuadMesh read_obj_quad_mesh(std::istream& in, const std::string& display_name);

}  // namespace clothfit::mesh
