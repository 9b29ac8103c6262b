// The working rows factored into the KKT matrix (WorkingSetFactorization), the working set's
// changes carried by a border (WorkingSetBorder), and the active set's path through them
// (QpSolverOptions::factor_working_rows_from), against dense solves and against the Schur
// complement path on random QPs with the simulator's structure.
#include <gtest/gtest.h>
#include <Eigen/Dense>

#include <algorithm>
#include <climits>
#include <iterator>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/qp/active_set_solver.hpp"
#include "core/qp/qp_kkt.hpp"
#include "core/qp/working_set_border.hpp"
#include "core/qp/working_set_factorization.hpp"
#include "tests/core/qp/random_qp.hpp"

namespace clothfit::qp {
namespace {

// A random QP whose inequality rows are split: every third becomes a pinned row, bounded (b > 0)
// when `bounded`, so that both blocks of contact rows are exercised.
QpProblem problem_with_pinned_rows(const testing::RandomQpOptions& options, bool bounded,
                                   std::mt19937& rng) {
  return testing::with_pinned_rows(testing::make_random_qp(options, rng), bounded, 0.0, rng);
}

testing::RandomQpOptions curved_options() {
  testing::RandomQpOptions options;
  options.num_curvature_terms = 30;
  return options;
}

// The matrix WorkingSetFactorization documents, dense.
Eigen::MatrixXd dense_kkt(const QpProblem& p, double epsilon, const std::vector<char>& working,
                          const Eigen::VectorXd& compliance) {
  const int n = p.num_variables(), m_e = p.num_equalities(), m_i = p.num_inequalities();
  const int rows = m_i + p.num_pinned();
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n + m_e + rows, n + m_e + rows);
  m.topLeftCorner(n, n) = p.mass.asDiagonal();
  if (p.has_curvature()) {
    const Eigen::MatrixXd lower = Eigen::MatrixXd(p.curvature);
    m.topLeftCorner(n, n) += lower + lower.transpose();
    m.topLeftCorner(n, n).diagonal() -= lower.diagonal();
  }
  const Eigen::MatrixXd a = Eigen::MatrixXd(p.equality_jacobian);
  m.block(n, 0, m_e, n) = a;
  m.block(0, n, n, m_e) = a.transpose();
  m.block(n, n, m_e, m_e).diagonal().setConstant(-epsilon);
  for (int b = 0; b < rows; ++b) {
    const int at = n + m_e + b;
    if (!working[b]) {
      m(at, at) = -1.0;
      continue;
    }
    const SparseRowMatrix& g = b < m_i ? p.inequality_jacobian : p.pinned_jacobian;
    for (SparseRowMatrix::InnerIterator it(g, b < m_i ? b : b - m_i); it; ++it) {
      m(at, it.col()) = -it.value();
      m(it.col(), at) = -it.value();
    }
    m(at, at) = -compliance[b];
  }
  return m;
}

std::vector<char> random_working_set(int rows, std::mt19937& rng) {
  std::vector<char> working(rows);
  for (char& w : working)
    w = std::bernoulli_distribution(0.5)(rng) ? 1 : 0;
  return working;
}

Eigen::VectorXd random_compliance(int rows, std::mt19937& rng) {
  Eigen::VectorXd c(rows);
  for (int b = 0; b < rows; ++b)
    c[b] = std::uniform_real_distribution<double>(1e-6, 1e-3)(rng);
  return c;
}

// A right-hand side that is 0 at the rows outside the working set (as the solver's are).
Eigen::VectorXd random_rhs(const WorkingSetFactorization& kkt, const std::vector<char>& working,
                           std::mt19937& rng) {
  Eigen::VectorXd r(kkt.size());
  for (Eigen::Index i = 0; i < r.size(); ++i)
    r[i] = std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
  for (std::size_t b = 0; b < working.size(); ++b) {
    if (!working[b])
      r[kkt.row_position(static_cast<int>(b))] = 0.0;
  }
  return r;
}

TEST(WorkingSetFactorization, SolvesTheKktMatrixOfAnyWorkingSetWithOneAnalysis) {
  std::mt19937 rng(90210);
  const QpProblem p = problem_with_pinned_rows(curved_options(), true, rng);
  const int rows = p.num_inequalities() + p.num_pinned();
  const Eigen::VectorXd compliance = random_compliance(rows, rng);
  const double epsilon = 1e-6;
  WorkingSetFactorization kkt;
  for (int trial = 0; trial < 6; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const std::vector<char> working = random_working_set(rows, rng);
    ASSERT_TRUE(kkt.factorize(p, epsilon, working, compliance));
    EXPECT_TRUE(kkt.convex());
    const Eigen::MatrixXd dense = dense_kkt(p, epsilon, working, compliance);
    const Eigen::VectorXd r = random_rhs(kkt, working, rng);
    Eigen::VectorXd z = r;
    kkt.solve_in_place(&z);
    const Eigen::VectorXd expected = dense.partialPivLu().solve(r);
    // LDLᵀ without pivoting eliminates some rows before all their variables (a pivot of the
    // size of a compliance, 1e-6 of the masses' scale): a backward error of 3e-12–6e-12 measured
    // where LU's is 1e-17 (the solver refines), on a matrix of condition 8e3.
    EXPECT_LT((dense * z - r).norm(), 1e-10 * dense.norm() * z.norm());
    EXPECT_LT((z - expected).norm(), 1e-7 * expected.norm());
    Eigen::VectorXd product;
    kkt.multiply(z, working, compliance, epsilon, &product);
    EXPECT_LT((product - dense * z).norm(), 1e-12 * (dense * z).norm());
  }
  // The rows' values changed with each working set, their pattern did not.
  EXPECT_EQ(kkt.analyses(), 1);
}

// A friction row whose tangent turns so that one coordinate is exactly 0 has one entry fewer;
// the matrix's pattern covers whole nodes, so the analysis stays (a sliding sheet's tangents do
// this from one QP to the next: 51 analyses in 101 QPs of a 13 × 17 sheet before, 2 now).
TEST(WorkingSetFactorization, KeepsItsAnalysisWhenARowLosesACoordinate) {
  std::mt19937 rng(31);
  const QpProblem p = problem_with_pinned_rows(curved_options(), true, rng);
  const int rows = p.num_inequalities() + p.num_pinned();
  const Eigen::VectorXd compliance = random_compliance(rows, rng);
  const std::vector<char> working(rows, 1);
  QpProblem turned = p;
  SparseRowMatrix& g = turned.pinned_jacobian;
  for (int r = 0; r < turned.num_pinned(); r += 2)
    g.valuePtr()[g.outerIndexPtr()[r]] = 0.0;  // the row's first coordinate
  g.prune(0.0);
  ASSERT_LT(turned.pinned_jacobian.nonZeros(), p.pinned_jacobian.nonZeros());
  WorkingSetFactorization kkt;
  for (const QpProblem* q : std::vector<const QpProblem*>{&p, &turned}) {
    ASSERT_TRUE(kkt.factorize(*q, 1e-6, working, compliance));
    const Eigen::MatrixXd dense = dense_kkt(*q, 1e-6, working, compliance);
    const Eigen::VectorXd r = random_rhs(kkt, working, rng);
    Eigen::VectorXd z = r;
    kkt.solve_in_place(&z);
    EXPECT_LT((dense * z - r).norm(), 1e-10 * dense.norm() * z.norm());
  }
  EXPECT_EQ(kkt.analyses(), 1);
}

TEST(WorkingSetFactorization, CountsANonconvexCurvatureOnTheRowsNullSpace) {
  std::mt19937 rng(77);
  QpProblem p = problem_with_pinned_rows(curved_options(), false, rng);
  const int rows = p.num_inequalities() + p.num_pinned();
  const Eigen::VectorXd compliance = random_compliance(rows, rng);
  WorkingSetFactorization kkt;
  ASSERT_TRUE(kkt.factorize(p, 1e-6, std::vector<char>(rows, 0), compliance));
  EXPECT_TRUE(kkt.convex());
  // D + K with K = −2D on the diagonal: negative definite wherever the rows leave freedom.
  p.curvature = Eigen::SparseMatrix<double>(p.num_variables(), p.num_variables());
  p.curvature.reserve(Eigen::VectorXi::Constant(p.num_variables(), 1));
  for (int i = 0; i < p.num_variables(); ++i)
    p.curvature.insert(i, i) = -2.0 * p.mass[i];
  p.curvature.makeCompressed();
  ASSERT_TRUE(kkt.factorize(p, 1e-6, std::vector<char>(rows, 0), compliance));
  EXPECT_FALSE(kkt.convex());
}

TEST(WorkingSetBorder, SolvesAsAFactorisationOfTheChangedWorkingSetWould) {
  std::mt19937 rng(4242);
  const QpProblem p = problem_with_pinned_rows(curved_options(), true, rng);
  const int rows = p.num_inequalities() + p.num_pinned();
  const Eigen::VectorXd compliance = random_compliance(rows, rng);
  const double epsilon = 1e-6;
  const std::vector<char> base = random_working_set(rows, rng);
  WorkingSetFactorization kkt, fresh;
  ASSERT_TRUE(kkt.factorize(p, epsilon, base, compliance));
  WorkingSetBorder border;
  border.reset(kkt, p, compliance);
  std::vector<int> joined, left;
  for (int b = 0; b < rows && (joined.size() < 3 || left.size() < 3); ++b) {
    if (!base[b] && joined.size() < 3) {
      border.add_row(b);
      joined.push_back(b);
    } else if (base[b] && left.size() < 3) {
      border.remove_row(b);
      left.push_back(b);
    }
  }
  ASSERT_EQ(border.size(), 6);
  for (int step = 0; step < 2; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    const std::vector<char> working = border.working();
    ASSERT_TRUE(fresh.factorize(p, epsilon, working, compliance));
    const Eigen::VectorXd r = random_rhs(fresh, working, rng);
    Eigen::VectorXd expected = r, z;
    fresh.solve_in_place(&expected);
    ASSERT_TRUE(border.solve(r, &z));
    EXPECT_LT((z - expected).norm(), 1e-7 * expected.norm());
    for (int b : left) {
      if (!working[b]) {
        EXPECT_EQ(z[kkt.row_position(b)], 0.0);
      }
    }
    if (step == 0) {
      // A row that joined leaves again, one that left comes back: their columns go.
      border.remove_row(joined.front());
      border.add_row(left.front());
      EXPECT_EQ(border.size(), 4);
    }
  }
}

// A curvature that makes the QP nonconvex on the equality rows' null space is refused by the
// factored path as by the Schur path, unless the caller says it is semidefinite.
TEST(ActiveSetSolver, FactoredWorkingRowsStillRefuseANonconvexCurvature) {
  std::mt19937 rng(5);
  QpProblem p = problem_with_pinned_rows(curved_options(), false, rng);
  p.curvature = Eigen::SparseMatrix<double>(p.num_variables(), p.num_variables());
  p.curvature.reserve(Eigen::VectorXi::Constant(p.num_variables(), 1));
  for (int i = 0; i < p.num_variables(); ++i)
    p.curvature.insert(i, i) = -2.0 * p.mass[i];
  p.curvature.makeCompressed();
  QpSolverOptions factored;
  factored.factor_working_rows_from = 0;
  std::vector<int> seed(static_cast<std::size_t>(p.num_inequalities()));
  std::iota(seed.begin(), seed.end(), 0);
  for (const QpSolverOptions& options : {factored, QpSolverOptions{}}) {
    ActiveSetSolver solver(options);
    QpSolution solution;
    EXPECT_EQ(solver.solve(p, seed, &solution).termination, QpTermination::kNotConvex);
  }
}

// The active set with its working rows factored (factor_working_rows_from = 0) and with the Schur
// complement alone (INT_MAX), from the known active rows and some inactive ones, on random QPs
// with curvature, a flat sheet, dependent equality rows and crowded contacts, with unbounded and
// bounded (friction) pinned rows, in the undamped and the damped form: the same solution, the same
// final working set, both meeting the KKT conditions.
TEST(ActiveSetSolver, FactoredWorkingRowsGiveTheSchurComplementsSolution) {
  QpSolverOptions factored, schur;
  factored.factor_working_rows_from = 0;
  schur.factor_working_rows_from = INT_MAX;
  QpSolverOptions damped_factored = factored, damped_schur = schur;
  for (QpSolverOptions* o : {&damped_factored, &damped_schur}) {
    o->refinement_steps = 0;
    o->equality_regularization = 1e-6;
  }
  std::mt19937 rng(1729), start_rng(1730);
  int solved_factored = 0, trials = 0, changes = 0, differing_sets = 0, handed_over = 0;
  for (int trial = 0; trial < 48; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    testing::RandomQpOptions options;
    switch (trial % 4) {
      case 0:
        options = curved_options();
        break;
      case 1:
        options.flat = true;
        options.active_fraction = 0.6;
        break;
      case 2:
        options.num_duplicate_equalities = 5;
        break;
      case 3:
        options.num_nodes = 30;
        options.num_equalities = 50;
        options.num_inequalities = 60;
        options.active_fraction = 0.5;
        break;
    }
    const bool bounded = trial % 8 >= 4;
    const bool damped = trial % 16 >= 8;
    QpProblem p = problem_with_pinned_rows(options, bounded, rng);
    // Half the problems with curvature say that it is semidefinite (it is): the factored path
    // then skips the equality rows' factorisation that checks convexity.
    p.curvature_semidefinite = trial % 8 == 4 || trial % 8 == 0;
    std::vector<int> seed;
    for (int i = 0; i < p.num_inequalities(); ++i) {
      if (std::bernoulli_distribution(0.5)(rng))
        seed.push_back(i);
    }
    // Bounded pinned rows start at either bound or holding, as the stepper's sliding friction
    // rows do: the factored path must carry their forces into its right-hand side (drawn from a
    // generator of their own, so that the problems are those measured before).
    QpWarmStart start(seed);
    if (bounded) {
      for (int r = 0; r < p.num_pinned(); ++r)
        start.pinned_at_bound.push_back(
            static_cast<signed char>(std::uniform_int_distribution<int>(-1, 1)(start_rng)));
    }
    ActiveSetSolver with_rows(damped ? damped_factored : factored);
    ActiveSetSolver with_schur(damped ? damped_schur : schur);
    QpSolution a, b;
    const QpSummary sa = with_rows.solve(p, start, &a);
    const QpSummary sb = with_schur.solve(p, start, &b);
    ASSERT_TRUE(sa.ok()) << sa.message;
    ASSERT_TRUE(sb.ok()) << sb.message;
    // The same QP started on the Schur path and handed over to the factored one when its
    // working set grows past the seeded rows and the holding pinned rows (bounded trials: with
    // the forces of the rows then at their bound in the factored right-hand side).
    QpSolverOptions handed = damped ? damped_factored : factored;
    handed.factor_working_rows_from =
        static_cast<int>(seed.size()) + p.num_pinned() -
        static_cast<int>(std::count_if(start.pinned_at_bound.begin(), start.pinned_at_bound.end(),
                                       [](signed char s) { return s != 0; })) +
        2;
    ActiveSetSolver handing_over(handed);
    QpSolution h;
    const QpSummary sh = handing_over.solve(p, start, &h);
    ASSERT_TRUE(sh.ok()) << sh.message;
    if (sh.working_set_factorizations > 0) {
      ++handed_over;
      EXPECT_TRUE(sh.working_set_factored) << "given back to the Schur path";
      EXPECT_LT((h.x - b.x).lpNorm<Eigen::Infinity>(), 1e-8 * b.x.lpNorm<Eigen::Infinity>());
    }
    ++trials;
    solved_factored += sa.working_set_factored ? 1 : 0;
    changes += sa.iterations;
    EXPECT_FALSE(sb.working_set_factored);
    EXPECT_EQ(sb.working_set_factorizations, 0);
    // The friction rows' compliance leaves both with the same complementarity residual (up to
    // 8e-7 here); the damped QP's equality rows are compliant, which kkt_residual does not know.
    const QpKktResidual kkt = kkt_residual(p, a), kkt_schur = kkt_residual(p, b);
    if (!damped) {
      EXPECT_LT(kkt.max(), std::max(1e-8, 1.001 * kkt_schur.max()))
          << "stationarity " << kkt.stationarity << ", equality " << kkt.equality << ", inequality "
          << kkt.inequality << ", complementarity " << kkt.complementarity;
    }
    EXPECT_LT((a.x - b.x).lpNorm<Eigen::Infinity>(), 1e-8 * b.x.lpNorm<Eigen::Infinity>());
    // The same final working set, but where contact rows are dependent (the crowded problems)
    // the multipliers are not unique and either may hold a row the other leaves out: such a row
    // must lie on its boundary in both solutions.
    std::vector<int> wa = a.active_inequalities, wb = b.active_inequalities, differ;
    std::sort(wa.begin(), wa.end());
    std::sort(wb.begin(), wb.end());
    std::set_symmetric_difference(wa.begin(), wa.end(), wb.begin(), wb.end(),
                                  std::back_inserter(differ));
    const Eigen::VectorXd slack_a = p.inequality_jacobian * a.x + p.inequality_offset;
    const Eigen::VectorXd slack_b = p.inequality_jacobian * b.x + p.inequality_offset;
    for (int i : differ) {
      EXPECT_LT(std::abs(slack_a[i]), 1e-12 * b.x.lpNorm<Eigen::Infinity>()) << "row " << i;
      EXPECT_LT(std::abs(slack_b[i]), 1e-12 * b.x.lpNorm<Eigen::Infinity>()) << "row " << i;
    }
    differing_sets += differ.empty() ? 0 : 1;
  }
  // The factored path solved them (none was given back to the Schur complement), through
  // working-set changes.
  EXPECT_EQ(solved_factored, trials);
  EXPECT_GT(changes, 5 * trials);
  EXPECT_LE(differing_sets, trials / 8);  // 2 of 48 measured, both crowded
  EXPECT_GE(handed_over, trials / 4);     // 24 of 48 measured
}

}  // namespace
}  // namespace clothfit::qp
