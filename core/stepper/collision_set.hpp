// CollisionSet: the self-collision and stick response rows of one time step (paper §3.2, §3.3,
// §4.1, §7.4), next to the obstacle contacts of ContactSet as inequality rows of the projection QP.
//
// Detection. At every projection iteration j the motion φⁿ → φ_j (cloth) and stick(tₙ) →
// stick(tₙ₊₁) is checked with collision::CollisionDetector: cloth node–triangle and edge–edge
// pairs (self-collisions, detection distance 2ωτ0), and stick segment–cloth edge and stick end–
// cloth triangle pairs (detection distance 2ω·radius).
//
// Rows. Each detected pair k gives a linear constraint with weights and unit normal n frozen at the
// collision time (collision_types.hpp glossary):
//   self node–triangle  H_k = n·(p − Σ w_i c_i)                      ≥ τ0
//   self edge–edge      H_k = n·((1−s) a0 + s a1 − (1−u) b0 − u b1)  ≥ τ0
//   stick segment–edge  H_k = n·(x_stick − (1−u) b0 − u b1)          ≥ radius
//   stick end–triangle  H_k = n·(x_end − Σ w_i c_i)                  ≥ radius
// with the stick's points taken at tₙ₊₁ (they are prescribed) and n oriented so that H_k(φⁿ) ≥ 0.
// In the QP: (H_k(φ_j) − bound) + ∇H_k Δφ ≥ 0 over the free coordinates; held nodes contribute
// their known increment to the offset. A pair stays in the set (the observation set of Algorithm 1)
// for the rest of the step; found again in a later iteration, its row is replaced by the later one.
//
// Final check. After convergence, final_check() runs the detection with ω = 0 (exact crossings)
// on φⁿ → φ_j*; the stepper redoes the step with ω ← 0.9ω when it finds one.
//
// Friction is not modelled for self-collisions nor for the stick (Stick::friction must be 0).
#pragma once

#include <Eigen/Core>
#include <array>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/collision/collision_detector.hpp"
#include "core/mesh/quad_mesh.hpp"
#include "core/qp/qp_problem.hpp"
#include "core/stepper/simulation_model.hpp"

namespace clothfit::stepper {

class CollisionSet {
 public:
  // Whether `model` has anything for a CollisionSet to handle (self-collisions, a stick).
  static bool needed(const SimulationModel& model);

  // `free_index` (3N): coordinate → QP variable or −1 when held (kept by reference). Self-
  // collisions are handled when model.self_collisions.enabled, the stick when the model has one.
  // The model must outlive the set.
  CollisionSet(const SimulationModel& model, const std::vector<int>& free_index);
  ~CollisionSet();

  // Starts a step (or a retry of it) from φⁿ (3N) over [t0, t1] with proximity ω; forgets the
  // rows of the previous attempt, and starts with the carried self-collision pairs (end_step).
  void begin_step(const Eigen::VectorXd& phi_n, double t0, double t1, double proximity);

  // Ends an accepted step: the self-collision pairs of the step that are closer than 1.25·τ0 at
  // its end are carried into the next step as rows built at φⁿ⁺¹ (closest points, normal along
  // the separation). Without this, cloth resting on itself at distance τ0 is not detected until it
  // has sunk to the detection distance 2ωτ0 < τ0 and is then pushed back: a fall-and-push cycle
  // every few steps that shows as jitter (kinetic energy stuck near 1e-5 J on the fold example
  // instead of decaying). Not in the paper.
  void end_step();

  // Detects the collisions of φⁿ → φ_j and adds their rows. Returns the number of new pairs.
  int detect(const Eigen::VectorXd& phi_j);

  // Appends the rows at φ_j to problem's inequality rows (after those already there), and the
  // rows active in the last recorded QP to `seed` (as QP row indices). `held_increment` (3N): the
  // known increment of the held coordinates. Returns min_k (H_k(φ_j) − bound_k), m (+∞: none).
  double assemble(const Eigen::VectorXd& phi_j, const Eigen::VectorXd& held_increment,
                  qp::QpProblem* problem, std::vector<int>* seed);

  // Records which rows are active in the QP solution of the last assemble().
  void record(const qp::QpSolution& solution);

  // Detection with ω = 0 on φⁿ → φ_j: true when some pair crosses (the step must be redone).
  bool final_check(const Eigen::VectorXd& phi_j);

  int size() const { return static_cast<int>(m_rows.size()); }
  int active_count() const;
  int active_stick_count() const;
  // Candidate pairs tested by the CCD kernels in this step (broad-phase output), summed.
  long candidates() const { return m_candidates; }

 private:
  struct Row {
    std::array<int, 4> nodes{-1, -1, -1, -1};  // cloth nodes
    std::array<double, 4> weights{};           // H = n·(Σ weights_i x_i) + constant
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
    double constant = 0.0;  // n·(stick point at tₙ₊₁), m; 0 for self rows
    double bound = 0.0;     // τ0 or the stick radius, m
    std::uint64_t key = 0;
    bool stick = false;
    bool active = false;  // in the working set of the last QP
  };
  void add(std::uint64_t key, Row row);
  void add_carried(std::uint64_t key);
  void run_detection(const Eigen::VectorXd& phi_j, double proximity, bool count_only, int* found);

  const mesh::QuadMesh& m_mesh;
  SelfCollisionOptions m_options;
  std::optional<Stick> m_stick;
  const std::vector<int>& m_free_index;
  std::vector<std::array<int, 2>> m_edges;  // triangle-mesh edges (with quad diagonals)
  std::unique_ptr<collision::CollisionDetector> m_detector;
  std::vector<std::array<int, 2>> m_segments;  // stick segments as point pairs
  Eigen::MatrixX3d m_stick_t0, m_stick_t1;     // stick points (M × 3) at tₙ and tₙ₊₁, m

  Eigen::VectorXd m_phi_n;
  Eigen::VectorXd m_detected_phi;  // φ_j of the detector's last update in this step
  bool m_detected = false;
  double m_proximity = 0.0;
  std::vector<Row> m_rows;
  std::unordered_map<std::uint64_t, int> m_row_of_key;
  std::vector<std::uint64_t> m_carried;  // self pairs active at the end of the last step
  int m_first_row = 0;                   // QP row of m_rows[0] in the last assemble()
  long m_candidates = 0;
  collision::SelfCollisions m_self;
  collision::ExternalCollisions m_external;
  std::vector<Eigen::Triplet<double>> m_triplets;
};

}  // namespace clothfit::stepper
