// Random changes to a JSON input file, as a user might get it wrong: a value replaced by a number
// out of range, another type or an empty container, a field removed, an unknown field added, an
// array entry removed or repeated. Used by the tests that feed mutated scenario files to the
// parsers and to `clothfit` (a fixed seed makes every run the same).
#pragma once

#include <cstddef>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

namespace clothfit::testing {

inline const std::vector<nlohmann::json>& json_replacements() {
  static const std::vector<nlohmann::json> values = {0,
                                                     -1,
                                                     1e-300,
                                                     1e300,
                                                     -1e300,
                                                     0.5,
                                                     2,
                                                     1e6,
                                                     3,
                                                     100,
                                                     7,
                                                     "x",
                                                     nullptr,
                                                     true,
                                                     nlohmann::json::array(),
                                                     nlohmann::json::object(),
                                                     {0, 0, 0},
                                                     {{0, 0}}};
  return values;
}

// Changes one value somewhere below `value` (a random path through objects and arrays).
inline void mutate_json(nlohmann::json& value, std::mt19937& random, int depth = 0) {
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  const auto pick = [&random](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  const auto replacement = [&] { return json_replacements()[pick(json_replacements().size())]; };
  if (value.is_object() && !value.empty()) {
    auto it = std::next(value.begin(), static_cast<std::ptrdiff_t>(pick(value.size())));
    const double r = coin(random);
    if (r < 0.5 && depth < 6) {
      mutate_json(it.value(), random, depth + 1);
    } else if (r < 0.85) {
      it.value() = replacement();
    } else if (r < 0.95) {
      value.erase(it);
    } else {
      value[it.key() + "_x"] = 1;
    }
  } else if (value.is_array() && !value.empty()) {
    const std::size_t i = pick(value.size());
    const double r = coin(random);
    if (r < 0.5 && depth < 6) {
      mutate_json(value[i], random, depth + 1);
    } else if (r < 0.75) {
      value[i] = replacement();
    } else if (r < 0.9) {
      value.erase(i);
    } else {
      value.push_back(value[i]);
    }
  } else {
    value = replacement();
  }
}

}  // namespace clothfit::testing
