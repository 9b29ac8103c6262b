#include "core/qp/qp_solver.hpp"

#include "core/qp/active_set_solver.hpp"
#include "core/qp/interior_point_solver.hpp"

namespace clothfit::qp {

std::string_view to_string(QpSolverType type) {
  return type == QpSolverType::kActiveSet ? "active-set" : "interior-point";
}

bool parse_qp_solver_type(std::string_view text, QpSolverType* type) {
  if (text == "active-set") {
    *type = QpSolverType::kActiveSet;
    return true;
  }
  if (text == "interior-point") {
    *type = QpSolverType::kInteriorPoint;
    return true;
  }
  return false;
}

std::string_view to_string(QpTermination termination) {
  switch (termination) {
    case QpTermination::kConverged:
      return "converged";
    case QpTermination::kIterationLimit:
      return "iteration_limit";
    case QpTermination::kNotConvex:
      return "not_convex";
    case QpTermination::kInfeasible:
      return "infeasible";
    default:
      return "numerical_failure";
  }
}

std::unique_ptr<QpSolver> make_qp_solver(QpSolverType type, const QpSolverOptions& options) {
  if (type == QpSolverType::kInteriorPoint)
    return std::make_unique<InteriorPointSolver>(options);
  return std::make_unique<ActiveSetSolver>(options);
}

}  // namespace clothfit::qp
