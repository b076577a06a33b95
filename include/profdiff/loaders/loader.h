// Loading a profile: a user path is resolved (docs/reference/inputs.md#path-resolution) into the
// files to read, then each file is read by the loader for its format into one Profile.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/status.h"
#include "profdiff/model/profile.h"

namespace profdiff {

// Which export of an Ascend directory to read when it holds both (`--input-format`): kAuto prefers
// the DB export, as the reference does; kText and kDb insist on one and refuse an input without it.
enum class InputFormat : uint8_t { kAuto, kText, kDb };
// "auto" | "text" | "db" -> the format; nullopt otherwise.
std::optional<InputFormat> InputFormatFromName(std::string_view name);
std::string_view InputFormatName(InputFormat format);  // the name InputFormatFromName reads

// What the parallel trace reader did (load_bench prints it; tests check the blocks were parallel).
struct ParallelLoadStats {
  uint64_t rounds = 0;
  uint64_t blocks = 0;           // blocks parsed
  uint64_t blocks_absorbed = 0;  // blocks kept (a block after a wrong guess of its start is not)
  uint64_t bytes_absorbed = 0;   // input bytes of the blocks kept
};

struct LoadOptions {
  bool strict = false;  // any kError diagnostic fails LoadProfile (the file loaders ignore it)
  bool read_side_files = true;  // kernel_details.csv etc. (off = trace only)
  // `profdiff inspect` only: also accept a single Ascend side file (kernel_details.csv, ...) or an
  // Ascend output directory that holds side files but no trace_view.json. `compare` keeps the
  // reference's inputs (docs/reference/inputs.md#path-resolution) and refuses them.
  bool accept_side_files = false;
  InputFormat input_format = InputFormat::kAuto;
  // An Ascend DB export's big tables are read from the file's pages (io/sqlite_pages.h); false:
  // every table through SQLite's statement engine (tests expect the same model both ways).
  bool db_read_pages = true;
  // An Ascend DB export's python function rows (PYTORCH_API type `trace`: half the rows of a
  // big export) are read only by the module comparison; false skips those without a connection id
  // (`compare` without the operator comparison, or with --disable_module). Other inputs keep theirs.
  bool python_functions = true;
  // What `profdiff cluster` reads beyond what `compare` does: an Ascend text export's
  // communication operators whole and its communication_matrix.json; a DB export's CANN_API start of
  // each connection id its communication ops and compute tasks hold, and the analysis.db beside it
  // (StepTraceTime as npu.step_trace, CommAnalyzerTime's rows).
  bool cluster_tables = false;
  // Threads that parse one trace file (`--threads`; 0: one per core). A trace smaller than two
  // blocks is read on one; the model is the same at any count (loaders/trace_json.h).
  int threads = 0;
  // Bytes per block of the parallel trace reader (0: 32 MiB; tests use tiny blocks).
  size_t parallel_block_bytes = 0;
  // The parallel reader parses a plain file where it maps it; false: through read buffers, as it
  // reads a gzip file (tests run both paths on plain files).
  bool parallel_map_file = true;
  ParallelLoadStats* parallel_stats = nullptr;  // filled when not null
  // Bytes of the trace file read from disk so far (compressed bytes for .gz), added while it loads,
  // for a progress display on another thread; null: not counted.
  std::atomic<uint64_t>* trace_bytes_read = nullptr;
  // Bytes a gzip'd trace inflated to so far, added while it loads; null: not counted.
  std::atomic<uint64_t>* trace_bytes_inflated = nullptr;
};

// What a user path resolves to (docs/reference/inputs.md#path-resolution, #path-level).
struct ResolvedInput {
  SourceFormat format = SourceFormat::kUnknown;
  DeviceKind device = DeviceKind::kUnknown;
  std::string input_path;      // as given
  std::string profiling_dir;   // *_ascend_pt dir (where profiler_metadata.json lives), if any
  std::string ascend_output;   // ASCEND_PROFILER_OUTPUT dir, if any
  std::string trace_file;      // Kineto JSON or trace_view.json
  std::string db_file;         // ascend_pytorch_profiler_*.db, if found
  std::string info_file;       // profiler_info_*.json, if found
  std::string path_level;      // NPU text: "trace" | "ascend_output" | "profiling" | "side_files"
  std::vector<std::string> side_files;  // kAscendSideFiles: the side files to read
};

// Resolves a path without reading data files (only directory listings and, for a .json file, its
// first non-space byte to tell a Kineto object from an Ascend array). A path that is not a profile
// is kUnsupported (kNotFound when it does not exist), with a message naming it. With
// `accept_side_files` (inspect), side files resolve to SourceFormat::kAscendSideFiles.
// `format` chooses between the text and the DB export of an Ascend directory (and refuses a file of
// the other kind).
StatusOr<ResolvedInput> ResolveInput(std::string_view path, bool accept_side_files = false,
                                     InputFormat format = InputFormat::kAuto);

// Resolves and loads (a DB export with LoadAscendDb, ascend_db.h). With
// options.strict, a kError diagnostic from any file of the input (trace or side file) fails the
// load; this is the only place --strict is checked.
StatusOr<std::unique_ptr<Profile>> LoadProfile(std::string_view path, const LoadOptions& options);

// The threads a load uses: options.threads, or one per core when 0 (at least 1).
int ThreadsFor(const LoadOptions& options);

// The interface of the Ascend side-file loaders (ascend_side_files.h), one per file format. The
// trace itself is read by LoadTraceJson (trace_json.h).
class FileLoader {
 public:
  virtual ~FileLoader() = default;
  virtual std::string_view name() const = 0;
  // Reads `file` into `profile`. Malformed records inside a good file go to profile.diagnostics;
  // an unreadable or malformed file is an error naming the file and line/byte offset.
  virtual Status Load(const std::string& file, Profile& profile, const LoadOptions& options) const = 0;
};

}  // namespace profdiff
