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
  std::vector<double> rest;
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
    // Rest value c_i = Σ Q_ab ⟨p_a, p_b⟩ at the rest shape, relative to the first node.
    double c = 0.0;
    const Eigen::Vector3d ref = mesh.rest_position(nodes[0]);
    for (int ia = 0; ia < s; ++ia) {
      for (int ib = 0; ib < s; ++ib) {
        c += block[ia * s + ib] *
             (mesh.rest_position(nodes[ia]) - ref).dot(mesh.rest_position(nodes[ib]) - ref);
      }
    }
    m_nodes.insert(m_nodes.end(), nodes.begin(), nodes.end());
    m_node_offset.push_back(static_cast<int>(m_nodes.size()));
    m_q.insert(m_q.end(), block.begin(), block.end());
    m_q_offset.push_back(static_cast<int>(m_q.size()));
    rest.push_back(c);
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
  m_num_metric = static_cast<int>(rest.size());
  for (const mesh::Edge& e : mesh.boundary_edges) {
    const double l2 = (mesh.rest_position(e[0]) - mesh.rest_position(e[1])).squaredNorm();
    add_constraint({{{e[0], e[0]}, 1 / l2},
                    {{e[1], e[1]}, 1 / l2},
                    {{e[0], e[1]}, -1 / l2},
                    {{e[1], e[0]}, -1 / l2}});
  }
  m_rest_value = Eigen::Map<Eigen::VectorXd>(rest.data(), rest.size());

  // Curvature pattern: the lower triangle of the union of all blocks.
  const Eigen::SparseMatrix<double> pattern = make_curvature();
  m_curvature_nonzeros = static_cast<int>(pattern.nonZeros());
  m_curvature_slot.assign(m_q.size(), -1);
  for (int i = 0; i < size(); ++i) {
    const int begin = m_node_offset[i];
    const int s = m_node_offset[i + 1] - begin;
    for (int a = 0; a < s; ++a) {
      for (int b = 0; b <= a; ++b) {  // nodes sorted: node a ≥ node b
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
  std::vector<Eigen::Triplet<double>> triplets;
  for (int i = 0; i < size(); ++i) {
    for (int a = m_node_offset[i]; a < m_node_offset[i + 1]; ++a) {
      for (int b = m_node_offset[i]; b <= a; ++b)
        triplets.emplace_back(m_nodes[a], m_nodes[b], 0.0);
    }
  }
  Eigen::SparseMatrix<double> k(m_num_nodes, m_num_nodes);
  k.setFromTriplets(triplets.begin(), triplets.end());
  k.makeCompressed();
  return k;
}

void InextensibilityConstraints::curvature(const Eigen::VectorXd& lambda,
                                           Eigen::SparseMatrix<double>* k) const {
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
      for (int b = 0; b <= a; ++b)
        values[slot[a * s + b]] += weight * q[a * s + b];
    }
  };
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

void InextensibilityConstraints::evaluate(const Eigen::VectorXd& phi, Eigen::VectorXd* values,
                                          SparseRowMatrix* jacobian) const {
  assert(phi.size() == m_num_variables);
  values->resize(size());
  double* jac = nullptr;
  if (jacobian != nullptr) {
    assert(jacobian->nonZeros() == 3 * static_cast<Eigen::Index>(m_nodes.size()));
    jac = jacobian->valuePtr();
  }
  for (int i = 0; i < size(); ++i) {
    const int begin = m_node_offset[i];
    const int s = m_node_offset[i + 1] - begin;
    const double* q = m_q.data() + m_q_offset[i];
    const Eigen::Vector3d ref = phi.segment<3>(3 * m_nodes[begin]);
    double c = 0.0;
    for (int a = 0; a < s; ++a) {
      // g_a = 2 Σ_b Q_ab (p_b − ref): Q has zero row sums for the metric forms and the edge form,
      // so measuring from a nearby node changes nothing but the rounding.
      Eigen::Vector3d g = Eigen::Vector3d::Zero();
      for (int b = 0; b < s; ++b)
        g += q[a * s + b] * (phi.segment<3>(3 * m_nodes[begin + b]) - ref);
      g *= 2.0;
      c += 0.5 * g.dot(phi.segment<3>(3 * m_nodes[begin + a]) - ref);
      if (jac != nullptr) {
        jac[3 * (begin + a) + 0] = g.x();
        jac[3 * (begin + a) + 1] = g.y();
        jac[3 * (begin + a) + 2] = g.z();
      }
    }
    (*values)[i] = c - m_rest_value[i];
  }
}

double InextensibilityConstraints::max_violation(const Eigen::VectorXd& phi) const {
  Eigen::VectorXd c;
  evaluate(phi, &c, nullptr);
  double worst = 0.0;
  for (int i = 0; i < size(); ++i) {
    // Edge rows hold ‖d‖²/L² − 1; the relative length error is sqrt(1 + C) − 1.
    const double v =
        i < m_num_metric ? std::abs(c[i]) : std::abs(std::sqrt(std::max(0.0, 1.0 + c[i])) - 1.0);
    worst = std::max(worst, v);
  }
  return worst;
}

}  // namespace clothfit::constraints
