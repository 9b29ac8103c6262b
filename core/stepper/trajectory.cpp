#include "core/stepper/trajectory.hpp"

#include <algorithm>
#include <cassert>

namespace clothfit::stepper {

Trajectory::Trajectory(std::vector<double> times, std::vector<Eigen::Vector3d> positions)
    : m_times(std::move(times)), m_positions(std::move(positions)) {
  assert(!m_times.empty() && m_times.size() == m_positions.size());
  assert(std::is_sorted(m_times.begin(), m_times.end()));
}

Eigen::Vector3d Trajectory::position(double time) const {
  assert(!m_times.empty());
  if (time <= m_times.front())
    return m_positions.front();
  if (time >= m_times.back())
    return m_positions.back();
  const auto it = std::upper_bound(m_times.begin(), m_times.end(), time);
  const std::size_t hi = static_cast<std::size_t>(it - m_times.begin());
  const std::size_t lo = hi - 1;
  const double s = (time - m_times[lo]) / (m_times[hi] - m_times[lo]);
  return (1.0 - s) * m_positions[lo] + s * m_positions[hi];
}

}  // namespace clothfit::stepper
