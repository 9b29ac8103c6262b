// SelfCollisionOptions: the cloth's thickness and the proximity parameter of the continuous
// self-collision handling (paper §3.2–3.3, §4.1; CollisionSet in collision_set.hpp).
#pragma once

namespace clothfit::stepper {

struct SelfCollisionOptions {
  // Off by default: detection costs a broad phase and CCD pass per projection iteration.
  bool enabled = false;
  // τ0: response rows keep non-adjacent node–triangle and edge–edge pairs at least this far
  // apart, m. Must stay well below the mesh's edge length.
  double thickness = 0.004;
  // ω (dimensionless, 0 < ω < 1/2): pairs are detected when they come within 2·ω·τ0 during the
  // motion φⁿ → φ_j. Also used for the stick (with its radius as τ0).
  double proximity = 0.45;
  // When the final check with ω = 0 still finds a crossing, the step is redone from φ0 with
  // ω ← proximity_reduction·ω, at most max_retries times (paper §4.1).
  double proximity_reduction = 0.9;
  int max_retries = 10;
  // The largest max_retries a scenario file may ask for. After 100 reductions by the default 0.9,
  // ω is 0.9^100 ≈ 2.7e-5 of its start (2ωτ0 ≈ 1e-7 m with the default τ0 and ω), hardly more
  // than the final check's ω = 0, so further retries would hardly change what the projection
  // sees; they would only make the step longer, and Ctrl-C and SIGTERM stop a run only between
  // steps. Each retry is a whole projection (up to max_iterations QPs).
  static constexpr int kMaxRetriesLimit = 100;
};

}  // namespace clothfit::stepper
