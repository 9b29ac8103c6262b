// ContactSet: the friction rows' warm start. A contact that slid starts its next QP with its
// friction at the bound; within a step (same tangent basis) each of its two rows starts as it
// ended, so a contact sliding at a corner of the friction box does not have to find that corner
// again, one working-set change at a time, in every QP of the step.
#include "core/stepper/contact_set.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "core/mesh/quad_mesh.hpp"
#include "core/obstacles/plane.hpp"

namespace clothfit::stepper {
namespace {

struct FloorContact {
  mesh::QuadMesh mesh = mesh::make_grid_mesh(0.1, 0.1, 2, 2);
  std::vector<int> free_index;
  std::vector<std::shared_ptr<const obstacles::Obstacle>> obstacles;
  std::unique_ptr<ContactSet> contacts;
  qp::QpProblem problem;
  qp::QpWarmStart start;
  Eigen::VectorXd phi_n, phi_j;

  FloorContact() {
    free_index.resize(3 * mesh.num_nodes());
    for (int k = 0; k < 3 * mesh.num_nodes(); ++k)
      free_index[k] = k;
    obstacles::ObstacleOptions options;
    options.name = "floor";
    options.friction_coefficient = 0.5;
    obstacles.push_back(std::make_shared<obstacles::Plane>(obstacles::PlaneGeometry{}, options));
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
  c.contacts->begin_step(c.phi_n, 0.0, 0.01, 0.01);
  c.contacts->assemble(c.phi_j, 1.0, &c.problem, &c.start);
  ASSERT_EQ(c.problem.num_inequalities(), 4);
  EXPECT_EQ(c.problem.num_pinned(), 0);  // no friction before a normal impulse
  const double gamma = 2e-4;
  c.contacts->record(c.solution(gamma, 0.0, 0.0));

  // Friction rows now, bound μγ (unit normal); none slid yet: all start holding.
  c.contacts->assemble(c.phi_j, 1.0, &c.problem, &c.start);
  ASSERT_EQ(c.problem.num_pinned(), 8);
  const double bound = 0.5 * gamma;
  EXPECT_DOUBLE_EQ(c.problem.pinned_bound_of(0), bound);
  ASSERT_EQ(c.start.pinned_at_bound.size(), 8u);
  for (signed char s : c.start.pinned_at_bound)
    EXPECT_EQ(s, 0);

  // The QP ended with every contact sliding at a corner of its box (+b along t1, −b along t2):
  // the next QP of the same step starts both rows there.
  c.contacts->record(c.solution(gamma, bound, -bound));
  c.contacts->assemble(c.phi_j, 1.0, &c.problem, &c.start);
  ASSERT_EQ(c.start.pinned_at_bound.size(), 8u);
  for (int f = 0; f < 4; ++f) {
    EXPECT_EQ(c.start.pinned_at_bound[2 * f], 1) << "contact " << f;
    EXPECT_EQ(c.start.pinned_at_bound[2 * f + 1], -1) << "contact " << f;
  }

  // Sliding along t1 only (t2 within its bound): t2 starts holding.
  c.contacts->record(c.solution(gamma, -bound, 0.3 * bound));
  c.contacts->assemble(c.phi_j, 1.0, &c.problem, &c.start);
  for (int f = 0; f < 4; ++f) {
    EXPECT_EQ(c.start.pinned_at_bound[2 * f], -1) << "contact " << f;
    EXPECT_EQ(c.start.pinned_at_bound[2 * f + 1], 0) << "contact " << f;
  }

  // A new step chooses a new basis, t1 against the slip: only t1 starts at its bound.
  c.contacts->record(c.solution(gamma, bound, -bound));
  c.contacts->begin_step(c.phi_n, 0.01, 0.02, 0.01);
  c.contacts->assemble(c.phi_j, 1.0, &c.problem, &c.start);
  ASSERT_EQ(c.start.pinned_at_bound.size(), 8u);
  for (int f = 0; f < 4; ++f) {
    EXPECT_NE(c.start.pinned_at_bound[2 * f], 0) << "contact " << f;
    EXPECT_EQ(c.start.pinned_at_bound[2 * f + 1], 0) << "contact " << f;
  }
}

}  // namespace
}  // namespace clothfit::stepper
