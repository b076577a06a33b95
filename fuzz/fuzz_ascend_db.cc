// Fuzzes the Ascend DB loader (LoadAscendDb) with arbitrary bytes as an SQLite file. Any outcome is
// fine except a crash, a sanitizer report, a hang or an exception escaping. Seed it with small real
// exports (e.g. the DBs the tests build from tests/common/ascend_db_fixture.h, or a corpus
// ascend_pytorch_profiler_<rank>.db) so that mutations reach the table readers.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "profdiff/loaders/ascend_db.h"

namespace {

// The loader reads torch ops only from a file named ascend_pytorch_profiler*.db, so the input is
// written under that name, in a per-process directory removed at exit.
const std::string& DbPath() {
  static const std::string dir = (std::filesystem::temp_directory_path() /
                                  ("profdiff-fuzz-db-" + std::to_string(::getpid())))
                                     .string();
  static const std::string path = [] {
    std::filesystem::create_directories(dir);
    std::atexit([] { std::filesystem::remove_all(dir); });
    return dir + "/ascend_pytorch_profiler_0.db";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    std::ofstream out(DbPath(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) std::abort();  // a harness problem, not an input problem
  }
  profdiff::Profile profile;
  // Odd-sized inputs are read on one thread, even-sized ones with the page reader's read-ahead
  // thread: both paths are fuzzed.
  profdiff::LoadOptions options;
  options.threads = (size & 1) != 0 ? 1 : 2;
  profdiff::Status s = profdiff::LoadAscendDb(DbPath(), profile, options);
  (void)s;
  return 0;
}
