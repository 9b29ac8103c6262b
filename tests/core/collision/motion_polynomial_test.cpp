// Motion polynomials: values match the directly computed products, and the carried error bound
// covers the difference to a long double evaluation, also far from the origin (large offsets make
// the coefficients cancel).
#include "core/collision/motion_polynomial.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <random>
#include "support/random_vector.hpp"

namespace clothfit::collision {
namespace {

using Eigen::Vector3d;
using Vector3l = Eigen::Matrix<long double, 3, 1>;

TEST(MotionPolynomial, ErrorBoundCoversLongDoubleReference) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> coordinate(-1.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const double offset = trial % 2 == 0 ? 0.0 : 1e3;
    Vector3d x[8];
    for (Vector3d& v : x) {
      v = clothfit::testing::random_vector3(coordinate, rng) + Vector3d::Constant(offset);
    }
    const double tau = 0.3;
    // V and the degree-6 proximity polynomial of a point-triangle motion (x0, x1, x2 = a, b, c;
    // x3 = p; _t1 in x[4..7]).
    const MotionVector ab = relative_motion(x[0], x[1], x[4], x[5]);
    const MotionVector ac = relative_motion(x[0], x[2], x[4], x[6]);
    const MotionVector ap = relative_motion(x[0], x[3], x[4], x[7]);
    const MotionVector n = cross(ab, ac);
    const MotionPolynomial v = dot(n, ap);
    const MotionPolynomial f = v * v - scaled(dot(n, n), tau * tau);
    ASSERT_EQ(v.degree, 3);
    ASSERT_EQ(f.degree, 6);
    for (double t : {0.0, 0.25, 0.5, 0.9, 1.0}) {
      Vector3l p[4];
      for (int i = 0; i < 4; ++i) {
        p[i] =
            (1.0L - t) * x[i].cast<long double>() + (long double)t * x[i + 4].cast<long double>();
      }
      const Vector3l nl = (p[1] - p[0]).cross(p[2] - p[0]);
      const long double vl = nl.dot(p[3] - p[0]);
      const long double fl = vl * vl - (long double)tau * tau * nl.squaredNorm();
      ASSERT_LE(std::abs((long double)v(t) - vl), (long double)v.error_bound()) << trial;
      ASSERT_LE(std::abs((long double)f(t) - fl), (long double)f.error_bound()) << trial;
    }
  }
}

}  // namespace
}  // namespace clothfit::collision
