// A description of a take for people and scripts: format version, take name, frame rates, frames,
// duration, units, assets, and per marker the visible fraction, the number of gaps and the
// longest gap. Printed by `clothfit inspect`.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "mocap/take.hpp"

namespace clothfit::mocap {

// Keys, in this order: file, format_version, take_name, capture_frame_rate_hz, export_frame_rate_hz
// (null when absent), frame_rate_hz, frame_rate_source, frames, first_frame, last_frame,
// duration_s, length_units (the file's, e.g. "Meters"), length_units_assumed, up_axis (the file's),
// total_exported_frames (null when absent), assets [{type, name, id, first_column, columns,
// read}], rigid_bodies [{name, rotation, tracked_fraction}], markers [{name, kind,
// visible_fraction, gaps, longest_gap_frames}].
nlohmann::ordered_json take_summary_json(const Take& take);

// The same as aligned text.
void print_take_summary(std::ostream& out, const Take& take);

}  // namespace clothfit::mocap
