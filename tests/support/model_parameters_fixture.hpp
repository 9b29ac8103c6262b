// A parameter set for fitting tests that need no simulation: α fitted in [0, 1] (start 0.5), δ
// fixed at 0.08, μ of "table" fitted in [0, 2] (start 1).
#pragma once

#include "fitting/model_parameters.hpp"

namespace clothfit::testing {

inline fitting::ModelParameters alpha_delta_mu_parameters() {
  using fitting::ParameterKind;
  using fitting::ParameterSpec;
  ParameterSpec alpha{"alpha", ParameterKind::kDamping, "", true, 0.5, 0.0, 1.0, 0};
  ParameterSpec delta{"delta", ParameterKind::kVirtualDensity, "", false, 0.08, 0, 0, 0};
  ParameterSpec mu{"mu.table", ParameterKind::kFriction, "table", true, 1.0, 0.0, 2.0, 0};
  return fitting::ModelParameters({alpha, delta, mu});
}

}  // namespace clothfit::testing
