// ModelParameters: the material parameters a recording can be fitted for — damping α, virtual
// (gravitational) density δ and one friction coefficient μ per obstacle — each either fixed at a
// value or free within bounds (DESIGN.md §3).
//
// Names: "alpha" (α, kg/(m²·s)), "delta" (δ, kg/m²), "mu.<obstacle>" (μ of the obstacle of that
// name, dimensionless). In a scenario file each is a number (fixed) or an object
// {"min": a, "max": b, "grid": n, "start": s} (fitted; "grid" and "start" optional).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/stepper/simulation_model.hpp"

namespace clothfit::fitting {

enum class ParameterKind { kDamping, kVirtualDensity, kFriction };

// Largest fit bound ("min", "max") a scenario may give: 10^5 times the largest physical α, δ or μ
// (O(0.01–10)), and far below where the grid search's arithmetic overflows ((max − min) · i for
// up to kMaxGridPoints = 1e5 points: max = 1e308 gave grid points, evaluations.csv and fit.json
// intervals of inf).
inline constexpr double kMaxParameterBound = 1e6;

struct ParameterSpec {
  std::string name;  // "alpha", "delta" or "mu.<obstacle>"
  ParameterKind kind = ParameterKind::kDamping;
  std::string obstacle;  // for kFriction: the obstacle's name
  bool fitted = false;
  double value = 0.0;  // fixed value, or the start of a fit (default: the middle of the bounds)
  double lower = 0.0;  // bounds of a fitted parameter, 0 ≤ lower < upper ≤ kMaxParameterBound
  double upper = 0.0;
  int grid_points = 0;  // grid-search points between the bounds; 0: the fit's default
};

// Parses a parameter name into kind and obstacle; false when it is not a parameter name.
bool parse_parameter_name(const std::string& name, ParameterKind* kind, std::string* obstacle);
std::string parameter_unit(ParameterKind kind);  // "kg/(m²·s)", "kg/m²" or ""

// All parameters of a scenario, in the order alpha, delta, mu.* (file order).
class ModelParameters {
 public:
  ModelParameters() = default;
  explicit ModelParameters(std::vector<ParameterSpec> specs);

  const std::vector<ParameterSpec>& specs() const { return m_specs; }
  std::vector<ParameterSpec>& specs() { return m_specs; }
  // Index of the parameter `name`, or −1.
  int find(const std::string& name) const;
  // Indices (into specs()) of the fitted parameters, in order.
  std::vector<int> fitted() const;
  // Every parameter's value: fixed ones at their value, fitted ones at their start.
  std::vector<double> start_values() const;

  // Writes `values` (one per spec) into `model`: α and δ into the material, μ into clones of the
  // obstacles named (the model's obstacles are shared and immutable, so they are replaced).
  void apply(std::span<const double> values, stepper::SimulationModel* model) const;

 private:
  std::vector<ParameterSpec> m_specs;
};

}  // namespace clothfit::fitting
