// The command-line parsing every sub-command shares: Boost.Program_options with named options,
// hidden positional arguments, `--help`, and errors reported as "clothfit <command>: ..." followed
// by the usage (exit code kExitBadInput).
#pragma once

#include <boost/program_options.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "apps/commands.hpp"

namespace clothfit::apps {

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

// Prints "clothfit <command>: <message>" and where the usage is; returns kExitBadInput.
inline int usage_error(const std::string& command, const std::string& message) {
  std::cerr << "clothfit " << command << ": " << message << "\n(run `clothfit " << command
            << " --help` for the usage)\n";
  return kExitBadInput;
}

}  // namespace clothfit::apps
