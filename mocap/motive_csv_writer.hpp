// Writer for Motive CSV format 1.23, used for synthetic recordings and for exporting takes. The
// file has the layout Motive writes: row 1 with the key/value header (Format Version 1.23, Take
// Name, Take Notes, Capture/Export Frame Rate, Capture Start Time, Total Frames in Take, Total
// Exported Frames, Rotation Type Quaternion, Length Units, Coordinate Space Global), an empty row,
// the labelled Type/Name/ID rows, the quantity row and the axis row `Frame,Time (Seconds),...`,
// then one row per frame; a missing sample is three empty cells.
//
// Assets are written in Motive's order: rigid bodies (Rotation X,Y,Z,W then Position X,Y,Z),
// rigid-body markers, then markers (`Marker` assets). Coordinates are converted from the Take's
// frame (z up, metres) to `file_up_axis` and `length_unit`. Reading the file back with the same
// up axis gives the same take to the printed precision: 10^-decimals file units. (A take with
// neither markers nor rigid bodies is written, but the reader refuses such a file: nothing to
// read.)
#pragma once

#include <filesystem>
#include <ostream>

#include "mocap/length_unit.hpp"
#include "mocap/take.hpp"
#include "mocap/up_axis.hpp"

namespace clothfit::mocap {

struct MotiveCsvWriteOptions {
  LengthUnit length_unit = LengthUnit::kMeters;
  UpAxis file_up_axis = UpAxis::kY;  // Motive's default
  int decimals = 6;                  // digits after the decimal point (Motive writes 6); 0..17
  bool crlf_line_breaks = true;      // Motive writes CRLF
};

void write_motive_csv(const Take& take, std::ostream& out,
                      const MotiveCsvWriteOptions& options = {});
// Throws MocapInputError when the file cannot be written.
void write_motive_csv(const Take& take, const std::filesystem::path& path,
                      const MotiveCsvWriteOptions& options = {});

}  // namespace clothfit::mocap
