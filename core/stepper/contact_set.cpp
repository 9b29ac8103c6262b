#include "core/stepper/contact_set.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace clothfit::stepper {

namespace {

// An orthonormal tangent basis (t1, t2) of the unit normal n with t1 along the tangential part of
// `preferred` when it has one, else ⟂ the coordinate axis least aligned with n (depending on n
// only: constant for a plane).
void tangent_basis(const Eigen::Vector3d& n, const Eigen::Vector3d& preferred, Eigen::Vector3d* t1,
                   Eigen::Vector3d* t2) {
  const Eigen::Vector3d tangential = preferred - preferred.dot(n) * n;
  if (tangential.norm() > 1e-9 * std::max(preferred.norm(), 1e-300)) {
    *t1 = tangential.normalized();
  } else {
    Eigen::Index axis = 0;
    n.cwiseAbs().minCoeff(&axis);
    *t1 = n.cross(Eigen::Vector3d::Unit(axis)).normalized();
  }
  *t2 = n.cross(*t1);
}

// A tangential slip below this (m over the step) has no direction.
constexpr double kNoSlip = 1e-12;
// A friction row's residual (m of slip along its tangent after the QP) beyond which the contact
// slid though its force is not at the bound (record()).
constexpr double kSlidResidual = 1e-9;

// A point moving linearly in the world from x0 at t0 to x1 at t1, at the fraction s of the step,
// in the obstacle's rest frame.
Eigen::Vector3d rest_point_on_path(const obstacles::Obstacle& obstacle, const Eigen::Vector3d& x0,
                                   const Eigen::Vector3d& x1, double t0, double t1, double s) {
  return obstacle.motion().pose(t0 + s * (t1 - t0)).to_rest((1.0 - s) * x0 + s * x1);
}

// Conservative advancement (entry_row, find_sweep) stops within this (m) of the level it seeks,
// and after this many advances (a path grazing the level), where it counts as having reached it.
constexpr double kArrival = 1e-8;
constexpr int kMaxAdvances = 10000;

// The first fraction s ∈ [0, 1) of the step at which the point moving linearly in the world from
// x0 (at t0) to x1 (at t1) comes within kArrival of the level h = `level` of a signed-distance
// obstacle, from above (h0: h at s = 0, ≥ level); −1 when it stays above it on [0, 1). h is
// 1-Lipschitz in the rest frame and the rest-frame point moves at most L = bound × (t1 − t0)
// per unit of s (RigidMotion::rest_speed_bound), so h − level > 0 on [s, s + (h − level) / L):
// each advance skips only times at which the path cannot have reached the level, however thin the
// part of the obstacle it crosses.
double first_reach(const obstacles::Obstacle& obstacle, const Eigen::Vector3d& x0,
                   const Eigen::Vector3d& x1, double t0, double t1, double h0, double level) {
  const double per_s = obstacle.motion().rest_speed_bound(x0, x1, t0, t1) * (t1 - t0);
  double s = 0.0, gap = h0 - level;
  for (int advance = 0; gap > kArrival; ++advance) {
    if (advance == kMaxAdvances)
      return s;
    s += gap / per_s;  // ∞ for a point at rest in the rest frame (per_s = 0)
    if (!(s < 1.0))
      return -1.0;
    gap = obstacle.evaluate_rest(rest_point_on_path(obstacle, x0, x1, t0, t1, s)).value - level;
  }
  return s;
}

}  // namespace

ContactSet::ContactSet(const mesh::QuadMesh& mesh,
                       const std::vector<std::shared_ptr<const obstacles::Obstacle>>& obstacles,
                       const std::vector<int>& free_index)
    : m_mesh(mesh),
      m_obstacles(obstacles),
      m_free_index(free_index),
      m_points(mesh.num_nodes() + static_cast<int>(mesh.quads.size())) {
  const std::size_t keys = m_obstacles.size() * static_cast<std::size_t>(m_points);
  m_impulse.assign(keys, 0.0);
  m_bound.assign(keys, 0.0);
  m_bound_qp.assign(keys, -1);
  m_reaction.assign(keys, Eigen::Vector3d::Zero());
  m_row_at_bound.assign(keys, {0, 0});
  m_direction.assign(keys, Eigen::Vector3d::Zero());
  m_aligned.assign(keys, -1);
  m_row_of_key.assign(keys, -1);
  m_sigma.assign(keys, Eigen::Vector2d::Zero());
  m_sigma_qp.assign(keys, -1);
  m_kept_gradient.assign(keys, Eigen::Vector3d::Zero());
  m_gradient_kept_in.assign(keys, -1);
  m_start.assign(keys, Eigen::Vector3d::Zero());
  m_start_rest.assign(keys, obstacles::ValueAndGradient{});
}

void ContactSet::begin_step(const Eigen::VectorXd& phi_n, double t0, double t1, double reach) {
  m_phi_n = phi_n;
  m_t0 = t0;
  m_t1 = t1;
  m_reach = reach;
  ++m_step;
  ++m_linearisations;  // nothing is kept across steps
  m_corrections = false;
  // Bounds relax from one iteration to the next within a step, never across steps.
  std::fill(m_bound.begin(), m_bound.end(), 0.0);
  // Where each point starts, against each signed-distance obstacle (entry_row).
  for (int o = 0; o < static_cast<int>(m_obstacles.size()); ++o) {
    const obstacles::Obstacle& obstacle = *m_obstacles[o];
    if (!obstacle.is_signed_distance())
      continue;
    const obstacles::RigidPose pose = obstacle.motion().pose(t0);
    const int last_point = obstacle.constrain_face_centres() ? m_points : m_mesh.num_nodes();
    for (int point = 0; point < last_point; ++point) {
      const int k = key(o, point);
      m_start[k] = point_position(phi_n, point);
      m_start_rest[k] = obstacle.evaluate_rest(pose.to_rest(m_start[k]));
    }
  }
}

Eigen::Vector3d ContactSet::point_position(const Eigen::VectorXd& phi, int point) const {
  const int n = m_mesh.num_nodes();
  if (point < n)
    return phi.segment<3>(3 * point);
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  for (int v : m_mesh.quads[point - n])
    p += 0.25 * phi.segment<3>(3 * v);
  return p;
}

bool ContactSet::entry_row(const obstacles::ObstacleAtTime& placed, int k, const Eigen::Vector3d& p,
                           obstacles::ValueAndGradient* hg) const {
  const obstacles::Obstacle& obstacle = placed.obstacle();
  const obstacles::RigidPose& end = placed.pose();
  const obstacles::ValueAndGradient& start = m_start_rest[k];
  if (start.gradient.dot(end.rotation.transpose() * hg->gradient) >= 0.0)
    return false;  // on the side it started (or beside it): the row at φ_j is the right one
  const Eigen::Vector3d& x0 = m_start[k];
  const auto at = [&](double s) { return rest_point_on_path(obstacle, x0, p, m_t0, m_t1, s); };
  // The path's point where it entered (rest frame), and h, ∇h there.
  Eigen::Vector3d at_entry = at(0.0);
  obstacles::ValueAndGradient on = start;  // it starts inside: the nearest surface
  if (start.value >= 0.0) {
    const double s = first_reach(obstacle, x0, p, m_t0, m_t1, start.value, 0.0);
    if (s < 0.0)
      return false;  // the path stays outside: it went round the obstacle
    at_entry = at(s);
    on = obstacle.evaluate_rest(at_entry);
  }
  const Eigen::Vector3d normal = on.gradient;                  // unit (a distance)
  const Eigen::Vector3d entry = at_entry - on.value * normal;  // on the surface
  hg->value = normal.dot(end.to_rest(p) - entry);
  hg->gradient = end.direction_to_world(normal);
  return true;
}

std::string ContactSet::find_sweep(const Eigen::VectorXd& phi_n1, double tolerance) const {
  const int n = m_mesh.num_nodes();
  for (int o = 0; o < static_cast<int>(m_obstacles.size()); ++o) {
    const obstacles::Obstacle& obstacle = *m_obstacles[o];
    if (!obstacle.is_signed_distance())
      continue;
    const obstacles::RigidPose end = obstacle.motion().pose(m_t1);
    for (int k = 0; k < n; ++k) {
      if (m_free_index[3 * k] < 0)
        continue;
      // The start as begin_step() found it.
      const Eigen::Vector3d& x0 = m_start[key(o, k)];
      const obstacles::ValueAndGradient& h0 = m_start_rest[key(o, k)];
      const Eigen::Vector3d x1 = phi_n1.segment<3>(3 * k);
      const Eigen::Vector3d rest1 = end.to_rest(x1);
      const obstacles::ValueAndGradient h1 = obstacle.evaluate_rest(rest1);
      // Outside at both ends (a step at the cap may end inside: not a sweep), on opposite sides.
      if (h0.value < -tolerance || h1.value < -tolerance || h0.gradient.dot(h1.gradient) >= 0.0)
        continue;
      const Eigen::Vector3d rest0 = rest_point_on_path(obstacle, x0, x1, m_t0, m_t1, 0.0);
      const double depth = std::max(tolerance, 0.1 * (rest1 - rest0).norm());
      const double s = first_reach(obstacle, x0, x1, m_t0, m_t1, h0.value, -depth);
      if (s >= 0.0) {
        char text[96];
        std::snprintf(text, sizeof text, ": %.3g m inside at %.0f %% of the step", depth,
                      100.0 * s);
        return "obstacle '" + obstacle.name() + "' swept over node " + std::to_string(k) + text;
      }
    }
  }
  return {};
}

std::string ContactSet::describe_row(int row) const {
  if (row < 0 || row >= static_cast<int>(m_rows.size()))
    return {};
  const Row& r = m_rows[row];
  const int n = m_mesh.num_nodes();
  return "obstacle '" + m_obstacles[r.obstacle]->name() + "' at " +
         (r.point < n ? "node " + std::to_string(r.point)
                      : "the centre of face " + std::to_string(r.point - n));
}

double ContactSet::assemble(const Eigen::VectorXd& phi_j, double relaxation,
                            Linearisation linearisation, qp::QpProblem* problem,
                            qp::QpWarmStart* start) {
  const int n = m_mesh.num_nodes();
  if (linearisation == Linearisation::kCurrent)
    ++m_linearisations;
  const double dt = m_t1 - m_t0;
  for (const Row& r : m_rows)
    m_row_of_key[key(r.obstacle, r.point)] = -1;
  m_rows.clear();
  m_friction.clear();
  m_triplets.clear();
  m_pinned_triplets.clear();
  m_offsets.clear();
  m_pinned_offsets.clear();
  m_pinned_bounds.clear();
  start->pinned_at_bound.clear();
  double min_value = std::numeric_limits<double>::infinity();

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
      obstacles::ValueAndGradient hg = placed.evaluate(p);
      // A point that passed into or through the obstacle within the step gets the row of the side
      // it came from.
      if (obstacle.is_signed_distance() && entry_row(placed, key(o, point), p, &hg))
        ++m_entry_rows;
      if (hg.value > m_reach)
        continue;
      min_value = std::min(min_value, hg.value);
      const int k = key(o, point);
      // The row's ∇h: the kept one, or ∇h(φ_j), which is then kept.
      const bool kept = m_gradient_kept_in[k] == m_linearisations;
      if (!kept) {
        m_kept_gradient[k] = hg.gradient;
        m_gradient_kept_in[k] = m_linearisations;
      }
      const Eigen::Vector3d& gradient = m_kept_gradient[k];
      // The normal force's change of direction since the kept row, for the linear term.
      const Eigen::Vector3d correction =
          kept && m_impulse[k] > 0.0 ? Eigen::Vector3d((hg.gradient - gradient) * m_impulse[k])
                                     : Eigen::Vector3d::Zero();
      const int row = static_cast<int>(m_rows.size());
      bool any_free = false;
      for (int v : nodes) {
        if (v < 0)
          continue;
        for (int d = 0; d < 3; ++d) {
          const int col = m_free_index[3 * v + d];
          if (col < 0)
            continue;
          if (gradient[d] != 0.0) {
            m_triplets.emplace_back(row, col, weight * gradient[d]);
            any_free = true;
          }
          if (kept)
            problem->linear[col] += weight * correction[d];
        }
      }
      if (!any_free)
        continue;
      m_rows.push_back({o, point});
      m_row_of_key[k] = row;
      m_offsets.push_back(hg.value);

      // Friction rows for node contacts that were active in the last QP (or, while the bounds
      // are relaxed, that had friction in it: a contact that friction lifts off and that then
      // lands again without it would otherwise toggle from one iteration to the next).
      const bool relaxed_friction = relaxation < 1.0 && m_bound[k] > 0.0;
      if (point >= n || mu == 0.0 || m_corrections || (m_impulse[k] <= 0.0 && !relaxed_friction))
        continue;
      const double normal_scale = gradient.norm();
      const Eigen::Vector3d normal = gradient / normal_scale;
      const Eigen::Vector3d wall = obstacle.is_static()
                                       ? Eigen::Vector3d::Zero()
                                       : Eigen::Vector3d(placed.surface_velocity(p) * dt);
      const Eigen::Vector3d slip = (p - m_phi_n.segment<3>(3 * point)) - wall;
      // t1 along the friction force, chosen at the step's first iteration and kept for the rest
      // of the step: against the slip when the contact slid (its last reaction may be a corner
      // of the box, √2 b, and would keep the box turned that way), else along its last (static)
      // reaction, or against the slip before it has one. Turning the box at every iteration fed
      // back into the solution and made some contacts' friction flip from one side to the other.
      FrictionRows rows{k, 0.0, mu * normal_scale, {}, {}};
      const bool same_basis = m_aligned[k] == m_step;  // t1, t2 as in the last QP of this step
      if (!same_basis) {
        const Eigen::Vector3d& reaction = m_reaction[k];
        const Eigen::Vector3d tangential_slip = slip - slip.dot(normal) * normal;
        const bool sliding = slid(k) && tangential_slip.norm() > kNoSlip;
        m_direction[k] =
            sliding || reaction.squaredNorm() == 0.0 ? Eigen::Vector3d(-slip) : reaction;
        m_aligned[k] = m_step;
      }
      tangent_basis(normal, m_direction[k], &rows.t1, &rows.t2);
      if (kept && same_basis && m_sigma_qp[k] == m_recorded) {
        // The friction force's change of direction since the kept basis (as for the normal).
        Eigen::Vector3d t1, t2;
        tangent_basis(hg.gradient.normalized(), m_direction[k], &t1, &t2);
        const Eigen::Vector3d change =
            (t1 - rows.t1) * m_sigma[k][0] + (t2 - rows.t2) * m_sigma[k][1];
        for (int d = 0; d < 3; ++d)
          problem->linear[m_free_index[3 * point + d]] += change[d];
      }
      const double target = mu * m_impulse[k] * normal_scale;
      rows.bound =
          relaxed_friction ? relaxation * target + (1.0 - relaxation) * m_bound[k] : target;
      const int first = 2 * static_cast<int>(m_friction.size());
      for (int d = 0; d < 3; ++d) {
        const int col = m_free_index[3 * point + d];
        if (rows.t1[d] != 0.0)
          m_pinned_triplets.emplace_back(first, col, rows.t1[d]);
        if (rows.t2[d] != 0.0)
          m_pinned_triplets.emplace_back(first + 1, col, rows.t2[d]);
      }
      m_pinned_offsets.push_back(rows.t1.dot(slip));
      m_pinned_offsets.push_back(rows.t2.dot(slip));
      m_pinned_bounds.push_back(rows.bound);
      m_pinned_bounds.push_back(rows.bound);
      // A contact that slid starts sliding. In a new basis (a step's first iteration): its t1
      // force at ±b on the side of its last reaction, and its t2 force at ±b on that side too
      // when it ended at a corner of the box (both rows at their bounds). In the basis of the last
      // QP (later iterations of a step): each row as it ended there, at its bound or not. A
      // sliding contact on a curved obstacle usually ends at a corner of the friction box, and
      // starting its t2 row holding cost two working-set changes per contact (a t2 row going to
      // its bound, then a contact row leaving and entering again around it): on the 7 × 9
      // cylinder the first QP of a step took 84 changes (34 rows to a bound, 20 returning, 15
      // contact rows in and out) against 10 in the later ones; with the corner kept, 29.
      if (same_basis) {
        // Recorded per row, not read back from the reaction: on a curved obstacle the normal,
        // and with it the basis, turns a little from one iteration to the next, and a reaction
        // at a corner of the old box projects just inside the new one.
        start->pinned_at_bound.push_back(m_row_at_bound[k][0]);
        start->pinned_at_bound.push_back(m_row_at_bound[k][1]);
      } else {
        const double along = m_reaction[k].dot(rows.t1);
        const double cross = m_reaction[k].dot(rows.t2);
        const bool corner = m_row_at_bound[k][0] != 0 && m_row_at_bound[k][1] != 0;
        start->pinned_at_bound.push_back(!slid(k) || along == 0.0 ? 0 : along > 0.0 ? 1 : -1);
        start->pinned_at_bound.push_back(!corner || cross == 0.0 ? 0 : cross > 0.0 ? 1 : -1);
      }
      m_friction.push_back(rows);
    }
  }
  const int rows = static_cast<int>(m_rows.size());
  problem->inequality_jacobian.resize(rows, problem->num_variables());
  problem->inequality_jacobian.setFromTriplets(m_triplets.begin(), m_triplets.end());
  problem->inequality_jacobian.makeCompressed();
  problem->inequality_offset = Eigen::Map<const Eigen::VectorXd>(m_offsets.data(), rows);
  const int pinned = static_cast<int>(m_pinned_offsets.size());
  problem->pinned_jacobian.resize(pinned, problem->num_variables());
  problem->pinned_jacobian.setFromTriplets(m_pinned_triplets.begin(), m_pinned_triplets.end());
  problem->pinned_jacobian.makeCompressed();
  problem->pinned_offset = Eigen::Map<const Eigen::VectorXd>(m_pinned_offsets.data(), pinned);
  problem->pinned_bound = Eigen::Map<const Eigen::VectorXd>(m_pinned_bounds.data(), pinned);
  start->inequalities.clear();
  for (int k : m_active_keys) {
    if (m_row_of_key[k] >= 0)
      start->inequalities.push_back(m_row_of_key[k]);
  }
  return min_value;
}

void ContactSet::record(const qp::QpSolution& solution) {
  ++m_recorded;
  if (m_corrections) {
    // Only which contacts are active: each keeps the last Newton QP's impulse and friction state
    // (begin_corrections()); the ones that separated lose them, new ones have none.
    m_previous_keys.swap(m_active_keys);
    m_active_keys.clear();
    for (int row : solution.active_inequalities) {
      if (row < static_cast<int>(m_rows.size()))
        m_active_keys.push_back(key(m_rows[row].obstacle, m_rows[row].point));
    }
    for (int k : m_previous_keys) {
      if (std::find(m_active_keys.begin(), m_active_keys.end(), k) == m_active_keys.end()) {
        m_impulse[k] = 0.0;
        m_reaction[k].setZero();
        m_row_at_bound[k] = {0, 0};
      }
    }
    m_friction_forces.clear();
    return;
  }
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
  // The friction reactions, for the next tangent bases; a contact that separated loses its own.
  m_sticking = 0;
  m_friction_forces.resize(m_friction.size());
  for (std::size_t f = 0; f < m_friction.size(); ++f) {
    const FrictionRows& rows = m_friction[f];
    const double s1 = solution.pinned_multipliers[2 * f];
    const double s2 = solution.pinned_multipliers[2 * f + 1];
    m_friction_forces[f] = Eigen::Vector2d(s1, s2);
    m_bound[rows.key] = rows.bound;  // kept for the relaxation even if the contact separated
    m_bound_qp[rows.key] = m_recorded;
    if (m_impulse[rows.key] <= 0.0) {
      m_reaction[rows.key].setZero();
      m_row_at_bound[rows.key] = {0, 0};
      continue;
    }
    m_reaction[rows.key] = s1 * rows.t1 + s2 * rows.t2;
    m_sigma[rows.key] = Eigen::Vector2d(s1, s2);
    m_sigma_qp[rows.key] = m_recorded;
    const double at_bound = rows.bound - 1e-9 * rows.bound;
    // A row slid when its force is at the bound or, for a solver whose multipliers only approach
    // their bounds (the interior point stays inside by its barrier's gap, often by far more than
    // 1e-9 b), when the QP left it unsatisfied: the node's slip along t_a after the QP, the row's
    // residual, beyond kSlidResidual. Without this no contact of the interior point slid, each kept
    // its box turned along its last reaction, at a corner √2 b, and the ramp sheet that should
    // slide stuck. For the active set a row not at its bound holds exactly: nothing changes.
    const int point = rows.key % m_points;
    const auto slip_after = [&](int a) {
      if (solution.x.size() == 0)  // a solution of multipliers only: no residual to read
        return 0.0;
      const Eigen::Vector3d& t = a == 0 ? rows.t1 : rows.t2;
      double slip = m_pinned_offsets[2 * f + static_cast<std::size_t>(a)];
      for (int d = 0; d < 3; ++d) {
        const int col = m_free_index[3 * point + d];
        if (col >= 0)
          slip += t[d] * solution.x[col];
      }
      return slip;
    };
    const auto side = [&](double force, int a) -> signed char {
      const bool slid = std::abs(force) >= at_bound || std::abs(slip_after(a)) > kSlidResidual;
      return !slid || force == 0.0 ? 0 : force > 0.0 ? 1 : -1;
    };
    m_row_at_bound[rows.key] = {side(s1, 0), side(s2, 1)};
    m_sticking += slid(rows.key) ? 0 : 1;
  }
}

double ContactSet::negligible_force(int key, const Eigen::VectorXd& mass,
                                    double negligible_displacement) const {
  return mass[m_free_index[3 * (key % m_points)]] * negligible_displacement;
}

double ContactSet::friction_error(const Eigen::VectorXd& mass,
                                  double negligible_displacement) const {
  // A force error that would move its node by less than negligible_displacement does not count.
  double error = 0.0;
  for (std::size_t f = 0; f < m_friction.size() && f < m_friction_forces.size(); ++f) {
    const FrictionRows& rows = m_friction[f];
    const double target = rows.bound_per_impulse * m_impulse[rows.key];
    const double scale = std::max(rows.bound, target);
    const double floor = negligible_force(rows.key, mass, negligible_displacement);
    // A row at its bound exerts b, which must be μγ‖∇h‖; a holding row's force only must not
    // exceed that.
    for (int a = 0; a < 2; ++a) {
      const double force = std::abs(m_friction_forces[f][a]);
      const bool at_bound = force >= rows.bound - 1e-9 * rows.bound;
      const double e = at_bound ? std::abs(target - rows.bound) : std::max(0.0, force - target);
      if (e > floor)
        error = std::max(error, e / scale);
    }
  }
  const int n = m_mesh.num_nodes();
  for (int k : m_active_keys) {
    const int point = k % m_points;
    if (point >= n || m_bound_qp[k] == m_recorded)
      continue;
    const double mu = m_obstacles[k / m_points]->friction_coefficient();
    if (mu * m_impulse[k] * m_kept_gradient[k].norm() >
        negligible_force(k, mass, negligible_displacement))
      return 1.0;  // an active contact without friction rows
  }
  return error;
}

double ContactSet::friction_cone_excess(const Eigen::VectorXd& mass,
                                        double negligible_displacement) const {
  double excess = 0.0;
  for (std::size_t f = 0; f < m_friction.size() && f < m_friction_forces.size(); ++f) {
    const FrictionRows& rows = m_friction[f];
    const double beyond = m_friction_forces[f].norm() - rows.bound;
    if (rows.bound > 0.0 && beyond > negligible_force(rows.key, mass, negligible_displacement))
      excess = std::max(excess, beyond / rows.bound);
  }
  return excess;
}

}  // namespace clothfit::stepper
