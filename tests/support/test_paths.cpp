#include "support/test_paths.hpp"

namespace clothfit::testing {

std::filesystem::path source_dir() {
  return CLOTHFIT_SOURCE_DIR;
}
std::filesystem::path binary_dir() {
  return CLOTHFIT_BINARY_DIR;
}
std::filesystem::path shared_dir() {
  return CLOTHFIT_SHARED_DIR;
}

bool have_shared_file(const std::filesystem::path& path, std::string& reason) {
  if (std::filesystem::exists(path))
    return true;
  reason = "needs " + path.string() +
           " (the shared/ folder beside the checkout); it is absent, so this test is skipped";
  return false;
}

std::filesystem::path scratch_folder(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("clothfit_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace clothfit::testing
