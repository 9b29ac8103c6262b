// WorkingSetBorder: solves with a working set that differs from the one WorkingSetFactorization
// factored, without factoring again — the Schur-complement method for sparse QPs (Gill, Murray,
// Saunders and Wright, 1990). Each difference is one border column u of the factored matrix M:
//
//   a row b that joined:  u = (−g_bᵀ; 0; 0), −c_b (its compliance) on the border's diagonal and
//                          its equation's right-hand side beside it; its unknown is b's multiplier;
//   a factored row that left:  u = e (b's multiplier), 0 on the diagonal: the multiplier is held
//                          at 0 and the border's unknown takes up the row's equation.
//
// With Q = M⁻¹U and the small dense S = V − UᵀQ (indefinite: LU with partial pivoting), a solve
// is w = M⁻¹r, β = S⁻¹(h − Uᵀw), z = w − Qβ: one pass through the sparse factor per solve and one
// per column added. A row that joins and leaves again, or leaves and joins again, drops its
// column.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "core/qp/qp_problem.hpp"
#include "core/qp/working_set_factorization.hpp"

namespace clothfit::qp {

class WorkingSetBorder {
 public:
  // Starts from the working set `kkt` factored (no column). `compliance` (per row of the contact
  // block, as factored) must stay alive and unchanged while the border is used.
  void reset(const WorkingSetFactorization& kkt, const QpProblem& problem,
             const Eigen::VectorXd& compliance);
  void add_row(int b);     // row b joins the working set (nothing if it is in it)
  void remove_row(int b);  // row b leaves it (nothing if it is not in it)
  int size() const { return static_cast<int>(m_row.size()); }
  const std::vector<char>& working() const { return m_working; }

  // zeta ← M_W⁻¹ rho over the factorisation's unknowns (x, λ, γ), M_W the matrix with the
  // current working set: γ is each working row's multiplier and 0 for the others. Returns false
  // when S is numerically singular (a joining row dependent on the working rows).
  bool solve(const Eigen::VectorXd& rho, Eigen::VectorXd* zeta);
  // The same with w = M⁻¹ρ₀ already solved for, ρ₀ being rho but at the rows outside the
  // factored working set (where it must be 0) and at the factored rows that left (any value:
  // the border takes up their equations). A solver whose right-hand side changes only there
  // between working-set changes solves for w once.
  bool solve(const Eigen::VectorXd& w, const Eigen::VectorXd& rho, Eigen::VectorXd* zeta);

 private:
  // Uᵢᵀ v for border column i.
  double border_dot(int i, const Eigen::VectorXd& v) const;
  void push_column(int b, bool joins);
  void erase_column(int b);
  // β and zeta from m_w = M⁻¹ρ₀ (see solve).
  bool complete(const Eigen::VectorXd& rho, Eigen::VectorXd* zeta);

  const WorkingSetFactorization* m_kkt = nullptr;
  const QpProblem* m_problem = nullptr;
  const Eigen::VectorXd* m_compliance = nullptr;
  std::vector<char> m_working;
  std::vector<int> m_row;            // per column: its row of the contact block
  std::vector<char> m_joins;         // per column: the row joined (else: a factored row that left)
  std::vector<Eigen::VectorXd> m_q;  // per column: M⁻¹u
  Eigen::MatrixXd m_s;
  Eigen::VectorXd m_w, m_beta, m_h;
};

}  // namespace clothfit::qp
