// CollisionSet: the self-collision, stick and needle response rows of one time step (paper §3.2,
// §3.3, §4.1, §6.3, §7.4), next to the obstacle contacts of ContactSet as inequality rows of the
// projection QP.
//
// Detection. At every projection iteration j the motion φⁿ → φ_j (cloth) and stick(tₙ) →
// stick(tₙ₊₁) is checked with collision::CollisionDetector: cloth node–triangle and edge–edge
// pairs (self-collisions, detection distance 2ωτ0), stick segment–cloth edge and stick end–
// cloth triangle pairs (detection distance 2ω·radius), and the needles of every needle-field
// obstacle against the cloth (detection distance 2ωτ0, τ0 = needle_thickness()).
//
// Needles (paper §6.3, eq. 15, Remark 6.1). Node constraints h(p) ≥ 0 (ContactSet) keep the nodes
// out of the needle field, but a needle can still pierce a face between nodes. Each peak o is a
// point obstacle against the cloth's triangles, handled exactly like a stick end: row
// H = n·(o − Σ w_i c_i) ≥ τ0 (the paper's). Not in the paper: the needle's axis, the vertical
// segment from the peak down to its base at the saddle height z0 (inside the needle's solid), is
// also a segment against the cloth's edges like a stick segment, row H = n·(x_axis − (1−u) b0 −
// u b1) ≥ τ0, and its base point a point against the triangles. With the peak alone, a part of a
// 0.7 m, 15 × 15 sheet draped below the peaks slid sideways into a needle's shaft: 146 (peak,
// face, step) piercings in 2 s; with the axis none (the same exact check as
// tests/core/scenario/needles_example_test.cpp). Broad phase: the needles whose axis meets the
// cloth's swept bounding box (φⁿ ∪ φ_j, grown by the detection margin; NeedleField::peaks_in_box
// for a static field, the needles whose path over the step meets it for a moving one), then the
// detector's point–triangle and segment–edge CCD on the elements whose swept boxes they reach.
// Needle rows carry no friction (the needle field's μ acts on the node contacts of ContactSet).
//
// Rows. Each detected pair k gives a linear constraint with weights and unit normal n frozen at the
// collision time (collision_types.hpp glossary):
//   self node–triangle  H_k = n·(p − Σ w_i c_i)                      ≥ τ0
//   self edge–edge      H_k = n·((1−s) a0 + s a1 − (1−u) b0 − u b1)  ≥ τ0
//   stick segment–edge  H_k = n·(x_stick − (1−u) b0 − u b1)          ≥ radius
//   stick end–triangle  H_k = n·(x_end − Σ w_i c_i)                  ≥ radius
//   peak–triangle       H_k = n·(o − Σ w_i c_i)                      ≥ τ0 (needle_thickness())
//   needle axis–edge    H_k = n·(x_axis − (1−u) b0 − u b1)           ≥ τ0
// with the stick's and the needles' points taken at tₙ₊₁ (they are prescribed) and n oriented so
// that H_k(φⁿ) ≥ 0.
// In the QP: (H_k(φ_j) − bound) + ∇H_k Δφ ≥ 0 over the free coordinates; held nodes contribute
// their known increment to the offset. A pair stays in the set (the observation set of Algorithm 1)
// for the rest of the step; found again in a later iteration, its row is replaced by the later one.
//
// Final check. After convergence, final_check() runs the detection with ω = 0 (exact crossings)
// on φⁿ → φ_j*; the stepper redoes the step with ω ← 0.9ω when it finds one.
//
// Friction is not modelled for self-collisions, the stick (Stick::friction must be 0) nor the
// needle rows.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/collision/collision_detector.hpp"
#include "core/mesh/quad_mesh.hpp"
#include "core/obstacles/needle_field.hpp"
#include "core/qp/qp_problem.hpp"
#include "core/stepper/simulation_model.hpp"

namespace clothfit::stepper {

class CollisionSet {
 public:
  // τ0 of the needle rows when self-collisions are off, m: the default cloth thickness of
  // SelfCollisionOptions. With self-collisions on, their thickness is used.
  static constexpr double kDefaultNeedleThickness = 0.004;

  // Whether `model` has anything for a CollisionSet to handle (self-collisions, a stick, a
  // needle-field obstacle).
  static bool needed(const SimulationModel& model);
  // τ0 of the needle rows for `model`, m: model.self_collisions.thickness when self-collisions
  // are enabled, else kDefaultNeedleThickness.
  static double needle_thickness(const SimulationModel& model);

  // `free_index` (3N): coordinate → QP variable or −1 when held (kept by reference). Self-
  // collisions are handled when model.self_collisions.enabled, the stick when the model has one,
  // the needles of every obstacle of type "needles" in model.obstacles. The model must outlive the
  // set.
  CollisionSet(const SimulationModel& model, const std::vector<int>& free_index);
  ~CollisionSet();

  // Starts a step (or a retry of it) from φⁿ (3N) over [t0, t1] with proximity ω; forgets the
  // rows of the previous attempt, and starts with the carried self-collision pairs (end_step).
  void begin_step(const Eigen::VectorXd& phi_n, double t0, double t1, double proximity);

  // Ends an accepted step: the self-collision and needle pairs of the step that are closer than
  // 1.25·τ0 at its end are carried into the next step as rows built at φⁿ⁺¹ (closest points,
  // normal along the separation). Without this, cloth resting on itself (or on a needle) at
  // distance τ0 is not detected until it has sunk to the detection distance 2ωτ0 < τ0 and is then
  // pushed back: a fall-and-push cycle every few steps that shows as jitter (kinetic energy stuck
  // near 1e-5 J on the fold example instead of decaying; on the needles example the needle rows
  // alternated between 7 and 16 from one step to the next and nodes hanging on the tips moved
  // 0.3 mm up and down every step). Not in the paper.
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

  // The QP row `row` of the last assemble() in words, e.g. "the stick against the cloth edge
  // between nodes 12 and 13" or "self-collision of node 5 with the triangle of nodes 20, 21 and
  // 28"; empty when it is not one of this set's rows.
  std::string describe_row(int row) const;

  int size() const { return static_cast<int>(m_rows.size()); }
  int active_count() const;
  int active_stick_count() const;
  int active_needle_count() const;
  // Candidate pairs tested by the CCD kernels in this step (broad-phase output), summed.
  long candidates() const { return m_candidates; }

 private:
  enum class Source { kSelf, kStick, kNeedle };
  struct Row {
    std::array<int, 4> nodes{-1, -1, -1, -1};  // cloth nodes
    std::array<double, 4> weights{};           // H = n·(Σ weights_i x_i) + constant
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
    double constant = 0.0;  // n·(stick or needle point at tₙ₊₁), m; 0 for self rows
    double bound = 0.0;     // τ0 or the stick radius, m
    std::uint64_t key = 0;
    Source source = Source::kSelf;
    bool active = false;  // in the working set of the last QP
  };
  void add(std::uint64_t key, Row row);
  void add_carried(std::uint64_t key);
  void run_detection(const Eigen::VectorXd& phi_j, double proximity, bool count_only, int* found);
  // The parts of run_detection (after the detector's update): each returns the pairs found and,
  // unless count_only, adds their rows.
  int detect_self(double proximity, bool count_only);
  int detect_stick(double proximity, bool count_only);
  // `cloth`: swept_cloth_box(φ_j, margin).
  int detect_needles(const Eigen::AlignedBox3d& cloth, double proximity, bool count_only);
  // The box of the cloth's nodes at tₙ and in φ_j (every triangle stays inside it during the
  // motion), grown by `margin` (m).
  Eigen::AlignedBox3d swept_cloth_box(const Eigen::VectorXd& phi_j, double margin) const;
  // The box of the stick's points at tₙ and tₙ₊₁ (the stick stays inside it during the step).
  Eigen::AlignedBox3d swept_stick_box() const;
  // The row n·(x − Σ w_i c_i) ≥ bound of an external point x (stick end, needle tip or base; at
  // tₙ₊₁) against a cloth triangle.
  Row point_triangle_row(const collision::ExternalCollisions::PointTriangle& c,
                         const Eigen::Vector3d& point_t1, double bound, Source source) const;
  // The row n·(x − (1−u) b0 − u b1) ≥ bound of an external segment (end0, end1 at tₙ₊₁; x at the
  // contact's parameter s) against a cloth edge (b0, b1).
  Row segment_edge_row(const collision::ExternalCollisions::SegmentEdge& c,
                       const Eigen::Vector3d& end0_t1, const Eigen::Vector3d& end1_t1, double bound,
                       Source source) const;
  // Registers the needles near the cloth's motion φⁿ → φ_j (broad phase against `box`, the
  // cloth's swept bounding box grown by the margin).
  void gather_needles(const Eigen::AlignedBox3d& box);
  // Registers the needle of m_needle_fields[field] whose peak is at `peak_rest` (rest frame, m)
  // for this step, once: its points at tₙ and tₙ₊₁ and its axis segment. Returns its index.
  int register_needle(int field, const Eigen::Vector3d& peak_rest);

  const mesh::QuadMesh& m_mesh;
  SelfCollisionOptions m_options;
  std::optional<Stick> m_stick;
  // Needle fields among the model's obstacles and the τ0 of their rows (m).
  std::vector<std::shared_ptr<const obstacles::NeedleField>> m_needle_fields;
  double m_needle_thickness = kDefaultNeedleThickness;
  double m_t0 = 0.0, m_t1 = 0.0;  // the step's interval, s
  const std::vector<int>& m_free_index;
  std::vector<std::array<int, 2>> m_edges;  // triangle-mesh edges (with quad diagonals)
  std::unique_ptr<collision::CollisionDetector> m_detector;
  std::vector<std::array<int, 2>> m_segments;  // stick segments as point pairs
  Eigen::MatrixX3d m_stick_t0, m_stick_t1;     // stick points (M × 3) at tₙ and tₙ₊₁, m
  // Needles met in this step (P): points (≥ 2P × 3, first 2P used; row 2i the peak of needle i,
  // row 2i + 1 its base) at tₙ and tₙ₊₁, m; the axis segments (P) {2i, 2i + 1}; the index of a
  // needle by (needle field, lattice position) — a needle keeps its index (and its rows their
  // keys) for the whole step.
  Eigen::MatrixX3d m_needle_points_t0, m_needle_points_t1;
  std::vector<std::array<int, 2>> m_needle_segments;
  std::vector<std::pair<int, Eigen::Vector3d>> m_needles;  // (P) field, peak (rest frame, m)
  std::unordered_map<std::uint64_t, int> m_needle_of_key;
  std::vector<std::pair<int, Eigen::Vector3d>> m_carried_needles;  // m_needles of the last step

  Eigen::VectorXd m_phi_n;
  Eigen::VectorXd m_detected_phi;  // φ_j of the detector's last update in this step
  bool m_detected = false;
  double m_proximity = 0.0;
  std::vector<Row> m_rows;
  std::unordered_map<std::uint64_t, int> m_row_of_key;
  std::vector<std::uint64_t> m_carried;  // self and needle pairs of the last step
  int m_first_row = 0;                   // QP row of m_rows[0] in the last assemble()
  long m_candidates = 0;
  collision::SelfCollisions m_self;
  collision::ExternalCollisions m_external;
  std::vector<int> m_first_of_edge;  // detect_stick: per touched edge, its earliest contact
  collision::ExternalCollisions m_needle_hits;
  std::vector<int> m_needle_face_points;  // detect_needles: every needle point, 0 … 2n − 1
  std::vector<Eigen::Triplet<double>> m_triplets;
};

}  // namespace clothfit::stepper
