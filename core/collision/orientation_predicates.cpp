#include "core/collision/orientation_predicates.hpp"

#include <array>
#include <cmath>
#include <limits>

namespace clothfit::collision {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon() * 0.5;  // 2⁻⁵³
constexpr double kOrient2dBound = (3.0 + 16.0 * kEpsilon) * kEpsilon;
constexpr double kOrient3dBound = (7.0 + 56.0 * kEpsilon) * kEpsilon;

// x + y = a + b exactly (Knuth's two-sum).
inline void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double b_virtual = x - a;
  const double a_virtual = x - b_virtual;
  y = (a - a_virtual) + (b - b_virtual);
}

// x + y = a · b exactly.
inline void two_product(double a, double b, double& x, double& y) {
  x = a * b;
  y = std::fma(a, b, -x);
}

// A floating-point expansion: the exact sum of non-overlapping components, increasing magnitude,
// zeros eliminated (Shewchuk's grow-expansion).
template <int Capacity>
class Expansion {
 public:
  void add(double b) {
    double q = b;
    int out = 0;
    for (int i = 0; i < m_size; ++i) {
      double sum, error;
      two_sum(q, m_components[i], sum, error);
      q = sum;
      if (error != 0.0) {
        m_components[out++] = error;
      }
    }
    if (q != 0.0 || out == 0) {
      m_components[out++] = q;
    }
    m_size = out;
  }
  // Adds the exact product x·y·z (four components).
  void add_product(double x, double y, double z) {
    double p, q;
    two_product(x, y, p, q);
    double r, s;
    two_product(p, z, r, s);
    add(r);
    add(s);
    two_product(q, z, r, s);
    add(r);
    add(s);
  }
  int sign() const {
    const double top = m_components[m_size - 1];
    return (top > 0.0) - (top < 0.0);
  }

 private:
  std::array<double, Capacity> m_components{};
  int m_size = 0;
};

// a − b = hi + lo exactly.
struct ExactDifference {
  double hi;
  double lo;
  double operator[](int i) const { return i == 0 ? hi : lo; }
};

inline ExactDifference difference(double a, double b) {
  ExactDifference d;
  two_sum(a, -b, d.hi, d.lo);
  return d;
}

int orient3d_exact(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                   const Eigen::Vector3d& d) {
  ExactDifference m[3][3];
  for (int k = 0; k < 3; ++k) {
    m[0][k] = difference(a[k], d[k]);
    m[1][k] = difference(b[k], d[k]);
    m[2][k] = difference(c[k], d[k]);
  }
  static constexpr int kPermutations[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                              {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  Expansion<6 * 8 * 4 + 1> sum;
  for (int p = 0; p < 6; ++p) {
    const double sign = p < 3 ? 1.0 : -1.0;
    const ExactDifference& x = m[0][kPermutations[p][0]];
    const ExactDifference& y = m[1][kPermutations[p][1]];
    const ExactDifference& z = m[2][kPermutations[p][2]];
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        for (int k = 0; k < 2; ++k) {
          sum.add_product(sign * x[i], y[j], z[k]);
        }
      }
    }
  }
  return sum.sign();
}

int orient2d_exact(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c) {
  const ExactDifference acx = difference(a.x(), c.x()), acy = difference(a.y(), c.y());
  const ExactDifference bcx = difference(b.x(), c.x()), bcy = difference(b.y(), c.y());
  Expansion<2 * 4 * 4 + 1> sum;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      sum.add_product(acx[i], bcy[j], 1.0);
      sum.add_product(-acy[i], bcx[j], 1.0);
    }
  }
  return sum.sign();
}

}  // namespace

int orient3d(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
             const Eigen::Vector3d& d) {
  const double adx = a.x() - d.x(), ady = a.y() - d.y(), adz = a.z() - d.z();
  const double bdx = b.x() - d.x(), bdy = b.y() - d.y(), bdz = b.z() - d.z();
  const double cdx = c.x() - d.x(), cdy = c.y() - d.y(), cdz = c.z() - d.z();
  const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
  const double cdxady = cdx * ady, adxcdy = adx * cdy;
  const double adxbdy = adx * bdy, bdxady = bdx * ady;
  const double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
  const double permanent = (std::abs(bdxcdy) + std::abs(cdxbdy)) * std::abs(adz) +
                           (std::abs(cdxady) + std::abs(adxcdy)) * std::abs(bdz) +
                           (std::abs(adxbdy) + std::abs(bdxady)) * std::abs(cdz);
  const double bound = kOrient3dBound * permanent;
  if (det > bound) {
    return 1;
  }
  if (-det > bound) {
    return -1;
  }
  return orient3d_exact(a, b, c, d);
}

int orient2d(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c) {
  const double left = (a.x() - c.x()) * (b.y() - c.y());
  const double right = (a.y() - c.y()) * (b.x() - c.x());
  const double det = left - right;
  const double bound = kOrient2dBound * (std::abs(left) + std::abs(right));
  if (det > bound) {
    return 1;
  }
  if (-det > bound) {
    return -1;
  }
  return orient2d_exact(a, b, c);
}

}  // namespace clothfit::collision
