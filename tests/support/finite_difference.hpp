// The one finite-difference helper every gradient/Jacobian test uses (STYLE.md rule 7).
#pragma once

#include <Eigen/Core>
#include <functional>

namespace clothfit::testing {

// Central differences of f: Rⁿ → Rᵐ at x with step h; returns the (m × n) Jacobian.
inline Eigen::MatrixXd finite_difference_jacobian(
    const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& x,
    double h = 1e-6) {
  const Eigen::VectorXd f0 = f(x);
  Eigen::MatrixXd jacobian(f0.size(), x.size());
  Eigen::VectorXd xp = x, xm = x;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    xp[j] = x[j] + h;
    xm[j] = x[j] - h;
    jacobian.col(j) = (f(xp) - f(xm)) / (2 * h);
    xp[j] = xm[j] = x[j];
  }
  return jacobian;
}

// max |A − B| / max(1, max |B|): the relative error used for derivative checks.
inline double relative_max_error(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

}  // namespace clothfit::testing
