// A random 3-vector from three draws taken in a fixed order. Eigen::Vector3d(d(rng), d(rng),
// d(rng)) leaves the order of its three draws to the compiler (GCC draws z first, clang x first),
// so a seeded test would run other trials when another compiler builds it. The order here is
// GCC's, the one the tests' trials were drawn in before.
#pragma once

#include <Eigen/Core>

namespace clothfit::testing {

template <class Distribution, class Engine>
Eigen::Vector3d random_vector3(Distribution& distribution, Engine& rng) {
  const double z = distribution(rng);
  const double y = distribution(rng);
  const double x = distribution(rng);
  return Eigen::Vector3d(x, y, z);
}

}  // namespace clothfit::testing
