// Running the built `clothfit` program from a test as a user would: the exit code and everything
// it printed (stdout and stderr), and scratch folders for its outputs.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "support/test_paths.hpp"

namespace clothfit::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// Runs `clothfit <arguments>` (a shell command line: quote paths with spaces).
// `shell_prefix` runs first in the same shell (e.g. "ulimit -v 300000;").
inline CommandResult run_clothfit(const std::string& arguments,
                                  const std::string& shell_prefix = "") {
  const std::string command =
      shell_prefix + (binary_dir() / "apps/clothfit").string() + " " + arguments + " 2>&1";
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr)
    return result;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe) != nullptr)
    result.output += buffer.data();
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// An empty folder <tmp>/clothfit_<name>, created afresh.
inline std::filesystem::path scratch_folder(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("clothfit_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace clothfit::testing
