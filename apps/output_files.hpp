// Output files checked before a command starts work: a folder where one of its files goes would
// only fail the write at the end, after the run, or (removed as an earlier run's file) be deleted.
#pragma once

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <system_error>
#include <vector>

namespace clothfit::apps {

// "cannot write 'DIR/NAME': it is a folder" for the first of `names` in `dir` that is a folder,
// "cannot write 'DIR/NAME': <why>" for the first that exists (a file, or a symbolic link to
// nowhere) and cannot be opened for writing; empty when every one can be written. Opening to
// append changes no byte of an earlier run's file: the commands open their files one after
// another, and a later one that could not be opened had left the earlier ones truncated.
inline std::string output_file_problem(const std::filesystem::path& dir,
                                       std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const std::filesystem::path path = dir / name;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      return "cannot write '" + path.string() + "': it is a folder";
    const std::filesystem::file_status link = std::filesystem::symlink_status(path, ec);
    if (!std::filesystem::exists(link))
      continue;
    const std::filesystem::file_status target = std::filesystem::status(path, ec);
    // Regular files and dangling links only: opening a FIFO would wait for its reader.
    if (std::filesystem::exists(target) && !std::filesystem::is_regular_file(target))
      continue;
    errno = 0;
    if (!std::ofstream(path, std::ios::app))
      return "cannot write '" + path.string() +
             "': " + (errno != 0 ? std::strerror(errno) : "cannot open it for writing");
  }
  return {};
}

// The first of `inputs` that `output` is (the same file, by any path), or empty: writing it would
// destroy what the command read.
inline std::string input_named_as_output(const std::string& output,
                                         const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (std::filesystem::equivalent(output, input, ec) && !ec)
      return input;
  }
  return {};
}

}  // namespace clothfit::apps
