// The simulation's initial state from a recording's first frame (DESIGN.md §3): the markers are
// placed on their nodes, the nodes between them interpolated bilinearly within each marker cell,
// and the result projected onto the inextensibility constraints C(φ) = 0 of the flat rest sheet
// (the M-closest inextensible configuration, held nodes at their recorded positions, obstacles
// respected).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/stepper/simulation_model.hpp"

namespace clothfit::fitting {

// Positions (3N) of a grid mesh of (k(rows−1)+1) × (k(columns−1)+1) nodes from marker positions
// (rows·columns × 3, row-major marker grid, no NaN), bilinear within each marker cell.
Eigen::VectorXd interpolate_marker_grid(const Eigen::Ref<const Eigen::MatrixX3d>& markers, int rows,
                                        int columns, int refinement);

struct ProjectionResult {
  Eigen::VectorXd positions;   // (3N), m
  double max_violation = 0.0;  // InextensibilityConstraints::max_violation after projecting
  double moved_m = 0.0;        // largest node displacement of the projection, m
  int iterations = 0;          // projection iterations in all
  bool converged = false;
  std::string message;
};

// Projects `guess` (3N) onto C(φ) = 0 for `model`'s mesh, with the model's held nodes at their
// positions at t = 0 and its obstacles: repeated zero-gravity, zero-velocity steps of the model's
// stepper (each a Newton projection in the ρM metric) until one converges.
ProjectionResult project_onto_constraints(const stepper::SimulationModel& model,
                                          const Eigen::VectorXd& guess, int max_rounds = 6);

// Lets the nodes between the markers hang naturally: the marker nodes (and the held nodes) are
// held where `start` (3N, a converged inextensible state) has them while the rest settles under
// gravity with heavy damping for hold_s seconds. (The shape of a hanging inextensible sheet does
// not depend on the strength of gravity, so δ = ρ is used.) Stops at the last converged step.
ProjectionResult settle_between_markers(const stepper::SimulationModel& model,
                                        const Eigen::VectorXd& start,
                                        const std::vector<int>& marker_nodes, double hold_s = 0.3);

}  // namespace clothfit::fitting
