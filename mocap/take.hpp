// Take: one motion-capture recording in the simulator's frame — marker positions over frames in
// metres, z up, NaN where a marker was not seen — plus rigid-body poses and what the file's header
// said. Immutable once built; the Motive CSV reader builds it, synthetic recordings build it from
// arrays.
//
// Frames are consecutive: frame f of the take has frame number first_frame_number() + f and time
// (first_frame_number() + f) / frame_rate_hz() seconds (the frame number, not the file's rounded
// Time column, is the time base).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mocap/length_unit.hpp"
#include "mocap/up_axis.hpp"

namespace clothfit::mocap {

// Which kind of asset a marker column came from.
enum class MarkerKind {
  kMarker,           // a `Marker` asset: labelled ("Name:Marker1", "A1") or "Unlabeled 1234"
  kRigidBodyMarker,  // a `Rigid Body Marker` asset: the rigid body's solved marker position
};
std::string_view marker_kind_name(MarkerKind kind);  // "Marker" / "Rigid Body Marker"

struct MarkerInfo {
  std::string name;  // asset name as in the file, e.g. "Unlabeled 30388", "ernesto_body:Marker1"
  std::string id;    // asset ID as in the file; empty when the file has none
  MarkerKind kind = MarkerKind::kMarker;
};

// One rigid body's pose per frame, in the simulator's frame.
struct RigidBodyTrack {
  std::string name;
  std::string id;
  // How the file gave the rotation: "Quaternion" or an Euler order such as "XYZ".
  std::string file_rotation_type = "Quaternion";
  // Position of the rigid body's pivot, metres, (frames × 3) row-major; NaN when untracked.
  std::vector<double> position_m;
  // Orientation body -> simulator frame as unit quaternions (x, y, z, w), (frames × 4) row-major;
  // NaN when untracked.
  std::vector<double> orientation_xyzw;

  bool tracked(std::size_t frame) const { return !std::isnan(position_m[3 * frame]); }
  Eigen::Vector3d position(std::size_t frame) const {
    return Eigen::Vector3d::Map(position_m.data() + 3 * frame);
  }
  Eigen::Quaterniond orientation(std::size_t frame) const {
    const double* q = orientation_xyzw.data() + 4 * frame;
    return Eigen::Quaterniond(q[3], q[0], q[1], q[2]);
  }
};

// The key/value pairs of the first row of a Motive CSV file. Every field is optional.
struct MotiveHeader {
  std::string format_version;  // "1.23"; empty when absent
  std::string take_name;
  std::string take_notes;
  std::string capture_start_time;  // as written, e.g. "2020-01-16 07.07.59.330 PM"
  std::string rotation_type;       // "Quaternion", "XYZ", ...; empty when absent
  std::string coordinate_space;    // "Global" or "Local"; empty when absent
  std::optional<double> capture_frame_rate_hz;
  std::optional<double> export_frame_rate_hz;
  std::optional<std::int64_t> capture_start_frame;
  std::optional<std::int64_t> total_frames_in_take;
  std::optional<std::int64_t> total_exported_frames;
  std::optional<LengthUnit> length_unit;  // absent when the file does not say
  // Every key/value pair in file order, known or not.
  std::vector<std::pair<std::string, std::string>> fields;
};

// One asset of the file (a group of columns with the same Type and Name).
struct AssetInfo {
  std::string type;      // "Marker", "Rigid Body", "Rigid Body Marker", "Bone", ...
  std::string name;      // asset name
  std::string id;        // asset ID; empty when the file has no ID row
  std::string parent;    // from the optional Parent row; empty otherwise
  int first_column = 0;  // 1-based CSV column of its first cell
  int column_count = 0;
  bool read = false;  // false for asset types clothfit does not read (skeletons, bones, ...)
};

// Where a take came from and what its file said; informational, the numbers live in Take.
struct TakeInfo {
  std::string source;  // display name of the file read; empty for synthetic takes
  MotiveHeader header;
  std::vector<AssetInfo> assets;  // in column order
  // Unit of the file's coordinates and whether it was assumed (no `Length Units` field).
  LengthUnit file_length_unit = LengthUnit::kMeters;
  bool file_length_unit_assumed = false;
  UpAxis file_up_axis = UpAxis::kY;  // up axis of the file's coordinates
  // Where frame_rate_hz came from: "Export Frame Rate", "Capture Frame Rate", "Time column",
  // or "given" for synthetic takes.
  std::string frame_rate_source = "given";
};

class Take {
 public:
  // positions_m: (frame_count × markers.size() × 3) row-major, metres, simulator frame; a missing
  // sample has all three coordinates NaN, a present one three finite values. Each rigid body track
  // holds frame_count rows. frame_rate_hz > 0. Marker names must be unique per kind. Throws
  // std::invalid_argument when shapes or values do not fit.
  Take(TakeInfo info, double frame_rate_hz, std::int64_t first_frame_number,
       std::size_t frame_count, std::vector<MarkerInfo> markers, std::vector<double> positions_m,
       std::vector<RigidBodyTrack> rigid_bodies = {});

  const TakeInfo& info() const { return m_info; }
  double frame_rate_hz() const { return m_frame_rate_hz; }
  std::size_t frame_count() const { return m_frame_count; }
  std::size_t marker_count() const { return m_markers.size(); }
  std::int64_t first_frame_number() const { return m_first_frame_number; }
  std::int64_t frame_number(std::size_t frame) const {
    return m_first_frame_number + static_cast<std::int64_t>(frame);
  }
  // Time of frame `frame` in seconds: frame_number(frame) / frame_rate_hz().
  double time_s(std::size_t frame) const {
    return static_cast<double>(frame_number(frame)) / m_frame_rate_hz;
  }
  // frame_count() / frame_rate_hz(): the time the frames cover, seconds.
  double duration_s() const { return static_cast<double>(m_frame_count) / m_frame_rate_hz; }

  const std::vector<MarkerInfo>& markers() const { return m_markers; }
  const MarkerInfo& marker(std::size_t index) const { return m_markers.at(index); }
  // Index of the marker named `name` of kind `kind`; empty when there is none.
  std::optional<std::size_t> find_marker(std::string_view name, MarkerKind kind) const;
  // Index of the `Marker` named `name`, or else of the `Rigid Body Marker` of that name.
  std::optional<std::size_t> find_marker(std::string_view name) const;
  // Like find_marker(name) but throws MocapInputError (field "marker 'name'") when absent.
  std::size_t marker_index(std::string_view name) const;

  // Position of marker `marker` at frame `frame`, metres, simulator frame; NaN when missing.
  Eigen::Vector3d position(std::size_t frame, std::size_t marker) const {
    return Eigen::Vector3d::Map(m_positions_m.data() + 3 * (frame * m_markers.size() + marker));
  }
  bool visible(std::size_t frame, std::size_t marker) const {
    return !std::isnan(m_positions_m[3 * (frame * m_markers.size() + marker)]);
  }
  // All samples: (frame_count × marker_count × 3) row-major.
  std::span<const double> positions_m() const { return m_positions_m; }

  const std::vector<RigidBodyTrack>& rigid_bodies() const { return m_rigid_bodies; }
  std::optional<std::size_t> find_rigid_body(std::string_view name) const;

 private:
  TakeInfo m_info;
  double m_frame_rate_hz;
  std::int64_t m_first_frame_number;
  std::size_t m_frame_count;
  std::vector<MarkerInfo> m_markers;
  std::vector<double> m_positions_m;  // (frames × markers × 3)
  std::vector<RigidBodyTrack> m_rigid_bodies;
};

}  // namespace clothfit::mocap
