#include "mocap/take.hpp"

#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

#include "mocap/mocap_input_error.hpp"

namespace clothfit::mocap {

std::string_view marker_kind_name(MarkerKind kind) {
  return kind == MarkerKind::kMarker ? "Marker" : "Rigid Body Marker";
}

Take::Take(TakeInfo info, double frame_rate_hz, std::int64_t first_frame_number,
           std::size_t frame_count, std::vector<MarkerInfo> markers,
           std::vector<double> positions_m, std::vector<RigidBodyTrack> rigid_bodies)
    : m_info(std::move(info)),
      m_frame_rate_hz(frame_rate_hz),
      m_first_frame_number(first_frame_number),
      m_frame_count(frame_count),
      m_markers(std::move(markers)),
      m_positions_m(std::move(positions_m)),
      m_rigid_bodies(std::move(rigid_bodies)) {
  if (!(std::isfinite(m_frame_rate_hz) && m_frame_rate_hz > 0.0)) {
    throw std::invalid_argument("Take: frame rate must be a finite number > 0 Hz");
  }
  if (m_positions_m.size() != m_frame_count * m_markers.size() * 3) {
    throw std::invalid_argument("Take: positions must hold frames x markers x 3 values");
  }
  for (std::size_t i = 0; i < m_positions_m.size(); i += 3) {
    const double* p = m_positions_m.data() + i;
    const bool missing = std::isnan(p[0]);
    if (std::isnan(p[1]) != missing || std::isnan(p[2]) != missing ||
        (!missing && !(std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2])))) {
      throw std::invalid_argument("Take: a sample must have three finite coordinates or three NaN");
    }
  }
  std::set<std::pair<std::string, MarkerKind>> names;
  for (const MarkerInfo& m : m_markers) {
    if (!names.emplace(m.name, m.kind).second) {
      throw std::invalid_argument("Take: two markers of the same kind are named '" + m.name + "'");
    }
  }
  std::set<std::string> body_names;
  for (const RigidBodyTrack& body : m_rigid_bodies) {
    if (body.position_m.size() != 3 * m_frame_count ||
        body.orientation_xyzw.size() != 4 * m_frame_count) {
      throw std::invalid_argument("Take: rigid body '" + body.name +
                                  "' must hold frames x 3 positions and frames x 4 quaternions");
    }
    if (!body_names.insert(body.name).second) {
      throw std::invalid_argument("Take: two rigid bodies are named '" + body.name + "'");
    }
  }
}

std::optional<std::size_t> Take::find_marker(std::string_view name, MarkerKind kind) const {
  for (std::size_t i = 0; i < m_markers.size(); ++i) {
    if (m_markers[i].kind == kind && m_markers[i].name == name)
      return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> Take::find_marker(std::string_view name) const {
  if (auto i = find_marker(name, MarkerKind::kMarker))
    return i;
  return find_marker(name, MarkerKind::kRigidBodyMarker);
}

std::size_t Take::marker_index(std::string_view name) const {
  if (auto i = find_marker(name))
    return *i;
  std::string known;
  for (std::size_t i = 0; i < m_markers.size() && i < 12; ++i) {
    known += (i ? ", '" : "'") + m_markers[i].name + "'";
  }
  if (m_markers.size() > 12)
    known += ", ...";
  throw MocapInputError(
      {m_info.source, 0, 0, "marker '" + std::string(name) + "'"},
      "no such marker in the take" +
          (known.empty() ? std::string(" (it has no markers)") : " (markers: " + known + ")"));
}

std::optional<std::size_t> Take::find_rigid_body(std::string_view name) const {
  for (std::size_t i = 0; i < m_rigid_bodies.size(); ++i) {
    if (m_rigid_bodies[i].name == name)
      return i;
  }
  return std::nullopt;
}

}  // namespace clothfit::mocap
