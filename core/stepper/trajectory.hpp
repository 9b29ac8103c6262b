// Trajectory: a prescribed position over time, piecewise linear between keyframes and constant
// before the first and after the last one. Used for held nodes (scripted or recorded).
#pragma once

#include <Eigen/Core>
#include <vector>

namespace clothfit::stepper {

class Trajectory {
 public:
  Trajectory() = default;
  // A fixed position (m).
  explicit Trajectory(const Eigen::Vector3d& position) : m_times{0.0}, m_positions{position} {}
  // Keyframes: strictly increasing times (s), positions (m), same length ≥ 1.
  Trajectory(std::vector<double> times, std::vector<Eigen::Vector3d> positions);

  Eigen::Vector3d position(double time) const;
  bool empty() const { return m_times.empty(); }
  // The keyframes' times (s) and positions (m), as given.
  const std::vector<double>& times() const { return m_times; }
  const std::vector<Eigen::Vector3d>& positions() const { return m_positions; }

 private:
  std::vector<double> m_times;
  std::vector<Eigen::Vector3d> m_positions;
};

}  // namespace clothfit::stepper
