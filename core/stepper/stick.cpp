#include "core/stepper/stick.hpp"

#include <algorithm>
#include <cmath>

namespace clothfit::stepper {

int Stick::segment_count() const {
  const double length = (end1.position(0.0) - end0.position(0.0)).norm();
  // In double until clamped: a tiny max_segment_length overflowed the int.
  const double segments = std::ceil(length / max_segment_length - 1e-9);
  return static_cast<int>(std::clamp(segments, 1.0, static_cast<double>(kMaxSegments)));
}

}  // namespace clothfit::stepper
