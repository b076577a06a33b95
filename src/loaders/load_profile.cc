// Input resolution (docs/reference/inputs.md#path-resolution, #path-level) and the top-level
// LoadProfile: trace file first, then the Ascend side files that apply to the resolved path level.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "profdiff/io/byte_source.h"
#include "profdiff/loaders/ascend_db.h"
#include "profdiff/loaders/ascend_side_files.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/loaders/trace_json.h"
#include "sorted_entries.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kAscendOutputDirName = "ASCEND_PROFILER_OUTPUT";
constexpr std::string_view kTraceViewJson = "trace_view.json";
constexpr std::string_view kDbPrefixes[] = {"ascend_pytorch_profiler", "ascend_mindspore_profiler",
                                            "msmonitor"};

bool IsProfilerDbName(std::string_view file_name) {
  if (!file_name.ends_with(".db")) return false;
  for (std::string_view p : kDbPrefixes)
    if (file_name.starts_with(p)) return true;
  return false;
}

using loaders_internal::SortedEntries;

// The first non-white-space byte of a (possibly gzipped) file and its (decompressed) offset; byte 0
// for an empty file.
struct FirstByte {
  bool found = false;  // false: the file is empty or only white space
  char c = 0;
  uint64_t offset = 0;
};
StatusOr<FirstByte> FirstJsonByte(const std::string& path) {
  auto src = ByteSource::Open(path, 64 << 10);
  if (!src.ok()) return src.status();
  char buf[4096];
  uint64_t offset = 0;
  for (;;) {
    auto n = (*src)->Read(buf, sizeof buf);
    if (!n.ok()) return n.status();
    if (*n == 0) return FirstByte{false, 0, offset};
    for (size_t i = 0; i < *n; ++i, ++offset) {
      unsigned char c = static_cast<unsigned char>(buf[i]);
      // A UTF-8 byte-order mark is skipped like white space.
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0xEF || c == 0xBB || c == 0xBF) continue;
      return FirstByte{true, static_cast<char>(c), offset};
    }
  }
}

// "'x'" for a printable byte, "byte 0x01" otherwise (binary files).
std::string DescribeByte(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7F) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", u);
}

// Why a directory or file is not a profile, with a hint for the layouts users mix up.
std::string NotAProfileHint(const fs::path& p) {
  std::error_code ec;
  const std::string name = p.filename().string();
  if (name.starts_with("PROF_") || fs::is_directory(p / "timeline", ec) ||
      fs::is_directory(p / "device_0" / "timeline", ec))
    return "; this looks like a raw CANN msprof PROF_* directory: pass one of its timeline/*.json files, "
           "or the *_ascend_pt directory of a torch_npu export";
  // A cluster collection: one profile per rank below it. A comparison is of one profile with one.
  std::vector<std::string> ranks;
  for (const auto& e : SortedEntries(p)) {
    const std::string n = e.path().filename().string();
    if ((n.ends_with("_ascend_pt") || n.ends_with("_ascend_ms")) && e.is_directory(ec)) ranks.push_back(n);
  }
  if (ranks.empty()) return "";
  constexpr size_t kNamed = 3;
  std::string names;
  for (size_t i = 0; i < std::min(ranks.size(), kNamed); ++i) names += (i ? ", " : "") + ranks[i];
  if (ranks.size() > kNamed) names += ", ...";
  return fmt::format("; it holds {} profile{} ({}): pass one of them (`profdiff cluster -d DIR` reads them all)",
                     ranks.size(), ranks.size() == 1 ? "" : "s", names);
}

StatusOr<ResolvedInput> ResolveSideFile(const fs::path& p, ResolvedInput r, bool accept_side_files) {
  const std::string name = p.filename().string();
  if (!accept_side_files) {
    return Unsupported(fmt::format(
        "{}: an Ascend side file ({}), not a profile: pass the *_ascend_pt or ASCEND_PROFILER_OUTPUT "
        "directory that holds it (`profdiff inspect` also reads a single side file)",
        p.string(), name));
  }
  r.format = SourceFormat::kAscendSideFiles;
  r.device = DeviceKind::kNpu;
  r.path_level = "side_files";
  r.side_files.push_back(p.string());
  return r;
}

StatusOr<ResolvedInput> ResolveFile(const fs::path& p, ResolvedInput r, bool accept_side_files) {
  const std::string name = p.filename().string();
  const std::string file = p.string();
  if (SideFileLoaderForName(name) != nullptr) return ResolveSideFile(p, std::move(r), accept_side_files);
  if (name.ends_with(".json") || name.ends_with(".json.gz")) {
    auto first = FirstJsonByte(file);
    if (!first.ok()) return first.status();
    if (!first->found) {
      return ParseError(first->offset == 0
                            ? fmt::format("{}@byte 0: the file is empty", file)
                            : fmt::format("{}@byte {}: the file holds only white space", file, first->offset));
    }
    if (first->c != '{' && first->c != '[') {
      return ParseError(fmt::format(
          "{}@byte {}: not a JSON trace: it starts with {} instead of '{{' (Kineto) or '[' (trace_view)", file,
          first->offset, DescribeByte(first->c)));
    }
    // An object is Kineto; an array is an Ascend trace_view.json, or a 2020 bare-array Kineto trace,
    // which the trace loader recognises by content.
    r.format = first->c == '{' ? SourceFormat::kKinetoJson : SourceFormat::kAscendTraceView;
    r.device = first->c == '{' ? DeviceKind::kGpu : DeviceKind::kNpu;
    r.trace_file = file;
    if (r.format == SourceFormat::kAscendTraceView) r.path_level = "trace";
    return r;
  }
  if (name.ends_with(".db")) {
    if (IsProfilerDbName(name)) {
      r.format = SourceFormat::kAscendDb;
      r.device = DeviceKind::kNpu;
      r.db_file = file;
      return r;
    }
    return Unsupported(fmt::format(
        "{}: not a profiler database (expected ascend_pytorch_profiler*.db, ascend_mindspore_profiler*.db "
        "or msmonitor*.db)",
        file));
  }
  return Unsupported(fmt::format(
      "{}: invalid profiling path suffix: expected a Kineto trace (*.json, *.json.gz), an Ascend "
      "trace_view.json, a *_ascend_pt / *_ascend_ms / ASCEND_PROFILER_OUTPUT directory or a profiler .db{}",
      file, accept_side_files ? " (or, for inspect, one Ascend side file such as kernel_details.csv)" : ""));
}

StatusOr<ResolvedInput> ResolveDirectory(const fs::path& p, ResolvedInput r, bool accept_side_files,
                                         InputFormat format) {
  std::error_code ec;
  for (const auto& e : SortedEntries(p)) {
    if (IsProfilerInfoFileName(e.path().filename().string()) && e.is_regular_file(ec)) {
      r.info_file = e.path().string();
      break;
    }
  }
  fs::path out = p / std::string(kAscendOutputDirName);
  const bool has_output_subdir = fs::is_directory(out, ec);
  if (!has_output_subdir) out = p;
  r.device = DeviceKind::kNpu;
  r.ascend_output = out.string();
  if (has_output_subdir) r.profiling_dir = p.string();
  r.path_level = has_output_subdir ? "profiling" : "ascend_output";
  r.format = has_output_subdir ? SourceFormat::kAscendProfileDir : SourceFormat::kAscendOutputDir;

  for (const auto& e : SortedEntries(out)) {
    if (IsProfilerDbName(e.path().filename().string()) && e.is_regular_file(ec)) {
      r.db_file = e.path().string();
      break;
    }
  }
  fs::path trace = out / std::string(kTraceViewJson);
  const bool has_trace = fs::is_regular_file(trace, ec);
  // As the reference, a DB export wins over the text export of the same directory, unless
  // --input-format text asks for the text.
  if (!r.db_file.empty() && format != InputFormat::kText) {
    r.format = SourceFormat::kAscendDb;
    r.path_level = "db";
    return r;
  }
  if (format == InputFormat::kDb) {
    return Unsupported(fmt::format("{}: --input-format db: no ascend_pytorch_profiler*.db, "
                                   "ascend_mindspore_profiler*.db or msmonitor*.db in {}",
                                   p.string(), out.string()));
  }
  if (has_trace) {
    r.db_file.clear();
    r.trace_file = trace.string();
    return r;
  }
  if (!r.db_file.empty()) {
    return Unsupported(fmt::format("{}: --input-format text: {} holds only a DB export ({})", p.string(),
                                   out.string(), r.db_file));
  }
  if (accept_side_files) {
    // inspect: an Ascend output directory without its trace (a trimmed copy, or a directory holding
    // only kernel_details.csv) still shows its side tables.
    for (const auto& e : SortedEntries(out)) {
      const std::string n = e.path().filename().string();
      if (SideFileLoaderForName(n) != nullptr && !IsProfilerInfoFileName(n) && e.is_regular_file(ec))
        r.side_files.push_back(e.path().string());
    }
    if (!r.side_files.empty()) {
      if (has_output_subdir) {
        for (const char* extra : {"profiler_metadata.json"}) {
          if (fs::is_regular_file(p / extra, ec)) r.side_files.push_back((p / extra).string());
        }
        if (!r.info_file.empty()) r.side_files.push_back(r.info_file);
      }
      r.format = SourceFormat::kAscendSideFiles;
      r.path_level = "side_files";
      return r;
    }
  }
  return Unsupported(fmt::format(
      "{}: not an Ascend profile: no {} (the data is not collected by PyTorch or MindSpore mode, or it "
      "is not parsed yet){}",
      out.string(), kTraceViewJson, NotAProfileHint(p)));
}

bool IsAscendDirectory(SourceFormat f) {
  return f == SourceFormat::kAscendProfileDir || f == SourceFormat::kAscendOutputDir;
}

// inspect of side files without a trace: each file must load (it is the whole input).
Status LoadSideFilesOnly(const ResolvedInput& r, Profile& profile, const LoadOptions& options) {
  ProfileMeta& m = profile.meta;
  m.format = SourceFormat::kAscendSideFiles;
  m.device = DeviceKind::kNpu;
  m.path_level = r.path_level;
  for (const std::string& file : r.side_files) {
    const FileLoader* loader = SideFileLoaderForName(fs::path(file).filename().string());
    if (loader == nullptr) return Internal(fmt::format("{}: no loader for this side file", file));
    // Inside a profile directory an empty side file means "no data" (as in the reference); given on
    // its own it is reported.
    PD_ASSIGN_OR_RETURN(FirstByte first, FirstJsonByte(file));
    if (!first.found) {
      return ParseError(first.offset == 0
                            ? fmt::format("{}@byte 0: the file is empty", file)
                            : fmt::format("{}@byte {}: the file holds only white space", file, first.offset));
    }
    PD_RETURN_IF_ERROR(loader->Load(file, profile, options));
    m.files.push_back(file);
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (!ec) m.input_bytes += size;
  }
  if (!r.ascend_output.empty()) LoadCommunicationMatrix(r.ascend_output, profile, options);
  return Status::Ok();
}

// The trace (Kineto JSON or trace_view.json) and, when it reads as Ascend, the side files beside
// it.
Status LoadTraceAndSideFiles(const ResolvedInput& r, Profile& profile, const LoadOptions& options) {
  PD_RETURN_IF_ERROR(LoadTraceJson(r.trace_file, profile, options));
  ProfileMeta& m = profile.meta;
  if (m.device != DeviceKind::kNpu) return Status::Ok();
  if (IsAscendDirectory(r.format)) m.format = r.format;
  m.path_level = r.path_level.empty() ? "trace" : r.path_level;
  return LoadAscendSideFiles(r, profile, options);
}

}  // namespace

std::optional<InputFormat> InputFormatFromName(std::string_view name) {
  if (name == "auto") return InputFormat::kAuto;
  if (name == "text") return InputFormat::kText;
  if (name == "db") return InputFormat::kDb;
  return std::nullopt;
}

std::string_view InputFormatName(InputFormat format) {
  switch (format) {
    case InputFormat::kText: return "text";
    case InputFormat::kDb: return "db";
    case InputFormat::kAuto: break;
  }
  return "auto";
}

StatusOr<ResolvedInput> ResolveInput(std::string_view path, bool accept_side_files, InputFormat format) {
  if (path.empty()) return InvalidArgument("the input path is empty");
  ResolvedInput r;
  r.input_path = std::string(path);
  fs::path p{std::string(path)};
  std::error_code ec;
  fs::file_status st = fs::status(p, ec);
  if (ec || !fs::exists(st)) {
    if (ec && ec != std::errc::no_such_file_or_directory)
      return IoError(fmt::format("{}: {}", r.input_path, ec.message()));
    return NotFound(fmt::format("{}: no such file or directory", r.input_path));
  }
  if (fs::is_regular_file(st)) {
    PD_ASSIGN_OR_RETURN(ResolvedInput file, ResolveFile(p, std::move(r), accept_side_files));
    const bool is_db = file.format == SourceFormat::kAscendDb;
    if (format == InputFormat::kDb && !is_db)
      return Unsupported(fmt::format("{}: --input-format db: not a profiler .db file", file.input_path));
    if (format == InputFormat::kText && is_db)
      return Unsupported(fmt::format("{}: --input-format text: this is a DB export", file.input_path));
    return file;
  }
  if (fs::is_directory(st)) return ResolveDirectory(p, std::move(r), accept_side_files, format);
  return Unsupported(fmt::format("{}: neither a regular file nor a directory", r.input_path));
}

namespace {

// An array is copied into one of its size when more than this part of it is slack.
constexpr size_t kMaxSlackPart = 8;

template <typename T>
void ShrinkIfSlack(std::vector<T>& v) {
  if (v.capacity() - v.size() > v.capacity() / kMaxSlackPart) v.shrink_to_fit();
}

// The trace and side-file loaders grow the model's arrays by doubling, so up to half of each is
// slack that would stay for the whole run (the args and slices of a 1 GB trace: about 100 MB).
// Copied once into arrays of their size. Not an array with at most 1/8 of slack: the parallel
// trace reader sizes a plain file's arrays for the whole input from its first rounds (a few percent
// too big), and copying the model once more cost about a tenth of a 1 GB load, on one thread. Not
// for the DB loader, which sizes its arrays once from the tables' row counts: their slack is never
// written (address space, not memory), and the copy would hold each big array twice at the load's
// peak (a 500 k-task export: 536 → 407 MB without it).
void ShrinkToFit(Profile& p) {
  ShrinkIfSlack(p.slices);
  ShrinkIfSlack(p.args);
  ShrinkIfSlack(p.flows);
  ShrinkIfSlack(p.counters);
  ShrinkIfSlack(p.memory_events);
}

}  // namespace

StatusOr<std::unique_ptr<Profile>> LoadProfile(std::string_view path, const LoadOptions& options) {
  PD_ASSIGN_OR_RETURN(const ResolvedInput r, ResolveInput(path, options.accept_side_files, options.input_format));
  auto profile = std::make_unique<Profile>();
  profile->meta.input_path = r.input_path;
  if (r.format == SourceFormat::kAscendDb) {
    PD_RETURN_IF_ERROR(LoadAscendDb(r.db_file, *profile, options));
    profile->meta.path_level = "db";
  } else {
    PD_RETURN_IF_ERROR(r.format == SourceFormat::kAscendSideFiles ? LoadSideFilesOnly(r, *profile, options)
                                                                   : LoadTraceAndSideFiles(r, *profile, options));
    ShrinkToFit(*profile);
  }
  // The one place --strict is enforced, for every kind of input: the file loaders only count.
  if (options.strict) PD_RETURN_IF_ERROR(profile->diagnostics.CheckStrict());
  // After --strict, so that a malformed trace is reported as such first.
  if (IsAscendDirectory(r.format) && profile->meta.device != DeviceKind::kNpu) {
    return ParseError(
        fmt::format("{}: {} is not an Ascend trace_view.json (it reads as a Kineto trace)",
                    r.input_path, r.trace_file));
  }
  return profile;
}

int ThreadsFor(const LoadOptions& options) {
  if (options.threads > 0) return options.threads;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 0 ? static_cast<int>(cores) : 1;
}

}  // namespace profdiff
