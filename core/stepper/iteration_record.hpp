// IterationRecord: what one projection iteration of a time step did — the QP it solved and the
// step it took from it — for watching how a step converges (`clothfit simulate --iterations`
// writes one row per record). TimeStepper fills records only while an observer is set
// (TimeStepper::set_iteration_observer); without one a step does no extra work.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <string_view>

namespace clothfit::stepper {

// The model of the iteration's QP (StepperOptions and README "The model and how a step is
// solved"): Newton with the semidefinite curvature model, Newton with the exact curvature, or the
// paper's Gauss–Newton projection (no curvature; a step's fallback).
enum class ProjectionModel { kNewton, kNewtonExactCurvature, kGaussNewton };

std::string_view to_string(ProjectionModel model);  // "newton", "newton-exact", "gauss-newton"

struct IterationRecord {
  long step = 0;      // the step being taken, 1 for the first
  double time = 0.0;  // the time the step ends at, s
  // Earlier projections of this step, each taken again from the step's start: with ω ← 0.9ω
  // (paper §4.1), or after reaching the iteration cap (StepperOptions::retry_capped_steps).
  int attempt = 0;
  int iteration = 0;  // j, 0 for the step's first QP
  ProjectionModel model = ProjectionModel::kNewton;
  bool refactored = false;  // the QP factored its matrices (else it kept the last factorisation)
  // ‖Δφ_{j−1}‖∞ / ‖Δφ_{j−2}‖∞, the contraction rate the iteration saw before this QP (0 for j < 2).
  double theta = 0.0;
  double constraint_residual = 0.0;  // ‖C(φ_j)‖∞ before the QP, dimensionless
  double held_residual = 0.0;        // max distance of a held node to its target before the QP, m
  // min over the contact and collision rows of h(φ_j) − bound before the QP, m (+∞: none).
  double min_contact = std::numeric_limits<double>::infinity();
  int qp_working_set_changes = 0;  // of the QP (QpSummary::iterations)
  // Of them, friction rows moved to their bound and brought back from it (QpSummary::
  // pinned_rows_to_bound, pinned_rows_returned); the rest are contact and collision rows entering
  // and leaving.
  int friction_rows_to_bound = 0;
  int friction_rows_returned = 0;
  int active_rows = 0;      // inequality rows active at the QP's solution
  double step_scale = 1.0;  // the line search's factor on the QP's step (1: the full step)
  double increment = 0.0;   // ‖φ_{j+1} − φ_j‖∞, m
  // The node that holds the coordinate with the largest change (|Δφ| = increment), and its
  // displacement in this iteration, m.
  int largest_node = -1;
  Eigen::Vector3d largest_displacement = Eigen::Vector3d::Zero();
};

using IterationObserver = std::function<void(const IterationRecord&)>;

}  // namespace clothfit::stepper
