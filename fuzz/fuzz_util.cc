#include "fuzz_util.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>

namespace profdiff::fuzz {
namespace {

std::map<std::string, std::string>& Paths() {
  static auto* paths = new std::map<std::string, std::string>();
  return *paths;
}

void RemoveAll() {
  for (const auto& [suffix, path] : Paths()) std::remove(path.c_str());
}

}  // namespace

const std::string& WriteTempFile(const uint8_t* data, size_t size, const std::string& suffix) {
  auto it = Paths().find(suffix);
  if (it == Paths().end()) {
    const char* dir = std::getenv("TMPDIR");
    std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/profdiff_fuzz_" +
                       std::to_string(::getpid()) + "_" + std::to_string(Paths().size()) + suffix;
    if (Paths().empty()) std::atexit(RemoveAll);
    it = Paths().emplace(suffix, path).first;
  }
  FILE* f = std::fopen(it->second.c_str(), "wb");
  if (f == nullptr) {
    std::perror("fuzz: cannot create the temporary file");
    std::abort();
  }
  if (size > 0 && std::fwrite(data, 1, size, f) != size) {
    std::perror("fuzz: cannot write the temporary file");
    std::abort();
  }
  std::fclose(f);
  return it->second;
}

}  // namespace profdiff::fuzz
