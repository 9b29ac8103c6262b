// Material parameters of the cloth model (DESIGN.md §1), SI units.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clothfit::forces {

inline constexpr double kGravity = 9.81;  // m/s², along −z

struct ClothMaterial {
  double density = 0.1042;          // ρ, areal (inertial) density, kg/m²
  double virtual_density = 0.1042;  // δ, gravitational density, kg/m²; free fall accelerates g·δ/ρ
  double damping = 0.0;  // α, Rayleigh damping on M, kg/(m²·s); terminal speed g·δ/α
  double bending = 0.0;  // κ, bending stiffness, N·m (J); 0 disables bending
};

// Areal densities of the fabrics of the paper's Table 1, kg/m².
struct NamedFabric {
  const char* name;
  double density;
};
const std::vector<NamedFabric>& paper_fabrics();
// Density of a fabric of paper_fabrics() by name ("polyester", "wool", "denim", "stiff-cotton").
std::optional<double> fabric_density(std::string_view name);

}  // namespace clothfit::forces
