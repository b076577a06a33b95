// Helpers shared by the fuzz targets: the loaders read files, so each input is written to one
// per-process temporary file that is reused for every run and removed at exit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace profdiff::fuzz {

// Writes `size` bytes to this process's temporary file with the given suffix (".json", ".csv",
// ".json.gz") and returns its path. Aborts (a fuzzing harness bug, not an input bug) if it cannot.
const std::string& WriteTempFile(const uint8_t* data, size_t size, const std::string& suffix);

}  // namespace profdiff::fuzz
