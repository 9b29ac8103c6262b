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
// (Boost names the option and the value, not what it wanted): "; expected a whole number", or for
// digits beyond the option's type "; expected a whole number of at most 2147483647 in size" (the
// option's own range is checked once a value converts). Empty for other options.
inline std::string expected_option_value(const boost::program_options::options_description& all,
                                         const std::string& option_name, const std::string& value) {
  namespace po = boost::program_options;
  const std::string name = option_name.substr(option_name.find_first_not_of('-'));
  const po::option_description* option = all.find_nothrow(name, false);
  if (!option)
    return "";
  const po::value_semantic* semantic = option->semantic().get();
  const std::size_t digits =
      value.find_first_not_of("+-") == std::string::npos ? 0 : value.find_first_not_of("+-");
  const bool too_large = !value.empty() && digits <= 1 && digits < value.size() &&
                         value.find_first_not_of("0123456789", digits) == std::string::npos;
  const auto whole = [too_large](auto largest) {
    return too_large
               ? "; expected a whole number of at most " + std::to_string(largest) + " in size"
               : std::string("; expected a whole number");
  };
  if (dynamic_cast<const po::typed_value<int>*>(semantic))
    return whole(std::numeric_limits<int>::max());
  if (dynamic_cast<const po::typed_value<long>*>(semantic))
    return whole(std::numeric_limits<long>::max());
  return "";
}

// The value in Boost's "the argument ('VALUE') for option '--seed' is invalid".
inline std::string quoted_argument(const std::string& message) {
  const std::size_t open = message.find("('"), close = message.find("')");
  return open != std::string::npos && close > open ? message.substr(open + 2, close - open - 2)
                                                   : "";
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
              << expected_option_value(all, e.get_option_name(), quoted_argument(e.what()))
              << "\n\n"
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
