// A sweep's points: replicas combined into one score, and the report of why points failed.
#include "fitting/parameter_sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "support/model_parameters_fixture.hpp"

namespace clothfit::fitting {
namespace {

using testing::alpha_delta_mu_parameters;

Evaluation run(double objective, double mean_error, long unconverged = 0, long retried = 0) {
  Evaluation e;
  e.ok = true;
  e.objective = objective;
  e.errors.sum_error_m = objective;
  e.errors.mean_error_m = mean_error;
  e.errors.mean_spread_m = 0.5 * mean_error;
  e.unconverged_steps = unconverged;
  e.retried_steps = retried;
  return e;
}

Evaluation failed(const std::string& message) {
  Evaluation e;
  e.objective = INFINITY;
  e.message = message;
  return e;
}

TEST(CombineReplicas, ScoresAPointByTheMeanOfItsReplicas) {
  ObjectiveNoise noise;
  const Evaluation mean =
      combine_replicas({run(1.0, 0.01), run(2.0, 0.02, 3), run(3.0, 0.03, 0, 2)}, &noise);
  ASSERT_TRUE(mean.ok);
  EXPECT_DOUBLE_EQ(mean.objective, 2.0);
  EXPECT_DOUBLE_EQ(mean.errors.sum_error_m, 2.0);
  EXPECT_DOUBLE_EQ(mean.errors.mean_error_m, 0.02);
  EXPECT_DOUBLE_EQ(mean.errors.mean_spread_m, 0.01);
  EXPECT_EQ(mean.unconverged_steps, 3);
  EXPECT_EQ(mean.retried_steps, 2);  // the worst replica's, as for the steps at the cap
  EXPECT_EQ(noise.objectives.size(), 3u);
  EXPECT_DOUBLE_EQ(noise.mean, 2.0);
}

TEST(CombineReplicas, AFailedReplicaFailsThePointAndSaysWhy) {
  // Replica 0 ran, so its message is empty; the point's message must be the failed replica's.
  ObjectiveNoise noise;
  const Evaluation mean = combine_replicas(
      {run(1.0, 0.01), failed("frame 7: positions became non-finite"), failed("second")}, &noise);
  EXPECT_FALSE(mean.ok);
  EXPECT_EQ(mean.message, "replica 1: frame 7: positions became non-finite");

  const Evaluation first =
      combine_replicas({failed("frame 3: the QP failed"), run(1.0, 0.01)}, &noise);
  EXPECT_FALSE(first.ok);
  EXPECT_EQ(first.message, "frame 3: the QP failed");
}

TEST(SweepFailures, OneLinePerFailedPointWithItsValuesAndMessage) {
  const ModelParameters parameters = alpha_delta_mu_parameters();
  SweepResult sweep;
  sweep.axes = {{0, {0.1, 0.2}}, {2, {0.5, 0.725}}};
  sweep.points = {{0.1, 0.08, 0.5}, {0.1, 0.08, 0.725}, {0.2, 0.08, 0.5}, {0.2, 0.08, 0.725}};
  sweep.evaluations = {run(1.0, 0.01), failed("frame 368 (t = 3.67 s): QP failed"), run(1.0, 0.01),
                       failed("frame 2: non-finite")};
  std::ostringstream out;
  EXPECT_EQ(write_sweep_failures(out, sweep, parameters), 2u);
  EXPECT_EQ(out.str(),
            "alpha=0.1,mu.table=0.725: frame 368 (t = 3.67 s): QP failed\n"
            "alpha=0.2,mu.table=0.725: frame 2: non-finite\n");

  // A checkpoint's pending point has not failed: no line for it.
  sweep.completed = {true, false, true, true};
  std::ostringstream checkpoint;
  EXPECT_EQ(write_sweep_failures(checkpoint, sweep, parameters), 1u);
  EXPECT_EQ(checkpoint.str(), "alpha=0.2,mu.table=0.725: frame 2: non-finite\n");
  std::ostringstream csv;
  write_sweep_csv(csv, sweep, parameters);
  EXPECT_NE(csv.str().find("\n0.1,0.725,,,,pending,,\n"), std::string::npos) << csv.str();
  sweep.completed.clear();

  // The step counts come last; a failed point has none.
  sweep.evaluations[0].unconverged_steps = 2;
  sweep.evaluations[0].retried_steps = 7;
  std::ostringstream counted;
  write_sweep_csv(counted, sweep, parameters);
  EXPECT_EQ(counted.str(),
            "alpha,mu.table,objective,mean_error_m,mean_spread_m,status,unconverged_steps,"
            "retried_steps\n"
            "0.1,0.5,1,0.01,0.005,iteration_cap,2,7\n"
            "0.1,0.725,,,,failed,,\n"
            "0.2,0.5,1,0.01,0.005,ok,0,0\n"
            "0.2,0.725,,,,failed,,\n");

  sweep.evaluations[1] = run(1.0, 0.01);
  sweep.evaluations[3] = run(1.0, 0.01);
  std::ostringstream none;
  EXPECT_EQ(write_sweep_failures(none, sweep, parameters), 0u);
  EXPECT_TRUE(none.str().empty());
}

}  // namespace
}  // namespace clothfit::fitting
