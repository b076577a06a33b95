// Test helper: writes bytes to a file under the build directory (PROFDIFF_BINARY_DIR/<dir>/<name>)
// and returns its path, for loader tests that build their inputs.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace profdiff::testing {

inline std::string WriteTempFile(const std::string& dir, const std::string& name, const std::string& bytes) {
  const std::filesystem::path folder = std::filesystem::path(PROFDIFF_BINARY_DIR) / dir;
  std::filesystem::create_directories(folder);
  const std::string path = (folder / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace profdiff::testing
