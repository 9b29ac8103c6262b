#include "core/stepper/contact_set.hpp"

#include <algorithm>
#include <limits>

namespace clothfit::stepper {

ContactSet::ContactSet(const mesh::QuadMesh& mesh,
                       const std::vector<std::shared_ptr<const obstacles::Obstacle>>& obstacles,
                       const std::vector<int>& free_index, const Eigen::VectorXd& nodal_mass)
    : m_mesh(mesh),
      m_obstacles(obstacles),
      m_free_index(free_index),
      m_nodal_mass(nodal_mass),
      m_points(mesh.num_nodes() + static_cast<int>(mesh.quads.size())) {
  const std::size_t keys = m_obstacles.size() * static_cast<std::size_t>(m_points);
  m_impulse.assign(keys, 0.0);
  m_row_of_key.assign(keys, -1);
  m_friction.setZero(3 * mesh.num_nodes());
}

void ContactSet::begin_step(const Eigen::VectorXd& phi_n, double t0, double t1, double reach) {
  m_phi_n = phi_n;
  m_t0 = t0;
  m_t1 = t1;
  m_reach = reach;
  // φ0 of a new step carries no friction yet (the multipliers are kept as the starting guess).
  m_friction.setZero();
}

double ContactSet::assemble(const Eigen::VectorXd& phi_j, double relaxation, qp::QpProblem* problem,
                            std::vector<int>* seed) {
  const int n = m_mesh.num_nodes();
  const double dt = m_t1 - m_t0;
  for (const Row& r : m_rows)
    m_row_of_key[key(r.obstacle, r.point)] = -1;
  m_rows.clear();
  m_triplets.clear();
  std::vector<double> offsets;
  double min_value = std::numeric_limits<double>::infinity();
  Eigen::VectorXd friction = Eigen::VectorXd::Zero(3 * n);

  for (int o = 0; o < static_cast<int>(m_obstacles.size()); ++o) {
    const obstacles::Obstacle& obstacle = *m_obstacles[o];
    const obstacles::ObstacleAtTime placed = obstacle.at(m_t1);
    const double mu = obstacle.friction_coefficient();
    const int last_point = obstacle.constrain_face_centres() ? m_points : n;
    for (int point = 0; point < last_point; ++point) {
      // The point, and the nodes (with weights) it is made of.
      Eigen::Vector3d p;
      std::array<int, 4> nodes{point, -1, -1, -1};
      double weight = 1.0;
      if (point < n) {
        if (m_free_index[3 * point] < 0)
          continue;  // held nodes follow their targets
        p = phi_j.segment<3>(3 * point);
      } else {
        const mesh::Quad& q = m_mesh.quads[point - n];
        nodes = {q[0], q[1], q[2], q[3]};
        weight = 0.25;
        p.setZero();
        for (int v : q)
          p += 0.25 * phi_j.segment<3>(3 * v);
      }
      const obstacles::ValueAndGradient hg = placed.evaluate(p);
      if (hg.value > m_reach)
        continue;
      min_value = std::min(min_value, hg.value);
      const int row = static_cast<int>(m_rows.size());
      bool any_free = false;
      for (int v : nodes) {
        if (v < 0)
          continue;
        for (int d = 0; d < 3; ++d) {
          const int col = m_free_index[3 * v + d];
          if (col >= 0 && hg.gradient[d] != 0.0) {
            m_triplets.emplace_back(row, col, weight * hg.gradient[d]);
            any_free = true;
          }
        }
      }
      if (!any_free)
        continue;
      m_rows.push_back({o, point});
      m_row_of_key[key(o, point)] = row;
      offsets.push_back(hg.value);

      // Friction on node contacts from the last normal multiplier of this key.
      const double impulse = m_impulse[key(o, point)];
      if (point >= n || mu == 0.0 || impulse <= 0.0)
        continue;
      const Eigen::Vector3d normal = hg.gradient.normalized();
      const double m = m_nodal_mass[point];
      const Eigen::Vector3d wall = obstacle.is_static()
                                       ? Eigen::Vector3d::Zero()
                                       : Eigen::Vector3d(placed.surface_velocity(p) * dt);
      Eigen::Vector3d slip =
          (p - m_phi_n.segment<3>(3 * point)) - wall - m_friction.segment<3>(3 * point) / m;
      slip -= slip.dot(normal) * normal;
      const double slip_norm = slip.norm();
      if (slip_norm <= 0.0)
        continue;
      const double magnitude = std::min(mu * impulse * hg.gradient.norm(), m * slip_norm);
      friction.segment<3>(3 * point) -= magnitude / slip_norm * slip;
    }
  }
  const int rows = static_cast<int>(m_rows.size());
  problem->inequality_jacobian.resize(rows, problem->num_variables());
  problem->inequality_jacobian.setFromTriplets(m_triplets.begin(), m_triplets.end());
  problem->inequality_jacobian.makeCompressed();
  problem->inequality_offset = Eigen::Map<const Eigen::VectorXd>(offsets.data(), rows);
  // Under-relaxation (relaxation < 1): the friction of the next QP moves only part of the way from
  // the last one towards the new value. The fixed point is the same; the stepper asks for it when
  // the plain iteration cycles between sticking and sliding (seen on the rotating sphere).
  if (relaxation < 1.0)
    friction = relaxation * friction + (1.0 - relaxation) * m_friction;
  m_friction = friction;
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) {
      const int col = m_free_index[3 * i + d];
      if (col >= 0)
        problem->linear[col] += friction[3 * i + d];
    }
  }
  seed->clear();
  for (int k : m_active_keys) {
    if (m_row_of_key[k] >= 0)
      seed->push_back(m_row_of_key[k]);
  }
  return min_value;
}

void ContactSet::record(const qp::QpSolution& solution) {
  for (int k : m_active_keys)
    m_impulse[k] = 0.0;
  m_active_keys.clear();
  for (int row : solution.active_inequalities) {
    if (row >= static_cast<int>(m_rows.size()))
      continue;  // rows appended after the contacts (CollisionSet)
    const int k = key(m_rows[row].obstacle, m_rows[row].point);
    m_impulse[k] = std::max(0.0, solution.inequality_multipliers[row]);
    m_active_keys.push_back(k);
  }
}

}  // namespace clothfit::stepper
