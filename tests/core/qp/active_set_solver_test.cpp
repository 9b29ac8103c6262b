#include "core/qp/active_set_solver.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "core/qp/random_qp.hpp"

namespace clothfit::qp {
namespace {

SparseRowMatrix sparse(const Eigen::MatrixXd& dense) {
  return dense.sparseView();
}

// min ½‖x‖² − fᵀx with D = I.
QpProblem unit_mass_problem(const Eigen::VectorXd& f) {
  QpProblem p;
  p.mass = Eigen::VectorXd::Ones(f.size());
  p.linear = f;
  p.equality_jacobian.resize(0, f.size());
  p.equality_offset.resize(0);
  p.inequality_jacobian.resize(0, f.size());
  p.inequality_offset.resize(0);
  return p;
}

TEST(ActiveSetSolver, HandSolvedProblemWithOneActiveAndOneInactiveRow) {
  // min ½‖x‖² − (3x + 2y)  s.t.  x + y + z = 1,  1 − x ≥ 0,  y + 5 ≥ 0.
  // Stationarity: x = 3 − λ − γ, y = 2 − λ, z = −λ. Without the bound λ = 4/3 and x = 5/3 > 1,
  // so the bound is active: x = 1, 1 + (2 − λ) − λ = 1 → λ = 1, y = 1, z = −1, γ = 3 − 1 − 1 = 1.
  QpProblem p = unit_mass_problem(Eigen::Vector3d(3, 2, 0));
  p.equality_jacobian = sparse(Eigen::RowVector3d(1, 1, 1));
  p.equality_offset = Eigen::VectorXd::Constant(1, -1.0);
  Eigen::MatrixXd g(2, 3);
  g << -1, 0, 0, 0, 1, 0;
  p.inequality_jacobian = sparse(g);
  p.inequality_offset = Eigen::Vector2d(1, 5);
  ActiveSetSolver solver;
  QpSolution s;
  const QpSummary summary = solver.solve(p, {}, &s);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_NEAR(s.x[0], 1.0, 1e-12);
  EXPECT_NEAR(s.x[1], 1.0, 1e-12);
  EXPECT_NEAR(s.x[2], -1.0, 1e-12);
  EXPECT_NEAR(s.equality_multipliers[0], 1.0, 1e-12);
  EXPECT_NEAR(s.inequality_multipliers[0], 1.0, 1e-12);
  EXPECT_EQ(s.inequality_multipliers[1], 0.0);
  ASSERT_EQ(s.active_inequalities.size(), 1u);
  EXPECT_EQ(s.active_inequalities[0], 0);
}

TEST(ActiveSetSolver, SeededRowWithNegativeMultiplierLeavesTheWorkingSet) {
  // min ½‖x‖² − x₀  s.t. x₀ ≥ 0 (inactive at the optimum x₀ = 1). Seeding the row forces x₀ = 0
  // with γ = −1 < 0, so it must leave.
  QpProblem p = unit_mass_problem(Eigen::Vector2d(1, 0));
  p.inequality_jacobian = sparse(Eigen::RowVector2d(1, 0));
  p.inequality_offset = Eigen::VectorXd::Zero(1);
  ActiveSetSolver solver;
  QpSolution s;
  const QpSummary summary = solver.solve(p, std::vector<int>{0}, &s);
  ASSERT_TRUE(summary.ok());
  EXPECT_NEAR(s.x[0], 1.0, 1e-14);
  EXPECT_TRUE(s.active_inequalities.empty());
  EXPECT_GE(summary.iterations, 1);
}

// min ½x² − x s.t. the bounded pinned row x = 0 with |σ| ≤ 0.4 (friction holding x at 0 against
// a unit pull): holding needs σ = −1, beyond the bound, so the row slides at σ = −0.4 (against its
// residual x > 0) and x = 1 − 0.4 = 0.6. Started holding, the row goes to its bound once; started
// at +0.4 (the wrong side: x = 1.4 slips the way that force pushes), it first comes back, then
// goes to −0.4. The summary counts both kinds of change.
TEST(ActiveSetSolver, CountsFrictionRowsMovedToTheirBoundAndBack) {
  QpProblem p = unit_mass_problem(Eigen::VectorXd::Ones(1));
  p.pinned_jacobian = sparse(Eigen::MatrixXd::Ones(1, 1));
  p.pinned_offset = Eigen::VectorXd::Zero(1);
  p.pinned_bound = Eigen::VectorXd::Constant(1, 0.4);
  for (const signed char start_at : {0, 1}) {
    SCOPED_TRACE(static_cast<int>(start_at));
    QpWarmStart start;
    start.pinned_at_bound = {start_at};
    ActiveSetSolver solver;
    QpSolution s;
    const QpSummary summary = solver.solve(p, start, &s);
    ASSERT_TRUE(summary.ok()) << summary.message;
    EXPECT_NEAR(s.x[0], 0.6, 1e-12);
    EXPECT_DOUBLE_EQ(s.pinned_multipliers[0], -0.4);
    EXPECT_EQ(summary.pinned_rows_to_bound, 1);
    EXPECT_EQ(summary.pinned_rows_returned, start_at == 0 ? 0 : 1);
    EXPECT_EQ(summary.iterations, start_at == 0 ? 1 : 2);
  }
}

// The summary times the factorisation and the seeded rows: a solve told that the matrices are
// unchanged reuses the factorisation and spends no time on it.
TEST(ActiveSetSolver, TimesItsFactorisationAndOnlyWhenItFactors) {
  QpProblem p = unit_mass_problem(Eigen::Vector3d(3, 2, 0));
  p.equality_jacobian = sparse(Eigen::RowVector3d(1, 1, 1));
  p.equality_offset = Eigen::VectorXd::Constant(1, -1.0);
  p.inequality_jacobian = sparse(Eigen::RowVector3d(-1, 0, 0));
  p.inequality_offset = Eigen::VectorXd::Ones(1);
  ActiveSetSolver solver;
  QpSolution s;
  const QpSummary first = solver.solve(p, std::vector<int>{0}, &s);
  ASSERT_TRUE(first.ok()) << first.message;
  EXPECT_GT(first.factorization_seconds, 0.0);
  EXPECT_GT(first.seed_seconds, 0.0);
  p.matrices_unchanged = true;
  const QpSummary second = solver.solve(p, std::vector<int>{0}, &s);
  ASSERT_TRUE(second.ok()) << second.message;
  EXPECT_EQ(second.factorization_seconds, 0.0);
  EXPECT_GT(second.seed_seconds, 0.0);
}

// A QP that keeps the factorisation and starts from the rows the last one ended with keeps their
// Schur factor (a resting sheet's second QP of a step re-added hundreds of rows): its solution
// must be, bit for bit, what the same solves give when the factor is built again; a QP whose rows
// changed builds it again.
TEST(ActiveSetSolver, KeepsTheLastWorkingSetsFactorOnlyWhereItIsTheSame) {
  std::mt19937 rng(5);
  testing::RandomQpOptions options;
  options.num_curvature_terms = 10;
  const testing::RandomQp random = testing::make_random_qp(options, rng);
  QpSolverOptions rebuild;
  rebuild.keep_unchanged_working_set = false;
  ActiveSetSolver kept, built(rebuild);
  QpProblem first = random.problem;
  QpSolution s, t;
  ASSERT_TRUE(kept.solve(first, {}, &s).ok());
  ASSERT_TRUE(built.solve(first, {}, &t).ok());
  const std::vector<int> active = s.active_inequalities;
  ASSERT_FALSE(active.empty());
  // The same problem from its own active set ends with those rows, appended and none removed;
  // then the next QP of a step: new f and offsets, the same matrices and rows.
  first.matrices_unchanged = true;
  QpProblem next = first;
  next.linear *= 1.01;
  next.inequality_offset.array() += 1e-6;
  for (const QpProblem* problem : {&first, &next, &next}) {
    const QpSummary a = kept.solve(*problem, active, &s);
    const QpSummary b = built.solve(*problem, active, &t);
    ASSERT_TRUE(a.ok() && b.ok()) << a.message << b.message;
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(b.kept_working_rows, 0);
    for (int i = 0; i < problem->num_variables(); ++i)
      ASSERT_EQ(s.x[i], t.x[i]) << i;  // exact
    for (int i = 0; i < problem->num_inequalities(); ++i)
      ASSERT_EQ(s.inequality_multipliers[i], t.inequality_multipliers[i]) << i;
    if (problem != &first) {
      EXPECT_EQ(a.iterations, 0);  // so the factor kept for the next one is appends alone
      EXPECT_EQ(a.kept_working_rows, static_cast<int>(active.size()));
    }
  }
  // A row whose values changed is not the same row: the factor is built again.
  QpProblem moved = next;
  SparseRowMatrix::InnerIterator entry(moved.inequality_jacobian, active.front());
  moved.inequality_jacobian.coeffRef(active.front(), entry.col()) *= 1.0 + 1e-9;
  const QpSummary changed = kept.solve(moved, active, &s);
  ASSERT_TRUE(changed.ok());
  EXPECT_EQ(changed.kept_working_rows, 0);
}

TEST(ActiveSetSolver, RowsThatTradedColumnsAreNotTheSameRows) {
  // Two rows with the same value at different columns, x0 ≥ 1 and x1 ≥ 2, both active at the
  // projection of 0; then the same rows with their columns traded, x1 ≥ 1 and x0 ≥ 2. Both rows'
  // responses are cached and their values are those of the kept rows: only the columns tell
  // them apart, and a factor kept from the first QP would put x at (1, 2) again.
  QpProblem first = unit_mass_problem(Eigen::VectorXd::Zero(3));
  Eigen::MatrixXd g = Eigen::MatrixXd::Zero(2, 3);
  g(0, 0) = 1.0;
  g(1, 1) = 1.0;
  first.inequality_jacobian = sparse(g);
  first.inequality_offset = Eigen::Vector2d(-1.0, -2.0);
  ActiveSetSolver solver;
  QpSolution s;
  ASSERT_TRUE(solver.solve(first, {}, &s).ok());
  std::vector<int> active = s.active_inequalities;  // in the order they entered
  std::sort(active.begin(), active.end());
  ASSERT_EQ(active, (std::vector<int>{0, 1}));
  EXPECT_NEAR(s.x[0], 1.0, 1e-12);
  EXPECT_NEAR(s.x[1], 2.0, 1e-12);

  QpProblem traded = first;
  traded.matrices_unchanged = true;
  g.setZero();
  g(0, 1) = 1.0;
  g(1, 0) = 1.0;
  traded.inequality_jacobian = sparse(g);
  const QpSummary summary = solver.solve(traded, s.active_inequalities, &s);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_EQ(summary.kept_working_rows, 0);
  EXPECT_NEAR(s.x[0], 2.0, 1e-12);
  EXPECT_NEAR(s.x[1], 1.0, 1e-12);
  EXPECT_NEAR(s.x[2], 0.0, 1e-12);
}

// Projecting the point f onto the box [0, 1]ⁿ written as 2n inequality rows: x_i ≥ 0 (row 2i)
// and 1 − x_i ≥ 0 (row 2i + 1).
QpProblem box_projection(const Eigen::VectorXd& f) {
  const int n = static_cast<int>(f.size());
  QpProblem p = unit_mass_problem(f);
  Eigen::MatrixXd g = Eigen::MatrixXd::Zero(2 * n, n);
  Eigen::VectorXd c(2 * n);
  for (int i = 0; i < n; ++i) {
    g(2 * i, i) = 1;
    c[2 * i] = 0;
    g(2 * i + 1, i) = -1;
    c[2 * i + 1] = 1;
  }
  p.inequality_jacobian = sparse(g);
  p.inequality_offset = c;
  return p;
}

TEST(ActiveSetSolver, StartsFromAnInfeasiblePointWithManyViolatedRows) {
  // f is far outside the box.
  const int n = 6;
  Eigen::VectorXd f(n);
  f << -3, 2, 0.5, 7, -0.2, 1.5;
  const QpProblem p = box_projection(f);
  ActiveSetSolver solver;
  QpSolution s;
  ASSERT_TRUE(solver.solve(p, {}, &s).ok());
  for (int i = 0; i < n; ++i)
    EXPECT_NEAR(s.x[i], std::clamp(f[i], 0.0, 1.0), 1e-13);
}

// A warm start is a guess: rows it names that the QP does not have (a stale list, say) are
// ignored, and those it names twice count once. (scripts/mutate.py: the range check could go
// unnoticed.)
TEST(ActiveSetSolver, IgnoresWarmStartRowsTheQpDoesNotHave) {
  const int n = 3;
  Eigen::VectorXd f(n);
  f << -3, 2, 0.5;
  const QpProblem p = box_projection(f);
  ActiveSetSolver solver;
  QpSolution s;
  const QpSummary summary = solver.solve(p, std::vector<int>{-1, 0, 2 * n, 3, 3, 1000}, &s);
  ASSERT_TRUE(summary.ok()) << summary.message;
  for (int i = 0; i < n; ++i)
    EXPECT_NEAR(s.x[i], std::clamp(f[i], 0.0, 1.0), 1e-13);
  std::vector<int> active = s.active_inequalities;
  std::sort(active.begin(), active.end());
  EXPECT_EQ(active, (std::vector<int>{0, 3}));
}

// Two equality rows on four variables with a non-unit mass, no inequality rows.
struct TwoRowProblem {
  Eigen::MatrixXd a{2, 4};
  Eigen::Vector4d mass{0.5, 2, 1, 3};
  Eigen::Vector4d f{1, -1, 2, 0.5};
  Eigen::Vector2d c{0.3, -0.7};
  QpProblem p;
  Eigen::MatrixXd dinv;
  TwoRowProblem() {
    a << 1, 2, 0, -1, 0, 1, 1, 3;
    p = unit_mass_problem(f);
    p.mass = mass;
    p.equality_jacobian = sparse(a);
    p.equality_offset = c;
    dinv = mass.cwiseInverse().asDiagonal();
  }
};

TEST(ActiveSetSolver, EqualityOnlyMatchesTheClosedForm) {
  // x = D⁻¹(f − Aᵀλ) with (A D⁻¹ Aᵀ) λ = c + A D⁻¹ f.
  TwoRowProblem q;
  const auto& [a, mass, f, c, p, dinv] = q;
  const Eigen::Vector2d lambda = (a * dinv * a.transpose()).ldlt().solve(c + a * dinv * f);
  const Eigen::Vector4d x = dinv * (f - a.transpose() * lambda);
  ActiveSetSolver solver;
  QpSolution s;
  ASSERT_TRUE(solver.solve(p, {}, &s).ok());
  EXPECT_LT((s.x - x).norm(), 1e-13);
  EXPECT_LT((s.equality_multipliers - lambda).norm(), 1e-12);
  EXPECT_LT((c + a * s.x).norm(), 1e-14);
}

TEST(ActiveSetSolver, DampedEqualityRowsAreCompliantAboutTheirCentre) {
  // The damped QP (refinement_steps = 0) holds the rows as c + A x = ε (λ − λ₀), ε = r ·
  // mean(diag A D⁻¹ Aᵀ): x = D⁻¹(f − Aᵀλ) with (A D⁻¹ Aᵀ + εI) λ = c + A D⁻¹ f + ε λ₀, and
  // λ₀ = λ̂ − clamp(λ̂, ±τ/ε) for the estimate λ̂ and offset bound τ (0 without an estimate).
  TwoRowProblem q;
  // Named references, not a structured binding: the lambda below captures them, which clang
  // before 16 refuses for bindings.
  const Eigen::MatrixXd& a = q.a;
  const Eigen::Vector4d& f = q.f;
  const Eigen::Vector2d& c = q.c;
  const Eigen::MatrixXd& dinv = q.dinv;
  QpProblem& p = q.p;
  const Eigen::Matrix2d w = a * dinv * a.transpose();
  QpSolverOptions options;
  options.refinement_steps = 0;
  options.equality_regularization = 0.1;
  const double epsilon = 0.1 * w.diagonal().mean();
  const auto expected = [&](const Eigen::Vector2d& centre) {
    const Eigen::Matrix2d shifted = w + epsilon * Eigen::Matrix2d::Identity();
    const Eigen::Vector2d lambda = shifted.ldlt().solve(c + a * dinv * f + epsilon * centre);
    return std::pair<Eigen::Vector4d, Eigen::Vector2d>(dinv * (f - a.transpose() * lambda), lambda);
  };
  const Eigen::Vector2d exact = w.ldlt().solve(c + a * dinv * f);  // the undamped λ
  struct Case {
    Eigen::Vector2d estimate;
    double bound;
    Eigen::Vector2d centre;
  };
  const double limit = 0.05 / epsilon;  // τ/ε for τ = 0.05
  const std::vector<Case> cases = {
      {exact, std::numeric_limits<double>::infinity(), Eigen::Vector2d::Zero()},  // no bound
      {exact, 0.0, exact},  // τ = 0: centred at the estimate, here the exact λ
      {Eigen::Vector2d(3.0 * limit, 0.5 * limit), 0.05, Eigen::Vector2d(2.0 * limit, 0.0)},
      {Eigen::Vector2d(-0.5 * limit, -4.0 * limit), 0.05, Eigen::Vector2d(0.0, -3.0 * limit)}};
  for (const Case& k : cases) {
    p.multiplier_estimate = k.estimate;
    p.max_damping_offset = k.bound;
    EXPECT_LT((damping_centre(p, epsilon) - k.centre).norm(), 1e-12 * (1.0 + k.centre.norm()));
    ActiveSetSolver solver(options);
    QpSolution s;
    ASSERT_TRUE(solver.solve(p, {}, &s).ok());
    const auto [x, lambda] = expected(k.centre);
    EXPECT_LT((s.x - x).norm(), 1e-12) << "bound " << k.bound;
    EXPECT_LT((s.equality_multipliers - lambda).norm(), 1e-11) << "bound " << k.bound;
  }
  // Centred at the exact multipliers, the damped QP has the exact solution: c + A x = 0.
  p.multiplier_estimate = exact;
  p.max_damping_offset = 0.0;
  ActiveSetSolver centred(options);
  QpSolution s;
  ASSERT_TRUE(centred.solve(p, {}, &s).ok());
  EXPECT_LT((c + a * s.x).norm(), 1e-13);
  // Refined rows (the default options) ignore the centre: the exact QP.
  p.multiplier_estimate = Eigen::Vector2d(5.0, -5.0);
  ActiveSetSolver refined;
  ASSERT_TRUE(refined.solve(p, {}, &s).ok());
  EXPECT_LT((c + a * s.x).norm(), 1e-13);
}

TEST(ActiveSetSolver, RankDeficientConsistentEqualitiesAreSolved) {
  // The same row twice (a flat sheet's metric rows are dependent like this).
  Eigen::MatrixXd a(3, 3);
  a << 1, 1, 0, 1, 1, 0, 0, 1, 1;
  QpProblem p = unit_mass_problem(Eigen::Vector3d(1, 0, 0));
  p.equality_jacobian = sparse(a);
  p.equality_offset = Eigen::Vector3d(-1, -1, 0);
  ActiveSetSolver solver;
  QpSolution s;
  ASSERT_TRUE(solver.solve(p, {}, &s).ok());
  EXPECT_LT((a * s.x + p.equality_offset).norm(), 1e-10);
  // Minimiser of ½‖x‖² − x₀ on {x₀ + x₁ = 1, x₁ + x₂ = 0}: x = (1, 0, 0).
  EXPECT_LT((s.x - Eigen::Vector3d(1, 0, 0)).norm(), 1e-9);
}

TEST(ActiveSetSolver, InconsistentDependentEqualitiesKeepTheirResidualAndConverge) {
  // The same row twice with different offsets (a flat sheet whose C has a part outside the range
  // of ∇C): no x satisfies both; the regularised solve splits the difference, x₀ + x₁ = 1.5, and
  // leaves ‖c_E + A_E x‖∞ = 0.5, what x = 0 leaves too. That is not a failure.
  Eigen::MatrixXd a(2, 3);
  a << 1, 1, 0, 1, 1, 0;
  QpProblem p = unit_mass_problem(Eigen::Vector3d::Zero());
  p.equality_jacobian = sparse(a);
  p.equality_offset = Eigen::Vector2d(-1, -2);
  ActiveSetSolver solver;
  QpSolution s;
  const QpSummary summary = solver.solve(p, {}, &s);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_NEAR(s.x[0] + s.x[1], 1.5, 1e-6);
}

TEST(ActiveSetSolver, ASolutionThatMissesTheEqualityRowsIsANumericalFailure) {
  // The solver checks its answer against the problem it was given. A caller that says the
  // matrices are unchanged when A_E did change gets the old factorisation's solution, which
  // misses the new rows by far more than x = 0 does: reported, not returned as converged (the
  // same check caught KKT solves that had lost their accuracy on a flat sheet held by friction).
  // Both kinds of QP: exact (refined against the unregularised rows) and damped as in the
  // projection (no refinement, compliance ε; the damped check subtracts ε y, which accounts for a
  // residual of ~ε here, not for the 0.3 the stale solution leaves).
  QpSolverOptions damped;
  damped.refinement_steps = 0;
  damped.equality_regularization = 1e-6;
  for (const QpSolverOptions& options : {QpSolverOptions{}, damped}) {
    SCOPED_TRACE(options.refinement_steps == 0 ? "damped" : "exact");
    const double tolerance = options.refinement_steps == 0 ? 1e-6 : 1e-12;
    QpProblem p = unit_mass_problem(Eigen::Vector3d::Zero());
    p.equality_jacobian = sparse(Eigen::RowVector3d(1, 0, 0));
    p.equality_offset = Eigen::VectorXd::Constant(1, -1.0);
    ActiveSetSolver solver(options);
    QpSolution s;
    ASSERT_TRUE(solver.solve(p, {}, &s).ok());  // x = (1, 0, 0)
    EXPECT_NEAR(s.x[0], 1.0, tolerance);

    // The old factorisation answers x = (−0.1, 0, 0) for the offset 0.1, which the new row
    // −2x₀ + x₁ + 0.1 = 0 misses by 0.3, three times what x = 0 does.
    p.equality_jacobian = sparse(Eigen::RowVector3d(-2, 1, 0));
    p.equality_offset = Eigen::VectorXd::Constant(1, 0.1);
    p.matrices_unchanged = true;  // wrong on purpose
    const QpSummary stale = solver.solve(p, {}, &s);
    EXPECT_EQ(stale.termination, QpTermination::kNumericalFailure);
    EXPECT_NE(stale.message.find("misses the equality rows"), std::string::npos) << stale.message;

    p.matrices_unchanged = false;  // told the truth, it solves: x = −0.1 a/‖a‖² = (0.04, −0.02, 0)
    ASSERT_TRUE(solver.solve(p, {}, &s).ok());
    EXPECT_NEAR(s.x[0], 0.04, tolerance);
    EXPECT_NEAR(s.x[1], -0.02, tolerance);
  }
}

TEST(ActiveSetSolver, DampedEqualityRowsYieldToAContactRowWithoutAFailure) {
  // The projection's QPs (refinement_steps = 0) are damped: their equality rows are compliant,
  // c_E + A_E x = ε y. Where a contact row pushes against an equality row, the damped solution
  // misses that row by ε y — far more than x = 0 does — and is still the exact solution of the
  // damped QP, not a loss of accuracy. Here x₀ = 0 (equality) against x₀ ≥ 1 (contact) with
  // D = I and ε = 0.01: min ½‖x‖² + ‖x₀‖²/(2ε) s.t. x₀ ≥ 1 gives x₀ = 1, y = x₀/ε = 100.
  // (Seen on tablecloth recordings: the sheet pressed onto the table edge ended 5 of 320 sweep
  // runs with "the KKT solves lost their accuracy" while c_E + A_E x − ε y was 1e-8 of ε y.)
  QpSolverOptions options;
  options.refinement_steps = 0;
  options.equality_regularization = 0.01;  // ε = 0.01 · mean(diag A_E D⁻¹ A_Eᵀ) = 0.01
  QpProblem p = unit_mass_problem(Eigen::Vector2d::Zero());
  p.equality_jacobian = sparse(Eigen::RowVector2d(1, 0));
  p.equality_offset = Eigen::VectorXd::Zero(1);
  p.inequality_jacobian = sparse(Eigen::RowVector2d(1, 0));
  p.inequality_offset = Eigen::VectorXd::Constant(1, -1.0);
  ActiveSetSolver solver(options);
  QpSolution s;
  const QpSummary summary = solver.solve(p, {}, &s);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_NEAR(s.x[0], 1.0, 1e-12);
  EXPECT_NEAR(s.x[1], 0.0, 1e-12);
  ASSERT_EQ(s.equality_multipliers.size(), 1);
  EXPECT_NEAR(0.01 * std::abs(s.equality_multipliers[0]), 1.0, 1e-12);
  ASSERT_EQ(s.active_inequalities.size(), 1u);
}

TEST(ActiveSetSolver, DependentContactRowIsSwappedNotFactoredSingular) {
  // Rows x₀ ≥ 1 and 2x₀ ≥ 3 have parallel gradients; the second is the binding one (x₀ ≥ 1.5).
  QpProblem p = unit_mass_problem(Eigen::Vector2d(0, 0));
  Eigen::MatrixXd g(2, 2);
  g << 1, 0, 2, 0;
  p.inequality_jacobian = sparse(g);
  p.inequality_offset = Eigen::Vector2d(-1, -3);
  ActiveSetSolver solver;
  QpSolution s;
  const QpSummary summary = solver.solve(p, std::vector<int>{0}, &s);
  ASSERT_TRUE(summary.ok()) << summary.message;
  EXPECT_NEAR(s.x[0], 1.5, 1e-12);
  EXPECT_GE(summary.dependent_rows, 1);
  ASSERT_EQ(s.active_inequalities.size(), 1u);
  EXPECT_EQ(s.active_inequalities[0], 1);
}

}  // namespace
}  // namespace clothfit::qp
