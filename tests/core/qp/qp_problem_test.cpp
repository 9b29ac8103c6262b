// spanning_equality_rows and with_equality_rows (qp_problem.hpp): which equality rows span A_E's
// row space, whatever the rows' scales, and the QP restricted to them.
#include "core/qp/qp_problem.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <vector>

namespace clothfit::qp {
namespace {

constexpr double kPivot = 1e-12;

// A QP over 4 variables whose equality rows are the rows of `rows` (offsets 1, 2, 3, …).
QpProblem problem_with_rows(const Eigen::MatrixXd& rows) {
  QpProblem problem;
  problem.mass = Eigen::Vector4d::Ones();
  problem.linear = Eigen::Vector4d::Zero();
  problem.equality_jacobian = rows.sparseView();
  problem.equality_jacobian.makeCompressed();
  problem.equality_offset = Eigen::VectorXd::LinSpaced(rows.rows(), 1.0, rows.rows());
  problem.inequality_jacobian.resize(0, 4);
  problem.inequality_offset.resize(0);
  return problem;
}

// The rank of a dense matrix by singular values (independent of the QR under test).
int rank_of(const Eigen::MatrixXd& matrix) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(matrix);
  const Eigen::VectorXd& s = svd.singularValues();
  int rank = 0;
  for (int k = 0; k < s.size(); ++k)
    rank += s[k] > 1e-10 * s[0] ? 1 : 0;
  return rank;
}

Eigen::MatrixXd selected(const Eigen::MatrixXd& rows, const std::vector<int>& chosen) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(chosen.size()), rows.cols());
  for (std::size_t k = 0; k < chosen.size(); ++k)
    out.row(static_cast<Eigen::Index>(k)) = rows.row(chosen[k]);
  return out;
}

// Duplicates (one scaled), a sum of two rows and a zero row: the rows chosen are as many as A_E's
// rank, independent, ascending, and span every row.
TEST(SpanningEqualityRows, DropsDuplicatesCombinationsAndZeroRows) {
  Eigen::MatrixXd rows(6, 4);
  rows << 1, 1, 0, 0,  //
      0, 0, 1, 0,      //
      2, 2, 0, 0,      // 2 × row 0
      1, 1, 1, 0,      // row 0 + row 1
      0, 0, 0, 0,      // zero
      0, 1, 0, -1;
  const std::vector<int> chosen = spanning_equality_rows(problem_with_rows(rows), kPivot);
  ASSERT_EQ(static_cast<int>(chosen.size()), 3);
  EXPECT_TRUE(std::is_sorted(chosen.begin(), chosen.end()));
  EXPECT_EQ(std::count(chosen.begin(), chosen.end(), 4), 0);  // never the zero row
  const Eigen::MatrixXd kept = selected(rows, chosen);
  EXPECT_EQ(rank_of(kept), 3);
  Eigen::MatrixXd both(kept.rows() + rows.rows(), 4);
  both << kept, rows;
  EXPECT_EQ(rank_of(both), 3);  // every row lies in the span of the chosen ones
}

// Rows of very different scales are judged after scaling to unit length: a row 1e-14 long that
// is independent is kept (unscaled, its pivot would be 1e-14 of the largest).
TEST(SpanningEqualityRows, ATinyIndependentRowIsKept) {
  Eigen::MatrixXd rows(3, 4);
  rows << 1, 0, 0, 0,  //
      0, 1e-14, 0, 0,  //
      0, 0, 1, 0;
  EXPECT_EQ(spanning_equality_rows(problem_with_rows(rows), kPivot), (std::vector<int>{0, 1, 2}));
}

// A row 1e-8 away from the span of the others (relative) is independent at a pivot tolerance of
// 1e-12 and dependent at 1e-6.
TEST(SpanningEqualityRows, ThePivotToleranceDecidesNearlyDependentRows) {
  Eigen::MatrixXd rows(3, 4);
  rows << 1, 0, 0, 0,  //
      0, 1, 0, 0,      //
      1, 1, 1e-8, 0;
  EXPECT_EQ(spanning_equality_rows(problem_with_rows(rows), 1e-12).size(), 3u);
  EXPECT_EQ(spanning_equality_rows(problem_with_rows(rows), 1e-6).size(), 2u);
}

TEST(SpanningEqualityRows, NoRowsAndOneRow) {
  EXPECT_TRUE(spanning_equality_rows(problem_with_rows(Eigen::MatrixXd(0, 4)), kPivot).empty());
  Eigen::MatrixXd one(1, 4);
  one << 0, 3, 0, 0;
  EXPECT_EQ(spanning_equality_rows(problem_with_rows(one), kPivot), std::vector<int>{0});
}

TEST(WithEqualityRows, KeepsTheChosenRowsAndOffsetsInOrder) {
  Eigen::MatrixXd rows(4, 4);
  rows << 1, 0, 0, 0,  //
      0, 2, 0, 0,      //
      0, 0, 3, 0,      //
      0, 0, 0, 4;
  const QpProblem problem = problem_with_rows(rows);
  const QpProblem reduced = with_equality_rows(problem, {1, 3});
  ASSERT_EQ(reduced.num_equalities(), 2);
  EXPECT_EQ(Eigen::MatrixXd(reduced.equality_jacobian), selected(rows, {1, 3}));
  EXPECT_EQ(reduced.equality_offset, Eigen::Vector2d(2.0, 4.0));
  EXPECT_EQ(reduced.mass, problem.mass);
  EXPECT_EQ(reduced.num_inequalities(), 0);
}

}  // namespace
}  // namespace clothfit::qp
