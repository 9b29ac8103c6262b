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
// Passing through. h(p_j) alone says which side of the obstacle p_j is nearest, not which side it
// came from: a point that moves into a thin obstacle by more than half its thickness in a step (a
// sheet falling at 1.5 m/s onto a 3 cm table at Δt = 0.01 s), or that a moving obstacle passes,
// would be pushed out of the far side — before 2026-12-02 a sheet dropped from 30 cm fell through
// the table and on to z = −7 m, every step converged. So for signed-distance obstacles a point
// whose ∇h at p_j points against its ∇h at the step's start, and whose path (linear in the world
// from its position at tₙ, in the obstacle's rest frame) enters the obstacle, gets instead the row
// of the side it came from: n_e · (X(p) − X_e) ≥ 0, the plane tangent to the surface at the entry
// point X_e, placed at tₙ₊₁. X_e is found by conservative advancement: h is 1-Lipschitz and the
// rest-frame point moves at most RigidMotion::rest_speed_bound, so stepping along the path by h
// over that bound never steps past the surface, however thin the part crossed (until 2026-12-02
// the path was sampled at 16 times and a part thinner than a sixteenth of it could be missed).
// Points that go round an obstacle (the path stays outside) keep their row.
//
// Friction. The QP's multiplier γ_k of a contact row is a normal impulse × Δt (the QP is in the
// units of ρM·Δφ); its normal force is γ_k ∇h. Each node contact that was active in the last QP
// gets two pinned rows with bounded multipliers (QpProblem::pinned_bound):
//
//   t_a · Δp + t_a · s_k = 0,   |σ_a| ≤ b_k = μ γ_k ‖∇h‖   (a = 1, 2),
//
// s_k = p_j − pⁿ − w Δt the node's slip relative to the obstacle's surface over the step (w the
// surface velocity), t_1, t_2 an orthonormal tangent basis. The QP then applies Coulomb friction
// by maximal dissipation for the normal force of the last iteration: a contact holds (no slip,
// static friction σ within the bound) or slides with the friction force at the bound against its
// slip — decided for all contacts together, inside the QP, so that a sheet whose nodes are coupled
// by inextensibility sticks or slides as a whole. The box |σ_a| ≤ b is the friction cone
// ‖σ‖ ≤ b along t_1, which is chosen once per step along the friction force of the last step (the
// slip of a sliding contact, the reaction of a sticking one), so the box is exact in the
// direction friction acts unless that direction turns within a step. γ_k, and thus b, lag one
// iteration (the paper's single-pass friction, eq. 3); they carry over to the next step as its
// starting guess. (Before, friction was a force capped at the impulse that stops the node alone,
// m_k ‖s_k‖, which ignores the sheet around it: the iteration crept at 2e-5 m per iteration for
// tens of iterations on a sheet lying on a table. Switching single contacts between sticking and
// sliding does not work either: a node held by sticking neighbours has no slip of its own.)
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/mesh/quad_mesh.hpp"
#include "core/obstacles/obstacle.hpp"
#include "core/qp/qp_problem.hpp"
#include "core/qp/qp_solver.hpp"

namespace clothfit::stepper {

class ContactSet {
 public:
  // `free_index` (3N): coordinate → QP variable or −1 when held.
  ContactSet(const mesh::QuadMesh& mesh,
             const std::vector<std::shared_ptr<const obstacles::Obstacle>>& obstacles,
             const std::vector<int>& free_index);

  bool empty() const { return m_obstacles.empty(); }

  // Starts a step from φⁿ (3N) over [t0, t1]; `reach` (m) is how far a point may move during the
  // step (candidate margin).
  void begin_step(const Eigen::VectorXd& phi_n, double t0, double t1, double reach);

  // The stepper finishes this step with the Gauss–Newton projection (StepperOptions::
  // newton_fallback_after), whose QPs are corrections from the current iterate: their multipliers
  // are not the step's impulses. Until the next begin_step(), assemble() gives the contacts no
  // friction rows (the friction of the last Newton QP is already in the iterate), and record()
  // keeps that QP's normal multipliers and friction reactions for the contacts that stay active
  // (for the next step's friction bounds and tangent bases); a contact that separates loses them,
  // one that touches down in a correction gets none.
  void begin_corrections() { m_corrections = true; }

  // Which ∇h the rows of assemble() are made of.
  enum class Linearisation {
    // ∇h(φ_j), and the tangent bases of the friction rows from it; these become the kept ones.
    kCurrent,
    // For the QP that reuses the factorisation of an earlier iteration of the step (modified
    // Newton, qp::QpProblem::matrices_unchanged): each point that had a row since the last
    // kCurrent assemble() of this step keeps that row's ∇h and tangent basis, so that its rows
    // are the same, value for value, and the active-set solver takes their responses from its
    // cache (on a curved obstacle the normal turns from one iterate to the next, and every row
    // was a cache miss). The offsets are evaluated at φ_j, and the QP's linear term gets
    // (∇h(φ_j) − ∇h_kept) γ + Σ_a (t_a(φ_j) − t_a,kept) σ_a with the last QP's multipliers, so
    // that the QP's stationarity condition is the exact one at φ_j — as the stepper does for ∇C.
    // Points new since then get ∇h(φ_j), kept from then on.
    kKept,
  };

  // Rows at the iterate φ_j into problem->inequality_jacobian / inequality_offset, the friction
  // rows into problem->pinned_jacobian / pinned_offset / pinned_bound, and the working-set seed
  // (rows active in the previous QP) into `seed`. Returns min over the candidate rows of h(φ_j)
  // (m; +∞ when none). `relaxation` in (0, 1] moves each friction bound only that part of the way
  // from the last QP's towards μ γ ‖∇h‖ (1: all the way). `start` receives the rows active in the
  // last QP and, for the friction rows, which start at their bound: in a step's first QP the t1
  // row of each contact that slid; in its later QPs (same tangent basis) each row that ended at
  // its bound in the last QP. With Linearisation::kKept, problem->linear (n) must hold the QP's
  // linear term without contacts; the corrections are added to it.
  double assemble(const Eigen::VectorXd& phi_j, double relaxation, Linearisation linearisation,
                  qp::QpProblem* problem, qp::QpWarmStart* start);

  // Records the QP's solution for the rows of the last assemble() (the first inequality rows of
  // the QP; rows after them belong to others).
  void record(const qp::QpSolution& solution);

  // After record(): how far the recorded QP's friction is from Coulomb's with the normal forces
  // it found, as the largest relative error over its friction rows, against max(b, μγ‖∇h‖): for
  // a row at its bound b, |b − μγ‖∇h‖|; for a holding row, by how much its force exceeds μγ‖∇h‖.
  // 1 when a node contact active there had no friction rows (μ > 0) or a row exerted its bound
  // without a normal force (γ = 0). Errors that would move their node by less than
  // `negligible_displacement` (m; `mass`: the QP's mass per variable, as qp::QpProblem::mass) do
  // not count. 0 when friction matches the normal forces.
  double friction_error(const Eigen::VectorXd& mass, double negligible_displacement) const;

  // After record(): how far the recorded QP's friction forces lie outside Coulomb's disk with the
  // bounds that QP had, max over the contacts of ‖(σ1, σ2)‖/b − 1 (0 when none does). The box
  // |σ_a| ≤ b allows up to √2 − 1 = 0.414, at a corner (both rows at their bound), which
  // friction_error does not see: it checks each row against b. Excesses that would move their node
  // by less than `negligible_displacement` (as in friction_error) do not count.
  double friction_cone_excess(const Eigen::VectorXd& mass, double negligible_displacement) const;

  // After a projection to φⁿ⁺¹ (3N): whether an obstacle swept over a free node within the step
  // although the rows of the side it came from ("Passing through") should have kept it there — a
  // projection that ended at the cap. In each obstacle's rest frame the node moves from X(tₙ) to
  // X(tₙ₊₁) (linearly in the world); where the two ends lie outside it (h ≥ −tolerance; a step at
  // the cap may end inside, which is not a sweep) on opposite sides (∇h(X(tₙ)) · ∇h(X(tₙ₊₁)) < 0),
  // a path that goes deeper inside than depth = max(tolerance, 0.1 ‖X(tₙ₊₁) − X(tₙ)‖) is a sweep —
  // deep enough that a chord of a curved surface (a node sliding round a sphere, a turning
  // obstacle) is not one; so a part thinner than 2 × depth is left to the rows. The depth is
  // sought by conservative advancement on h + depth, as for the entry point above.
  // Signed-distance obstacles only (the needle field's peaks have their own continuous rows).
  // Returns the first sweep found in words ("obstacle 'ball' swept over node 17: 0.08 m inside at
  // 50 % of the step": where the path reached the depth), empty when none. The start is
  // begin_step()'s.
  std::string find_sweep(const Eigen::VectorXd& phi_n1, double tolerance) const;

  // The QP row `row` of the last assemble() in words, "obstacle 'floor' at node 17" or "… at the
  // centre of face 5"; empty when it is not one of this set's rows (they come first).
  std::string describe_row(int row) const;

  // Rows active in the last recorded solution, and of them the node contacts that held (no slip:
  // friction within its bound).
  int active_count() const { return static_cast<int>(m_active_keys.size()); }
  // Rows assemble() took from the side their point came from (see "Passing through" above), over
  // the set's life.
  long entry_rows() const { return m_entry_rows; }
  int sticking_count() const { return m_sticking; }

 private:
  struct Row {
    int obstacle;
    int point;  // node index, or N + quad index for a face centre
  };
  struct FrictionRows {
    int key;
    double bound;              // b = μ γ ‖∇h‖
    double bound_per_impulse;  // μ ‖∇h‖: the bound a normal multiplier γ gives
    Eigen::Vector3d t1, t2;    // tangent basis of the two rows
  };
  int key(int obstacle, int point) const { return obstacle * m_points + point; }
  // The force on the point of `key` that would move it by negligible_displacement (m) within the
  // step (mass: the QP's per variable): smaller force errors do not count in the friction checks.
  double negligible_force(int key, const Eigen::VectorXd& mass,
                          double negligible_displacement) const;
  // The node's position, or the face centre's (N + quad), in φ (3N).
  Eigen::Vector3d point_position(const Eigen::VectorXd& phi, int point) const;
  // For a signed-distance obstacle: when the point of `key` at p (φ_j, world) lies on the other
  // side of the obstacle from where it started the step and its path (linear in the world from
  // its position at tₙ) enters the obstacle, replaces hg (h and ∇h at p, world) by the row of the
  // side it came from: the plane tangent to the surface where the path enters it (in the
  // obstacle's rest frame, placed at tₙ₊₁; `placed` is the obstacle at tₙ₊₁). Returns whether it
  // did.
  bool entry_row(const obstacles::ObstacleAtTime& placed, int key, const Eigen::Vector3d& p,
                 obstacles::ValueAndGradient* hg) const;
  // The contact slid in the last QP: one of its friction rows ended at its bound.
  bool slid(int k) const { return m_row_at_bound[k][0] != 0 || m_row_at_bound[k][1] != 0; }

  const mesh::QuadMesh& m_mesh;
  std::vector<std::shared_ptr<const obstacles::Obstacle>> m_obstacles;
  const std::vector<int>& m_free_index;
  int m_points = 0;  // N + number of quads

  Eigen::VectorXd m_phi_n;
  double m_t0 = 0.0, m_t1 = 0.0, m_reach = 0.0;
  // per key (signed-distance obstacles): the point at tₙ (world), and h, ∇h there (rest frame)
  std::vector<Eigen::Vector3d> m_start;
  std::vector<obstacles::ValueAndGradient> m_start_rest;
  long m_entry_rows = 0;
  std::vector<Row> m_rows;               // inequality rows of the last assemble()
  std::vector<FrictionRows> m_friction;  // pinned row pairs of the last assemble(), in order
  std::vector<Eigen::Vector2d> m_friction_forces;  // their multipliers (σ1, σ2) in record()
  std::vector<long> m_bound_qp;   // per key: the record() call whose QP had its friction rows
  std::vector<double> m_impulse;  // per key: last normal multiplier γ (≥ 0)
  std::vector<double> m_bound;    // per key: friction bound of the last QP (relaxation)
  std::vector<Eigen::Vector3d> m_reaction;  // per key: last tangential friction reaction
  // per key: the friction multipliers (σ1, σ2) of the QP numbered m_sigma_qp[k] (record() calls)
  std::vector<Eigen::Vector2d> m_sigma;
  std::vector<long> m_sigma_qp;
  long m_recorded = 0;  // record() calls
  // per key: ∇h of its rows since the kCurrent assemble() numbered m_gradient_kept_in[k]
  std::vector<Eigen::Vector3d> m_kept_gradient;
  std::vector<long> m_gradient_kept_in;
  long m_linearisations = 0;  // kCurrent assemble() calls and begin_step() calls
  // per key: where each friction row (t1, t2) ended in the last QP: −1 / +1 at −b / +b, else 0
  // (both 0 for a contact that held or separated)
  std::vector<std::array<signed char, 2>> m_row_at_bound;
  std::vector<Eigen::Vector3d> m_direction;  // per key: t1's direction in this step
  std::vector<long> m_aligned;               // per key: the step (m_step) t1 was chosen in
  long m_step = 0;                           // begin_step() calls
  bool m_corrections = false;                // begin_corrections() since begin_step()
  std::vector<int> m_row_of_key;             // per key: row in the last assemble(), −1 if none
  std::vector<int> m_active_keys;            // keys active in the last recorded solution
  std::vector<int> m_previous_keys;          // work space of record() in corrections
  int m_sticking = 0;
  std::vector<double> m_offsets, m_pinned_offsets, m_pinned_bounds;
  std::vector<Eigen::Triplet<double>> m_triplets, m_pinned_triplets;
};

}  // namespace clothfit::stepper
