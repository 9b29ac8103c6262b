#include "core/qp/qp_kkt.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace clothfit::qp {
namespace {

constexpr double kTinyScale = 1e-300;

// Euclidean norms of the rows of a row-major sparse matrix: (rows).
Eigen::VectorXd row_norms(const SparseRowMatrix& matrix) {
  Eigen::VectorXd norms(matrix.rows());
  for (int row = 0; row < matrix.outerSize(); ++row) {
    double sum = 0.0;
    for (SparseRowMatrix::InnerIterator it(matrix, row); it; ++it) {
      sum += it.value() * it.value();
    }
    norms[row] = std::sqrt(sum);
  }
  return norms;
}

// ‖|A|ᵀ|y|‖∞ for A (m × n) and y (m).
double abs_transpose_product_norm(const SparseRowMatrix& matrix, const Eigen::VectorXd& y) {
  if (matrix.rows() == 0) {
    return 0.0;
  }
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(matrix.cols());
  for (int row = 0; row < matrix.outerSize(); ++row) {
    for (SparseRowMatrix::InnerIterator it(matrix, row); it; ++it) {
      sum[it.col()] += std::abs(it.value()) * std::abs(y[row]);
    }
  }
  return sum.lpNorm<Eigen::Infinity>();
}

// |K| |x| (n) for K given by its lower triangle (entries above the diagonal ignored).
Eigen::VectorXd abs_symmetric_product(const Eigen::SparseMatrix<double>& lower,
                                      const Eigen::VectorXd& x) {
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(x.size());
  for (int col = 0; col < lower.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(lower, col); it; ++it) {
      const int row = static_cast<int>(it.row());
      if (row < col) {
        continue;
      }
      const double value = std::abs(it.value());
      sum[row] += value * std::abs(x[col]);
      if (row != col) {
        sum[col] += value * std::abs(x[row]);
      }
    }
  }
  return sum;
}

double inf_norm(const Eigen::VectorXd& v) {
  return v.size() == 0 ? 0.0 : v.lpNorm<Eigen::Infinity>();
}

// residual / scale with the 1e-300 floor of the header.
double relative(double residual, double scale) {
  return residual / std::max(scale, kTinyScale);
}

// Divides by the row norm, or by 1 for an all-zero row.
double per_row_norm(double value, double norm) {
  return norm > 0.0 ? value / norm : value;
}

}  // namespace

double QpKktResidual::max() const {
  return std::max({stationarity, equality, inequality, dual, complementarity});
}

QpKktResidual kkt_residual(const QpProblem& problem, const QpSolution& solution) {
  const int n = problem.num_variables();
  const int m_e = problem.num_equalities();
  const int m_i = problem.num_inequalities();
  assert(solution.x.size() == n);
  assert(solution.equality_multipliers.size() == m_e);
  assert(solution.inequality_multipliers.size() == m_i);
  assert(problem.equality_jacobian.rows() == m_e && problem.equality_jacobian.cols() == n);
  assert(problem.inequality_jacobian.rows() == m_i && problem.inequality_jacobian.cols() == n);
  assert((problem.curvature.rows() == 0 && problem.curvature.cols() == 0) ||
         (problem.curvature.rows() == n && problem.curvature.cols() == n));
  (void)n;

  const int m_p = problem.num_pinned();
  assert(solution.pinned_multipliers.size() == m_p);
  const Eigen::VectorXd& x = solution.x;
  const Eigen::VectorXd& lambda = solution.equality_multipliers;
  const Eigen::VectorXd& gamma = solution.inequality_multipliers;
  const Eigen::VectorXd& sigma = solution.pinned_multipliers;

  // Force terms of the stationarity condition; `hessian_force` is |D x| + |K| |x|.
  const Eigen::VectorXd dx = problem.mass.cwiseProduct(x);
  Eigen::VectorXd stationarity = dx - problem.linear;
  Eigen::VectorXd hessian_force = dx.cwiseAbs();
  if (problem.has_curvature()) {
    stationarity.noalias() += problem.curvature.selfadjointView<Eigen::Lower>() * x;
    hessian_force += abs_symmetric_product(problem.curvature, x);
  }
  if (m_e > 0) {
    stationarity += problem.equality_jacobian.transpose() * lambda;
  }
  if (m_i > 0) {
    stationarity -= problem.inequality_jacobian.transpose() * gamma;
  }
  if (m_p > 0) {
    stationarity -= problem.pinned_jacobian.transpose() * sigma;
  }
  const double objective_force_scale = std::max(inf_norm(hessian_force), inf_norm(problem.linear));
  const double force_scale = std::max(
      {objective_force_scale, abs_transpose_product_norm(problem.equality_jacobian, lambda),
       abs_transpose_product_norm(problem.inequality_jacobian, gamma),
       m_p > 0 ? abs_transpose_product_norm(problem.pinned_jacobian, sigma) : 0.0});

  const Eigen::VectorXd equality_norms = row_norms(problem.equality_jacobian);
  const Eigen::VectorXd inequality_norms = row_norms(problem.inequality_jacobian);
  const Eigen::VectorXd pinned_norms =
      m_p > 0 ? row_norms(problem.pinned_jacobian) : Eigen::VectorXd();

  // Length scale: the step and the distances the offsets ask to move at x = 0.
  double length_scale = inf_norm(x);
  for (int i = 0; i < m_e; ++i) {
    length_scale = std::max(length_scale,
                            per_row_norm(std::abs(problem.equality_offset[i]), equality_norms[i]));
  }
  for (int i = 0; i < m_i; ++i) {
    length_scale = std::max(length_scale, per_row_norm(std::max(0.0, -problem.inequality_offset[i]),
                                                       inequality_norms[i]));
  }
  for (int i = 0; i < m_p; ++i) {
    length_scale =
        std::max(length_scale, per_row_norm(std::abs(problem.pinned_offset[i]), pinned_norms[i]));
  }

  QpKktResidual result;
  result.force_scale = force_scale;
  result.objective_force_scale = objective_force_scale;
  result.length_scale = length_scale;
  result.stationarity = relative(inf_norm(stationarity), force_scale);

  if (m_e > 0) {
    const Eigen::VectorXd residual = problem.equality_offset + problem.equality_jacobian * x;
    double worst = 0.0;
    for (int i = 0; i < m_e; ++i) {
      worst = std::max(worst, per_row_norm(std::abs(residual[i]), equality_norms[i]));
    }
    result.equality = relative(worst, length_scale);
  }

  if (m_i > 0) {
    const Eigen::VectorXd slack = problem.inequality_offset + problem.inequality_jacobian * x;
    double violation = 0.0;
    double dual = 0.0;
    double complementarity = 0.0;
    for (int i = 0; i < m_i; ++i) {
      violation = std::max(violation, per_row_norm(std::max(0.0, -slack[i]), inequality_norms[i]));
      const double wrong_sign = std::max(0.0, -gamma[i]);
      dual = std::max(dual, wrong_sign * inequality_norms[i]);
      complementarity = std::max(complementarity, std::abs(gamma[i] * slack[i]));
    }
    result.inequality = relative(violation, length_scale);
    result.dual = relative(dual, force_scale);
    result.complementarity = relative(complementarity, force_scale * length_scale);
  }

  // Pinned rows, r = c_P + A_P x: an unbounded row is an equality (r = 0). A bounded one
  // (|σ| ≤ b) needs r = 0 while |σ| < b — complementarity (b − |σ|)|r| = 0 — and at the bound a
  // force that opposes r: r σ ≤ 0.
  if (m_p > 0) {
    const Eigen::VectorXd residual = problem.pinned_offset + problem.pinned_jacobian * x;
    double equality = 0.0, wrong_direction = 0.0, dual = 0.0, complementarity = 0.0;
    for (int i = 0; i < m_p; ++i) {
      const double bound = problem.pinned_bound_of(i);
      if (!std::isfinite(bound)) {
        equality = std::max(equality, per_row_norm(std::abs(residual[i]), pinned_norms[i]));
        continue;
      }
      const double r = residual[i];
      if (sigma[i] != 0.0)
        wrong_direction = std::max(
            wrong_direction, per_row_norm(std::max(0.0, sigma[i] > 0.0 ? r : -r), pinned_norms[i]));
      dual = std::max(dual, std::max(0.0, std::abs(sigma[i]) - bound) * pinned_norms[i]);
      complementarity =
          std::max(complementarity, std::max(0.0, bound - std::abs(sigma[i])) * std::abs(r));
    }
    result.equality = std::max(result.equality, relative(equality, length_scale));
    result.inequality = std::max(result.inequality, relative(wrong_direction, length_scale));
    result.dual = std::max(result.dual, relative(dual, force_scale));
    result.complementarity =
        std::max(result.complementarity, relative(complementarity, force_scale * length_scale));
  }
  return result;
}

}  // namespace clothfit::qp
