// The OBJ quad-mesh reader: the corner forms and relative indices it accepts, the records it skips,
// and every mistake refused with the file, line and column that hold it.
#include "core/mesh/obj_reader.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "core/io/input_error.hpp"

namespace clothfit::mesh {
namespace {

QuadMesh read(const std::string& text) {
  std::istringstream in(text);
  return read_obj_quad_mesh(in, "sheet.obj");
}

// The error reading `text` gives, as "line:column: problem".
std::string error(const std::string& text) {
  try {
    read(text);
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, "sheet.obj");
    return std::to_string(e.location().line) + ":" + std::to_string(e.location().column) + ": " +
           e.problem();
  }
  return "(no error)";
}

// Two unit quads side by side (lines 1–7); the faces are appended by each test, from line 8.
const std::string kVertices =
    "# two quads\n"
    "v 0 0 0\nv 1 0 0\nv 2 0 0\n"
    "v 0 1 0\nv 1 1 0\nv 2 1 0\n";

TEST(ObjReader, ReadsEveryCornerFormAndRelativeIndices) {
  const QuadMesh mesh = read(kVertices +
                             "o sheet\ng cloth\ns off\nusemtl cotton\nvt 0 0\nvn 0 0 1\n"
                             "f 1/1/1 2/1/1 5/1/1 4/1/1\n"
                             "f 2//1 3//1 -1/1 -2\r\n");
  EXPECT_EQ(mesh.num_nodes(), 6);
  ASSERT_EQ(mesh.quads.size(), 2u);
  EXPECT_EQ(mesh.quads[0], (Quad{0, 1, 4, 3}));
  EXPECT_EQ(mesh.quads[1], (Quad{1, 2, 5, 4}));  // -1, -2: the last and second-to-last vertex
  EXPECT_TRUE(mesh.rest_position(5).isApprox(Eigen::Vector3d(2, 1, 0)));
  EXPECT_EQ(mesh.edges.size(), 7u);
  EXPECT_EQ(mesh.boundary_edges.size(), 6u);
}

// Comments after a record, a byte-order mark and the w or colour of a vertex are read as
// exporters write them.
TEST(ObjReader, CommentsAfterRecordsAByteOrderMarkAndVertexExtras) {
  const QuadMesh mesh = read(
      "\xEF\xBB\xBFv 0 0 0 # origin\nv 1 0 0 1\nv 2 0 0 0.5 0.5 0.5\n"
      "v 0 1 0\nv 1 1 0\nv 2 1 0\nf 1 2 5 4 # first\nf 2 3 6 5#second\n");
  EXPECT_EQ(mesh.num_nodes(), 6);
  ASSERT_EQ(mesh.quads.size(), 2u);
  EXPECT_EQ(mesh.quads[1], (Quad{1, 2, 5, 4}));
}

// The constraints sum ξ and η terms of the quads round a node, so each quad's corners are
// relabelled to carry on its neighbours' directions: a face line that starts at another corner,
// or runs the other way round, gives the same quads as the grid's.
TEST(ObjReader, QuadsAreRelabelledToAgreeWithTheirNeighbours) {
  // 3 × 3 nodes, four quads: 1 2 3 / 4 5 6 / 7 8 9 (rows of y = 0, 1, 2).
  const std::string v =
      "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nv 1 1 0\nv 2 1 0\n"
      "v 0 2 0\nv 1 2 0\nv 2 2 0\n";
  const QuadMesh grid = read(v + "f 1 2 5 4\nf 2 3 6 5\nf 4 5 8 7\nf 5 6 9 8\n");
  const std::vector<Quad> expected = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
  EXPECT_EQ(grid.quads, expected);
  // The second face started one corner on, the third wound the other way, the fourth both.
  const QuadMesh mixed = read(v + "f 1 2 5 4\nf 3 6 5 2\nf 4 7 8 5\nf 8 5 6 9\n");
  EXPECT_EQ(mixed.quads, expected);
  std::vector<Quad> quads = {{0, 1, 4, 3}, {2, 5, 4, 1}, {3, 6, 7, 4}, {7, 4, 5, 8}};
  EXPECT_EQ(orient_quads_consistently(quads), 3);
  EXPECT_EQ(quads, expected);
  EXPECT_EQ(orient_quads_consistently(quads), 0);
}

TEST(ObjReader, MistakesNameTheirLineAndColumn) {
  EXPECT_EQ(error(kVertices + "f 1 2 5\n"),
            "8:1: face has 3 corners; clothfit needs a quad mesh (4 corners per face)");
  EXPECT_EQ(error(kVertices + "f 1 2 3 5 4\n"),
            "8:1: face has 5 corners; clothfit needs a quad mesh (4 corners per face)");
  EXPECT_EQ(error(kVertices + "f 1 2 7 4\n"),
            "8:7: vertex index 7 refers to no vertex (6 defined so far)");
  EXPECT_EQ(error(kVertices + "f 1 2 -7 4\n"),
            "8:7: vertex index -7 refers to no vertex (6 defined so far)");
  EXPECT_EQ(error(kVertices + "f 1 0 5 4\n"),
            "8:5: expected a vertex index (1-based or negative), found '0'");
  EXPECT_EQ(error(kVertices + "f 1 2 x 4\n"),
            "8:7: expected a vertex index (1-based or negative), found 'x'");
  EXPECT_EQ(error("v 0 0 0\nv 1 0.5q 0\n"), "2:5: expected a number, found '0.5q'");
  EXPECT_EQ(error("v 0 0\n"),
            "1:1: vertex has 2 numbers: expected 'v x y z', 'v x y z w' or 'v x y z r g b'");
  EXPECT_EQ(error("v 0 0 0 1 2 3 4 5\n"),
            "1:1: vertex has 8 numbers: expected 'v x y z', 'v x y z w' or 'v x y z r g b'");
  EXPECT_EQ(error("v 0 0 0 abc\n"), "1:9: expected a number, found 'abc'");
  EXPECT_EQ(error("v 0.1 0\x01 0\n"), "1:7: expected a number, found '0\\x01'");
  // A mistyped record would leave a hole (an 'F' line was skipped, its face missing).
  EXPECT_EQ(error(kVertices + "F 1 2 5 4\n"),
            "8:1: unknown record 'F': expected 'v' or 'f' (or vt, vn, vp, o, g, s, usemtl, "
            "mtllib, which are skipped)");
  EXPECT_EQ(error(kVertices + "f 1 2 5 4\nl 2 3\n"),
            "9:1: unknown record 'l': expected 'v' or 'f' (or vt, vn, vp, o, g, s, usemtl, "
            "mtllib, which are skipped); line elements ('l') are not part of a quad mesh");
  EXPECT_EQ(error(kVertices + "f 1/x 2 5 4\n"),
            "8:3: expected a face corner 'i', 'i/t', 'i//n' or 'i/t/n' with whole numbers, "
            "found '1/x'");
  EXPECT_EQ(error(kVertices + "f 1/1/1/1 2 5 4\n"),
            "8:3: expected a face corner 'i', 'i/t', 'i//n' or 'i/t/n' with whole numbers, "
            "found '1/1/1/1'");
  EXPECT_EQ(error("v 0 0 0\rv 1 0 0\r"),
            "1:8: a CR inside the line: expected LF or CRLF line breaks (lone-CR line breaks are "
            "classic Mac OS text)");
  // An index counts only the vertices defined before the face.
  EXPECT_EQ(error("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3 4\nv 0 1 0\n"),
            "4:9: vertex index 4 refers to no vertex (3 defined so far)");
  EXPECT_EQ(error(""), "0:0: no vertices ('v x y z')");
  EXPECT_EQ(error(kVertices), "0:0: no faces ('f a b c d')");
}

// What finalize() refuses is reported at the line of the face concerned.
TEST(ObjReader, RepeatedCornersAndDegenerateFacesPointAtTheirLine) {
  EXPECT_EQ(error(kVertices + "f 1 2 5 4\nf 2 3 3 5\n"), "9:1: quad 2: node 3 repeated");
  EXPECT_EQ(error(kVertices + "v 1 0 0\nf 1 2 5 4\nf 2 7 6 5\n"),
            "10:1: quad 2: degenerate (edge of zero length)");
  EXPECT_EQ(error(kVertices + "f 1 2 3 2\n").substr(0, 4), "8:1:");  // node 2 repeated
  EXPECT_EQ(error("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nf 1 2 3 4\n"),
            "5:1: quad 1: degenerate (zero area)");
  // Found by tests/fuzz/obj_quad_mesh_fuzzer.cpp: a finite coordinate whose square overflows.
  EXPECT_EQ(error("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 1e308\nf 1 2 3 4\n"),
            "5:1: quad 1: an edge's rest length is not a finite number (coordinates too large)");
  EXPECT_EQ(error("v 0 0 0\nv 1e80 0 0\nv 1e80 1e80 0\nv 0 1e80 0\nf 1 2 3 4\n"),
            "5:1: quad 1: its rest area is not a finite number (coordinates too large)");
}

// An edge shared by a third face is reported at that face's line, naming all three.
TEST(ObjReader, ANonManifoldEdgeNamesTheLinesOfItsFaces) {
  EXPECT_EQ(error(kVertices + "v 1 0 1\nv 1 1 1\n"
                              "f 1 2 5 4\nf 2 3 6 5\nf 2 7 8 5\n"),
            "12:1: edge between vertices 2 and 5 is shared by the faces on lines 10, 11 and 12 "
            "(non-manifold); expected at most 2 faces on an edge");
}

// The same quad twice, its corners in the same or in another order, is reported at the second
// one's line, naming the first's.
TEST(ObjReader, ARepeatedFaceNamesBothLines) {
  const std::string expected =
      "10:1: face repeats the face on line 8 (the same vertices 1, 2, 4 and 5); expected each "
      "quad once";
  EXPECT_EQ(error(kVertices + "f 1 2 5 4\nf 2 3 6 5\nf 1 2 5 4\n"), expected);
  EXPECT_EQ(error(kVertices + "f 1 2 5 4\nf 2 3 6 5\nf 4 5 2 1\n"), expected);  // reversed
  EXPECT_EQ(error(kVertices + "f 1 2 5 4\nf 2 3 6 5\nf 5 4 1 2\n"), expected);  // rotated
}

// A vertex no face uses (which would leave the step's equations singular) is reported at its
// own line, also when it is the last one.
TEST(ObjReader, AnUnusedVertexIsReportedAtItsLine) {
  EXPECT_EQ(error(kVertices + "f 1 2 5 4\n"),
            "4:1: vertex 3 is used by no face; expected every vertex to be a corner of a quad");
  EXPECT_EQ(error(kVertices + "f 1 2 5 4\nf 2 3 6 5\n  v 7 7 7\n"),
            "10:3: vertex 7 is used by no face; expected every vertex to be a corner of a quad");
}

// A coordinate that parses but is not finite is reported where it is written.
TEST(ObjReader, NonFiniteCoordinatesAreReportedAtTheirColumn) {
  EXPECT_EQ(error("v 0 0 0\nv nan 0 0\n"), "2:3: expected a finite number, found 'nan'");
  EXPECT_EQ(error("v 0 0 0\nv 1 0 -inf\n"), "2:7: expected a finite number, found '-inf'");
  // Written right but beyond a double: named as out of range, not as "not a number".
  EXPECT_EQ(error("v 0 0 0\nv 1 0 1e400\n"),
            "2:7: expected a number within a double's range (about 5e-324 to 1.8e308 in size), "
            "found '1e400'");
  EXPECT_EQ(error("v 0 0 0 1e-400\n"),
            "1:9: expected a number within a double's range (about 5e-324 to 1.8e308 in size), "
            "found '1e-400'");
  // The w that is not used may be anything a number can be, but it must be one.
  EXPECT_EQ(error("v 0 0 0 inf\nv 1 0 0 nan\nv 0 1 0\nv 1 1 0\nf 1 2 4 3\n"), "(no error)");
  EXPECT_EQ(error("v 0 0 0 0x10\n"), "1:9: expected a number, found '0x10'");
  // x, y and z are checked before w: the first bad number on the line is the one named.
  EXPECT_EQ(error("v 0 nan 0 abc\n"), "1:5: expected a finite number, found 'nan'");
}

TEST(ObjReader, AMissingFileIsNamed) {
  try {
    read_obj_quad_mesh("/no/such/dir/sheet.obj");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, "/no/such/dir/sheet.obj");
    EXPECT_EQ(e.problem(), "cannot open OBJ file for reading");
  }
}

TEST(ObjReader, ADirectoryIsNamedAsOne) {
  const std::string path = std::filesystem::temp_directory_path().string();
  try {
    read_obj_quad_mesh(path);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, path);
    EXPECT_EQ(e.problem(), "is a directory, expected an OBJ file");
  }
}

}  // namespace
}  // namespace clothfit::mesh
