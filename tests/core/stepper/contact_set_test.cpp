// ContactSet: the friction rows' warm start. A contact that slid starts its next QP with its
// friction at the bound; within a step (same tangent basis) each of its two rows starts as it
// ended, so a contact sliding at a corner of the friction box does not have to find that corner
// again, one working-set change at a time, in every QP of the step — also on a curved obstacle,
// where the tangent basis turns a little with the normal from one iteration to the next; and a
// contact that ended at a corner starts the next step's first QP (in a new basis) at the corner
// its last reaction lies nearest.
#include "core/stepper/contact_set.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "core/mesh/quad_mesh.hpp"
#include "core/obstacles/needle_field.hpp"
#include "core/obstacles/plane.hpp"
#include "core/obstacles/sphere.hpp"
#include "core/obstacles/table.hpp"

namespace clothfit::stepper {
namespace {

constexpr auto kCurrent = ContactSet::Linearisation::kCurrent;
constexpr auto kKept = ContactSet::Linearisation::kKept;

struct FloorContact {
  mesh::QuadMesh mesh = mesh::make_grid_mesh(0.1, 0.1, 2, 2);
  std::vector<int> free_index;
  std::vector<std::shared_ptr<const obstacles::Obstacle>> obstacles;
  std::unique_ptr<ContactSet> contacts;
  qp::QpProblem problem;
  qp::QpWarmStart start;
  Eigen::VectorXd phi_n, phi_j;

  static obstacles::ObstacleOptions options() {
    obstacles::ObstacleOptions o;
    o.name = "floor";
    o.friction_coefficient = 0.5;
    return o;
  }

  explicit FloorContact(std::shared_ptr<const obstacles::Obstacle> obstacle =
                            std::make_shared<obstacles::Plane>(obstacles::PlaneGeometry{},
                                                               options())) {
    free_index.resize(3 * mesh.num_nodes());
    for (int k = 0; k < 3 * mesh.num_nodes(); ++k)
      free_index[k] = k;
    obstacles.push_back(std::move(obstacle));
    contacts = std::make_unique<ContactSet>(mesh, obstacles, free_index);
    problem.mass = Eigen::VectorXd::Ones(3 * mesh.num_nodes());
    // The sheet lies on the floor z = 0 and slides by 1 mm along x and 0.5 mm along y.
    phi_n = mesh.rest_positions;
    for (int i = 0; i < mesh.num_nodes(); ++i)
      phi_n[3 * i + 2] = 0.0;
    phi_j = phi_n;
    for (int i = 0; i < mesh.num_nodes(); ++i) {
      phi_j[3 * i] += 1e-3;
      phi_j[3 * i + 1] += 5e-4;
    }
  }

  // A step from φⁿ over 10 ms, and its rows at φ_j (the friction bounds all the way to μγ‖∇h‖).
  void begin_step() { contacts->begin_step(phi_n, 0.0, 0.01, 0.01); }
  double assemble() { return contacts->assemble(phi_j, 1.0, kCurrent, &problem, &start); }
  // A step in which the four contacts pushed with impulse γ and no friction in the last QP, and
  // the rows assembled again: now with a friction pair each, bounds from γ.
  void assemble_after_pushing(double gamma) {
    begin_step();
    assemble();
    ASSERT_EQ(problem.num_inequalities(), 4);
    contacts->record(solution(gamma, 0.0, 0.0));
    assemble();
    ASSERT_EQ(problem.num_pinned(), 8);
  }

  // A solution with every contact row active at normal impulse `gamma` and the friction rows'
  // multipliers `sigma` (per pair: t1, t2).
  qp::QpSolution solution(double gamma, double sigma1, double sigma2) const {
    qp::QpSolution s;
    const int rows = problem.num_inequalities();
    s.inequality_multipliers = Eigen::VectorXd::Constant(rows, gamma);
    for (int r = 0; r < rows; ++r)
      s.active_inequalities.push_back(r);
    s.pinned_multipliers.resize(problem.num_pinned());
    for (int f = 0; 2 * f < problem.num_pinned(); ++f) {
      s.pinned_multipliers[2 * f] = sigma1;
      s.pinned_multipliers[2 * f + 1] = sigma2;
    }
    return s;
  }
};

TEST(ContactSet, SlidingContactsStartTheNextQpOfTheStepWhereTheirFrictionEnded) {
  FloorContact c;
  c.begin_step();
  c.assemble();
  ASSERT_EQ(c.problem.num_inequalities(), 4);
  EXPECT_EQ(c.problem.num_pinned(), 0);  // no friction before a normal impulse
  const double gamma = 2e-4;
  c.contacts->record(c.solution(gamma, 0.0, 0.0));

  // Friction rows now, bound μγ (unit normal); none slid yet: all start holding.
  c.assemble();
  ASSERT_EQ(c.problem.num_pinned(), 8);
  const double bound = 0.5 * gamma;
  EXPECT_DOUBLE_EQ(c.problem.pinned_bound_of(0), bound);
  ASSERT_EQ(c.start.pinned_at_bound.size(), 8u);
  for (signed char s : c.start.pinned_at_bound)
    EXPECT_EQ(s, 0);

  // The QP ended with every contact sliding at a corner of its box (+b along t1, −b along t2):
  // the next QP of the same step starts both rows there.
  c.contacts->record(c.solution(gamma, bound, -bound));
  c.assemble();
  ASSERT_EQ(c.start.pinned_at_bound.size(), 8u);
  for (int f = 0; f < 4; ++f) {
    EXPECT_EQ(c.start.pinned_at_bound[2 * f], 1) << "contact " << f;
    EXPECT_EQ(c.start.pinned_at_bound[2 * f + 1], -1) << "contact " << f;
  }

  // Sliding along t1 only (t2 within its bound): t2 starts holding.
  c.contacts->record(c.solution(gamma, -bound, 0.3 * bound));
  c.assemble();
  for (int f = 0; f < 4; ++f) {
    EXPECT_EQ(c.start.pinned_at_bound[2 * f], -1) << "contact " << f;
    EXPECT_EQ(c.start.pinned_at_bound[2 * f + 1], 0) << "contact " << f;
  }

  // A new step chooses a new basis, t1 against the slip. A contact that ended within its box
  // along t2 starts with t1 at its bound only.
  c.contacts->begin_step(c.phi_n, 0.01, 0.02, 0.01);
  c.assemble();
  ASSERT_EQ(c.start.pinned_at_bound.size(), 8u);
  for (int f = 0; f < 4; ++f) {
    EXPECT_NE(c.start.pinned_at_bound[2 * f], 0) << "contact " << f;
    EXPECT_EQ(c.start.pinned_at_bound[2 * f + 1], 0) << "contact " << f;
  }

  // One that ended at a corner starts there in the new basis too: each row at its bound on the
  // side of the last reaction's component along it (the basis turned, the reaction did not).
  c.contacts->record(c.solution(gamma, bound, -bound));
  Eigen::Vector3d reaction[4];
  for (int f = 0; f < 4; ++f) {
    const Eigen::VectorXd t1 = c.problem.pinned_jacobian.row(2 * f).transpose();
    const Eigen::VectorXd t2 = c.problem.pinned_jacobian.row(2 * f + 1).transpose();
    const int node = f;  // one node per contact, in order, all free
    reaction[f] = bound * t1.segment<3>(3 * node) - bound * t2.segment<3>(3 * node);
  }
  for (int f = 0; f < 4; ++f) {
    const Eigen::Vector3d t1 = c.problem.pinned_jacobian.row(2 * f).transpose().segment<3>(3 * f);
    ASSERT_GT(t1.norm(), 0.99) << "contact " << f << " is not at node " << f;
  }
  c.contacts->begin_step(c.phi_n, 0.02, 0.03, 0.01);
  Eigen::VectorXd phi_turned = c.phi_j;  // slipping along y now: the new t1 turns by ~63°
  for (int i = 0; i < c.mesh.num_nodes(); ++i)
    phi_turned[3 * i] = c.phi_n[3 * i] + 2e-4;
  c.contacts->assemble(phi_turned, 1.0, kCurrent, &c.problem, &c.start);
  ASSERT_EQ(c.start.pinned_at_bound.size(), 8u);
  for (int f = 0; f < 4; ++f) {
    const Eigen::Vector3d t1 = c.problem.pinned_jacobian.row(2 * f).transpose().segment<3>(3 * f);
    const Eigen::Vector3d t2 =
        c.problem.pinned_jacobian.row(2 * f + 1).transpose().segment<3>(3 * f);
    const double along = reaction[f].dot(t1), cross = reaction[f].dot(t2);
    ASSERT_GT(std::abs(cross), 1e-3 * bound) << "contact " << f;
    EXPECT_EQ(c.start.pinned_at_bound[2 * f], along > 0.0 ? 1 : -1) << "contact " << f;
    EXPECT_EQ(c.start.pinned_at_bound[2 * f + 1], cross > 0.0 ? 1 : -1) << "contact " << f;
  }
}

TEST(ContactSet, CornerStartSurvivesTheNormalTurningWithinAStep) {
  // The same sheet on top of a sphere of radius 1 m whose top touches z = 0 under the sheet's
  // centre: the corners lie 2.5 mm above it, and the normal at each corner turns by ~1e-3 rad
  // when the sheet slides on by another millimetre.
  obstacles::SphereGeometry sphere;
  sphere.centre_m = Eigen::Vector3d(0.05, 0.05, -1.0);
  FloorContact c(std::make_shared<obstacles::Sphere>(sphere, FloorContact::options()));
  const double gamma = 2e-4;
  ASSERT_NO_FATAL_FAILURE(c.assemble_after_pushing(gamma));
  const double bound = c.problem.pinned_bound_of(0);
  EXPECT_NEAR(bound, 0.5 * gamma, 1e-15);  // signed distance: ‖∇h‖ = 1

  // Every contact slid at a corner (−b along t1, +b along t2); the next iterate has moved on.
  c.contacts->record(c.solution(gamma, -bound, bound));
  Eigen::VectorXd phi_next = c.phi_j;
  for (int i = 0; i < c.mesh.num_nodes(); ++i)
    phi_next[3 * i] += 1e-3;
  c.contacts->assemble(phi_next, 1.0, kCurrent, &c.problem, &c.start);
  ASSERT_EQ(c.start.pinned_at_bound.size(), 8u);
  for (int f = 0; f < 4; ++f) {
    EXPECT_EQ(c.start.pinned_at_bound[2 * f], -1) << "contact " << f;
    EXPECT_EQ(c.start.pinned_at_bound[2 * f + 1], 1) << "contact " << f;
  }
}

TEST(ContactSet, KeptLinearisationKeepsTheRowsAndCorrectsTheLinearTerm) {
  // The sheet 2.5 mm above a sphere of radius 1 m (as above): between two iterates 1 mm apart the
  // normal at each corner turns by ~1e-3 rad, so ∇h(φ_j) makes rows that differ from the last
  // ones and are misses in the active set's response cache.
  obstacles::SphereGeometry geometry;
  geometry.centre_m = Eigen::Vector3d(0.05, 0.05, -1.0);
  const auto sphere = std::make_shared<obstacles::Sphere>(geometry, FloorContact::options());
  FloorContact c(sphere);
  c.begin_step();
  c.assemble();
  const double gamma = 2e-4;
  c.contacts->record(c.solution(gamma, 0.0, 0.0));
  c.assemble();
  ASSERT_EQ(c.problem.num_inequalities(), 4);
  ASSERT_EQ(c.problem.num_pinned(), 8);
  const Eigen::MatrixXd rows = c.problem.inequality_jacobian.toDense();
  const Eigen::MatrixXd friction_rows = c.problem.pinned_jacobian.toDense();
  const double bound = c.problem.pinned_bound_of(0);
  const double sigma1 = -bound, sigma2 = 0.3 * bound;
  c.contacts->record(c.solution(gamma, sigma1, sigma2));

  Eigen::VectorXd phi_next = c.phi_j;
  for (int i = 0; i < c.mesh.num_nodes(); ++i)
    phi_next[3 * i] += 1e-3;
  const int n = c.problem.num_variables();
  const Eigen::VectorXd linear = Eigen::VectorXd::LinSpaced(n, -1.0, 1.0);
  c.problem.linear = linear;
  c.contacts->assemble(phi_next, 1.0, kKept, &c.problem, &c.start);
  ASSERT_EQ(c.problem.num_inequalities(), 4);
  ASSERT_EQ(c.problem.num_pinned(), 8);
  // The same rows, value for value; the offsets at the new iterate.
  EXPECT_EQ(Eigen::MatrixXd(c.problem.inequality_jacobian.toDense()), rows);
  EXPECT_EQ(Eigen::MatrixXd(c.problem.pinned_jacobian.toDense()), friction_rows);
  for (int f = 0; f < 4; ++f) {
    const obstacles::ValueAndGradient now = sphere->evaluate(phi_next.segment<3>(3 * f), 0.01);
    EXPECT_DOUBLE_EQ(c.problem.inequality_offset[f], now.value) << "contact " << f;
    const Eigen::Vector3d slip = phi_next.segment<3>(3 * f) - c.phi_n.segment<3>(3 * f);
    const Eigen::Vector3d t1 = friction_rows.row(2 * f).segment<3>(3 * f).transpose();
    const Eigen::Vector3d t2 = friction_rows.row(2 * f + 1).segment<3>(3 * f).transpose();
    EXPECT_NEAR(c.problem.pinned_offset[2 * f], t1.dot(slip), 1e-18);
    EXPECT_NEAR(c.problem.pinned_offset[2 * f + 1], t2.dot(slip), 1e-18);
    // The linear term: the forces of the last multipliers along the current directions less
    // those along the kept ones. The current basis: t1 along the kept direction's tangential
    // part (the step's first friction rows chose it against the slip; no reaction yet).
    const Eigen::Vector3d normal = now.gradient.normalized();
    const Eigen::Vector3d direction = -(c.phi_j.segment<3>(3 * f) - c.phi_n.segment<3>(3 * f));
    const Eigen::Vector3d t1_now = (direction - direction.dot(normal) * normal).normalized();
    const Eigen::Vector3d t2_now = normal.cross(t1_now);
    const Eigen::Vector3d kept_gradient = rows.row(f).segment<3>(3 * f).transpose();
    const Eigen::Vector3d expected =
        gamma * (now.gradient - kept_gradient) + sigma1 * (t1_now - t1) + sigma2 * (t2_now - t2);
    ASSERT_GT((now.gradient - kept_gradient).norm(), 5e-4) << "the normal did not turn";
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(c.problem.linear[3 * f + d] - linear[3 * f + d], expected[d], 1e-12 * gamma)
          << "contact " << f << ", coordinate " << d;
    }
  }

  // The current linearisation at the same iterate makes other rows and leaves the linear term.
  c.problem.linear = linear;
  c.contacts->assemble(phi_next, 1.0, kCurrent, &c.problem, &c.start);
  EXPECT_GT((Eigen::MatrixXd(c.problem.inequality_jacobian.toDense()) - rows).norm(), 5e-4);
  EXPECT_EQ(c.problem.linear, linear);

  // Nothing is kept across steps: a new step's rows are made at its iterate even when kept.
  c.contacts->begin_step(c.phi_j, 0.01, 0.02, 0.01);
  c.contacts->record(c.solution(gamma, 0.0, 0.0));
  c.contacts->assemble(c.phi_j, 1.0, kKept, &c.problem, &c.start);
  const Eigen::MatrixXd fresh = c.problem.inequality_jacobian.toDense();
  for (int f = 0; f < 4; ++f) {
    const Eigen::Vector3d gradient = sphere->evaluate(c.phi_j.segment<3>(3 * f), 0.02).gradient;
    EXPECT_EQ(Eigen::Vector3d(fresh.row(f).segment<3>(3 * f).transpose()), gradient);
  }
  EXPECT_EQ(c.problem.linear, linear);
}

TEST(ContactSet, FrictionErrorComparesTheQpsFrictionWithItsNormalForces) {
  FloorContact c;
  c.begin_step();
  c.assemble();
  const double gamma = 2e-4, bound = 0.5 * gamma;  // μ = 0.5, unit normal, mass 1 per variable
  // Four active contacts and no friction rows yet: friction missing (its bound μγ = 1e-4 would
  // move a node by 1e-4 m, more than the 1e-5 m the check is told to ignore).
  c.contacts->record(c.solution(gamma, 0.0, 0.0));
  EXPECT_EQ(c.contacts->friction_error(c.problem.mass, 1e-5), 1.0);
  EXPECT_EQ(c.contacts->friction_error(c.problem.mass, 1e-3), 0.0);  // negligible at 1 mm

  // Rows with bound μγ. Sliding at the bound along t1, holding along t2, same γ: Coulomb.
  c.assemble();
  ASSERT_EQ(c.problem.num_pinned(), 8);
  c.contacts->record(c.solution(gamma, bound, 0.3 * bound));
  EXPECT_EQ(c.contacts->friction_error(c.problem.mass, 1e-5), 0.0);
  // The same QP's normal forces 20 % larger: the sliding rows' force b should have been 1.2 b.
  c.contacts->record(c.solution(1.2 * gamma, bound, 0.3 * bound));
  EXPECT_NEAR(c.contacts->friction_error(c.problem.mass, 1e-5), 0.2 / 1.2, 1e-12);
  // Normal forces halved, both rows holding, t2 at 0.8 b: it exceeds the new bound 0.5 b by 0.3 b.
  c.contacts->record(c.solution(0.5 * gamma, 0.0, 0.8 * bound));
  EXPECT_NEAR(c.contacts->friction_error(c.problem.mass, 1e-5), 0.3, 1e-12);
  // Contacts that separated (γ = 0) while a row held at 0.8 b: that force acts without a normal
  // force, all of it in error; at the bound, the whole bound.
  c.contacts->record(c.solution(0.0, 0.0, 0.8 * bound));
  EXPECT_NEAR(c.contacts->friction_error(c.problem.mass, 1e-5), 0.8, 1e-12);
  c.contacts->record(c.solution(0.0, bound, 0.0));
  EXPECT_NEAR(c.contacts->friction_error(c.problem.mass, 1e-5), 1.0, 1e-12);
}

// Each friction row is within its bound b, but the two together may exert up to √2 b: the box is
// Coulomb's disk only along t1. friction_cone_excess measures by how much a contact's force
// ‖(σ1, σ2)‖ exceeds b.
TEST(ContactSet, FrictionConeExcessMeasuresForcesOutsideTheDisk) {
  FloorContact c;
  c.begin_step();
  c.assemble();
  const double gamma = 2e-2, bound = 0.5 * gamma;  // μ = 0.5, unit normal, mass 1 per variable
  c.contacts->record(c.solution(gamma, 0.0, 0.0));
  EXPECT_EQ(c.contacts->friction_cone_excess(c.problem.mass, 1e-5), 0.0);  // no friction rows yet
  c.assemble();
  ASSERT_EQ(c.problem.num_pinned(), 8);
  const double corner = std::sqrt(2.0) - 1.0;
  c.contacts->record(c.solution(gamma, bound, 0.0));  // sliding along t1: on the disk
  EXPECT_EQ(c.contacts->friction_cone_excess(c.problem.mass, 1e-5), 0.0);
  c.contacts->record(c.solution(gamma, 0.6 * bound, -0.6 * bound));  // holding, inside it
  EXPECT_EQ(c.contacts->friction_cone_excess(c.problem.mass, 1e-5), 0.0);
  c.contacts->record(c.solution(gamma, -bound, 0.3 * bound));  // sliding, t2 holding at 0.3 b
  EXPECT_NEAR(c.contacts->friction_cone_excess(c.problem.mass, 1e-5), std::hypot(1.0, 0.3) - 1.0,
              1e-12);
  c.contacts->record(c.solution(gamma, bound, -bound));  // a corner of the box
  EXPECT_NEAR(c.contacts->friction_cone_excess(c.problem.mass, 1e-5), corner, 1e-12);
  // The corner's excess force, 0.414 b = 4.1e-3, moves a node of mass 1 by less than 1 cm.
  EXPECT_EQ(c.contacts->friction_cone_excess(c.problem.mass, 1e-2), 0.0);
  // Measured against the bounds the QP had, not the normal forces it found (friction_error's).
  c.contacts->record(c.solution(2.0 * gamma, bound, bound));
  EXPECT_NEAR(c.contacts->friction_cone_excess(c.problem.mass, 1e-5), corner, 1e-12);
}

// The Gauss–Newton fallback's corrections (ContactSet::begin_corrections): no friction rows, and
// the last Newton QP's normal impulses and friction kept for the contacts that stay active — the
// next step's first QP gets that QP's friction bound and warm start, not a correction's.
TEST(ContactSet, CorrectionsHaveNoFrictionRowsAndKeepTheNewtonImpulses) {
  FloorContact c;
  c.begin_step();
  c.assemble();
  const double gamma = 2e-4, bound = 0.5 * gamma;
  c.contacts->record(c.solution(gamma, 0.0, 0.0));
  c.assemble();
  ASSERT_EQ(c.problem.num_pinned(), 8);
  c.contacts->record(c.solution(gamma, bound, 0.0));  // the last Newton QP: sliding along t1

  c.contacts->begin_corrections();
  c.assemble();
  EXPECT_EQ(c.problem.num_inequalities(), 4);  // the contact rows stay
  EXPECT_EQ(c.problem.num_pinned(), 0);
  EXPECT_TRUE(c.start.pinned_at_bound.empty());
  EXPECT_EQ(c.start.inequalities.size(), 4u);
  // A correction's multipliers (far smaller), with contact row 3 no longer active.
  qp::QpSolution correction = c.solution(1e-3 * gamma, 0.0, 0.0);
  correction.active_inequalities.pop_back();
  c.contacts->record(correction);
  EXPECT_EQ(c.contacts->active_count(), 3);
  c.assemble();
  EXPECT_EQ(c.problem.num_pinned(), 0);

  // The next step: friction rows again, for the three contacts still active, with the Newton
  // QP's bound, and each t1 row starting at its bound (it slid).
  c.contacts->begin_step(c.phi_n, 0.01, 0.02, 0.01);
  c.assemble();
  ASSERT_EQ(c.problem.num_pinned(), 6);
  for (int r = 0; r < 6; ++r)
    EXPECT_DOUBLE_EQ(c.problem.pinned_bound_of(r), bound) << "row " << r;
  ASSERT_EQ(c.start.pinned_at_bound.size(), 6u);
  for (int f = 0; f < 3; ++f) {
    EXPECT_NE(c.start.pinned_at_bound[2 * f], 0) << "contact " << f;
    EXPECT_EQ(c.start.pinned_at_bound[2 * f + 1], 0) << "contact " << f;
  }
}

// The friction bound is b = μγ‖∇h‖ (γ the row's multiplier, a force per unit of h): on an obstacle
// whose h is not a distance, here the needle field at nodes where ‖∇h‖ = √(2 (1/(2 c2))² + 1),
// it is not μγ.
TEST(ContactSet, FrictionBoundIsMuGammaTimesTheGradientNorm) {
  obstacles::NeedleFieldGeometry field;
  field.c1_per_m = 10.0 * std::numbers::pi;  // nodes 0.1 m apart: half a period, the same slope
  field.c2 = 0.075;
  field.origin_m = Eigen::Vector3d(-0.025, -0.025, 0.0);  // c1 q = π/4 (+ π) at the nodes
  FloorContact c(std::make_shared<obstacles::NeedleField>(field, FloorContact::options()));
  for (int i = 0; i < c.mesh.num_nodes(); ++i) {  // each node on the surface, not moving
    c.phi_n[3 * i + 2] = -c.obstacles[0]->value(c.phi_n.segment<3>(3 * i), 0.0);
  }
  c.phi_j = c.phi_n;
  const double gradient_norm = std::sqrt(2.0 * std::pow(0.5 / field.c2, 2) + 1.0);
  for (int i = 0; i < c.mesh.num_nodes(); ++i) {
    const Eigen::Vector3d p = c.phi_n.segment<3>(3 * i);
    ASSERT_NEAR(c.obstacles[0]->value(p, 0.0), 0.0, 1e-12);
    ASSERT_NEAR(c.obstacles[0]->at(0.01).evaluate(p).gradient.norm(), gradient_norm, 1e-9);
  }
  const double gamma = 2e-4;
  ASSERT_NO_FATAL_FAILURE(c.assemble_after_pushing(gamma));
  const double bound = 0.5 * gamma * gradient_norm;
  for (int r = 0; r < 8; ++r)
    EXPECT_NEAR(c.problem.pinned_bound_of(r), bound, 1e-15) << r;
  // The friction check measures against the same μγ‖∇h‖: sliding at that bound along t1 with the
  // same γ is Coulomb's friction, no error.
  c.contacts->record(c.solution(gamma, bound, 0.3 * bound));
  EXPECT_EQ(c.contacts->friction_error(c.problem.mass, 1e-9), 0.0);
}

// A table top 3 cm thick, z ∈ [−0.03, 0], under the 2 × 2 sheet.
std::shared_ptr<const obstacles::Obstacle> thin_table() {
  obstacles::TableGeometry g;
  g.top_centre_m = Eigen::Vector3d(0.05, 0.05, 0.0);
  g.size_x_m = g.size_y_m = 1.0;
  return std::make_shared<obstacles::Table>(g, FloorContact::options());
}

// Passing through: nodes that start 1 cm above the table and whose iterate is 2.5 cm below its top
// (inside, nearer the underside) or 5 cm below it (past it) get the row of the top they came
// through, h = z ≥ 0, not the underside's. From below the table they keep the underside's.
TEST(ContactSet, PointsThatPassedIntoOrThroughAnObstacleGetTheRowOfTheirSide) {
  FloorContact c(thin_table());
  for (int i = 0; i < c.mesh.num_nodes(); ++i)
    c.phi_n[3 * i + 2] = 0.01;
  for (const double z : {-0.025, -0.05}) {
    SCOPED_TRACE("z = " + std::to_string(z));
    c.phi_j = c.phi_n;
    for (int i = 0; i < c.mesh.num_nodes(); ++i)
      c.phi_j[3 * i + 2] = z;
    const long before = c.contacts->entry_rows();
    c.begin_step();
    c.assemble();
    ASSERT_EQ(c.problem.num_inequalities(), 4);
    EXPECT_EQ(c.contacts->entry_rows() - before, 4);
    const Eigen::MatrixXd jacobian(c.problem.inequality_jacobian);
    for (int r = 0; r < 4; ++r) {
      EXPECT_NEAR(c.problem.inequality_offset[r], z, 1e-12);  // the height above the top
      EXPECT_NEAR(jacobian.row(r).sum(), 1.0, 1e-12);         // ∇h = +ẑ on its node
    }
  }
  // Starting below the table and staying there: the underside's row, h = −0.03 − z.
  for (int i = 0; i < c.mesh.num_nodes(); ++i) {
    c.phi_n[3 * i + 2] = -0.05;
    c.phi_j[3 * i + 2] = -0.035;
  }
  const long before = c.contacts->entry_rows();
  c.begin_step();
  c.assemble();
  EXPECT_EQ(c.contacts->entry_rows(), before);
  ASSERT_EQ(c.problem.num_inequalities(), 4);
  for (int r = 0; r < 4; ++r)
    EXPECT_NEAR(c.problem.inequality_offset[r], 0.005, 1e-12);
}

// Conservative advancement finds entries that samples of the path would miss. A node falling 1 m in
// one step through a table 1 cm thick, from z = 0.47 m to −0.53 m (sampled at sixteenths it would
// be at 3.25 cm above the top and 2 cm below the underside, never inside), gets the top's row.
// A paddle 1 cm thick turning a quarter turn about z in one step sweeps through a node at rest
// 0.3 m from its axis, 47.8° round (between the sixteenths at 45° and 50.6°, where the paddle is
// 1.5 cm from it): the node gets the row of the paddle's leading face, which has carried on past
// it.
TEST(ContactSet, PathsThatCrossAThinPartBetweenSamplesGetTheRowOfTheirSide) {
  {
    obstacles::TableGeometry g;
    g.top_centre_m = Eigen::Vector3d(0.05, 0.05, 0.0);
    g.thickness_m = 0.01;
    FloorContact c(std::make_shared<obstacles::Table>(g, FloorContact::options()));
    for (int i = 0; i < c.mesh.num_nodes(); ++i) {
      c.phi_n[3 * i + 2] = 0.47;
      c.phi_j[3 * i + 2] = -0.53;
    }
    c.begin_step();
    c.assemble();
    EXPECT_EQ(c.contacts->entry_rows(), 4);
    ASSERT_EQ(c.problem.num_inequalities(), 4);
    const Eigen::MatrixXd jacobian(c.problem.inequality_jacobian);
    for (int r = 0; r < 4; ++r) {
      EXPECT_NEAR(c.problem.inequality_offset[r], -0.53, 1e-12);
      EXPECT_NEAR(jacobian.row(r).sum(), 1.0, 1e-12);
    }
  }
  obstacles::RigidMotionOptions motion;
  motion.angle_keyframes = {{0.0, 0.0}, {0.01, 0.5 * std::numbers::pi}};
  obstacles::ObstacleOptions options = FloorContact::options();
  options.motion = obstacles::RigidMotion(motion);
  obstacles::TableGeometry g;  // along x, 1 cm wide in y, z ∈ [−0.05, 0.05]
  g.top_centre_m = Eigen::Vector3d(0.0, 0.0, 0.05);
  g.size_y_m = 0.01;
  g.thickness_m = 0.1;
  FloorContact c(std::make_shared<obstacles::Table>(g, options));
  const double angle = 47.8 * std::numbers::pi / 180.0;
  for (int i = 0; i < c.mesh.num_nodes(); ++i)
    c.phi_n.segment<3>(3 * i) = Eigen::Vector3d(0.0, 0.0, 5.0);  // out of reach
  c.phi_n.segment<3>(0) = 0.3 * Eigen::Vector3d(std::cos(angle), std::sin(angle), 0.0);
  c.phi_j = c.phi_n;
  c.begin_step();
  c.assemble();
  EXPECT_EQ(c.contacts->entry_rows(), 1);
  ASSERT_EQ(c.problem.num_inequalities(), 1);
  // In the paddle's frame the node ends at −42.2°: 0.3 sin 42.2° + 0.005 m behind the +y face,
  // whose normal the quarter turn has brought to −x.
  EXPECT_NEAR(c.problem.inequality_offset[0],
              -0.3 * std::sin(0.5 * std::numbers::pi - angle) - 0.005, 1e-9);
  const Eigen::MatrixXd jacobian(c.problem.inequality_jacobian);
  EXPECT_LT((jacobian.row(0).segment<3>(0).transpose() - Eigen::Vector3d(-1.0, 0.0, 0.0)).norm(),
            1e-9);
}

// The check after a step: a node whose path crossed the table (from 1 cm above it to 2 cm below its
// underside, 6 cm in all) is swept over; one that lands on the top, or ends inside (a step at the
// cap), is not.
TEST(ContactSet, FindSweepNamesANodeWhosePathCrossedTheObstacle) {
  FloorContact c(thin_table());
  for (int i = 0; i < c.mesh.num_nodes(); ++i)
    c.phi_n[3 * i + 2] = 0.01;
  c.begin_step();
  const double tolerance = 1e-4;
  Eigen::VectorXd end = c.phi_n;
  for (int i = 0; i < c.mesh.num_nodes(); ++i)
    end[3 * i + 2] = -0.05;
  // 0.1 × 6 cm inside, at z = −0.006 m: 1.6 cm of the 6 cm path.
  EXPECT_EQ(c.contacts->find_sweep(end, tolerance),
            "obstacle 'floor' swept over node 0: 0.006 m inside at 27 % of the step");
  for (int i = 0; i < c.mesh.num_nodes(); ++i)
    end[3 * i + 2] = 0.0;
  EXPECT_EQ(c.contacts->find_sweep(end, tolerance), "");
  for (int i = 0; i < c.mesh.num_nodes(); ++i)
    end[3 * i + 2] = -0.025;
  EXPECT_EQ(c.contacts->find_sweep(end, tolerance), "");
}

// The check does not sample either: a node whose 1 m path passes 3.125 cm from the centre of a
// ball of radius 12 cm, halfway between two sixteenths of it (where h = −0.089 m, less than the
// 0.1 m it takes), is found 0.1 m inside.
TEST(ContactSet, FindSweepFindsADeepCrossingBetweenSamples) {
  obstacles::SphereGeometry g;
  g.centre_m = Eigen::Vector3d(0.03125, 0.0, 0.0);
  g.radius_m = 0.12;
  FloorContact c(std::make_shared<obstacles::Sphere>(g, FloorContact::options()));
  for (int i = 0; i < c.mesh.num_nodes(); ++i)
    c.phi_n.segment<3>(3 * i) = Eigen::Vector3d(0.0, 0.0, 5.0);  // far away, at rest
  c.phi_n.segment<3>(0) = Eigen::Vector3d(-0.5, 0.0, 0.0);
  Eigen::VectorXd end = c.phi_n;
  end.segment<3>(0) = Eigen::Vector3d(0.5, 0.0, 0.0);
  c.begin_step();
  EXPECT_EQ(c.contacts->find_sweep(end, 1e-4),
            "obstacle 'floor' swept over node 0: 0.1 m inside at 51 % of the step");
}

// A sphere (r = 0.1 m) that passes through the resting sheet's nodes within one step, from
// x = −0.3 to x = 0.3 m: each node gets the row of the side it was on, the sphere's front, which
// the sphere has carried on past it (h = −0.34 m at x = 0, −0.25 m at x = 0.1), not the row of its
// back (h > 0), which would leave the node where it was.
TEST(ContactSet, ASphereThatPassesThroughANodeWithinTheStepPushesItOn) {
  obstacles::RigidMotionOptions motion;
  motion.offset_keyframes = {{0.0, Eigen::Vector3d::Zero()},
                             {0.01, Eigen::Vector3d(0.6, 0.0, 0.0)}};
  obstacles::ObstacleOptions options = FloorContact::options();
  options.motion = obstacles::RigidMotion(motion);
  obstacles::SphereGeometry g;
  g.centre_m = Eigen::Vector3d(-0.3, 0.05, 0.0);
  g.radius_m = 0.1;
  FloorContact c(std::make_shared<obstacles::Sphere>(g, options));
  c.phi_j = c.phi_n;  // the nodes stay put
  c.begin_step();
  c.assemble();
  ASSERT_EQ(c.problem.num_inequalities(), 4);
  EXPECT_EQ(c.contacts->entry_rows(), 4);
  const Eigen::MatrixXd jacobian(c.problem.inequality_jacobian);
  for (int r = 0; r < 4; ++r) {
    EXPECT_LT(c.problem.inequality_offset[r], -0.2);
    // The row's normal is the sphere's surface where the node's path entered it: 30° off +x
    // (the paths pass 5 cm beside the centre), (0.866, ∓0.5, 0).
    EXPECT_NEAR(jacobian.row(r).segment<3>(3 * r).x(), std::sqrt(0.75), 1e-6);
  }
}

// Rows are named for messages (an infeasible QP's row): the obstacle and the node or face centre.
TEST(ContactSet, RowsAreNamedByObstacleAndPoint) {
  obstacles::ObstacleOptions options = FloorContact::options();
  options.constrain_face_centres = true;
  FloorContact c(std::make_shared<obstacles::Plane>(obstacles::PlaneGeometry{}, options));
  c.begin_step();
  c.assemble();
  ASSERT_EQ(c.problem.num_inequalities(), 5);  // 4 nodes and the one quad's centre
  std::vector<std::string> names;
  for (int r = 0; r < 5; ++r)
    names.push_back(c.contacts->describe_row(r));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names,
            (std::vector<std::string>{"obstacle 'floor' at node 0", "obstacle 'floor' at node 1",
                                      "obstacle 'floor' at node 2", "obstacle 'floor' at node 3",
                                      "obstacle 'floor' at the centre of face 0"}));
  // Rows after the set's own belong to others (the collision rows): no name here.
  EXPECT_EQ(c.contacts->describe_row(5), "");
  EXPECT_EQ(c.contacts->describe_row(-1), "");
}

}  // namespace
}  // namespace clothfit::stepper
