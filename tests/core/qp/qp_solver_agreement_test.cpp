// Both QP solvers (through make_qp_solver) on the same problems: each must satisfy the KKT
// conditions and they must agree with each other and, for random problems, with the known
// solution. The interior point is the oracle for the active-set method. Problems: random ones
// without and with a curvature term K, and Newton-step QPs captured from the hanging example.
#include <gtest/gtest.h>
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/constraints/inextensibility_constraints.hpp"
#include "core/forces/unconstrained_step.hpp"
#include "core/mesh/quad_mesh.hpp"
#include "core/qp/qp_kkt.hpp"
#include "core/qp/qp_solver.hpp"
#include "core/qp/saddle_point_factorization.hpp"
#include "core/scenario/scenario.hpp"
#include "core/stepper/time_stepper.hpp"
#include "support/test_paths.hpp"
#include "tests/core/qp/random_qp.hpp"

namespace clothfit::qp {
namespace {

// Relative KKT accuracy of both solvers (qp_kkt.hpp scales).
constexpr double kKktTolerance = 1e-8;
// ‖x_active_set − x_interior_point‖∞ relative to the length scale L.
constexpr double kAgreementTolerance = 1e-6;
// With bounded pinned rows both solvers still meet kKktTolerance, but the crowded problems are
// worse conditioned: their solutions agree to 7.5e-6 L (measured), not 1e-6.
constexpr double kBoundedAgreementTolerance = 2e-5;
// Pinned rows' multipliers against their known values, relative to the force scale F, where they
// are unique: over 7,600 such multipliers of random QPs (2026-11-29) Ipopt's were within 1.2e-4
// (8 beyond 2e-5; its KKT residual still below 1e-8), the active set's within 1.4e-11.
constexpr double kInteriorPointMultiplierTolerance = 3e-4;
constexpr double kActiveSetMultiplierTolerance = 1e-8;

testing::RandomQpOptions options_for(int trial) {
  testing::RandomQpOptions options;
  switch (trial % 6) {
    case 0:  // the default: 20 nodes, 24 equalities, 16 contacts
      break;
    case 1:  // flat sheet, many active contacts (a cloth lying on a table)
      options.flat = true;
      options.active_fraction = 0.6;
      break;
    case 2:  // rank-deficient equality rows
      options.num_duplicate_equalities = 5;
      break;
    case 3:  // crowded: many contacts, most active rows violated at x = 0
      options.num_nodes = 30;
      options.num_equalities = 50;
      options.num_inequalities = 60;
      options.active_fraction = 0.5;
      options.violated_at_zero_fraction = 0.9;
      break;
    case 4:  // small, unit scales
      options.num_nodes = 6;
      options.num_equalities = 8;
      options.num_inequalities = 8;
      options.mass_scale = 1.0;
      options.step_scale = 1.0;
      options.position_scale = 1.0;
      break;
    case 5:  // flat sheet with rank 37 of 44 equality rows (in-plane rigid motions, duplicates)
      options.num_equalities = 40;
      options.num_duplicate_equalities = 4;
      options.num_inequalities = 20;
      options.active_fraction = 0.3;
      options.flat = true;
      break;
  }
  return options;
}

// Initial working sets: none, the true active set, and a wrong guess (inactive rows and half of
// the active ones), as the previous time step may hand over.
std::vector<std::vector<int>> working_set_guesses(const testing::RandomQp& qp) {
  const std::vector<int>& active = qp.solution.active_inequalities;
  std::vector<int> wrong;
  for (int i = 0; i < qp.problem.num_inequalities(); ++i) {
    const bool is_active = std::find(active.begin(), active.end(), i) != active.end();
    if (!is_active || i % 2 == 0) {
      wrong.push_back(i);
    }
  }
  return {{}, active, wrong};
}

// Whether the rows active at the known solution (the equality rows and the active contact rows)
// are linearly independent, so that the known multipliers are the only ones. Duplicated rows never
// are; a flat sheet's are when they are few enough (its 24 rows on 20 nodes here, against the
// 2 × 20 − 3 in-plane motions; 40 rows are not); and of the non-flat kinds without duplicates
// about 6 random QPs in 100 are not (measured on 1,500 on 2026-11-29).
bool multipliers_unique(const testing::RandomQp& qp) {
  const QpProblem& problem = qp.problem;
  std::vector<Eigen::Triplet<double>> triplets;
  int row = 0;
  for (int i = 0; i < problem.num_equalities(); ++i, ++row) {
    for (SparseRowMatrix::InnerIterator it(problem.equality_jacobian, i); it; ++it)
      triplets.emplace_back(row, static_cast<int>(it.col()), it.value());
  }
  for (int i : qp.solution.active_inequalities) {
    for (SparseRowMatrix::InnerIterator it(problem.inequality_jacobian, i); it; ++it)
      triplets.emplace_back(row, static_cast<int>(it.col()), it.value());
    ++row;
  }
  QpProblem active = problem;
  active.equality_jacobian.resize(row, problem.num_variables());
  active.equality_jacobian.setFromTriplets(triplets.begin(), triplets.end());
  active.equality_offset = Eigen::VectorXd::Zero(row);
  return static_cast<int>(spanning_equality_rows(active, 1e-10).size()) == row;
}

std::string describe(const QpKktResidual& r) {
  std::ostringstream text;
  text << "stationarity " << r.stationarity << ", equality " << r.equality << ", inequality "
       << r.inequality << ", dual " << r.dual << ", complementarity " << r.complementarity;
  return text.str();
}

TEST(QpSolverAgreement, ActiveSetAndInteriorPointAgreeOnRandomQps) {
  const std::unique_ptr<QpSolver> active_set = make_qp_solver(QpSolverType::kActiveSet);
  const std::unique_ptr<QpSolver> interior_point = make_qp_solver(QpSolverType::kInteriorPoint);
  ASSERT_EQ(active_set->name(), "active-set");
  ASSERT_EQ(interior_point->name(), "interior-point");

  std::mt19937 rng(31337);
  int infeasible_starts = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const testing::RandomQp qp = testing::make_random_qp(options_for(trial), rng);
    SCOPED_TRACE("trial " + std::to_string(trial));
    if (qp.violated_at_zero > 0) {
      ++infeasible_starts;
    }

    QpSolution reference;
    const QpSummary reference_summary = interior_point->solve(qp.problem, {}, &reference);
    ASSERT_TRUE(reference_summary.ok()) << reference_summary.message;
    const QpKktResidual reference_kkt = kkt_residual(qp.problem, reference);
    EXPECT_LT(reference_kkt.max(), kKktTolerance) << describe(reference_kkt);
    const double length_scale = reference_kkt.length_scale;
    EXPECT_LT((reference.x - qp.solution.x).lpNorm<Eigen::Infinity>(),
              kAgreementTolerance * length_scale);

    for (const std::vector<int>& guess : working_set_guesses(qp)) {
      SCOPED_TRACE("initial working set of " + std::to_string(guess.size()) + " rows");
      QpSolution solution;
      const QpSummary summary = active_set->solve(qp.problem, guess, &solution);
      ASSERT_TRUE(summary.ok()) << summary.message;
      const QpKktResidual kkt = kkt_residual(qp.problem, solution);
      EXPECT_LT(kkt.max(), kKktTolerance) << describe(kkt);
      EXPECT_LT((solution.x - reference.x).lpNorm<Eigen::Infinity>(),
                kAgreementTolerance * length_scale);
      std::vector<int> working = solution.active_inequalities;  // the final working set
      std::sort(working.begin(), working.end());
      EXPECT_EQ(working, reference.active_inequalities);
    }
  }
  // The problems start infeasible at x = 0, as after the unconstrained predictor.
  EXPECT_EQ(infeasible_starts, 100);
}

// Solves `problem` with both solvers (the active set, with `active_set_options`, from every
// initial working set in `guesses`) and checks KKT and agreement; returns the interior point's
// solution.
QpSolution expect_solvers_agree(const QpProblem& problem,
                                const std::vector<std::vector<int>>& guesses,
                                const QpSolverOptions& active_set_options = {}) {
  const std::unique_ptr<QpSolver> active_set =
      make_qp_solver(QpSolverType::kActiveSet, active_set_options);
  const std::unique_ptr<QpSolver> interior_point = make_qp_solver(QpSolverType::kInteriorPoint);
  QpSolution reference;
  const QpSummary reference_summary = interior_point->solve(problem, {}, &reference);
  EXPECT_TRUE(reference_summary.ok()) << reference_summary.message;
  const QpKktResidual reference_kkt = kkt_residual(problem, reference);
  EXPECT_LT(reference_kkt.max(), kKktTolerance) << "interior point: " << describe(reference_kkt);
  const double length_scale = reference_kkt.length_scale;
  for (const std::vector<int>& guess : guesses) {
    SCOPED_TRACE("initial working set of " + std::to_string(guess.size()) + " rows");
    QpSolution solution;
    const QpSummary summary = active_set->solve(problem, guess, &solution);
    EXPECT_TRUE(summary.ok()) << summary.message;
    const QpKktResidual kkt = kkt_residual(problem, solution);
    EXPECT_LT(kkt.max(), kKktTolerance) << "active set: " << describe(kkt);
    EXPECT_LT((solution.x - reference.x).lpNorm<Eigen::Infinity>(),
              kAgreementTolerance * length_scale);
    std::vector<int> working = solution.active_inequalities;
    std::sort(working.begin(), working.end());
    EXPECT_EQ(working, reference.active_inequalities);
  }
  return reference;
}

// `base` with its inequality rows replaced by (kept_rows, kept_offset) and pinned rows
// (pinned_rows, pinned_offset), both given as triplets over base's variables.
QpProblem with_rows(const QpProblem& base, const std::vector<Eigen::Triplet<double>>& kept_rows,
                    const std::vector<double>& kept_offset,
                    const std::vector<Eigen::Triplet<double>>& pinned_rows,
                    const std::vector<double>& pinned_offset) {
  QpProblem problem = base;
  const int n = problem.num_variables();
  problem.inequality_jacobian.resize(static_cast<int>(kept_offset.size()), n);
  problem.inequality_jacobian.setFromTriplets(kept_rows.begin(), kept_rows.end());
  problem.inequality_offset =
      Eigen::Map<const Eigen::VectorXd>(kept_offset.data(), kept_offset.size());
  problem.pinned_jacobian.resize(static_cast<int>(pinned_offset.size()), n);
  problem.pinned_jacobian.setFromTriplets(pinned_rows.begin(), pinned_rows.end());
  problem.pinned_offset =
      Eigen::Map<const Eigen::VectorXd>(pinned_offset.data(), pinned_offset.size());
  return problem;
}

// Pinned rows (QpProblem::pinned_jacobian: equalities solved like contact rows that never leave
// the working set, e.g. sticking friction). Every other row that is active at the known solution
// x* moves from the inequality block to the pinned block, and every second moved row is negated
// (row and offset), so that its multiplier σ = −γ is negative: x* stays the solution, and the
// active set must keep pulling rows instead of dropping them. Both solvers must find x*, satisfy
// the KKT conditions with the pinned rows as equalities, and give σ = ±γ when rows are
// independent.
TEST(QpSolverAgreement, PinnedRowsAreEqualitiesWhoseMultipliersMayPull) {
  const std::unique_ptr<QpSolver> active_set = make_qp_solver(QpSolverType::kActiveSet);
  const std::unique_ptr<QpSolver> interior_point = make_qp_solver(QpSolverType::kInteriorPoint);
  std::mt19937 rng(2718);
  int negative_multipliers = 0, unique_trials = 0;
  for (int trial = 0; trial < 36; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const testing::RandomQpOptions options = options_for(trial);
    testing::RandomQp qp = testing::make_random_qp(options, rng);
    const std::vector<int>& active = qp.solution.active_inequalities;
    std::vector<int> moved;
    for (std::size_t a = 0; a < active.size(); a += 2)
      moved.push_back(active[a]);
    std::vector<Eigen::Triplet<double>> kept_rows, pinned_rows;
    std::vector<double> kept_offset, pinned_offset, expected_sigma;
    std::vector<int> kept_index(qp.problem.num_inequalities(), -1);
    for (int i = 0; i < qp.problem.num_inequalities(); ++i) {
      const auto where = std::find(moved.begin(), moved.end(), i);
      const bool pin = where != moved.end();
      const double sign = pin && (where - moved.begin()) % 2 == 1 ? -1.0 : 1.0;
      const int row =
          pin ? static_cast<int>(pinned_offset.size()) : static_cast<int>(kept_offset.size());
      for (SparseRowMatrix::InnerIterator it(qp.problem.inequality_jacobian, i); it; ++it)
        (pin ? pinned_rows : kept_rows)
            .emplace_back(row, static_cast<int>(it.col()), sign * it.value());
      if (pin) {
        pinned_offset.push_back(sign * qp.problem.inequality_offset[i]);
        expected_sigma.push_back(sign * qp.solution.inequality_multipliers[i]);
      } else {
        kept_index[i] = row;
        kept_offset.push_back(qp.problem.inequality_offset[i]);
      }
    }
    QpProblem problem = with_rows(qp.problem, kept_rows, kept_offset, pinned_rows, pinned_offset);
    const bool unique_multipliers = multipliers_unique(qp);
    EXPECT_FALSE(unique_multipliers && options.num_duplicate_equalities > 0);
    unique_trials += unique_multipliers ? 1 : 0;

    for (QpSolver* solver : {active_set.get(), interior_point.get()}) {
      SCOPED_TRACE(std::string(solver->name()));
      QpSolution solution;
      // The active set starts from the remaining rows that were active (the previous step's).
      std::vector<int> seed;
      for (int i : active) {
        if (kept_index[i] >= 0)
          seed.push_back(kept_index[i]);
      }
      const QpSummary summary = solver->solve(problem, seed, &solution);
      ASSERT_TRUE(summary.ok()) << summary.message;
      ASSERT_EQ(solution.pinned_multipliers.size(), problem.num_pinned());
      const QpKktResidual kkt = kkt_residual(problem, solution);
      EXPECT_LT(kkt.max(), kKktTolerance) << describe(kkt);
      EXPECT_LT((solution.x - qp.solution.x).lpNorm<Eigen::Infinity>(),
                kAgreementTolerance * kkt.length_scale);
      for (int p = 0; p < problem.num_pinned(); ++p) {
        negative_multipliers += solution.pinned_multipliers[p] < 0.0 ? 1 : 0;
        if (unique_multipliers) {
          const double tolerance = solver == interior_point.get()
                                       ? kInteriorPointMultiplierTolerance
                                       : kActiveSetMultiplierTolerance;
          EXPECT_NEAR(solution.pinned_multipliers[p], expected_sigma[p],
                      tolerance * kkt.force_scale)
              << "pinned row " << p;
        }
      }
    }
  }
  EXPECT_GT(negative_multipliers, 20);  // pinned rows did pull
  EXPECT_GE(unique_trials, 20);         // of the 24 trials of the kinds without duplicates
}

// Bounded pinned rows (friction by maximal dissipation: |σ| ≤ b, at the bound the force opposes
// the residual). The problems of the test above, with every pinned row bounded by its unbounded
// multiplier times U[0.3, 2]: some rows hold, some slide at their bound, and the sliding ones
// move the others. Ipopt, through without_pinned_rows (slack variables), is the oracle; both must
// satisfy the bounded rows' KKT conditions (qp_kkt.hpp).
TEST(QpSolverAgreement, BoundedPinnedRowsHoldOrSlideAtTheirBound) {
  const std::unique_ptr<QpSolver> active_set = make_qp_solver(QpSolverType::kActiveSet);
  const std::unique_ptr<QpSolver> interior_point = make_qp_solver(QpSolverType::kInteriorPoint);
  std::mt19937 rng(1618);
  int at_bound = 0, held = 0;
  for (int trial = 0; trial < 36; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    testing::RandomQp qp = testing::make_random_qp(options_for(trial), rng);
    // Move all active rows to the pinned block, bounded.
    const std::vector<int>& active = qp.solution.active_inequalities;
    std::vector<Eigen::Triplet<double>> kept_rows, pinned_rows;
    std::vector<double> kept_offset, pinned_offset, bounds;
    for (int i = 0; i < qp.problem.num_inequalities(); ++i) {
      const bool pin = std::find(active.begin(), active.end(), i) != active.end();
      const int row = static_cast<int>(pin ? pinned_offset.size() : kept_offset.size());
      for (SparseRowMatrix::InnerIterator it(qp.problem.inequality_jacobian, i); it; ++it)
        (pin ? pinned_rows : kept_rows).emplace_back(row, static_cast<int>(it.col()), it.value());
      if (pin) {
        pinned_offset.push_back(qp.problem.inequality_offset[i]);
        bounds.push_back(qp.solution.inequality_multipliers[i] *
                         std::uniform_real_distribution<double>(0.3, 2.0)(rng));
      } else {
        kept_offset.push_back(qp.problem.inequality_offset[i]);
      }
    }
    QpProblem problem = with_rows(qp.problem, kept_rows, kept_offset, pinned_rows, pinned_offset);
    problem.pinned_bound = Eigen::Map<Eigen::VectorXd>(bounds.data(), bounds.size());

    QpSolution reference;
    const QpSummary reference_summary = interior_point->solve(problem, {}, &reference);
    ASSERT_TRUE(reference_summary.ok()) << reference_summary.message;
    const QpKktResidual reference_kkt = kkt_residual(problem, reference);
    EXPECT_LT(reference_kkt.max(), kKktTolerance) << "interior point: " << describe(reference_kkt);
    QpSolution solution;
    const QpSummary summary = active_set->solve(problem, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message;
    const QpKktResidual kkt = kkt_residual(problem, solution);
    EXPECT_LT(kkt.max(), kKktTolerance) << "active set: " << describe(kkt);
    EXPECT_LT((solution.x - reference.x).lpNorm<Eigen::Infinity>(),
              kBoundedAgreementTolerance * reference_kkt.length_scale);
    for (int p = 0; p < problem.num_pinned(); ++p) {
      const bool bound = std::abs(solution.pinned_multipliers[p]) >= bounds[p] * (1 - 1e-12);
      at_bound += bound ? 1 : 0;
      held += bound ? 0 : 1;
    }
  }
  EXPECT_GT(at_bound, 30);  // both cases occurred often
  EXPECT_GT(held, 30);
}

// Random QPs with a curvature term K of 2–4-node rank-3 terms, from comparable to D to 100 times
// stiffer, on every problem family of options_for (flat sheets, rank-deficient equality rows,
// crowded contacts), all starting infeasible at x = 0.
TEST(QpSolverAgreement, ActiveSetAndInteriorPointAgreeOnRandomQpsWithCurvature) {
  constexpr double kCurvatureScales[] = {1.0, 0.1, 10.0, 100.0};
  std::mt19937 rng(4711);
  int infeasible_starts = 0;
  int rank_deficient = 0;
  for (int trial = 0; trial < 50; ++trial) {
    testing::RandomQpOptions options = options_for(trial);
    options.num_curvature_terms = options.num_nodes / 2 + trial % 5;
    options.curvature_scale = kCurvatureScales[trial % 4];
    const testing::RandomQp qp = testing::make_random_qp(options, rng);
    SCOPED_TRACE("trial " + std::to_string(trial));
    ASSERT_TRUE(qp.problem.has_curvature());
    if (qp.violated_at_zero > 0) {
      ++infeasible_starts;
    }
    if (options.num_duplicate_equalities > 0) {
      ++rank_deficient;
    }
    const QpSolution reference = expect_solvers_agree(qp.problem, working_set_guesses(qp));
    // D + K is positive definite: the known x* is the unique solution.
    const double length_scale = kkt_residual(qp.problem, reference).length_scale;
    EXPECT_LT((reference.x - qp.solution.x).lpNorm<Eigen::Infinity>(),
              kAgreementTolerance * length_scale);
    EXPECT_EQ(reference.active_inequalities, qp.solution.active_inequalities);
  }
  EXPECT_EQ(infeasible_starts, 50);
  EXPECT_GE(rank_deficient, 16);
}

// --- QPs captured from real steps of the hanging example -------------------------------------
//
// The stepper's QP is not public, so the test rebuilds it from public pieces at a state the
// stepper reached: the unconstrained predictor φ0, a first Gauss–Newton QP at φ0 (K = 0, f = 0)
// solved by the active set for the multipliers λ, its increment giving φ1 = φ0 + x, and then the
// Newton QP at φ1:
//   min ½ xᵀ (ρM + K(λ) ⊗ I₃) x + (ρM (φ1 − φ0))ᵀ x
//   s.t. C(φ1) + ∇C(φ1) x = 0,  x_held = target − φ1,held,  contact rows ≥ 0.
// Unlike the stepper, the held coordinates stay variables (with unit equality rows), which gives
// the same increment. The contact rows are a plane n · p ≥ h below the sheet, tilted by a few
// degrees, on the lowest free nodes, with h set so that the lowest ones penetrate at x = 0.

struct CapturedQps {
  QpProblem gauss_newton;  // at φ0, no curvature, no contacts
  QpProblem newton;        // at φ1 with K(λ) and the contact rows
};

SparseRowMatrix stack_rows(const SparseRowMatrix& top, const std::vector<int>& unit_columns,
                           int num_columns) {
  std::vector<Eigen::Triplet<double>> triplets;
  for (int r = 0; r < top.rows(); ++r) {
    for (SparseRowMatrix::InnerIterator it(top, r); it; ++it) {
      triplets.emplace_back(r, static_cast<int>(it.col()), it.value());
    }
  }
  for (std::size_t k = 0; k < unit_columns.size(); ++k) {
    triplets.emplace_back(static_cast<int>(top.rows() + k), unit_columns[k], 1.0);
  }
  SparseRowMatrix result(static_cast<int>(top.rows() + unit_columns.size()), num_columns);
  result.setFromTriplets(triplets.begin(), triplets.end());
  result.makeCompressed();
  return result;
}

// K_node ⊗ I₃ (lower triangle) for a node curvature K_node (N × N, lower triangle).
Eigen::SparseMatrix<double> expand_curvature(const Eigen::SparseMatrix<double>& node_curvature) {
  std::vector<Eigen::Triplet<double>> triplets;
  for (int c = 0; c < node_curvature.outerSize(); ++c) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(node_curvature, c); it; ++it) {
      for (int d = 0; d < 3; ++d) {
        triplets.emplace_back(3 * static_cast<int>(it.row()) + d, 3 * c + d, it.value());
      }
    }
  }
  const int n = 3 * static_cast<int>(node_curvature.rows());
  Eigen::SparseMatrix<double> result(n, n);
  result.setFromTriplets(triplets.begin(), triplets.end());
  result.makeCompressed();
  return result;
}

CapturedQps capture_qps(const stepper::TimeStepper& stepper, const stepper::SimulationState& state,
                        std::mt19937& rng) {
  const stepper::SimulationModel& model = stepper.model();
  const constraints::InextensibilityConstraints& constraints = stepper.constraints();
  const int n = 3 * model.mesh.num_nodes();
  const double t1 = state.time + model.options.time_step;

  Eigen::VectorXd phi0;
  forces::UnconstrainedStep(model.mesh, model.material, model.options.time_step)
      .compute(state.positions, state.velocities, &phi0);
  const Eigen::VectorXd areas = mesh::lumped_areas(model.mesh);
  Eigen::VectorXd mass(n);
  for (int k = 0; k < n; ++k) {
    mass[k] = model.material.density * areas[k / 3];
  }
  std::vector<int> held_columns;
  Eigen::VectorXd targets(3 * static_cast<int>(model.held.size()));
  for (std::size_t h = 0; h < model.held.size(); ++h) {
    for (int d = 0; d < 3; ++d) {
      held_columns.push_back(3 * model.held[h].node + d);
    }
    targets.segment<3>(3 * static_cast<int>(h)) = model.held[h].target.position(t1);
  }
  // Equality rows at φ: [C(φ) + ∇C(φ) x; φ_held + x_held − target].
  const auto set_equalities = [&](const Eigen::VectorXd& phi, QpProblem* qp) {
    Eigen::VectorXd values;
    SparseRowMatrix jacobian = constraints.make_jacobian();
    constraints.evaluate(phi, &values, &jacobian);
    qp->equality_jacobian = stack_rows(jacobian, held_columns, n);
    qp->equality_offset.resize(values.size() + static_cast<int>(held_columns.size()));
    qp->equality_offset.head(values.size()) = values;
    for (std::size_t k = 0; k < held_columns.size(); ++k) {
      qp->equality_offset[values.size() + static_cast<int>(k)] =
          phi[held_columns[k]] - targets[static_cast<int>(k)];
    }
  };

  CapturedQps captured;
  QpProblem& gauss_newton = captured.gauss_newton;
  gauss_newton.mass = mass;
  gauss_newton.linear.setZero(n);
  set_equalities(phi0, &gauss_newton);
  gauss_newton.inequality_jacobian.resize(0, n);
  gauss_newton.inequality_offset.resize(0);
  QpSolution first;
  const QpSummary summary =
      make_qp_solver(QpSolverType::kActiveSet)->solve(gauss_newton, {}, &first);
  EXPECT_TRUE(summary.ok()) << summary.message;

  const Eigen::VectorXd phi1 = phi0 + first.x;
  QpProblem& newton = captured.newton;
  newton.mass = mass;
  newton.linear = -mass.cwiseProduct(phi1 - phi0);
  set_equalities(phi1, &newton);
  Eigen::SparseMatrix<double> node_curvature = constraints.make_curvature();
  constraints.curvature(first.equality_multipliers.head(constraints.size()), &node_curvature);
  newton.curvature = expand_curvature(node_curvature);

  // Contacts: the 12 lowest free nodes against a plane tilted by up to 3° whose height makes the
  // lowest 2–4 of them penetrate at x = 0 (by less than the height gap to the next node).
  std::vector<int> free_nodes;
  for (int node = 0; node < model.mesh.num_nodes(); ++node) {
    if (std::find(held_columns.begin(), held_columns.end(), 3 * node) == held_columns.end()) {
      free_nodes.push_back(node);
    }
  }
  const double tilt =
      3.0 * std::numbers::pi / 180.0 * std::uniform_real_distribution<double>(0, 1)(rng);
  const double azimuth = 2.0 * std::numbers::pi * std::uniform_real_distribution<double>(0, 1)(rng);
  const Eigen::Vector3d normal(std::sin(tilt) * std::cos(azimuth),
                               std::sin(tilt) * std::sin(azimuth), std::cos(tilt));
  const auto height = [&](int node) { return normal.dot(phi1.segment<3>(3 * node)); };
  std::sort(free_nodes.begin(), free_nodes.end(),
            [&](int a, int b) { return height(a) < height(b); });
  free_nodes.resize(std::min<std::size_t>(free_nodes.size(), 12));
  const int penetrating = std::uniform_int_distribution<int>(2, 4)(rng);
  const double plane =
      height(free_nodes[penetrating - 1]) +
      0.5 * (height(free_nodes[penetrating]) - height(free_nodes[penetrating - 1]));
  std::vector<Eigen::Triplet<double>> triplets;
  newton.inequality_offset.resize(static_cast<int>(free_nodes.size()));
  for (std::size_t i = 0; i < free_nodes.size(); ++i) {
    for (int d = 0; d < 3; ++d) {
      triplets.emplace_back(static_cast<int>(i), 3 * free_nodes[i] + d, normal[d]);
    }
    newton.inequality_offset[static_cast<int>(i)] = height(free_nodes[i]) - plane;
  }
  newton.inequality_jacobian.resize(static_cast<int>(free_nodes.size()), n);
  newton.inequality_jacobian.setFromTriplets(triplets.begin(), triplets.end());
  newton.inequality_jacobian.makeCompressed();
  return captured;
}

// Captured QPs after steps 10, 20, …, 50 of the hanging example (the sheet swinging down from
// the horizontal: ∇C D^-½ has singular values down to 1e-6 σ_max, and K's largest eigenvalue is
// 1e3–3e3 × max ρM).
std::vector<CapturedQps> capture_hanging_qps() {
  const scenario::Scenario scenario =
      scenario::load_scenario((testing::source_dir() / "datasets/examples/hanging.json").string());
  stepper::TimeStepper stepper(scenario.model);
  stepper::SimulationState state = stepper.initial_state(scenario.initial_positions);
  std::mt19937 rng(2718);
  std::vector<CapturedQps> captured;
  for (int step = 1; step <= 50; ++step) {
    const stepper::StepReport report = stepper.step(&state);
    EXPECT_NE(report.status, stepper::StepStatus::kFailed) << report.message;
    if (step % 10 == 0) {
      captured.push_back(capture_qps(stepper, state, rng));
    }
  }
  return captured;
}

// The active set's options for these QPs: 20 refinement steps instead of 2 (see the next tests:
// with the defaults the regularised factorisations leave relative equality residuals of 1e-7).
QpSolverOptions refined_active_set_options() {
  QpSolverOptions options;
  options.refinement_steps = 20;
  return options;
}

TEST(QpSolverAgreement, SolversAgreeOnNewtonQpsCapturedFromTheHangingExample) {
  const std::vector<CapturedQps> captured = capture_hanging_qps();
  ASSERT_EQ(captured.size(), 5u);
  for (std::size_t k = 0; k < captured.size(); ++k) {
    SCOPED_TRACE("after step " + std::to_string(10 * (k + 1)));
    const CapturedQps& qps = captured[k];
    ASSERT_TRUE(qps.newton.has_curvature());
    ASSERT_GT(qps.newton.num_inequalities(), 0);
    ASSERT_LT(qps.newton.inequality_offset.minCoeff(), 0.0);  // starts infeasible
    {
      SCOPED_TRACE("Gauss-Newton QP at the predictor");
      expect_solvers_agree(qps.gauss_newton, {{}}, refined_active_set_options());
    }
    {
      SCOPED_TRACE("Newton QP with curvature and contacts");
      std::vector<int> every_row(qps.newton.num_inequalities());
      std::iota(every_row.begin(), every_row.end(), 0);
      const QpSolution reference =
          expect_solvers_agree(qps.newton, {{}, every_row}, refined_active_set_options());
      EXPECT_FALSE(reference.active_inequalities.empty());  // the plane is felt
    }
  }
}

// KNOWN BUG (reported, not fixed here: core/qp is not this suite's to change). With the default
// options (equality_regularization 1e-12, refinement_steps 2) the active set reports kConverged
// on these QPs with relative equality residuals of 5e-8–3e-7 and x off by up to 2e-3 L:
// - Newton QPs (SaddlePointFactorization): the unpivoted LDLᵀ of [D + K, A_Eᵀ; A_E, −εI] loses
//   accuracy as 1/ε (see the next test), so two refinement steps do not recover it (steps 20, 40);
// - Gauss–Newton QPs (DelassusFactorization): ∇C D^-½ has a singular value σ_min ≈ 1e-6 σ_max
//   with σ_min² ≈ 7 ε, so each refinement step only shrinks the regularisation's bias by
//   ε / (σ_min² + ε) ≈ 0.13 (measured: 5 steps give 5e-10, 20 steps 2e-11; steps 10–50).
TEST(QpSolverAgreement, ActiveSetWithDefaultOptionsMeetsTheKktToleranceOnCapturedQps) {
  const std::vector<CapturedQps> captured = capture_hanging_qps();
  const std::unique_ptr<QpSolver> active_set = make_qp_solver(QpSolverType::kActiveSet);
  for (std::size_t k = 0; k < captured.size(); ++k) {
    SCOPED_TRACE("after step " + std::to_string(10 * (k + 1)));
    for (const QpProblem* problem : {&captured[k].gauss_newton, &captured[k].newton}) {
      SCOPED_TRACE(problem->has_curvature() ? "Newton QP" : "Gauss-Newton QP");
      QpSolution solution;
      const QpSummary summary = active_set->solve(*problem, {}, &solution);
      ASSERT_TRUE(summary.ok()) << summary.message;
      const QpKktResidual kkt = kkt_residual(*problem, solution);
      EXPECT_LT(kkt.max(), kKktTolerance) << describe(kkt);
    }
  }
}

// KNOWN BUG, the factorisation behind the Newton half of the previous test: one
// SaddlePointFactorization solve (no refinement) of the captured Newton QP's regularised matrix
// M = [D + K, A_Eᵀ; A_E, −εI] leaves a backward error ‖r − M z‖ / ‖r‖ that grows as 1/ε (measured
// 2e-8–1.2e-7 at the default relative regularisation 1e-12, ~1e-9 at 1e-10, ~1e-11 at 1e-8),
// while a dense LU with partial pivoting of the same M leaves 1e-14: the unpivoted LDLᵀ of the
// quasi-definite matrix is not stable for ε this small against ‖A_E‖² / ‖D + K‖.
// The saddle-point solve as the active-set solver uses it (default options: ε = 1e-12 of the mean
// Delassus diagonal, refinement against the unregularised matrix until the residual stops
// shrinking) is backward stable like a dense pivoted LU. A single unrefined solve is not: the
// quasi-definite LDLᵀ without pivoting loses accuracy like 1/ε (measured 2e-8 to 1.2e-7 relative
// on these QPs), which is why the refinement is there; the time stepper deliberately asks for the
// damped, unrefined solve and lets its Newton iterations absorb that error.
TEST(QpSolverAgreement, SaddlePointFactorizationIsBackwardStableOnCapturedNewtonQps) {
  const QpSolverOptions defaults;
  const double kRegularization = defaults.equality_regularization;
  const std::vector<CapturedQps> captured = capture_hanging_qps();
  for (std::size_t k = 0; k < captured.size(); ++k) {
    SCOPED_TRACE("after step " + std::to_string(10 * (k + 1)));
    const QpProblem& p = captured[k].newton;
    const int n = p.num_variables();
    const int m = p.num_equalities();
    SaddlePointFactorization factorization;
    ASSERT_TRUE(factorization.factorize(p, kRegularization, defaults.refinement_steps));
    Eigen::VectorXd x;
    Eigen::VectorXd y;
    factorization.solve(p.linear, -p.equality_offset, &x, &y);
    double mean_delassus = 0.0;
    for (int r = 0; r < m; ++r) {
      for (SparseRowMatrix::InnerIterator it(p.equality_jacobian, r); it; ++it) {
        mean_delassus += it.value() * it.value() / p.mass[it.col()];
      }
    }
    // The refined solve answers the unregularised system (ε is reported only).
    const double epsilon = kRegularization * mean_delassus / m;
    Eigen::MatrixXd matrix = Eigen::MatrixXd::Zero(n + m, n + m);
    const Eigen::SparseMatrix<double> curvature = p.curvature.selfadjointView<Eigen::Lower>();
    matrix.topLeftCorner(n, n) = Eigen::MatrixXd(curvature);
    matrix.topLeftCorner(n, n).diagonal() += p.mass;
    matrix.topRightCorner(n, m) = Eigen::MatrixXd(p.equality_jacobian).transpose();
    matrix.bottomLeftCorner(m, n) = Eigen::MatrixXd(p.equality_jacobian);
    Eigen::VectorXd rhs(n + m);
    rhs << p.linear, -p.equality_offset;
    Eigen::VectorXd z(n + m);
    z << x, y;
    const double backward_error = (rhs - matrix * z).norm() / rhs.norm();
    // The same matrix by a dense LU with partial pivoting: the round-off a stable solve leaves.
    const Eigen::VectorXd z_dense = matrix.partialPivLu().solve(rhs);
    const double dense_backward_error = (rhs - matrix * z_dense).norm() / rhs.norm();
    EXPECT_LT(dense_backward_error, 1e-13);
    EXPECT_LT(backward_error, 100.0 * dense_backward_error)
        << "dense LU: " << dense_backward_error << ", n = " << n << ", m_E = " << m
        << ", ε = " << epsilon;
  }
}

// The damped QP's options (what the stepper asks for), with ε made large enough (1e-4 of the
// Delassus diagonal) that the damped solution differs visibly from the exact one.
QpSolverOptions damped_options() {
  QpSolverOptions damped;
  damped.refinement_steps = 0;
  damped.equality_regularization = 1e-4;
  return damped;
}

// Random problem `trial` of options_for, with a curvature term K in every other trial.
testing::RandomQp damped_trial_qp(int trial, std::mt19937& rng) {
  testing::RandomQpOptions options = options_for(trial);
  options.num_curvature_terms = trial % 2 == 0 ? options.num_nodes / 2 : 0;
  return testing::make_random_qp(options, rng);
}

// The damped QP (QpSolverOptions::refinement_steps = 0, as the stepper's Levenberg–Marquardt
// projection asks for): the active set solves the regularised system [D + K, A_Eᵀ; A_E, −εI]
// without refinement, the interior point the equivalent QP with elastic equality rows; both must
// agree, on problems with and without K, with rank-deficient rows and infeasible starts. ε is made
// large enough (1e-4 of the Delassus diagonal) that the damped solution differs visibly from the
// exact one.
TEST(QpSolverAgreement, SolversAgreeOnTheDampedQp) {
  const QpSolverOptions damped = damped_options();
  std::mt19937 rng(1618);
  for (int trial = 0; trial < 24; ++trial) {
    const testing::RandomQp qp = damped_trial_qp(trial, rng);
    SCOPED_TRACE("trial " + std::to_string(trial));
    const std::unique_ptr<QpSolver> active_set = make_qp_solver(QpSolverType::kActiveSet, damped);
    const std::unique_ptr<QpSolver> interior_point =
        make_qp_solver(QpSolverType::kInteriorPoint, damped);
    QpSolution reference;
    const QpSummary reference_summary = interior_point->solve(qp.problem, {}, &reference);
    ASSERT_TRUE(reference_summary.ok()) << reference_summary.message;
    EXPECT_NE(reference_summary.message.find("damped"), std::string::npos);
    QpSolution solution;
    const QpSummary summary = active_set->solve(qp.problem, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message;
    const double length_scale = kkt_residual(qp.problem, reference).length_scale;
    EXPECT_LT((solution.x - reference.x).lpNorm<Eigen::Infinity>(),
              kAgreementTolerance * length_scale);
    // Damped, not exact: the equality rows are off by ε λ.
    EXPECT_GT((reference.x - qp.solution.x).lpNorm<Eigen::Infinity>(), 1e-5 * length_scale);
    std::vector<int> working = solution.active_inequalities;
    std::sort(working.begin(), working.end());
    EXPECT_EQ(working, reference.active_inequalities);
  }
}

// The damped QP centred about a multiplier estimate (QpProblem::multiplier_estimate,
// max_damping_offset): both solvers agree with each other for a partly clamped centre, and,
// centred at the exact multipliers with τ = 0, both return the exact solution.
TEST(QpSolverAgreement, SolversAgreeOnTheDampedQpWithACentre) {
  const QpSolverOptions damped = damped_options();
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 12; ++trial) {
    const testing::RandomQp qp = damped_trial_qp(trial, rng);
    SCOPED_TRACE("trial " + std::to_string(trial));
    const double length_scale = kkt_residual(qp.problem, qp.solution).length_scale;
    const Eigen::VectorXd& exact = qp.solution.equality_multipliers;
    QpProblem centred = qp.problem;
    // A partly clamped centre: the exact multipliers, perturbed, offsets bounded by half the
    // largest that λ̂ would give.
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    centred.multiplier_estimate = exact;
    for (Eigen::Index i = 0; i < exact.size(); ++i)
      centred.multiplier_estimate[i] += 0.3 * exact.cwiseAbs().maxCoeff() * uniform(rng);
    // ε = r · mean(diag A_E D⁻¹ A_Eᵀ) (EqualitySystem).
    double mean_delassus = 0.0;
    for (int r = 0; r < qp.problem.num_equalities(); ++r) {
      for (SparseRowMatrix::InnerIterator it(qp.problem.equality_jacobian, r); it; ++it)
        mean_delassus += it.value() * it.value() / qp.problem.mass[it.col()];
    }
    const double epsilon =
        damped.equality_regularization * mean_delassus / qp.problem.num_equalities();
    centred.max_damping_offset =
        0.5 * epsilon * centred.multiplier_estimate.lpNorm<Eigen::Infinity>();
    ASSERT_GT(damping_centre(centred, epsilon).cwiseAbs().maxCoeff(), 0.0);
    QpSolution reference, solution;
    const std::unique_ptr<QpSolver> active_set = make_qp_solver(QpSolverType::kActiveSet, damped);
    const std::unique_ptr<QpSolver> interior_point =
        make_qp_solver(QpSolverType::kInteriorPoint, damped);
    const QpSummary reference_summary = interior_point->solve(centred, {}, &reference);
    ASSERT_TRUE(reference_summary.ok()) << reference_summary.message;
    const QpSummary summary = active_set->solve(centred, {}, &solution);
    ASSERT_TRUE(summary.ok()) << summary.message;
    EXPECT_LT((solution.x - reference.x).lpNorm<Eigen::Infinity>(),
              kAgreementTolerance * length_scale);

    centred.multiplier_estimate = exact;
    centred.max_damping_offset = 0.0;
    for (QpSolver* solver : {active_set.get(), interior_point.get()}) {
      SCOPED_TRACE(std::string(solver->name()));
      ASSERT_TRUE(solver->solve(centred, {}, &solution).ok());
      EXPECT_LT((solution.x - qp.solution.x).lpNorm<Eigen::Infinity>(),
                kAgreementTolerance * length_scale);
    }
  }
}

// `clothfit simulate --qp interior-point`: the stepper (Newton projection, damped QPs with
// curvature, held nodes eliminated) converges at every step of the hanging example with either
// solver, and the two trajectories agree.
TEST(QpSolverAgreement, HangingExampleStepsAlikeWithEitherSolver) {
  scenario::Scenario active =
      scenario::load_scenario((testing::source_dir() / "datasets/examples/hanging.json").string());
  scenario::Scenario interior = active;
  active.model.options.qp_solver = QpSolverType::kActiveSet;
  interior.model.options.qp_solver = QpSolverType::kInteriorPoint;
  stepper::TimeStepper active_stepper(active.model);
  stepper::TimeStepper interior_stepper(interior.model);
  stepper::SimulationState active_state = active_stepper.initial_state(active.initial_positions);
  stepper::SimulationState interior_state =
      interior_stepper.initial_state(interior.initial_positions);
  for (int step = 1; step <= 30; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    const stepper::StepReport a = active_stepper.step(&active_state);
    const stepper::StepReport b = interior_stepper.step(&interior_state);
    ASSERT_EQ(a.status, stepper::StepStatus::kConverged) << a.message;
    ASSERT_EQ(b.status, stepper::StepStatus::kConverged) << b.message;
    EXPECT_LT((active_state.positions - interior_state.positions).lpNorm<Eigen::Infinity>(),
              1e-6);  // m
  }
}

}  // namespace
}  // namespace clothfit::qp
