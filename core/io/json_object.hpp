// JsonObject: typed, validated access to one JSON object of an input file, so that every mistake
// is reported as an InputError naming the file, the field path and what was expected.
//
//   JsonObject root(json, "scenario.json");
//   double dt = root.number("time_step", 0.01, Range::positive());
//   JsonObject cloth = root.object("cloth");          // field path "cloth"
//   int nx = cloth.integer("nodes_x", Range::at_least(2));
//   root.reject_unknown({"time_step", "cloth"});     // typos are errors, not silently ignored
#pragma once

#include <Eigen/Core>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/io/input_error.hpp"

namespace clothfit {

// An allowed interval for a number, with its description for error messages.
struct Range {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_inclusive = true;
  bool max_inclusive = true;

  static Range any() { return {}; }
  static Range positive() { return {0.0, std::numeric_limits<double>::infinity(), false, true}; }
  static Range non_negative() { return {0.0, std::numeric_limits<double>::infinity()}; }
  static Range at_least(double v) { return {v, std::numeric_limits<double>::infinity()}; }
  static Range between(double lo, double hi) { return {lo, hi}; }

  bool contains(double v) const;
  std::string describe() const;  // e.g. "a number > 0"
};

class JsonObject {
 public:
  // `json` must outlive this object. Throws InputError when it is not a JSON object.
  JsonObject(const nlohmann::json& json, std::string file, std::string path = "");

  bool has(const std::string& key) const;
  // Required fields: throw InputError when missing or of the wrong type/range.
  double number(const std::string& key, Range range = Range::any()) const;
  int integer(const std::string& key, Range range = Range::any()) const;
  std::string string(const std::string& key) const;
  bool boolean(const std::string& key) const;
  Eigen::Vector3d vector3(const std::string& key) const;
  // A direction: a finite nonzero [x, y, z] of any length, returned as given (the obstacles
  // normalise it with obstacles::unit_vector, which works for every such vector).
  Eigen::Vector3d direction(const std::string& key) const;
  JsonObject object(const std::string& key) const;
  // The elements of an array field; each element is checked by the caller through element().
  std::size_t array_size(const std::string& key) const;
  const nlohmann::json& raw(const std::string& key) const;
  // Defaults for optional fields.
  double number(const std::string& key, double fallback, Range range) const;
  int integer(const std::string& key, int fallback, Range range) const;
  std::string string(const std::string& key, const std::string& fallback) const;
  bool boolean(const std::string& key, bool fallback) const;
  // One of `choices`, or the fallback when absent.
  std::string choice(const std::string& key, std::initializer_list<const char*> choices,
                     std::optional<std::string> fallback = std::nullopt) const;
  // Element `index` of the array `key` as an object (path "key[index]").
  JsonObject element(const std::string& key, std::size_t index) const;
  // Element `index` of the array `key` as a number / 3-vector.
  double number_at(const std::string& key, std::size_t index, Range range = Range::any()) const;
  Eigen::Vector3d vector3_at(const std::string& key, std::size_t index) const;

  // Throws for any key not in `known` (catches typos such as "time_stpe").
  void reject_unknown(std::initializer_list<const char*> known) const;

  // InputError for this object's field `key` (or the object itself when key is empty).
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
  const std::string& file() const { return m_file; }
  const std::string& path() const { return m_path; }

 private:
  std::string field_path(const std::string& key) const;
  const nlohmann::json& require(const std::string& key) const;
  // j as [x, y, z] of finite numbers; fails naming `name`, or the element of it that is wrong.
  Eigen::Vector3d to_vector3(const nlohmann::json& j, const std::string& name) const;

  const nlohmann::json* m_json;
  std::string m_file;
  std::string m_path;
};

// A number as error messages print it: the shortest form that reads back as the same double
// (0.1, 1000.0001, 1e+12).
std::string format_number(double v);

// The value of a JSON number that is a whole number and fits a long long: 6, -3, and 6.0 or 6e0
// (JSON does not tell them apart from 6); nullopt for 2.5, 1e300, an unsigned value beyond
// LLONG_MAX (which would wrap) and anything not a number.
std::optional<long long> whole_number(const nlohmann::json& j);
// Whether j is a whole number of any size (1e300 and 18446744073709551615 are).
bool is_whole_number(const nlohmann::json& j);

// Parses a JSON file; syntax errors become InputError with line and column, and a path that is a
// directory or cannot be opened an InputError naming it.
nlohmann::json read_json_file(const std::string& path);

}  // namespace clothfit
