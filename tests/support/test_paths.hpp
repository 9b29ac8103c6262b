// Paths the test suites need: the source tree, the build tree, ../shared (fixtures) and scratch
// folders for their outputs.
#pragma once

#include <filesystem>
#include <string>

namespace clothfit::testing {

// Root of the clothfit source tree.
std::filesystem::path source_dir();
// Root of the CMake build tree (where apps/clothfit is).
std::filesystem::path binary_dir();
// The shared/ folder beside the checkout; may not exist.
std::filesystem::path shared_dir();
// Returns true when `path` exists; otherwise false and `reason` says what is missing, for
// GTEST_SKIP() << reason.
bool have_shared_file(const std::filesystem::path& path, std::string& reason);
// An empty folder <tmp>/clothfit_<name>, created afresh.
std::filesystem::path scratch_folder(const std::string& name);

}  // namespace clothfit::testing
