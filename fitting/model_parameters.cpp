#include "fitting/model_parameters.hpp"

#include <cassert>
#include <stdexcept>

namespace clothfit::fitting {

bool parse_parameter_name(const std::string& name, ParameterKind* kind, std::string* obstacle) {
  obstacle->clear();
  if (name == "alpha") {
    *kind = ParameterKind::kDamping;
    return true;
  }
  if (name == "delta") {
    *kind = ParameterKind::kVirtualDensity;
    return true;
  }
  if (name.size() > 3 && name.compare(0, 3, "mu.") == 0) {
    *kind = ParameterKind::kFriction;
    *obstacle = name.substr(3);
    return true;
  }
  return false;
}

std::string parameter_unit(ParameterKind kind) {
  switch (kind) {
    case ParameterKind::kDamping:
      return "kg/(m²·s)";
    case ParameterKind::kVirtualDensity:
      return "kg/m²";
    case ParameterKind::kFriction:
      return "";
  }
  return "";
}

ModelParameters::ModelParameters(std::vector<ParameterSpec> specs) : m_specs(std::move(specs)) {}

int ModelParameters::find(const std::string& name) const {
  for (std::size_t i = 0; i < m_specs.size(); ++i) {
    if (m_specs[i].name == name)
      return static_cast<int>(i);
  }
  return -1;
}

std::vector<int> ModelParameters::fitted() const {
  std::vector<int> out;
  for (std::size_t i = 0; i < m_specs.size(); ++i) {
    if (m_specs[i].fitted)
      out.push_back(static_cast<int>(i));
  }
  return out;
}

std::vector<double> ModelParameters::start_values() const {
  std::vector<double> out;
  out.reserve(m_specs.size());
  for (const ParameterSpec& s : m_specs)
    out.push_back(s.value);
  return out;
}

void ModelParameters::apply(std::span<const double> values, stepper::SimulationModel* model) const {
  assert(values.size() == m_specs.size());
  for (std::size_t i = 0; i < m_specs.size(); ++i) {
    const ParameterSpec& s = m_specs[i];
    switch (s.kind) {
      case ParameterKind::kDamping:
        model->material.damping = values[i];
        break;
      case ParameterKind::kVirtualDensity:
        model->material.virtual_density = values[i];
        break;
      case ParameterKind::kFriction: {
        bool found = false;
        for (auto& obstacle : model->obstacles) {
          if (obstacle->name() != s.obstacle)
            continue;
          std::unique_ptr<obstacles::Obstacle> copy = obstacle->clone();
          copy->set_friction_coefficient(values[i]);
          obstacle = std::move(copy);
          found = true;
        }
        if (!found)
          throw std::invalid_argument("no obstacle named '" + s.obstacle + "' for " + s.name);
        break;
      }
    }
  }
}

}  // namespace clothfit::fitting
