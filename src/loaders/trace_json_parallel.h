// Reading the middle of a trace array on several threads (trace_json_parallel.cc). Internal to the
// loaders library.
#pragma once

#include <cstddef>
#include <string>

#include "profdiff/base/status.h"
#include "profdiff/io/json_reader.h"
#include "profdiff/loaders/loader.h"
#include "trace_parser.h"

namespace profdiff::trace_json_internal {

struct ParallelReadOptions {
  int threads = 2;                            // blocks per round, each parsed on its own thread
  size_t block_bytes = size_t{32} << 20;      // bytes per block
  size_t max_round_bytes = size_t{1} << 30;   // a round grows to hold one element up to this
  bool map_file = true;                       // parse a plain file where it is mapped
  ParallelLoadStats* stats = nullptr;
};

// After the array's first element: reads on from `stream`'s buffered bytes and its source, in
// rounds of blocks parsed in parallel and absorbed into `parser` in file order, and gives the stream
// back (Resume) the bytes after the last element absorbed, for the serial reader to go on with.
Status ReadArrayInParallel(JsonArrayStream& stream, TraceParser& parser, const std::string& file,
                           const ParallelReadOptions& options);

}  // namespace profdiff::trace_json_internal
