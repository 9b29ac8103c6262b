// Running the built `clothfit` program from a test as a user would: the exit code and everything
// it printed (stdout and stderr), and scratch folders for its outputs.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>

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

// Runs `clothfit <arguments>` (a shell command line) and sends it `signal` once `ready(output)`
// holds for what it printed so far, or a file it writes shows that it got far enough; then waits
// for it to end. A test that sent the signal after a fixed delay raced the program's start on a
// loaded machine (killed before its handler was installed). Gives up after `timeout_s`: SIGKILL,
// exit code -1.
inline CommandResult run_clothfit_interrupted(const std::string& arguments,
                                              const std::function<bool(const std::string&)>& ready,
                                              int signal = SIGINT, double timeout_s = 300.0) {
  CommandResult result;
  char name[] = "/tmp/clothfit_output_XXXXXX";
  const int fd = mkstemp(name);
  if (fd < 0)
    return result;
  close(fd);
  const std::string output_path = name;
  const std::string command = "exec " + (binary_dir() / "apps/clothfit").string() + " " +
                              arguments + " > " + output_path + " 2>&1";
  const pid_t pid = fork();
  if (pid < 0)
    return result;
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto read_output = [&output_path] {
    std::ifstream in(output_path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const auto start = std::chrono::steady_clock::now();
  bool signalled = false, killed = false;
  int status = 0;
  for (;;) {
    const pid_t ended = waitpid(pid, &status, WNOHANG);
    if (ended == pid)
      break;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > timeout_s && !killed) {
      kill(pid, SIGKILL);
      killed = true;
    } else if (!signalled && ready(read_output())) {
      kill(pid, signal);
      signalled = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  result.output = read_output();
  std::filesystem::remove(output_path);
  if (!signalled)
    result.output += "\n[run_clothfit_interrupted: the command ended before it was signalled]\n";
  result.exit_code = WIFEXITED(status) && !killed ? WEXITSTATUS(status) : -1;
  return result;
}

// Whether `file` has at least `count` complete lines.
inline bool has_lines(const std::filesystem::path& file, long count) {
  std::ifstream in(file);
  long lines = 0;
  for (std::string line; lines < count && std::getline(in, line);)
    lines += in.eof() ? 0 : 1;
  return lines >= count;
}

}  // namespace clothfit::testing
