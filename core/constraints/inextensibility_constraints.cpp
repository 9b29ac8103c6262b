#include "core/constraints/inextensibility_constraints.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <map>

namespace clothfit::constraints {

namespace {

// Bilinear shape functions on the unit square with corners (0,0), (1,0), (1,1), (0,1).
double shape(int i, double u, double v) {
  switch (i) {
    case 0:
      return (1 - u) * (1 - v);
    case 1:
      return u * (1 - v);
    case 2:
      return u * v;
    default:
      return (1 - u) * v;
  }
}
double shape_du(int i, double v) {
  constexpr std::array<double, 4> s{-1, 1, 1, -1};
  return s[i] * (i == 0 || i == 1 ? 1 - v : v);
}
double shape_dv(int i, double u) {
  constexpr std::array<double, 4> s{-1, -1, 1, 1};
  return s[i] * (i == 0 || i == 3 ? 1 - u : u);
}

// Integrals over one quad with parameter lengths a × b of N_k ∂ξN_i ∂ξN_j (E), the symmetrised
// N_k ∂ξN_(i ∂ηN_j) (F) and N_k ∂ηN_i ∂ηN_j (G). 3-point Gauss is exact for these polynomials.
struct ElementIntegrals {
  double e[4][4][4], f[4][4][4], g[4][4][4];
};

ElementIntegrals element_integrals(double a, double b) {
  const double r = std::sqrt(0.6);
  const std::array<double, 3> x{0.5 * (1 - r), 0.5, 0.5 * (1 + r)};
  const std::array<double, 3> w{5.0 / 18, 8.0 / 18, 5.0 / 18};
  ElementIntegrals out{};
  for (int p = 0; p < 3; ++p) {
    for (int q = 0; q < 3; ++q) {
      const double u = x[p], v = x[q], wt = w[p] * w[q];
      for (int k = 0; k < 4; ++k) {
        const double nk = shape(k, u, v) * wt;
        for (int i = 0; i < 4; ++i) {
          for (int j = 0; j < 4; ++j) {
            // dA = a b du dv, ∂ξ = ∂u / a, ∂η = ∂v / b.
            out.e[k][i][j] += nk * shape_du(i, v) * shape_du(j, v) * b / a;
            out.f[k][i][j] +=
                nk * 0.5 * (shape_du(i, v) * shape_dv(j, u) + shape_dv(i, u) * shape_du(j, v));
            out.g[k][i][j] += nk * shape_dv(i, u) * shape_dv(j, u) * a / b;
          }
        }
      }
    }
  }
  return out;
}

}  // namespace

InextensibilityConstraints::InextensibilityConstraints(const mesh::QuadMesh& mesh)
    : m_num_nodes(mesh.num_nodes()), m_num_variables(3 * mesh.num_nodes()) {
  const int n = mesh.num_nodes();
  // Quads incident to each node, with the node's local corner index.
  std::vector<std::vector<std::pair<int, int>>> incident(n);
  for (std::size_t f = 0; f < mesh.quads.size(); ++f) {
    for (int k = 0; k < 4; ++k)
      incident[mesh.quads[f][k]].emplace_back(static_cast<int>(f), k);
  }
  std::vector<ElementIntegrals> integrals;
  std::vector<double> param_area;
  for (const mesh::Quad& q : mesh.quads) {
    const double a = (mesh.rest_position(q[1]) - mesh.rest_position(q[0])).norm();
    const double b = (mesh.rest_position(q[3]) - mesh.rest_position(q[0])).norm();
    integrals.push_back(element_integrals(a, b));
    param_area.push_back(a * b);
  }

  m_node_offset.push_back(0);
  m_q_offset.push_back(0);
  auto add_constraint = [&](const std::map<std::pair<int, int>, double>& q_entries) {
    std::vector<int> nodes;
    for (const auto& [ab, value] : q_entries)
      nodes.push_back(ab.first);
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    const int s = static_cast<int>(nodes.size());
    std::vector<double> block(s * s, 0.0);
    for (const auto& [ab, value] : q_entries) {
      const int ia =
          static_cast<int>(std::lower_bound(nodes.begin(), nodes.end(), ab.first) - nodes.begin());
      const int ib =
          static_cast<int>(std::lower_bound(nodes.begin(), nodes.end(), ab.second) - nodes.begin());
      block[ia * s + ib] += value;
    }
    m_nodes.insert(m_nodes.end(), nodes.begin(), nodes.end());
    m_node_offset.push_back(static_cast<int>(m_nodes.size()));
    m_q.insert(m_q.end(), block.begin(), block.end());
    m_q_offset.push_back(static_cast<int>(m_q.size()));
  };

  for (int k = 0; k < n; ++k) {
    if (mesh.is_boundary_node[k] || incident[k].empty())
      continue;
    double m_k = 0.0;
    for (const auto& [f, local] : incident[k])
      m_k += 0.25 * param_area[f];
    for (int form = 0; form < 3; ++form) {
      std::map<std::pair<int, int>, double> entries;
      for (const auto& [f, local] : incident[k]) {
        const mesh::Quad& q = mesh.quads[f];
        const ElementIntegrals& in = integrals[f];
        const auto& t = form == 0 ? in.e : form == 1 ? in.f : in.g;
        for (int i = 0; i < 4; ++i) {
          for (int j = 0; j < 4; ++j)
            entries[{q[i], q[j]}] += t[local][i][j] / m_k;
        }
      }
      add_constraint(entries);
    }
  }
  m_num_metric = size();
  for (const mesh::Edge& e : mesh.boundary_edges) {
    const double l2 = (mesh.rest_position(e[0]) - mesh.rest_position(e[1])).squaredNorm();
    add_constraint({{{e[0], e[0]}, 1 / l2},
                    {{e[1], e[1]}, 1 / l2},
                    {{e[0], e[1]}, -1 / l2},
                    {{e[1], e[0]}, -1 / l2}});
  }
  // evaluate()'s per-quad terms.
  std::vector<int> metric_row(n, -1);
  std::vector<double> node_parameter_area(n, 0.0);
  {
    int row = 0;
    for (int k = 0; k < n; ++k) {
      if (mesh.is_boundary_node[k] || incident[k].empty())
        continue;
      metric_row[k] = row;
      m_metric_node.push_back(k);
      row += 3;
      for (const auto& [f, local] : incident[k])
        node_parameter_area[k] += 0.25 * param_area[f];
    }
  }
  const auto jacobian_offset = [&](int row, int node) {
    const auto first = m_nodes.begin() + m_node_offset[row];
    const auto last = m_nodes.begin() + m_node_offset[row + 1];
    return 3 * static_cast<int>(std::lower_bound(first, last, node) - m_nodes.begin());
  };
  m_quad_terms.resize(mesh.quads.size());
  for (std::size_t f = 0; f < mesh.quads.size(); ++f) {
    const mesh::Quad& q = mesh.quads[f];
    const double a = (mesh.rest_position(q[1]) - mesh.rest_position(q[0])).norm();
    const double b = (mesh.rest_position(q[3]) - mesh.rest_position(q[0])).norm();
    QuadTerms& terms = m_quad_terms[f];
    terms.nodes = q;
    for (int c = 0; c < 4; ++c) {
      QuadCorner& corner = terms.corners[c];
      corner.row = metric_row[q[c]];
      if (corner.row < 0)
        continue;
      const double m_k = node_parameter_area[q[c]];
      corner.e_weight = b / (2.0 * a * m_k);
      corner.f_weight = 1.0 / m_k;
      corner.g_weight = a / (2.0 * b * m_k);
      for (int form = 0; form < 3; ++form) {
        for (int i = 0; i < 4; ++i)
          corner.slot[form][i] = jacobian_offset(corner.row + form, q[i]);
      }
    }
  }
  for (const mesh::Edge& e : mesh.boundary_edges) {
    m_edge_nodes.push_back(e);
    m_edge_inverse_square.push_back(
        1.0 / (mesh.rest_position(e[0]) - mesh.rest_position(e[1])).squaredNorm());
  }
  m_metric_rest.setZero(m_num_metric);
  accumulate_metric(mesh.rest_positions, m_metric_rest.data(), nullptr);

  // Curvature pattern: the lower triangle of the union of all blocks.
  const Eigen::SparseMatrix<double> pattern = make_curvature();
  m_curvature_nonzeros = static_cast<int>(pattern.nonZeros());
  m_curvature_slot.assign(m_q.size(), -1);
  for (int i = 0; i < size(); ++i) {
    const int begin = m_node_offset[i];
    const int s = m_node_offset[i + 1] - begin;
    for (int a = 0; a < s; ++a) {
      for (int b = 0; b <= a; ++b) {  // nodes sorted: node a ≥ node b
        if (m_q[m_q_offset[i] + a * s + b] == 0.0)
          continue;  // not in the pattern: the slot stays −1
        const int row = m_nodes[begin + a], col = m_nodes[begin + b];
        const int* first = pattern.innerIndexPtr() + pattern.outerIndexPtr()[col];
        const int* last = pattern.innerIndexPtr() + pattern.outerIndexPtr()[col + 1];
        m_curvature_slot[m_q_offset[i] + a * s + b] =
            static_cast<int>(std::lower_bound(first, last, row) - pattern.innerIndexPtr());
      }
    }
  }
}

Eigen::SparseMatrix<double> InextensibilityConstraints::make_curvature() const {
  // Only the entries some Q_i has: nodes that share a quad (a 9-point stencil on grids). The
  // blocks hold exact zeros for the other pairs of a node's 1-ring; leaving them out of the
  // pattern keeps the Newton QP's factorisation sparse.
  std::vector<Eigen::Triplet<double>> triplets;
  for (int i = 0; i < size(); ++i) {
    const int s = m_node_offset[i + 1] - m_node_offset[i];
    const double* q = m_q.data() + m_q_offset[i];
    for (int a = 0; a < s; ++a) {
      for (int b = 0; b <= a; ++b) {
        if (q[a * s + b] != 0.0)
          triplets.emplace_back(m_nodes[m_node_offset[i] + a], m_nodes[m_node_offset[i] + b], 0.0);
      }
    }
  }
  Eigen::SparseMatrix<double> k(m_num_nodes, m_num_nodes);
  k.setFromTriplets(triplets.begin(), triplets.end());
  k.makeCompressed();
  return k;
}

void InextensibilityConstraints::curvature(const Eigen::VectorXd& lambda,
                                           Eigen::SparseMatrix<double>* k, bool exact) const {
  assert(lambda.size() == size() && k->nonZeros() == m_curvature_nonzeros);
  double* values = k->valuePtr();
  std::fill(values, values + m_curvature_nonzeros, 0.0);
  auto add_block = [&](int i, double weight) {
    if (weight == 0.0)
      return;
    const int s = m_node_offset[i + 1] - m_node_offset[i];
    const double* q = m_q.data() + m_q_offset[i];
    const int* slot = m_curvature_slot.data() + m_q_offset[i];
    for (int a = 0; a < s; ++a) {
      for (int b = 0; b <= a; ++b) {
        if (slot[a * s + b] >= 0)
          values[slot[a * s + b]] += weight * q[a * s + b];
      }
    }
  };
  if (exact) {
    for (int i = 0; i < size(); ++i)
      add_block(i, 2.0 * lambda[i]);
    return;
  }
  // Metric rows come in (E, F, G) triples of one node, sharing the node set.
  for (int i = 0; i < m_num_metric; i += 3) {
    const double shear = std::abs(lambda[i + 1]);
    add_block(i, 2.0 * std::max(lambda[i], 0.0) + shear);
    add_block(i + 1, 2.0 * lambda[i + 1]);
    add_block(i + 2, 2.0 * std::max(lambda[i + 2], 0.0) + shear);
  }
  for (int i = m_num_metric; i < size(); ++i)
    add_block(i, 2.0 * std::max(lambda[i], 0.0));
}

SparseRowMatrix InextensibilityConstraints::make_jacobian() const {
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(3 * m_nodes.size());
  for (int i = 0; i < size(); ++i) {
    for (int p = m_node_offset[i]; p < m_node_offset[i + 1]; ++p) {
      for (int d = 0; d < 3; ++d)
        triplets.emplace_back(i, 3 * m_nodes[p] + d, 1.0);
    }
  }
  SparseRowMatrix jacobian(size(), m_num_variables);
  jacobian.setFromTriplets(triplets.begin(), triplets.end());
  jacobian.makeCompressed();
  return jacobian;
}

namespace {

// A corner's share of E, F or G as weights of the edge dot products (see the header): E uses
// (|e_b|², e_b·e_t, |e_t|²) weighted by the corner's hat function along η, G (|e_l|², e_l·e_r,
// |e_r|²) along ξ, F the four products e_{b,t}·e_{l,r}.
constexpr double kNearSide[3] = {1.0 / 4, 1.0 / 6, 1.0 / 12};  // corner on the first edge's side
constexpr double kFarSide[3] = {1.0 / 12, 1.0 / 6, 1.0 / 4};
// F weights (bl, br, tl, tr) = ∫∫ N_c (1−v|v)(1−u|u) for corners 0…3.
constexpr double kShear[4][4] = {{1.0 / 9, 1.0 / 18, 1.0 / 18, 1.0 / 36},
                                 {1.0 / 18, 1.0 / 9, 1.0 / 36, 1.0 / 18},
                                 {1.0 / 36, 1.0 / 18, 1.0 / 18, 1.0 / 9},
                                 {1.0 / 18, 1.0 / 36, 1.0 / 9, 1.0 / 18}};

inline void add_to(double* jacobian, int offset, const Eigen::Vector3d& g) {
  jacobian[offset] += g.x();
  jacobian[offset + 1] += g.y();
  jacobian[offset + 2] += g.z();
}

}  // namespace

void InextensibilityConstraints::accumulate_metric(const Eigen::VectorXd& phi, double* values,
                                                   double* jacobian) const {
  for (const QuadTerms& terms : m_quad_terms) {
    const Eigen::Vector3d p0 = phi.segment<3>(3 * terms.nodes[0]);
    const Eigen::Vector3d p1 = phi.segment<3>(3 * terms.nodes[1]);
    const Eigen::Vector3d p2 = phi.segment<3>(3 * terms.nodes[2]);
    const Eigen::Vector3d p3 = phi.segment<3>(3 * terms.nodes[3]);
    const Eigen::Vector3d eb = p1 - p0, et = p2 - p3, el = p3 - p0, er = p2 - p1;
    const double bb = eb.squaredNorm(), bt = eb.dot(et), tt = et.squaredNorm();
    const double ll = el.squaredNorm(), lr = el.dot(er), rr = er.squaredNorm();
    const double bl = eb.dot(el), br = eb.dot(er), tl = et.dot(el), tr = et.dot(er);
    for (int c = 0; c < 4; ++c) {
      const QuadCorner& corner = terms.corners[c];
      if (corner.row < 0)
        continue;
      const double* we = c < 2 ? kNearSide : kFarSide;               // hat function along η
      const double* wg = (c == 0 || c == 3) ? kNearSide : kFarSide;  // along ξ
      const double* ws = kShear[c];
      const double e = corner.e_weight, f = corner.f_weight, g = corner.g_weight;
      values[corner.row] += e * (we[0] * bb + we[1] * bt + we[2] * tt);
      values[corner.row + 1] += f * (ws[0] * bl + ws[1] * br + ws[2] * tl + ws[3] * tr);
      values[corner.row + 2] += g * (wg[0] * ll + wg[1] * lr + wg[2] * rr);
      if (jacobian == nullptr)
        continue;
      // E: ∂/∂p1 = −∂/∂p0 = e (2w0 e_b + w1 e_t), ∂/∂p2 = −∂/∂p3 = e (w1 e_b + 2w2 e_t).
      const Eigen::Vector3d e1 = e * (2.0 * we[0] * eb + we[1] * et);
      const Eigen::Vector3d e2 = e * (we[1] * eb + 2.0 * we[2] * et);
      const auto& se = corner.slot[0];
      add_to(jacobian, se[0], -e1);
      add_to(jacobian, se[1], e1);
      add_to(jacobian, se[2], e2);
      add_to(jacobian, se[3], -e2);
      // F = f (e_b·V_b + e_t·V_t) with V_b = w_bl e_l + w_br e_r, V_t = w_tl e_l + w_tr e_r, and
      // symmetrically V_l = w_bl e_b + w_tl e_t, V_r = w_br e_b + w_tr e_t.
      const Eigen::Vector3d vb = ws[0] * el + ws[1] * er, vt = ws[2] * el + ws[3] * er;
      const Eigen::Vector3d vl = ws[0] * eb + ws[2] * et, vr = ws[1] * eb + ws[3] * et;
      const auto& sf = corner.slot[1];
      add_to(jacobian, sf[0], -f * (vb + vl));
      add_to(jacobian, sf[1], f * (vb - vr));
      add_to(jacobian, sf[2], f * (vt + vr));
      add_to(jacobian, sf[3], f * (vl - vt));
      // G: ∂/∂p3 = −∂/∂p0 = g (2w0 e_l + w1 e_r), ∂/∂p2 = −∂/∂p1 = g (w1 e_l + 2w2 e_r).
      const Eigen::Vector3d g3 = g * (2.0 * wg[0] * el + wg[1] * er);
      const Eigen::Vector3d g2 = g * (wg[1] * el + 2.0 * wg[2] * er);
      const auto& sg = corner.slot[2];
      add_to(jacobian, sg[0], -g3);
      add_to(jacobian, sg[1], -g2);
      add_to(jacobian, sg[2], g2);
      add_to(jacobian, sg[3], g3);
    }
  }
}

void InextensibilityConstraints::evaluate(const Eigen::VectorXd& phi, Eigen::VectorXd* values,
                                          SparseRowMatrix* jacobian) const {
  assert(phi.size() == m_num_variables);
  values->resize(size());
  double* jac = nullptr;
  if (jacobian != nullptr) {
    assert(jacobian->nonZeros() == 3 * static_cast<Eigen::Index>(m_nodes.size()));
    jac = jacobian->valuePtr();
    std::fill(jac, jac + jacobian->nonZeros(), 0.0);
  }
  double* c = values->data();
  std::fill(c, c + m_num_metric, 0.0);
  accumulate_metric(phi, c, jac);
  for (int r = 0; r < m_num_metric; ++r)
    c[r] -= m_metric_rest[r];
  for (std::size_t e = 0; e < m_edge_nodes.size(); ++e) {
    const int row = m_num_metric + static_cast<int>(e);
    const auto [a, b] = m_edge_nodes[e];
    const Eigen::Vector3d d = phi.segment<3>(3 * a) - phi.segment<3>(3 * b);
    c[row] = d.squaredNorm() * m_edge_inverse_square[e] - 1.0;
    if (jac != nullptr) {
      // Row nodes are sorted: a < b.
      const Eigen::Vector3d g = 2.0 * m_edge_inverse_square[e] * d;
      const int first = 3 * m_node_offset[row];
      add_to(jac, first, g);
      add_to(jac, first + 3, -g);
    }
  }
}

double InextensibilityConstraints::max_violation(const Eigen::VectorXd& phi) const {
  Eigen::VectorXd c;
  evaluate(phi, &c, nullptr);
  return max_violation_of(c);
}

namespace {

// Row i's violation as max_violation reports it. Edge rows hold ‖d‖²/L² − 1; the relative length
// error is sqrt(1 + C) − 1.
double violation(const Eigen::VectorXd& c, int i, int num_metric) {
  return i < num_metric ? std::abs(c[i]) : std::abs(std::sqrt(std::max(0.0, 1.0 + c[i])) - 1.0);
}

}  // namespace

double InextensibilityConstraints::max_violation_of(const Eigen::VectorXd& c) const {
  assert(c.size() == size());
  return size() > 0 ? violation(c, worst_row_of(c), m_num_metric) : 0.0;
}

int InextensibilityConstraints::worst_row_of(const Eigen::VectorXd& c) const {
  assert(c.size() == size());
  int worst = 0;
  double largest = 0.0;
  for (int i = 0; i < size(); ++i) {
    const double v = violation(c, i, m_num_metric);
    if (v > largest) {
      largest = v;
      worst = i;
    }
  }
  return worst;
}

std::string InextensibilityConstraints::describe(int row) const {
  assert(row >= 0 && row < size());
  if (row < m_num_metric)
    return std::string(1, "EFG"[row % 3]) + " at node " + std::to_string(m_metric_node[row / 3]);
  const auto [a, b] = m_edge_nodes[row - m_num_metric];
  return "the boundary edge between nodes " + std::to_string(a) + " and " + std::to_string(b);
}

}  // namespace clothfit::constraints
