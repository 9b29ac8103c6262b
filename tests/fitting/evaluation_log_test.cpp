// The fit's evaluation log (FitOptions::evaluation_log): one CSV row per simulation, written as
// it completes, so that an interrupted fit keeps what it ran, with the steps that reached the cap
// and those taken again there.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "fitting/parameter_fitter.hpp"
#include "support/model_parameters_fixture.hpp"

namespace clothfit::fitting {
namespace {

TEST(EvaluationLog, OneRowPerRunWithEveryParameterAndTheStage) {
  const ModelParameters parameters = testing::alpha_delta_mu_parameters();
  std::ostringstream log;
  write_evaluation_log_header(log, parameters);
  Evaluation ok;
  ok.ok = true;
  ok.values = {0.2, 0.08, 0.725};
  ok.objective = 12.5;
  ok.errors.mean_error_m = 0.031;
  ok.errors.mean_spread_m = 0.012;
  write_evaluation_log_row(log, "grid search", ok);
  ok.unconverged_steps = 3;
  ok.retried_steps = 5;
  write_evaluation_log_row(log, "profile", ok);
  Evaluation failed;
  failed.values = {0.1, 0.08, 2.0};
  failed.objective = INFINITY;
  write_evaluation_log_row(log, "refine", failed);
  EXPECT_EQ(log.str(),
            "stage,alpha,delta,mu.table,objective,mean_error_m,mean_spread_m,status,"
            "unconverged_steps,retried_steps\n"
            "grid search,0.2,0.08,0.725,12.5,0.031,0.012,ok,0,0\n"
            "profile,0.2,0.08,0.725,12.5,0.031,0.012,iteration_cap,3,5\n"
            "refine,0.1,0.08,2,,,,failed,,\n");
}

}  // namespace
}  // namespace clothfit::fitting
