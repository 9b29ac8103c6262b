// Random QPs with the structure of the simulator's projection QPs (DESIGN.md §2), with a known
// solution, for the QP solver tests.
//
// - n = 3N variables (N nodes), D = diag(mass) with lumped masses mass_scale × U[0.2, 5] (the
//   same for the three coordinates of a node);
// - equality rows touching 2–4 nodes: Σ w_k ∇‖p_a − p_b‖² over a chain of node pairs at random
//   positions p (the gradients of the quadratic inextensibility constraints); optionally with all
//   nodes in the plane z = 0 (a flat sheet) and with duplicated rows (a multiple of one row, or a
//   combination of two) that make A_E rank deficient while staying consistent;
// - inequality rows touching 1–3 nodes: a unit contact normal n times +1 (node–obstacle),
//   (+1, −1) (node–node) or (+1, −w, −(1 − w)) (node–edge);
// - optionally a curvature K = Σ_t w_t (q_t q_tᵀ) ⊗ I₃ (num_curvature_terms terms), each q_t a
//   vector over 2–4 distinct nodes with entries U[−1, 1], made to sum to zero for every other term
//   (then K is blind to a translation of those nodes, like the constraint curvature Σ λ_i ∇²C_i of
//   a Newton step), w_t = curvature_scale × mass_scale × U[0.2, 5] / ‖q_t‖²: positive
//   semidefinite, stored as its lower triangle (n × n); 0 × 0 when there are no terms;
// - a known solution built first: x* ~ step_scale, multipliers λ, γ ≥ 0 (γ > 0 on the rows chosen
//   active), inactive slacks s > 0; then f = (D + K) x* + A_Eᵀ λ − A_Iᵀ γ, c_E = −A_E x*,
//   c_I = s − A_I x*. The forces of λ and γ are of the size of (D + K) x*, i.e. scaled by
//   1 + curvature_scale when there is a K. The problem is feasible and (D + K positive definite)
//   x* is its unique solution;
//   (λ, γ) are its multipliers (duplicates get multiplier 0). They are unique only when the rows
//   are independent: no duplicates, and num_equalities ≤ 3N − 6 (2N − 3 when flat), because the
//   rigid motions (in-plane ones when flat) are in the null space of every equality row.
// - Active rows are oriented so that a fraction of them is violated at x = 0 (c_I,i < 0): the
//   solver starts from an infeasible point, as after the unconstrained predictor.
// Everything is drawn from the caller's std::mt19937, so a seed reproduces the problem; the
// curvature terms are drawn last, so options without them give the same problems as before.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "core/qp/qp_problem.hpp"
#include "support/random_vector.hpp"

namespace clothfit::testing {

struct RandomQpOptions {
  int num_nodes = 20;                      // N; n = 3N variables
  int num_equalities = 24;                 // independent equality rows (≤ 3N − active rows)
  int num_duplicate_equalities = 0;        // extra rows dependent on the independent ones
  int num_inequalities = 16;               // contact rows
  double active_fraction = 0.4;            // of the inequality rows, active at x* with γ > 0
  double violated_at_zero_fraction = 0.5;  // of the active rows, violated at x = 0
  bool flat = false;                       // all node positions in z = 0
  double mass_scale = 1e-3;                // kg; node masses are mass_scale × U[0.2, 5]
  double position_scale = 0.5;             // m; node positions uniform in [0, position_scale]³
  double step_scale = 1e-3;                // m; entries of x* are step_scale × U[−1, 1]
  int num_curvature_terms = 0;             // rank-3 terms w (q qᵀ) ⊗ I₃ of K; 0: no curvature
  double curvature_scale = 1.0;            // entries of K ~ curvature_scale × mass_scale
};

struct RandomQp {
  qp::QpProblem problem;
  qp::QpSolution solution;   // x*, λ, γ, and the rows active at x* (ascending)
  int violated_at_zero = 0;  // inequality rows with c_I,i < 0
};

namespace detail {

inline double uniform(std::mt19937& rng, double low, double high) {
  return std::uniform_real_distribution<double>(low, high)(rng);
}

inline int uniform_int(std::mt19937& rng, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(rng);
}

// `count` distinct node indices in [0, num_nodes).
inline std::vector<int> distinct_nodes(std::mt19937& rng, int num_nodes, int count) {
  std::vector<int> nodes;
  while (static_cast<int>(nodes.size()) < count) {
    const int node = uniform_int(rng, 0, num_nodes - 1);
    if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) {
      nodes.push_back(node);
    }
  }
  return nodes;
}

inline Eigen::Vector3d random_unit_vector(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  Eigen::Vector3d v = clothfit::testing::random_vector3(normal, rng);
  while (v.norm() < 1e-3) {
    v = clothfit::testing::random_vector3(normal, rng);
  }
  return v.normalized();
}

// A dense row (n) as a sparse row-major matrix row list.
inline qp::SparseRowMatrix rows_to_sparse(const std::vector<Eigen::VectorXd>& rows, int n) {
  std::vector<Eigen::Triplet<double>> triplets;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    for (int j = 0; j < n; ++j) {
      if (rows[i][j] != 0.0) {
        triplets.emplace_back(i, j, rows[i][j]);
      }
    }
  }
  qp::SparseRowMatrix matrix(static_cast<int>(rows.size()), n);
  matrix.setFromTriplets(triplets.begin(), triplets.end());
  matrix.makeCompressed();
  return matrix;
}

inline Eigen::VectorXd to_vector(const std::vector<double>& values) {
  return Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<int>(values.size()));
}

}  // namespace detail

inline RandomQp make_random_qp(const RandomQpOptions& options, std::mt19937& rng) {
  using detail::uniform;
  using detail::uniform_int;
  const int num_nodes = options.num_nodes;
  const int n = 3 * num_nodes;
  assert(num_nodes >= 4);
  const int num_active =
      static_cast<int>(std::lround(options.active_fraction * options.num_inequalities));
  assert(options.num_equalities + num_active <= n);
  (void)num_active;

  // Node positions (m) and lumped masses (kg).
  std::vector<Eigen::Vector3d> positions(num_nodes);
  for (Eigen::Vector3d& p : positions) {
    // z first, then y, then x: the order of random_vector3 (support/random_vector.hpp).
    const double z = options.flat ? 0.0 : uniform(rng, 0.0, 1.0);
    const double y = uniform(rng, 0.0, 1.0);
    const double x = uniform(rng, 0.0, 1.0);
    p = Eigen::Vector3d(x, y, z) * options.position_scale;
  }
  Eigen::VectorXd mass(n);
  for (int k = 0; k < num_nodes; ++k) {
    mass.segment<3>(3 * k).setConstant(options.mass_scale * uniform(rng, 0.2, 5.0));
  }

  // The known solution.
  Eigen::VectorXd x(n);
  for (int j = 0; j < n; ++j) {
    x[j] = options.step_scale * uniform(rng, -1.0, 1.0);
  }
  // N, of D x* (of (D + K) x* with a curvature term): the size of the drawn multipliers' forces.
  // Contact forces far below the Hessian's forces would make x ill-determined by the contacts
  // (a relative complementarity of 1e-10 then moves x by ~1e-10 F / (γ ‖a‖) in units of L).
  const double force_scale =
      options.mass_scale * options.step_scale *
      (options.num_curvature_terms > 0 ? 1.0 + options.curvature_scale : 1.0);

  // Equality rows: gradients of Σ w ‖p_a − p_b‖² over a chain of 2–4 nodes.
  // Two rows on the same node pair would be parallel: each pair is used by at most one row.
  std::vector<Eigen::VectorXd> equality_rows;
  std::vector<double> lambda;
  std::set<std::pair<int, int>> used_pairs;
  for (int i = 0; i < options.num_equalities; ++i) {
    std::vector<int> nodes = detail::distinct_nodes(rng, num_nodes, uniform_int(rng, 2, 4));
    while (
        nodes.size() == 2 &&
        !used_pairs.insert({std::min(nodes[0], nodes[1]), std::max(nodes[0], nodes[1])}).second) {
      nodes = detail::distinct_nodes(rng, num_nodes, 2);
    }
    Eigen::VectorXd row = Eigen::VectorXd::Zero(n);
    for (std::size_t k = 0; k + 1 < nodes.size(); ++k) {
      const int a = nodes[k];
      const int b = nodes[k + 1];
      const Eigen::Vector3d gradient = 2.0 * uniform(rng, 0.5, 1.5) * (positions[a] - positions[b]);
      row.segment<3>(3 * a) += gradient;
      row.segment<3>(3 * b) -= gradient;
    }
    equality_rows.push_back(row);
    lambda.push_back(uniform(rng, -1.0, 1.0) * force_scale / row.norm());
  }
  for (int i = 0; i < options.num_duplicate_equalities && options.num_equalities > 0; ++i) {
    const int first = uniform_int(rng, 0, options.num_equalities - 1);
    Eigen::VectorXd row = uniform(rng, 0.5, 2.0) * equality_rows[first];
    if (i % 2 == 1 && options.num_equalities > 1) {
      const int second = uniform_int(rng, 0, options.num_equalities - 1);
      row += uniform(rng, -2.0, 2.0) * equality_rows[second];
    }
    if (uniform(rng, 0.0, 1.0) < 0.5) {
      row = -row;
    }
    equality_rows.push_back(row);
    lambda.push_back(0.0);
  }

  // Inequality rows: a unit normal on 1–3 nodes; the first num_active are active at x*.
  std::vector<Eigen::VectorXd> inequality_rows;
  std::vector<double> gamma;
  std::vector<double> slack;
  for (int i = 0; i < options.num_inequalities; ++i) {
    const int count = uniform_int(rng, 1, 3);
    const std::vector<int> nodes = detail::distinct_nodes(rng, num_nodes, count);
    const Eigen::Vector3d normal = detail::random_unit_vector(rng);
    const double w = uniform(rng, 0.0, 1.0);
    const double weights[3] = {1.0, count == 2 ? -1.0 : -w, -(1.0 - w)};
    Eigen::VectorXd row = Eigen::VectorXd::Zero(n);
    for (int k = 0; k < count; ++k) {
      row.segment<3>(3 * nodes[k]) += weights[k] * normal;
    }
    const bool active = i < num_active;
    if (active) {
      // c_I,i = −a_i x*, violated at zero iff a_i x* > 0: orient the row accordingly.
      const bool violated = uniform(rng, 0.0, 1.0) < options.violated_at_zero_fraction;
      if ((row.dot(x) > 0.0) != violated) {
        row = -row;
      }
    }
    inequality_rows.push_back(row);
    gamma.push_back(active ? uniform(rng, 0.1, 1.0) * force_scale / row.norm() : 0.0);
    slack.push_back(active ? 0.0 : uniform(rng, 0.1, 1.0) * options.step_scale * row.norm());
  }

  // Curvature K (lower triangle), drawn last.
  std::vector<Eigen::Triplet<double>> curvature_triplets;
  for (int t = 0; t < options.num_curvature_terms; ++t) {
    const std::vector<int> nodes = detail::distinct_nodes(rng, num_nodes, uniform_int(rng, 2, 4));
    Eigen::VectorXd q(static_cast<int>(nodes.size()));
    for (int a = 0; a < q.size(); ++a) {
      q[a] = uniform(rng, -1.0, 1.0);
    }
    if (t % 2 == 0) {
      q.array() -= q.mean();
    }
    const double weight =
        options.curvature_scale * options.mass_scale * uniform(rng, 0.2, 5.0) / q.squaredNorm();
    for (int a = 0; a < q.size(); ++a) {
      for (int b = 0; b < q.size(); ++b) {
        if (nodes[a] < nodes[b]) {
          continue;  // lower triangle: node row ≥ node column
        }
        for (int d = 0; d < 3; ++d) {
          curvature_triplets.emplace_back(3 * nodes[a] + d, 3 * nodes[b] + d, weight * q[a] * q[b]);
        }
      }
    }
  }

  RandomQp result;
  qp::QpProblem& problem = result.problem;
  problem.mass = mass;
  if (!curvature_triplets.empty()) {
    problem.curvature.resize(n, n);
    problem.curvature.setFromTriplets(curvature_triplets.begin(), curvature_triplets.end());
    problem.curvature.makeCompressed();
  }
  problem.equality_jacobian = detail::rows_to_sparse(equality_rows, n);
  problem.inequality_jacobian = detail::rows_to_sparse(inequality_rows, n);
  const Eigen::VectorXd lambda_vector = detail::to_vector(lambda);
  const Eigen::VectorXd gamma_vector = detail::to_vector(gamma);
  problem.linear = mass.cwiseProduct(x);
  if (problem.has_curvature()) {
    problem.linear += problem.curvature.selfadjointView<Eigen::Lower>() * x;
  }
  if (!equality_rows.empty()) {
    problem.linear += problem.equality_jacobian.transpose() * lambda_vector;
  }
  if (!inequality_rows.empty()) {
    problem.linear -= problem.inequality_jacobian.transpose() * gamma_vector;
  }
  problem.equality_offset = -(problem.equality_jacobian * x);
  problem.inequality_offset = detail::to_vector(slack) - problem.inequality_jacobian * x;
  if (equality_rows.empty()) {
    problem.equality_offset.resize(0);
  }
  if (inequality_rows.empty()) {
    problem.inequality_offset.resize(0);
  }

  result.solution.x = x;
  result.solution.equality_multipliers = lambda_vector;
  result.solution.inequality_multipliers = gamma_vector;
  for (int i = 0; i < problem.num_inequalities(); ++i) {
    if (gamma[i] > 0.0) {
      result.solution.active_inequalities.push_back(i);
    }
    if (problem.inequality_offset[i] < 0.0) {
      ++result.violated_at_zero;
    }
  }
  return result;
}

// `qp`'s problem with every third inequality row turned into a pinned row holding at x* (so that
// the problem stays feasible; x* is no longer optimal), moved off it by offset_noise × U[−1, 1]
// when offset_noise > 0 (then the problem may be infeasible), and bounded by U[0.05, 0.5] × 1e-3
// when `bounded` (friction rows).
inline qp::QpProblem with_pinned_rows(const RandomQp& qp, bool bounded, double offset_noise,
                                      std::mt19937& rng) {
  qp::QpProblem problem = qp.problem;
  const int n = problem.num_variables();
  std::vector<Eigen::Triplet<double>> kept, pinned;
  std::vector<double> kept_offset, pinned_offset, bounds;
  for (int i = 0; i < qp.problem.num_inequalities(); ++i) {
    const bool pin = i % 3 == 2;
    const int row = static_cast<int>(pin ? pinned_offset.size() : kept_offset.size());
    for (qp::SparseRowMatrix::InnerIterator it(qp.problem.inequality_jacobian, i); it; ++it)
      (pin ? pinned : kept).emplace_back(row, static_cast<int>(it.col()), it.value());
    double offset = qp.problem.inequality_offset[i];
    if (pin) {
      offset = offset_noise > 0.0 ? offset_noise * detail::uniform(rng, -1.0, 1.0) : 0.0;
      for (qp::SparseRowMatrix::InnerIterator it(qp.problem.inequality_jacobian, i); it; ++it)
        offset -= it.value() * qp.solution.x[it.col()];
    }
    (pin ? pinned_offset : kept_offset).push_back(offset);
    if (pin)
      bounds.push_back(detail::uniform(rng, 0.05, 0.5) * 1e-3);
  }
  problem.inequality_jacobian.resize(static_cast<int>(kept_offset.size()), n);
  problem.inequality_jacobian.setFromTriplets(kept.begin(), kept.end());
  problem.inequality_offset = Eigen::Map<Eigen::VectorXd>(kept_offset.data(), kept_offset.size());
  problem.pinned_jacobian.resize(static_cast<int>(pinned_offset.size()), n);
  problem.pinned_jacobian.setFromTriplets(pinned.begin(), pinned.end());
  problem.pinned_offset = Eigen::Map<Eigen::VectorXd>(pinned_offset.data(), pinned_offset.size());
  if (bounded)
    problem.pinned_bound = Eigen::Map<Eigen::VectorXd>(bounds.data(), bounds.size());
  return problem;
}

}  // namespace clothfit::testing
