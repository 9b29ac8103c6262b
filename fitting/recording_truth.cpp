#include "fitting/recording_truth.hpp"

#include "core/io/input_error.hpp"
#include "core/io/json_object.hpp"

namespace clothfit::fitting {
namespace {

// The error `e` of the truth file, saying which scenario named it.
InputError of_scenario(const InputError& e, const RecordingScenario& scenario) {
  return InputError(e.location(),
                    e.problem() + " (the \"truth\" file of " + scenario.source_path + ")");
}

std::map<std::string, double> parse_checked(const nlohmann::json& json,
                                            const std::string& truth_path,
                                            const RecordingScenario& scenario) {
  const ModelParameters& parameters = scenario.parameters;
  const JsonObject root(json, truth_path);  // an object, or "expected a JSON object"
  if (!root.has("parameters")) {
    root.fail("parameters",
              "missing: expected the true parameter values, {\"alpha\": …, \"delta\": …, "
              "\"mu.<obstacle>\": …}, as `clothfit synth` writes them");
  }
  const JsonObject p = root.object("parameters");  // or "expected a JSON object, found …"
  std::map<std::string, double> truth;
  for (const auto& [name, value] : root.raw("parameters").items()) {
    (void)value;
    if (parameters.find(name) < 0) {
      std::string expected;
      for (const ParameterSpec& spec : parameters.specs())
        expected += (expected.empty() ? "\"" : ", \"") + spec.name + "\"";
      p.fail(name, "unknown parameter; expected one of the scenario's parameters, " + expected);
    }
    truth[name] = p.number(name, Range::non_negative());
  }
  for (const int i : parameters.fitted()) {
    const std::string& name = parameters.specs()[static_cast<std::size_t>(i)].name;
    if (!truth.count(name))
      p.fail(name, "missing: expected the true value of a parameter the scenario fits");
  }
  return truth;
}

}  // namespace

std::map<std::string, double> parse_recording_truth(const nlohmann::json& json,
                                                    const std::string& truth_path,
                                                    const RecordingScenario& scenario) {
  try {
    return parse_checked(json, truth_path, scenario);
  } catch (const InputError& e) {
    throw of_scenario(e, scenario);
  }
}

std::map<std::string, double> read_recording_truth(const RecordingScenario& scenario) {
  if (scenario.truth_path.empty())
    return {};
  nlohmann::json json;
  try {
    json = read_json_file(scenario.truth_path);
  } catch (const InputError& e) {
    throw of_scenario(e, scenario);
  }
  return parse_recording_truth(json, scenario.truth_path, scenario);
}

}  // namespace clothfit::fitting
