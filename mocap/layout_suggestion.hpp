// suggest_layout: guesses the MarkerLayout of an r × c marker grid from one frame of a take (the
// markers of a sheet lying or hanging roughly flat), to be checked by eye and pasted into a
// scenario (`clothfit inspect TAKE.csv --suggest-layout RxC`).
//
// Method: the `Marker` assets visible at the frame — leaving out markers named "<body>:..." of a
// rigid body in the take — must number exactly r·c. A plane is fitted by PCA (it must be roughly
// flat: rms distance from it at most half the rms spread along its second axis); the grid's
// directions in the plane come from the directions to nearest neighbours (averaged modulo 90°).
// Of the two grid directions, the row axis (along which rows follow each other) is
// - for a hanging sheet (plane normal more than 45° from z): the one closer to z, row 0 on top;
// - for a sheet lying flat: the one closer to y, row 0 at the largest y;
// and the column axis is the other one, column 0 at the smallest x (or smallest y when the
// columns run along y). Markers are sorted into rows along the row axis and into columns within
// each row; consecutive rows and consecutive columns must be separated by at least a quarter of
// their mean spacing, otherwise the markers do not form an r × c grid and the suggestion fails.
// For a sheet lying flat whose grid is transposed (c lines of r markers along the row axis) the
// transposed assignment is used; for a hanging sheet that is reported instead (rows are
// horizontal by definition).
#pragma once

#include <cstddef>

#include "mocap/marker_layout.hpp"
#include "mocap/take.hpp"

namespace clothfit::mocap {

// Throws MocapInputError (file: the take's source, field "suggest-layout") when the visible
// markers are not rows × columns or do not form such a grid. rows, columns >= 1.
MarkerLayout suggest_layout(const Take& take, int rows, int columns, std::size_t frame = 0);

}  // namespace clothfit::mocap
