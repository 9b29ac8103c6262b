#include "core/qp/interior_point_solver.hpp"

#include <Eigen/SparseCholesky>
#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <IpTNLP.hpp>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "core/qp/qp_kkt.hpp"

namespace clothfit::qp {
namespace {

using Ipopt::Index;
using Ipopt::Number;

// Ipopt treats bounds beyond ±1e19 as absent.
constexpr Number kNoBound = 1e20;

// ‖row‖∞ of each row of a row-major sparse matrix: (rows).
Eigen::VectorXd row_max_norms(const SparseRowMatrix& matrix) {
  Eigen::VectorXd norms = Eigen::VectorXd::Zero(matrix.rows());
  for (int row = 0; row < matrix.outerSize(); ++row) {
    for (SparseRowMatrix::InnerIterator it(matrix, row); it; ++it) {
      norms[row] = std::max(norms[row], std::abs(it.value()));
    }
  }
  return norms;
}

int stored_entries(const SparseRowMatrix& matrix) {
  int count = 0;
  for (int row = 0; row < matrix.outerSize(); ++row) {
    for (SparseRowMatrix::InnerIterator it(matrix, row); it; ++it) {
      ++count;
    }
  }
  return count;
}

// ‖(D + K)⁻¹ f‖∞, the length of the unconstrained minimiser (‖D⁻¹ f‖∞ without K). Falls back to
// ‖D⁻¹ f‖∞, an upper estimate in the D-norm, if D + K cannot be factored (non-finite data).
double unconstrained_step_norm(const QpProblem& problem) {
  const int n = problem.num_variables();
  // Variables without mass (the slack variables of bounded pinned rows, without_pinned_rows) have
  // no unconstrained minimiser of their own and do not set the scale.
  double diagonal_norm = 0.0;
  for (int j = 0; j < n; ++j) {
    if (problem.mass[j] > 0.0)
      diagonal_norm = std::max(diagonal_norm, std::abs(problem.linear[j] / problem.mass[j]));
  }
  if (!problem.has_curvature() || problem.mass.minCoeff() <= 0.0) {
    return diagonal_norm;
  }
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(n + problem.curvature.nonZeros());
  for (int j = 0; j < n; ++j) {
    triplets.emplace_back(j, j, problem.mass[j]);
  }
  for (int col = 0; col < problem.curvature.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(problem.curvature, col); it; ++it) {
      if (it.row() >= col) {
        triplets.emplace_back(static_cast<int>(it.row()), col, it.value());
      }
    }
  }
  Eigen::SparseMatrix<double> hessian(n, n);
  hessian.setFromTriplets(triplets.begin(), triplets.end());
  const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> ldlt(hessian);
  if (ldlt.info() != Eigen::Success) {
    return diagonal_norm;
  }
  const Eigen::VectorXd step = ldlt.solve(problem.linear);
  const double norm = step.lpNorm<Eigen::Infinity>();
  return ldlt.info() == Eigen::Success && std::isfinite(norm) ? norm : diagonal_norm;
}

// The QP as an Ipopt TNLP; writes Ipopt's final iterate into `solution` (converted to the sign
// convention of qp_problem.hpp, before clipping).
class QpTnlp final : public Ipopt::TNLP {
 public:
  // `step_override` > 0 replaces the a-priori step length σ of the header; `objective_mass` > 0
  // replaces ‖D‖∞ in the objective scaling and the padding (the damped mode's elastic variables
  // have masses far above D's, which must not set the scale).
  QpTnlp(const QpProblem& problem, QpSolution* solution, double step_override,
         double objective_mass)
      : m_problem(problem),
        m_solution(solution),
        m_num_padding(std::max(0, problem.num_equalities() - problem.num_variables() + 1)) {
    const Eigen::VectorXd equality_norms = row_max_norms(problem.equality_jacobian);
    const Eigen::VectorXd inequality_norms = row_max_norms(problem.inequality_jacobian);
    // Step length σ of the header.
    double step = unconstrained_step_norm(problem);
    for (int i = 0; i < problem.num_equalities(); ++i) {
      if (equality_norms[i] > 0.0) {
        step = std::max(step, std::abs(problem.equality_offset[i]) / equality_norms[i]);
      }
    }
    for (int i = 0; i < problem.num_inequalities(); ++i) {
      if (inequality_norms[i] > 0.0) {
        step = std::max(step, std::max(0.0, -problem.inequality_offset[i]) / inequality_norms[i]);
      }
    }
    if (step_override > 0.0) {
      step = step_override;
    }
    if (!(step > 0.0) || !std::isfinite(step)) {
      step = 1.0;
    }
    m_step = step;
    const double max_mass = objective_mass > 0.0      ? objective_mass
                            : problem.mass.size() > 0 ? problem.mass.maxCoeff()
                                                      : 1.0;
    m_padding_mass = max_mass > 0.0 && std::isfinite(max_mass) ? max_mass : 1.0;
    // The curvature: its diagonal joins D's entries of the Hessian, its strictly lower entries
    // follow them.
    m_curvature_diagonal = Eigen::VectorXd::Zero(problem.num_variables());
    const Eigen::SparseMatrix<double>& k = problem.curvature;
    for (int col = 0; col < k.outerSize(); ++col) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(k, col); it; ++it) {
        const int row = static_cast<int>(it.row());
        if (row < col) {
          continue;  // the upper triangle is not part of the interface
        }
        if (row == col) {
          m_curvature_diagonal[row] += it.value();
        } else {
          m_lower_rows.push_back(row);
          m_lower_cols.push_back(col);
          m_lower_values.push_back(it.value());
        }
      }
    }
    m_objective_scaling = 1.0 / (step * step * m_padding_mass);
    m_row_scaling.resize(problem.num_equalities() + problem.num_inequalities());
    for (int i = 0; i < problem.num_equalities(); ++i) {
      m_row_scaling[i] = 1.0 / (step * (equality_norms[i] > 0.0 ? equality_norms[i] : 1.0));
    }
    for (int i = 0; i < problem.num_inequalities(); ++i) {
      m_row_scaling[problem.num_equalities() + i] =
          1.0 / (step * (inequality_norms[i] > 0.0 ? inequality_norms[i] : 1.0));
    }
  }

  bool finalized() const { return m_finalized; }
  double step() const { return m_step; }

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                    IndexStyleEnum& index_style) override {
    n = m_problem.num_variables() + m_num_padding;
    m = m_problem.num_equalities() + m_problem.num_inequalities();
    nnz_jac_g =
        stored_entries(m_problem.equality_jacobian) + stored_entries(m_problem.inequality_jacobian);
    nnz_h_lag = n + static_cast<Index>(m_lower_values.size());
    index_style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l,
                       Number* g_u) override {
    std::fill(x_l, x_l + n, -kNoBound);
    std::fill(x_u, x_u + n, kNoBound);
    const int m_e = m_problem.num_equalities();
    for (int i = 0; i < m_e; ++i) {
      g_l[i] = -m_problem.equality_offset[i];
      g_u[i] = -m_problem.equality_offset[i];
    }
    for (int i = m_e; i < m; ++i) {
      g_l[i] = -m_problem.inequality_offset[i - m_e];
      g_u[i] = kNoBound;
    }
    return true;
  }

  bool get_scaling_parameters(Number& obj_scaling, bool& use_x_scaling, Index n, Number* x_scaling,
                              bool& use_g_scaling, Index m, Number* g_scaling) override {
    obj_scaling = m_objective_scaling;
    use_x_scaling = true;
    std::fill(x_scaling, x_scaling + n, 1.0 / m_step);
    use_g_scaling = true;
    std::copy(m_row_scaling.data(), m_row_scaling.data() + m, g_scaling);
    return true;
  }

  bool get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number* /*z_L*/,
                          Number* /*z_U*/, Index /*m*/, bool init_lambda,
                          Number* /*lambda*/) override {
    if (init_z || init_lambda) {
      return false;  // not requested with the options we set
    }
    if (init_x) {
      std::fill(x, x + n, 0.0);
    }
    return true;
  }

  bool eval_f(Index /*n*/, const Number* x, bool /*new_x*/, Number& obj_value) override {
    const Eigen::Map<const Eigen::VectorXd> xv(x, m_problem.num_variables());
    const Eigen::Map<const Eigen::VectorXd> padding(x + m_problem.num_variables(), m_num_padding);
    obj_value = 0.5 * xv.dot(m_problem.mass.cwiseProduct(xv)) - m_problem.linear.dot(xv) +
                0.5 * m_padding_mass * padding.squaredNorm();
    if (m_problem.has_curvature()) {
      obj_value += 0.5 * xv.dot(m_problem.curvature.selfadjointView<Eigen::Lower>() * xv);
    }
    return true;
  }

  bool eval_grad_f(Index /*n*/, const Number* x, bool /*new_x*/, Number* grad_f) override {
    const int n = m_problem.num_variables();
    const Eigen::Map<const Eigen::VectorXd> xv(x, n);
    Eigen::Map<Eigen::VectorXd> gradient(grad_f, n);
    gradient = m_problem.mass.cwiseProduct(xv) - m_problem.linear;
    if (m_problem.has_curvature()) {
      gradient.noalias() += m_problem.curvature.selfadjointView<Eigen::Lower>() * xv;
    }
    for (int k = 0; k < m_num_padding; ++k) {
      grad_f[n + k] = m_padding_mass * x[n + k];
    }
    return true;
  }

  bool eval_g(Index /*n*/, const Number* x, bool /*new_x*/, Index m, Number* g) override {
    const Eigen::Map<const Eigen::VectorXd> xv(x, m_problem.num_variables());
    const int m_e = m_problem.num_equalities();
    Eigen::Map<Eigen::VectorXd> gv(g, m);
    if (m_e > 0) {
      gv.head(m_e) = m_problem.equality_jacobian * xv;
    }
    if (m > m_e) {
      gv.tail(m - m_e) = m_problem.inequality_jacobian * xv;
    }
    return true;
  }

  bool eval_jac_g(Index /*n*/, const Number* /*x*/, bool /*new_x*/, Index /*m*/, Index nele_jac,
                  Index* i_row, Index* j_col, Number* values) override {
    int k = 0;
    const auto visit = [&](const SparseRowMatrix& matrix, int row_offset) {
      for (int row = 0; row < matrix.outerSize(); ++row) {
        for (SparseRowMatrix::InnerIterator it(matrix, row); it; ++it, ++k) {
          if (values == nullptr) {
            i_row[k] = row_offset + row;
            j_col[k] = static_cast<Index>(it.col());
          } else {
            values[k] = it.value();
          }
        }
      }
    };
    visit(m_problem.equality_jacobian, 0);
    visit(m_problem.inequality_jacobian, m_problem.num_equalities());
    return k == nele_jac;
  }

  // Lower triangle of the Lagrangian's Hessian (the constraints are linear): the n + padding
  // diagonal entries D_j + K_jj (padding: ‖D‖∞), then K's strictly lower entries.
  bool eval_h(Index n, const Number* /*x*/, bool /*new_x*/, Number obj_factor, Index /*m*/,
              const Number* /*lambda*/, bool /*new_lambda*/, Index nele_hess, Index* i_row,
              Index* j_col, Number* values) override {
    const int num_lower = static_cast<int>(m_lower_values.size());
    if (values == nullptr) {
      for (Index j = 0; j < n; ++j) {
        i_row[j] = j;
        j_col[j] = j;
      }
      for (int k = 0; k < num_lower; ++k) {
        i_row[n + k] = m_lower_rows[k];
        j_col[n + k] = m_lower_cols[k];
      }
    } else {
      const int num_variables = m_problem.num_variables();
      for (Index j = 0; j < n; ++j) {
        values[j] = obj_factor * (j < num_variables ? m_problem.mass[j] + m_curvature_diagonal[j]
                                                    : m_padding_mass);
      }
      for (int k = 0; k < num_lower; ++k) {
        values[n + k] = obj_factor * m_lower_values[k];
      }
    }
    return nele_hess == n + num_lower;
  }

  void finalize_solution(Ipopt::SolverReturn /*status*/, Index /*n*/, const Number* x,
                         const Number* /*z_L*/, const Number* /*z_U*/, Index m, const Number* /*g*/,
                         const Number* lambda, Number /*obj_value*/,
                         const Ipopt::IpoptData* /*ip_data*/,
                         Ipopt::IpoptCalculatedQuantities* /*ip_cq*/) override {
    const int m_e = m_problem.num_equalities();
    if (x != nullptr) {
      m_solution->x = Eigen::Map<const Eigen::VectorXd>(x, m_problem.num_variables());
    }
    if (lambda != nullptr) {
      // Ipopt: ∇f + ∇g y = 0. Ours: ∇f + A_Eᵀ λ − A_Iᵀ γ = 0.
      m_solution->equality_multipliers = Eigen::Map<const Eigen::VectorXd>(lambda, m_e);
      m_solution->inequality_multipliers =
          -Eigen::Map<const Eigen::VectorXd>(lambda + m_e, m - m_e);
    }
    m_finalized = true;
  }

 private:
  const QpProblem& m_problem;
  QpSolution* m_solution;
  // Padding variables y (solution 0): objective ½ ‖D‖∞ ‖y‖², no constraint entries. Ipopt treats
  // m_E = n as a square system (it ignores the objective) and refuses m_E > n, but duplicated
  // rows make both possible with a well-posed QP.
  int m_num_padding = 0;
  double m_padding_mass = 1.0;       // ‖D‖∞
  double m_step = 1.0;               // σ, units of x
  double m_objective_scaling = 1.0;  // 1 / (σ² ‖D‖∞)
  // K as the Hessian needs it: its diagonal (n) and its strictly lower entries as triplets.
  Eigen::VectorXd m_curvature_diagonal;
  std::vector<Index> m_lower_rows, m_lower_cols;
  std::vector<double> m_lower_values;
  Eigen::VectorXd m_row_scaling;  // (m_E + m_I) 1 / (σ ‖a_i‖∞)
  bool m_finalized = false;
};

std::string status_name(Ipopt::ApplicationReturnStatus status) {
  switch (status) {
    case Ipopt::Solve_Succeeded:
      return "Solve_Succeeded";
    case Ipopt::Solved_To_Acceptable_Level:
      return "Solved_To_Acceptable_Level";
    case Ipopt::Infeasible_Problem_Detected:
      return "Infeasible_Problem_Detected";
    case Ipopt::Search_Direction_Becomes_Too_Small:
      return "Search_Direction_Becomes_Too_Small";
    case Ipopt::Diverging_Iterates:
      return "Diverging_Iterates";
    case Ipopt::User_Requested_Stop:
      return "User_Requested_Stop";
    case Ipopt::Feasible_Point_Found:
      return "Feasible_Point_Found";
    case Ipopt::Maximum_Iterations_Exceeded:
      return "Maximum_Iterations_Exceeded";
    case Ipopt::Restoration_Failed:
      return "Restoration_Failed";
    case Ipopt::Error_In_Step_Computation:
      return "Error_In_Step_Computation";
    case Ipopt::Maximum_CpuTime_Exceeded:
      return "Maximum_CpuTime_Exceeded";
    case Ipopt::Not_Enough_Degrees_Of_Freedom:
      return "Not_Enough_Degrees_Of_Freedom";
    case Ipopt::Invalid_Problem_Definition:
      return "Invalid_Problem_Definition";
    case Ipopt::Invalid_Option:
      return "Invalid_Option";
    case Ipopt::Invalid_Number_Detected:
      return "Invalid_Number_Detected";
    case Ipopt::Unrecoverable_Exception:
      return "Unrecoverable_Exception";
    case Ipopt::NonIpopt_Exception_Thrown:
      return "NonIpopt_Exception_Thrown";
    case Ipopt::Insufficient_Memory:
      return "Insufficient_Memory";
    case Ipopt::Internal_Error:
      return "Internal_Error";
  }
  return "status " + std::to_string(static_cast<int>(status));
}

QpTermination termination_of(Ipopt::ApplicationReturnStatus status) {
  switch (status) {
    case Ipopt::Solve_Succeeded:
      return QpTermination::kConverged;
    case Ipopt::Maximum_Iterations_Exceeded:
      return QpTermination::kIterationLimit;
    default:
      return QpTermination::kNumericalFailure;
  }
}

// The damped QP of the header as an exact QP over (x, v): v (m_E) are elastic lengths with
// masses ‖a_i‖₂² / ε and equality rows a_i x − ‖a_i‖₂ v_i + c_i = 0 (‖a_i‖₂ := 1 for a zero row),
// so that at a solution a_i x + c_i = ε λ_i: the regularised saddle-point system. With a damping
// centre λ₀ (qp::damping_centre) v_i also has the linear term ‖a_i‖₂ λ₀_i v_i in the objective
// (f_v = −‖a_i‖₂ λ₀_i), and a_i x + c_i = ε (λ_i − λ₀_i).
QpProblem damped_problem(const QpProblem& problem, double relative_regularization) {
  const int n = problem.num_variables();
  const int m_e = problem.num_equalities();
  double mean_delassus = 0.0;
  Eigen::VectorXd norms(m_e);
  for (int r = 0; r < m_e; ++r) {
    double squared = 0.0;
    for (SparseRowMatrix::InnerIterator it(problem.equality_jacobian, r); it; ++it) {
      if (problem.mass[it.col()] > 0.0)  // massless slack variables do not count
        mean_delassus += it.value() * it.value() / problem.mass[it.col()];
      squared += it.value() * it.value();
    }
    norms[r] = squared > 0.0 ? std::sqrt(squared) : 1.0;
  }
  const double epsilon = relative_regularization * std::max(mean_delassus / m_e, 1e-300);

  QpProblem damped;
  damped.mass.resize(n + m_e);
  damped.mass.head(n) = problem.mass;
  damped.mass.tail(m_e) = norms.array().square() / epsilon;
  damped.linear = Eigen::VectorXd::Zero(n + m_e);
  damped.linear.head(n) = problem.linear;
  damped.linear.tail(m_e) = -norms.cwiseProduct(damping_centre(problem, epsilon));
  if (problem.has_curvature()) {
    std::vector<Eigen::Triplet<double>> triplets;
    for (int col = 0; col < problem.curvature.outerSize(); ++col) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(problem.curvature, col); it; ++it) {
        triplets.emplace_back(static_cast<int>(it.row()), col, it.value());
      }
    }
    damped.curvature.resize(n + m_e, n + m_e);
    damped.curvature.setFromTriplets(triplets.begin(), triplets.end());
  }
  std::vector<Eigen::Triplet<double>> triplets;
  for (int r = 0; r < m_e; ++r) {
    for (SparseRowMatrix::InnerIterator it(problem.equality_jacobian, r); it; ++it) {
      triplets.emplace_back(r, static_cast<int>(it.col()), it.value());
    }
    triplets.emplace_back(r, n + r, -norms[r]);
  }
  damped.equality_jacobian.resize(m_e, n + m_e);
  damped.equality_jacobian.setFromTriplets(triplets.begin(), triplets.end());
  damped.equality_jacobian.makeCompressed();
  damped.equality_offset = problem.equality_offset;
  damped.inequality_jacobian = problem.inequality_jacobian;
  damped.inequality_jacobian.conservativeResize(problem.num_inequalities(), n + m_e);
  damped.inequality_jacobian.makeCompressed();
  damped.inequality_offset = problem.inequality_offset;
  return damped;
}

// Whether x = 0 with zero multipliers solves the QP to far below round-off of any realistic
// length: every move it could ask for, |f_k|/D_k and |c_E,i|/‖a_i‖₂, is below kZeroStep, and no
// contact row is violated (a rigidly falling sheet's QP). Ipopt has no scale to work with there: it
// diverged, or succeeded with relative residuals of round-off against round-off.
bool solved_by_zero(const QpProblem& problem) {
  if (problem.num_inequalities() > 0 && problem.inequality_offset.minCoeff() < 0.0)
    return false;
  for (int k = 0; k < problem.num_variables(); ++k) {
    if (!(std::abs(problem.linear[k]) <= InteriorPointSolver::kZeroStep * problem.mass[k]))
      return false;
  }
  for (int i = 0; i < problem.num_equalities(); ++i) {
    const double norm = problem.equality_jacobian.row(i).norm();
    if (!(std::abs(problem.equality_offset[i]) <= InteriorPointSolver::kZeroStep * norm))
      return false;
  }
  return true;
}

// Clips round-off negative γ and lists the active rows (header rules); returns the KKT residual
// of the result.
QpKktResidual finish_solution(const QpProblem& problem, QpSolution* solution) {
  const int m_i = problem.num_inequalities();
  const QpKktResidual scales = kkt_residual(problem, *solution);
  if (m_i == 0) {
    return scales;
  }
  const double force_scale = std::max(scales.force_scale, 1e-300);
  const double length_scale = std::max(scales.length_scale, 1e-300);
  const Eigen::VectorXd slack =
      problem.inequality_offset + problem.inequality_jacobian * solution->x;
  Eigen::VectorXd& gamma = solution->inequality_multipliers;
  for (int i = 0; i < m_i; ++i) {
    const double norm = problem.inequality_jacobian.row(i).norm();
    if (gamma[i] < 0.0 &&
        -gamma[i] * norm <= InteriorPointSolver::kNegativeMultiplierClip * force_scale) {
      gamma[i] = 0.0;
    }
    const double row_norm = norm > 0.0 ? norm : 1.0;
    const double relative_slack = slack[i] / (row_norm * length_scale);
    const double relative_force = gamma[i] * row_norm / force_scale;
    if (gamma[i] > 0.0 && relative_slack <= InteriorPointSolver::kActiveSlack &&
        relative_slack < relative_force) {
      solution->active_inequalities.push_back(i);
    }
  }
  return kkt_residual(problem, *solution);
}

// Multipliers that cancel far above the objective's forces (qp_kkt.hpp: F against F₀).
bool multipliers_overgrown(const QpKktResidual& kkt) {
  return kkt.force_scale >
         InteriorPointSolver::kMaxMultiplierGrowth * std::max(kkt.objective_force_scale, 1e-300);
}

}  // namespace

struct InteriorPointSolver::Impl {
  Ipopt::SmartPtr<Ipopt::IpoptApplication> application;
  std::string setup_error;   // empty when the application is usable
  double tolerance = 1e-10;  // Ipopt's tol
  // > 0: solve the damped QP with this relative regularisation (header).
  double damping = 0.0;
};

InteriorPointSolver::InteriorPointSolver(const QpSolverOptions& options)
    : m_impl(std::make_unique<Impl>()) {
  m_impl->tolerance = options.interior_point_tolerance;
  if (options.refinement_steps == 0 && options.equality_regularization > 0.0) {
    m_impl->damping = options.equality_regularization;
  }
  try {
    // No console journal: Ipopt never prints.
    m_impl->application = new Ipopt::IpoptApplication(/*create_console_out=*/false);
    Ipopt::OptionsList& list = *m_impl->application->Options();
    bool ok = true;
    ok &= list.SetIntegerValue("print_level", 0);
    ok &= list.SetStringValue("sb", "yes");
    ok &= list.SetNumericValue("tol", options.interior_point_tolerance);
    ok &= list.SetIntegerValue("max_iter", options.interior_point_max_iterations);
    ok &= list.SetStringValue("hessian_constant", "yes");
    ok &= list.SetStringValue("jac_c_constant", "yes");
    ok &= list.SetStringValue("jac_d_constant", "yes");
    ok &= list.SetStringValue("mu_strategy", "adaptive");
    ok &= list.SetStringValue("nlp_scaling_method", "user-scaling");
    ok &= list.SetNumericValue("bound_relax_factor", 0.0);
    // MUMPS computes a matching-based permutation and scaling in its analysis, once, from the
    // first KKT matrix; with rank-deficient equality rows that matrix is singular, the scaling is
    // degenerate, and every later factorisation fails (a quarter of the flat random QPs ended in
    // Restoration_Failed). Without it MUMPS scales each factorisation from its own values.
    ok &= list.SetIntegerValue("mumps_permuting_scaling", 0);
    if (!ok) {
      m_impl->setup_error = "Ipopt rejected an option";
      return;
    }
    std::istringstream no_options_file;  // keeps Ipopt from reading ./ipopt.opt
    const Ipopt::ApplicationReturnStatus status = m_impl->application->Initialize(no_options_file);
    if (status != Ipopt::Solve_Succeeded) {
      m_impl->setup_error = "Ipopt initialisation failed: " + status_name(status);
    }
  } catch (const std::exception& error) {
    m_impl->setup_error = std::string("Ipopt initialisation failed: ") + error.what();
  } catch (...) {
    m_impl->setup_error = "Ipopt initialisation failed";
  }
}

InteriorPointSolver::~InteriorPointSolver() = default;

QpSummary InteriorPointSolver::solve(const QpProblem& problem, const QpWarmStart& start,
                                     QpSolution* solution) {
  assert(solution != nullptr);
  if (problem.num_pinned() > 0) {
    // Ipopt sees the pinned rows as equality rows (with slack variables where bounded); their
    // multipliers are −σ.
    const int n = problem.num_variables(), m_e = problem.num_equalities();
    const int m_i = problem.num_inequalities(), m_p = problem.num_pinned();
    QpSolution full;
    const QpSummary summary = solve(without_pinned_rows(problem), start, &full);
    solution->x = full.x.head(n);
    solution->equality_multipliers = full.equality_multipliers.head(m_e);
    solution->pinned_multipliers = -full.equality_multipliers.segment(m_e, m_p);
    solution->inequality_multipliers = full.inequality_multipliers.head(m_i);
    solution->active_inequalities.clear();
    for (int row : full.active_inequalities) {
      if (row < m_i)
        solution->active_inequalities.push_back(row);
    }
    return summary;
  }
  solution->pinned_multipliers.resize(0);
  bool overgrown = false;
  const QpSummary summary = solve_once(problem, solution, &overgrown);
  if (summary.ok() && !overgrown)
    return summary;
  // Failed, or converged only by the measure of multipliers that cancel (header): again without
  // the dependent equality rows, if there are any.
  const int m_e = problem.num_equalities();
  if (m_e < 2 || static_cast<double>(problem.num_variables()) * m_e > kMaxDenseRankEntries)
    return summary;
  std::vector<int> rows;
  try {
    rows = spanning_equality_rows(problem, kDependentRowPivot);
  } catch (...) {  // no memory for the dense QR: the first result stands
    return summary;
  }
  if (static_cast<int>(rows.size()) == m_e)
    return summary;
  QpSolution reduced;
  QpSummary retry = solve_once(with_equality_rows(problem, rows), &reduced, &overgrown);
  const std::string dropped = std::to_string(m_e - static_cast<int>(rows.size())) + " of " +
                              std::to_string(m_e) + " equality rows";
  QpSolution expanded;
  if (retry.ok()) {
    expanded.x = reduced.x;
    expanded.equality_multipliers = Eigen::VectorXd::Zero(m_e);
    for (std::size_t k = 0; k < rows.size(); ++k)
      expanded.equality_multipliers[rows[k]] = reduced.equality_multipliers[static_cast<int>(k)];
    expanded.inequality_multipliers = reduced.inequality_multipliers;
    expanded.active_inequalities = reduced.active_inequalities;
    const double residual = kkt_residual(problem, expanded).max();
    if (!(residual <= kMaxConvergedKktResidual)) {
      retry.termination = QpTermination::kNumericalFailure;
      retry.message += ", but the relative KKT residual of the whole QP is " +
                       std::to_string(residual) + " (inconsistent rows?)";
    }
  }
  if (!retry.ok()) {  // the first result stands
    QpSummary first = summary;
    first.iterations += retry.iterations;
    first.message += "; again without " + dropped + " (dependent): " + retry.message;
    return first;
  }
  retry.iterations += summary.iterations;
  retry.message += " (" + dropped + " left out as dependent, their multipliers 0)";
  *solution = std::move(expanded);
  return retry;
}

QpSummary InteriorPointSolver::solve_once(const QpProblem& problem, QpSolution* solution,
                                          bool* overgrown) {
  *overgrown = false;
  const int n = problem.num_variables();
  const int m_e = problem.num_equalities();
  const int m_i = problem.num_inequalities();
  assert(problem.linear.size() == n);
  assert(problem.equality_jacobian.rows() == m_e && problem.equality_jacobian.cols() == n);
  assert(problem.inequality_jacobian.rows() == m_i && problem.inequality_jacobian.cols() == n);
  assert((problem.curvature.rows() == 0 && problem.curvature.cols() == 0) ||
         (problem.curvature.rows() == n && problem.curvature.cols() == n));

  QpSummary summary;
  try {
    solution->x = Eigen::VectorXd::Zero(n);
    solution->equality_multipliers = Eigen::VectorXd::Zero(m_e);
    solution->inequality_multipliers = Eigen::VectorXd::Zero(m_i);
    solution->active_inequalities.clear();
    if (!m_impl->setup_error.empty()) {
      summary.message = m_impl->setup_error;
      return summary;
    }
    if (n == 0) {
      const bool feasible = (m_e == 0 || problem.equality_offset.isZero(0.0)) &&
                            (m_i == 0 || problem.inequality_offset.minCoeff() >= 0.0);
      summary.termination = feasible ? QpTermination::kConverged : QpTermination::kNumericalFailure;
      summary.message = feasible ? "no variables" : "no variables and infeasible offsets";
      return summary;
    }
    if (solved_by_zero(problem)) {
      summary.termination = QpTermination::kConverged;
      summary.message = "x = 0 solves the QP (no force, no equality offset, contacts satisfied)";
      return summary;
    }

    // Damped mode: the exact QP over (x, v) of damped_problem, solved into `damped_solution`.
    const bool damped = m_impl->damping > 0.0 && m_e > 0;
    QpProblem damped_qp;
    QpSolution damped_solution;
    if (damped) {
      damped_qp = damped_problem(problem, m_impl->damping);
      damped_solution.x = Eigen::VectorXd::Zero(n + m_e);
      damped_solution.equality_multipliers = Eigen::VectorXd::Zero(m_e);
      damped_solution.inequality_multipliers = Eigen::VectorXd::Zero(m_i);
    }
    const QpProblem& solved = damped ? damped_qp : problem;
    QpSolution* const result = damped ? &damped_solution : solution;
    const double objective_mass = problem.mass.maxCoeff();

    // First pass with the a-priori σ; a second one with σ = L of the first solution when σ
    // overestimated the step and the relative residual shows it (header).
    Ipopt::ApplicationReturnStatus status = Ipopt::Internal_Error;
    Ipopt::SmartPtr<QpTnlp> tnlp;
    QpKktResidual kkt;
    double step_override = 0.0;
    bool negligible = false;  // the solution is x = 0 to Ipopt's precision
    for (int pass = 0; pass < 2; ++pass) {
      result->active_inequalities.clear();
      tnlp = new QpTnlp(solved, result, step_override, objective_mass);
      status =
          m_impl->application->OptimizeTNLP(Ipopt::SmartPtr<Ipopt::TNLP>(Ipopt::GetRawPtr(tnlp)));
      Ipopt::SmartPtr<Ipopt::SolveStatistics> statistics = m_impl->application->Statistics();
      if (Ipopt::IsValid(statistics)) {
        summary.iterations += statistics->IterationCount();
      }
      if (!tnlp->finalized()) {
        break;
      }
      kkt = finish_solution(solved, result);
      negligible = kkt.length_scale <= kNegligibleStepRatio * tnlp->step();
      if (pass > 0 || status != Ipopt::Solve_Succeeded || negligible ||
          !(kkt.max() > kRescaleResidualFactor * m_impl->tolerance) || !(kkt.length_scale > 0.0) ||
          !(tnlp->step() > kRescaleStepRatio * kkt.length_scale)) {
        break;
      }
      step_override = kkt.length_scale;
    }
    summary.termination = termination_of(status);
    summary.message = "Ipopt: " + status_name(status);
    if (step_override > 0.0) {
      summary.message += " (second pass, rescaled to the first solution's length)";
    }
    if (damped) {
      solution->x = damped_solution.x.head(n);
      solution->equality_multipliers = damped_solution.equality_multipliers;
      solution->inequality_multipliers = damped_solution.inequality_multipliers;
      solution->active_inequalities = damped_solution.active_inequalities;
      summary.message += " (damped QP)";
    }
    if (tnlp->finalized()) {
      const double residual = kkt.max();
      if (summary.termination == QpTermination::kConverged && !negligible &&
          !(residual <= kMaxConvergedKktResidual)) {
        summary.termination = QpTermination::kNumericalFailure;
        summary.message += ", but the relative KKT residual is " + std::to_string(residual);
      }
      if (summary.termination == QpTermination::kConverged && !negligible &&
          multipliers_overgrown(kkt)) {
        *overgrown = true;
      }
    } else if (summary.termination == QpTermination::kConverged) {
      summary.termination = QpTermination::kNumericalFailure;
      summary.message += " without a solution";
    }
  } catch (const std::exception& error) {
    summary.termination = QpTermination::kNumericalFailure;
    summary.message = std::string("interior point: ") + error.what();
  } catch (...) {
    summary.termination = QpTermination::kNumericalFailure;
    summary.message = "interior point: unknown exception";
  }
  return summary;
}

}  // namespace clothfit::qp
