// Stick: a rigid rod between two moving end points (paper §7.4), e.g. the hitting stick of the
// recordings, whose two end markers give end0 and end1. The stepper splits it into segments no
// longer than max_segment_length and keeps every cloth edge at least `radius` from them (and every
// cloth triangle at least `radius` from its two end points) with the continuous detection and
// response rows of CollisionSet (collision_set.hpp).
#pragma once

#include "core/stepper/trajectory.hpp"

namespace clothfit::stepper {

struct Stick {
  static constexpr int kMaxSegments = 10'000;

  Trajectory end0, end1;             // world positions of the two ends over time, m
  double radius = 0.0075;            // τ0 of the stick, m
  double max_segment_length = 0.05;  // split into segments no longer than this, m
  double friction = 0.0;             // μ between cloth and stick

  // Segments of the stick: its length at t = 0 over max_segment_length, rounded up, between 1
  // and kMaxSegments (scenario files asking for more are refused; a stick between recorded
  // markers is clamped).
  int segment_count() const;
};

}  // namespace clothfit::stepper
