// ContactSet: the obstacle contact rows H(φ) ≥ 0 of a time step and their Coulomb friction
// (DESIGN.md §1–2, paper §2 and eq. 3).
//
// Rows. At every projection iteration j, for each obstacle o and each free cloth node p_i (and each
// quad centre when the obstacle asks for face centres) whose h(p, t_{n+1}) is below a candidate
// margin, one linearised row  h(p_j) + ∇h(p_j) · Δp ≥ 0  over the QP's free coordinates. Points
// farther away cannot reach the obstacle within the step and are left out of the QP. Rows are
// identified across iterations and steps by their key (obstacle, point) so the active set of the
// previous iteration or step seeds the solver's working set (paper Remark 5.3).
//
// Friction, single pass. The QP's multiplier γ_k of a contact row is a normal impulse × Δt (the QP
// is in the units of ρM·Δφ). For the next iteration each contact node gets the tangential term
//   F_k = −min(μ_o γ_k ‖∇h‖, m_k ‖s_k‖) ŝ_k,    s_k = tangential part of (Δp_step − w Δt) +
//   F_prev/m_k
// where Δp_step = p_j − pⁿ is the node's motion over the step, w the obstacle's surface velocity
// (friction acts on relative motion), m_k the node's ρ·area and F_prev the friction applied in the
// previous QP (so s_k is the slip the node would have without friction). The min is the
// projection onto the friction disk: friction at most stops a sliding node within a step and never
// reverses it, and a contact with μγ large enough sticks (static friction). Multipliers and
// friction are carried from one step to the next as the starting guess.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <memory>
#include <vector>

#include "core/mesh/quad_mesh.hpp"
#include "core/obstacles/obstacle.hpp"
#include "core/qp/qp_problem.hpp"

namespace clothfit::stepper {

class ContactSet {
 public:
  // `free_index` (3N): coordinate → QP variable or −1 when held; `nodal_mass` (N): ρ·area, kg.
  ContactSet(const mesh::QuadMesh& mesh,
             const std::vector<std::shared_ptr<const obstacles::Obstacle>>& obstacles,
             const std::vector<int>& free_index, const Eigen::VectorXd& nodal_mass);

  bool empty() const { return m_obstacles.empty(); }

  // Starts a step from φⁿ (3N) over [t0, t1]; `reach` (m) is how far a point may move during the
  // step (candidate margin).
  void begin_step(const Eigen::VectorXd& phi_n, double t0, double t1, double reach);

  // Rows at the iterate φ_j into problem->inequality_jacobian / inequality_offset, the working-set
  // seed (rows active in the previous QP) into `seed`, and the friction term added to
  // problem->linear. Returns min over the candidate rows of h(φ_j) (m; +∞ when none).
  // `relaxation` in (0, 1] weighs the new friction against the last QP's (1: no relaxation).
  double assemble(const Eigen::VectorXd& phi_j, double relaxation, qp::QpProblem* problem,
                  std::vector<int>* seed);

  // Records the QP's solution for the rows of the last assemble() (the first rows of the QP;
  // rows after them belong to others).
  void record(const qp::QpSolution& solution);

  // Number of rows active in the last recorded solution.
  int active_count() const { return static_cast<int>(m_active_keys.size()); }

 private:
  struct Row {
    int obstacle;
    int point;  // node index, or N + quad index for a face centre
  };
  int key(int obstacle, int point) const { return obstacle * m_points + point; }

  const mesh::QuadMesh& m_mesh;
  std::vector<std::shared_ptr<const obstacles::Obstacle>> m_obstacles;
  const std::vector<int>& m_free_index;
  Eigen::VectorXd m_nodal_mass;
  int m_points = 0;  // N + number of quads

  Eigen::VectorXd m_phi_n;
  double m_t0 = 0.0, m_t1 = 0.0, m_reach = 0.0;
  std::vector<Row> m_rows;         // rows of the last assemble()
  std::vector<double> m_impulse;   // per key: last normal multiplier γ (≥ 0)
  std::vector<int> m_row_of_key;   // per key: row in the last assemble(), −1 if none
  std::vector<int> m_active_keys;  // keys active in the last recorded solution
  Eigen::VectorXd m_friction;      // (3N) friction term applied in the last QP
  std::vector<Eigen::Triplet<double>> m_triplets;
};

}  // namespace clothfit::stepper
