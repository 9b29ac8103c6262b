// Reader for OptiTrack Motive CSV exports, format versions 1.2x (1.2 to 1.25 and later exports of
// the same layout). The result is a Take in the simulator's frame: metres, z up, NaN for missing
// samples.
//
// What is read (see docs/mocap.md for the full description):
// - row 1: key/value pairs (`Format Version`, `Take Name`, `Export Frame Rate`, `Length Units`,
//   ...); every field is optional and unknown keys are kept in MotiveHeader::fields;
// - the asset rows above the axis row: Type, Name, ID (and an optional Parent), with or without
//   the labels "Type"/"Name"/"ID"/"Parent" in column 2, then the quantity row (Position,
//   Rotation, Mean Marker Error, Marker Quality, ...);
// - the axis row, found by its content: `Frame,Time (Seconds)` or `Frame,Time`, optionally
//   followed by a `TimeCode` column;
// - data: `Marker` assets (labelled and unlabeled) and `Rigid Body Marker` assets as markers,
//   `Rigid Body` assets as poses (quaternion X,Y,Z,W or Euler X,Y,Z in degrees); quality columns
//   and asset types clothfit does not use (bones, skeletons, ...) are skipped.
// - CSV details: quoted cells, CRLF or LF line breaks, a UTF-8 byte-order mark, trailing commas,
//   rows shorter than the header (missing cells are empty).
//
// Every problem is a MocapInputError naming the file, the line, the column (1-based CSV cell
// number) and what was expected: format 1.1, a missing axis row, a cell that is not a number,
// duplicate columns, a frame rate of zero, non-consecutive frame numbers, a truncated file (the
// last line cut short without a line break, or fewer data rows than `Total Exported Frames`).
#pragma once

#include <cstddef>
#include <filesystem>
#include <istream>
#include <string>

#include "mocap/length_unit.hpp"
#include "mocap/take.hpp"
#include "mocap/up_axis.hpp"

namespace clothfit::mocap {

struct MotiveCsvReadOptions {
  // Up axis of the file's coordinates. Motive exports y up unless its axis convention was changed
  // at export; the Take is always z up.
  UpAxis file_up_axis = UpAxis::kY;
  // Unit of the file's coordinates when the header has no `Length Units` field (exports before
  // format 1.23 lack it). Metres by default.
  LengthUnit length_unit_if_absent = LengthUnit::kMeters;
  // Bytes read from the stream at a time (memory used besides the Take).
  std::size_t chunk_bytes = std::size_t{4} << 20;
};

// Reads the file at `path`; errors name the path as given.
Take read_motive_csv(const std::filesystem::path& path, const MotiveCsvReadOptions& options = {});
// Reads from `in`; errors name `display_name` as the file.
Take read_motive_csv(std::istream& in, const std::string& display_name,
                     const MotiveCsvReadOptions& options = {});

}  // namespace clothfit::mocap
