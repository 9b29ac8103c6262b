#include "core/stepper/iteration_record.hpp"

namespace clothfit::stepper {

std::string_view to_string(ProjectionModel model) {
  switch (model) {
    case ProjectionModel::kNewtonExactCurvature:
      return "newton-exact";
    case ProjectionModel::kGaussNewton:
      return "gauss-newton";
    default:
      return "newton";
  }
}

}  // namespace clothfit::stepper
