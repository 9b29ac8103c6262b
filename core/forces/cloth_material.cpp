#include "core/forces/cloth_material.hpp"

namespace clothfit::forces {

const std::vector<NamedFabric>& paper_fabrics() {
  static const std::vector<NamedFabric> fabrics{
      {"polyester", 0.1042}, {"wool", 0.1804}, {"denim", 0.3046}, {"stiff-cotton", 0.3046}};
  return fabrics;
}

std::optional<double> fabric_density(std::string_view name) {
  for (const NamedFabric& f : paper_fabrics()) {
    if (name == f.name)
      return f.density;
  }
  return std::nullopt;
}

}  // namespace clothfit::forces
