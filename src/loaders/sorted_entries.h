// Directory entries sorted by name, so that what a directory resolves to (one input, the ranks of a
// run) does not depend on readdir order (loaders only).
#pragma once

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <vector>

namespace profdiff::loaders_internal {

inline std::vector<std::filesystem::directory_entry> SortedEntries(const std::filesystem::path& dir) {
  std::vector<std::filesystem::directory_entry> entries;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(*it);
  std::sort(entries.begin(), entries.end(),
            [](const std::filesystem::directory_entry& a, const std::filesystem::directory_entry& b) {
              return a.path() < b.path();
            });
  return entries;
}

}  // namespace profdiff::loaders_internal
