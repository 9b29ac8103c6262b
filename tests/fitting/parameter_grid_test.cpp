// Grids and sweep axes: values, order, and the parsing of "name=lo:hi:step" and "name=value".
#include <gtest/gtest.h>

#include "fitting/parameter_grid.hpp"
#include "fitting/parameter_sweep.hpp"
#include "support/model_parameters_fixture.hpp"

namespace clothfit::fitting {
namespace {

using testing::alpha_delta_mu_parameters;

TEST(Linspace, IncludesBothEnds) {
  const std::vector<double> v = linspace(0.0, 1.0, 5);
  ASSERT_EQ(v.size(), 5u);
  EXPECT_DOUBLE_EQ(v[1], 0.25);
  EXPECT_DOUBLE_EQ(v.back(), 1.0);
  EXPECT_EQ(linspace(2.0, 4.0, 1), std::vector<double>{3.0});
}

TEST(GridPoints, FirstAxisVariesSlowestAndOthersKeepTheirBase) {
  const std::vector<double> base{9.0, 8.0, 7.0};
  const auto points = grid_points(base, {{0, {1.0, 2.0}}, {2, {3.0, 4.0, 5.0}}});
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0], (std::vector<double>{1.0, 8.0, 3.0}));
  EXPECT_EQ(points[1], (std::vector<double>{1.0, 8.0, 4.0}));
  EXPECT_EQ(points[3], (std::vector<double>{2.0, 8.0, 3.0}));
  EXPECT_EQ(grid_points(base, {}).size(), 1u);
}

// A grid's size is counted without overflow, and a grid too large to run is refused before its
// points are allocated (a fit with --grid 100000 over three parameters aborted with bad_alloc).
TEST(GridPoints, AGridOfMoreThanTheMostPointsIsRefused) {
  const GridAxis hundred{0, std::vector<double>(100, 0.5)};
  const GridAxis thousand{1, std::vector<double>(1000, 0.5)};
  EXPECT_EQ(grid_size({}), 1u);
  EXPECT_EQ(grid_size({hundred, thousand}), 100000u);
  EXPECT_EQ(grid_points({0.0, 0.0, 0.0}, {hundred, thousand}).size(), kMaxGridPoints);
  const GridAxis million{2, std::vector<double>(1000000, 0.5)};
  EXPECT_EQ(grid_size({million}), kMaxGridPoints + 1);
  EXPECT_EQ(grid_size({hundred, thousand, hundred, thousand}), kMaxGridPoints + 1);
  EXPECT_THROW(grid_points({0.0, 0.0, 0.0}, {hundred, thousand, {2, {1.0, 2.0}}}),
               std::invalid_argument);
}

TEST(SweepAxis, ParsesRangeAndIncludesTheUpperEndWhenOnTheGrid) {
  const ModelParameters p = alpha_delta_mu_parameters();
  const GridAxis axis = parse_sweep_axis("mu.table=0:2:0.1", p);
  EXPECT_EQ(axis.parameter, 2);
  ASSERT_EQ(axis.values.size(), 21u);
  EXPECT_DOUBLE_EQ(axis.values.back(), 2.0);
  EXPECT_EQ(parse_sweep_axis("alpha=0.2:0.2:1", p).values.size(), 1u);
  // From a lower end above 0 (the count is (upper − lower)/step + 1, not from 0; found by
  // scripts/mutate.py), with the upper end on the grid and off it.
  const std::vector<double> alpha = parse_sweep_axis("alpha=0.1:0.5:0.1", p).values;
  ASSERT_EQ(alpha.size(), 5u);
  EXPECT_DOUBLE_EQ(alpha.front(), 0.1);
  EXPECT_DOUBLE_EQ(alpha.back(), 0.5);
  const std::vector<double> delta = parse_sweep_axis("delta=0.05:0.2:0.04", p).values;
  ASSERT_EQ(delta.size(), 4u);
  EXPECT_DOUBLE_EQ(delta.back(), 0.17);
}

TEST(SweepAxis, RejectsMistakesWithAMessage) {
  const ModelParameters p = alpha_delta_mu_parameters();
  EXPECT_THROW(parse_sweep_axis("gamma=0:1:0.1", p), std::invalid_argument);
  EXPECT_THROW(parse_sweep_axis("alpha=0:1", p), std::invalid_argument);
  EXPECT_THROW(parse_sweep_axis("alpha=1:0:0.1", p), std::invalid_argument);
  EXPECT_THROW(parse_sweep_axis("alpha=0:1:0", p), std::invalid_argument);
  EXPECT_THROW(parse_sweep_axis("alpha=0:x:0.1", p), std::invalid_argument);
  EXPECT_THROW(parse_sweep_axis("alpha=0:0x1:0.1", p), std::invalid_argument);
  EXPECT_THROW(parse_sweep_axis("alpha= 0:1:0.1", p), std::invalid_argument);
  try {
    parse_sweep_axis("alpha=0:1e400:0.1", p);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("expected a number within a double's range"),
              std::string::npos)
        << e.what();
  }
  // μ beyond obstacles::kMaxFrictionCoefficient, as a sweep's range or a value given.
  EXPECT_NO_THROW(parse_sweep_axis("mu.table=0:100:10", p));
  EXPECT_THROW(parse_sweep_axis("mu.table=0:1000:100", p), std::invalid_argument);
  EXPECT_THROW(parse_parameter_values("mu.table=1e5", p, p.start_values()), std::invalid_argument);
  EXPECT_NO_THROW(parse_parameter_values("alpha=1000", p, p.start_values()));
  // At most 10000 values (exact in binary: 0, 0.5, …).
  EXPECT_EQ(parse_sweep_axis("alpha=0:4999.5:0.5", p).values.size(), 10000u);
  EXPECT_THROW(parse_sweep_axis("alpha=0:5000:0.5", p), std::invalid_argument);
  // Counts beyond a long's range, and the smallest step there is: the cast of the count wrapped
  // to a negative number of values, which passed the check and crashed the sweep.
  EXPECT_THROW(parse_sweep_axis("alpha=0:1:1e-20", p), std::invalid_argument);
  EXPECT_THROW(parse_sweep_axis("alpha=0.1:0.3:5e-324", p), std::invalid_argument);
  EXPECT_THROW(parse_sweep_axis("delta=0:0.1:1e-300", p), std::invalid_argument);
  try {
    parse_sweep_axis("mu.floor=0:1:0.1", p);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("mu.table"), std::string::npos) << e.what();
  }
}

TEST(ParameterValues, OverridesNamedValuesOnly) {
  const ModelParameters p = alpha_delta_mu_parameters();
  const auto v = parse_parameter_values("delta=0.1,mu.table=0.4", p, p.start_values());
  EXPECT_EQ(v, (std::vector<double>{0.5, 0.1, 0.4}));
  EXPECT_THROW(parse_parameter_values("delta=-1", p, v), std::invalid_argument);
  EXPECT_THROW(parse_parameter_values("delta", p, v), std::invalid_argument);
  // A parameter given twice is refused (the last value won silently).
  EXPECT_THROW(parse_parameter_values("delta=0.1,mu.table=0.4,delta=0.2", p, v),
               std::invalid_argument);
  // A trailing comma and hexadecimal floats were accepted (0x1p-3 as 0.125).
  EXPECT_THROW(parse_parameter_values("delta=0.1,", p, v), std::invalid_argument);
  EXPECT_THROW(parse_parameter_values("delta=0x1p-3", p, v), std::invalid_argument);
  EXPECT_THROW(parse_sweep_axis("alpha=0:0x1:0.1", p), std::invalid_argument);
  EXPECT_EQ(parse_parameter_values("delta=1e-1", p, v)[1], 0.1);  // exponents are decimal
}

}  // namespace
}  // namespace clothfit::fitting
