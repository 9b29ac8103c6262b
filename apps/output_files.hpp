// Output files checked before a command starts work: a folder where one of its files goes would
// only fail the write at the end, after the run, or (removed as an earlier run's file) be deleted.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <string>
#include <system_error>
#include <vector>

namespace clothfit::apps {

// "cannot write 'DIR/NAME': it is a folder" for the first of `names` in `dir` that is a folder;
// empty when none is.
inline std::string output_file_problem(const std::filesystem::path& dir,
                                       std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const std::filesystem::path path = dir / name;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      return "cannot write '" + path.string() + "': it is a folder";
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
