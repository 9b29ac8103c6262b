// The command-line parsing every sub-command shares: Boost.Program_options with named options,
// hidden positional arguments, `--help`, and errors reported as "clothfit <command>: ..." followed
// by the usage (exit code kExitBadInput).
#pragma once

#include <boost/program_options.hpp>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

#include "apps/commands.hpp"
#include "core/io/input_error.hpp"
#include "mocap/mocap_input_error.hpp"

namespace clothfit::apps {

// What a numeric option's value must be, for the message of a value Boost could not convert
// (e.g. "; expected a whole number from -9223372036854775808 to 9223372036854775807"): Boost names
// the option and the value, not what it wanted. Empty for other options.
inline std::string expected_option_value(const boost::program_options::options_description& all,
                                         const std::string& option_name) {
  namespace po = boost::program_options;
  const std::string name = option_name.substr(option_name.find_first_not_of('-'));
  const po::option_description* option = all.find_nothrow(name, false);
  if (!option)
    return "";
  const po::value_semantic* semantic = option->semantic().get();
  const auto whole = [](auto lowest) {
    using T = decltype(lowest);
    return "; expected a whole number from " + std::to_string(std::numeric_limits<T>::min()) +
           " to " + std::to_string(std::numeric_limits<T>::max());
  };
  if (dynamic_cast<const po::typed_value<int>*>(semantic))
    return whole(int{});
  if (dynamic_cast<const po::typed_value<long>*>(semantic))
    return whole(long{});
  if (dynamic_cast<const po::typed_value<double>*>(semantic))
    return "; expected a decimal number within a double's range (about 1e-308 to 1e308 in size)";
  return "";
}

// Parses argv into vm. Returns an exit code when the command should stop here (help printed:
// kExitOk; bad command line: kExitBadInput), std::nullopt when it should go on.
inline std::optional<int> parse_command_line(
    const std::string& command, int argc, char** argv,
    const boost::program_options::options_description& visible,
    const boost::program_options::options_description& hidden,
    const boost::program_options::positional_options_description& positional,
    boost::program_options::variables_map* vm) {
  namespace po = boost::program_options;
  po::options_description all;
  all.add(visible).add(hidden);
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), *vm);
    po::notify(*vm);
  } catch (const po::invalid_option_value& e) {
    std::cerr << "clothfit " << command << ": " << e.what()
              << expected_option_value(all, e.get_option_name()) << "\n\n"
              << visible << "\n";
    return kExitBadInput;
  } catch (const po::error& e) {
    std::cerr << "clothfit " << command << ": " << e.what() << "\n\n" << visible << "\n";
    return kExitBadInput;
  }
  if (vm->count("help")) {
    std::cout << visible << "\n";
    return kExitOk;
  }
  return std::nullopt;
}

// The same for a command with one positional argument (e.g. the scenario file) stored in `value`.
inline std::optional<int> parse_command_line(
    const std::string& command, int argc, char** argv,
    const boost::program_options::options_description& visible, const char* positional_name,
    std::string* value, boost::program_options::variables_map* vm) {
  namespace po = boost::program_options;
  po::options_description hidden;
  hidden.add_options()(positional_name, po::value(value));
  po::positional_options_description positional;
  positional.add(positional_name, 1);
  return parse_command_line(command, argc, argv, visible, hidden, positional, vm);
}

// Runs `load` (reading and checking input files); an InputError or mocap::MocapInputError is
// printed as "clothfit <command>: <file>:<line>: <field>: <problem>" and gives kExitBadInput.
template <class Load>
std::optional<int> report_input_errors(const std::string& command, Load&& load) {
  try {
    load();
  } catch (const InputError& e) {
    std::cerr << "clothfit " << command << ": " << e.what() << "\n";
    return kExitBadInput;
  } catch (const mocap::MocapInputError& e) {
    std::cerr << "clothfit " << command << ": " << e.what() << "\n";
    return kExitBadInput;
  }
  return std::nullopt;
}

// Prints "clothfit <command>: <message>" and where the usage is; returns kExitBadInput.
inline int usage_error(const std::string& command, const std::string& message) {
  std::cerr << "clothfit " << command << ": " << message << "\n(run `clothfit " << command
            << " --help` for the usage)\n";
  return kExitBadInput;
}

// When the whole-number option `name` was given, checks lo ≤ value ≤ hi (no upper bound when hi is
// std::nullopt): returns the usage error's exit code when it is outside, std::nullopt otherwise.
// `meaning` (e.g. "0: all cores") is added to the message in brackets.
inline std::optional<int> check_option_range(const std::string& command,
                                             const boost::program_options::variables_map& vm,
                                             const std::string& name, long value, long lo,
                                             std::optional<long> hi = std::nullopt,
                                             const std::string& meaning = "") {
  if (!vm.count(name) || (value >= lo && (!hi || value <= *hi)))
    return std::nullopt;
  std::string expected =
      hi ? "from " + std::to_string(lo) + " to " + std::to_string(*hi) : ">= " + std::to_string(lo);
  if (!meaning.empty())
    expected += " (" + meaning + ")";
  return usage_error(command, "--" + name + " expects a whole number " + expected + ", found " +
                                  std::to_string(value));
}

}  // namespace clothfit::apps
