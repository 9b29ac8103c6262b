// RecordingObjective: one simulation of a recording for given parameter values, and its error
// against the recording frame by frame (e_n, s_n) — the function every fit, sweep and table
// evaluates. Thread-safe: each evaluate() builds its own model copy and stepper.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "fitting/error_metrics.hpp"
#include "fitting/model_parameters.hpp"
#include "fitting/recording_setup.hpp"

namespace clothfit::fitting {

struct Evaluation {
  std::vector<double> values;      // the parameter values (one per ModelParameters spec)
  std::vector<FrameError> frames;  // e_n, s_n for n = 1 … frames−1 (empty unless kept)
  std::vector<bool> contact;       // per frame n = 1 …: anything in contact with the cloth
  // Simulated marker positions (frames × cells × 3, frame 0 the initial state), m; kept frames
  // only.
  std::vector<double> simulated_m;
  ErrorSummary errors;         // Σ e_n, ē, s̄ over n = 1 …
  double objective = 0.0;      // Σ e_n, m (+∞ when the run failed)
  bool ok = false;             // the simulation reached the last frame
  long unconverged_steps = 0;  // steps that hit the projection iteration cap
  // steps taken again after reaching the cap (stepper::StepReport::cap_retry), converged or not
  long retried_steps = 0;
  double mean_iterations = 0.0;
  double wall_seconds = 0.0;  // simulation only
  double q = 0.0;             // wall_seconds / simulated seconds
  std::string message;        // why the run failed, or the first iteration-cap step
};

class RecordingObjective {
 public:
  // Both must outlive the objective.
  RecordingObjective(const RecordingSetup& setup, const ModelParameters& parameters);

  // Simulates with `values` (one per parameter spec). keep_frames: fill frames and contact.
  Evaluation evaluate(std::span<const double> values, bool keep_frames = false) const;
  // The same with a different QP solver (for the solver comparison of the hitting table) and,
  // for replica r ≥ 1, initial velocities drawn from a normal distribution with a standard
  // deviation of kReplicaDisplacement / Δt per coordinate (seeded by r, so a replica is
  // reproducible). The perturbation moves the first step by about 1e-6 m, a tenth of the
  // projection's own increment tolerance ε2 and far below what a recording resolves (1 mm marker
  // noise at 100 Hz is ~0.1 m/s of velocity); on a hanging sheet it changes Σ e_n by ~0.1 %. Where
  // the simulated motion is unstable (a sheet buckling as it lands, a stick hit) the replicas part
  // by centimetres within a second; the spread of their objectives is the objective's noise
  // (objective_noise.hpp).
  Evaluation evaluate(std::span<const double> values, bool keep_frames, qp::QpSolverType solver,
                      int replica = 0) const;
  Evaluation evaluate_replica(std::span<const double> values, int replica) const {
    return evaluate(values, false, m_setup.model.options.qp_solver, replica);
  }

  static constexpr double kReplicaDisplacement = 1e-6;  // m per step of the initial velocity

  const RecordingSetup& setup() const { return m_setup; }
  const ModelParameters& parameters() const { return m_parameters; }

 private:
  const RecordingSetup& m_setup;
  const ModelParameters& m_parameters;
};

// The simulation model of `setup` with `values` applied (and the stick attached).
stepper::SimulationModel make_model(const RecordingSetup& setup, const ModelParameters& parameters,
                                    std::span<const double> values);

}  // namespace clothfit::fitting
