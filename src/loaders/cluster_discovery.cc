// Rank discovery for `profdiff cluster` (cluster_discovery.h): a bounded walk below the run
// directory, each rank resolved with ResolveInput as `compare`/`inspect` resolve one input.
#include "profdiff/loaders/cluster_discovery.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <system_error>
#include <utility>

#include "profdiff/io/byte_source.h"
#include "profdiff/loaders/ascend_side_files.h"
#include "sorted_entries.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kOwnOutputDir = "cluster_analysis_output";

bool IsAscendRankFolderName(std::string_view name) {
  return name.ends_with("_ascend_pt") || name.ends_with("_ascend_ms");
}

bool IsKinetoCandidateName(std::string_view name) {
  if (!(name.ends_with(".json") || name.ends_with(".json.gz"))) return false;
  return SideFileLoaderForName(name) == nullptr && !name.starts_with("profiler_metadata") &&
         !name.starts_with("communication");
}

using loaders_internal::SortedEntries;

std::optional<int64_t> ParseDigits(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// The profiler_info_<N>.json of a rank folder: its path and N; nullopt without one.
std::optional<std::pair<std::string, int64_t>> ProfilerInfoRank(const fs::path& dir) {
  constexpr std::string_view kHead = "profiler_info_", kExt = ".json";
  std::error_code ec;
  for (const auto& e : SortedEntries(dir)) {
    const std::string n = e.path().filename().string();
    if (!n.starts_with(kHead) || !n.ends_with(kExt) || !e.is_regular_file(ec)) continue;
    const auto id = ParseDigits(std::string_view(n).substr(kHead.size(), n.size() - kHead.size() - kExt.size()));
    if (id) return std::make_pair(e.path().string(), *id);
  }
  return std::nullopt;
}

// The "<timestamp>" of "<host>_<pid>_<timestamp>_ascend_pt" (the reference's split('_')[-3]).
std::optional<int64_t> FolderTimestamp(std::string_view name) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= name.size(); ++i) {
    if (i == name.size() || name[i] == '_') {
      parts.push_back(name.substr(start, i - start));
      start = i + 1;
    }
  }
  if (parts.size() < 3) return std::nullopt;
  return ParseDigits(parts[parts.size() - 3]);
}

// Candidates found by the walk, before duplicates are resolved.
struct Found {
  RankInput input;
  std::string info_file;  // Ascend: the profiler_info file (its mtime breaks a tie)
};

struct Walk {
  const ClusterDiscoveryOptions& options;
  std::vector<Found> found;
  std::vector<std::string> warnings;
};

Status AddAscendFolder(const fs::path& dir, Walk& w) {
  const auto info = ProfilerInfoRank(dir);
  if (!info) {
    w.warnings.push_back(fmt::format("{}: no profiler_info_<rank>.json: the folder is skipped", dir.string()));
    return Status::Ok();
  }
  auto resolved = ResolveInput(dir.string(), /*accept_side_files=*/true, w.options.input_format);
  if (!resolved.ok()) return resolved.status();
  Found f;
  f.input.rank = info->second;
  f.input.rank_source = RankIdSource::kProfilerInfoName;
  f.input.path = dir.string();
  f.input.kind = resolved->format == SourceFormat::kAscendDb          ? RankExport::kAscendDb
                 : resolved->format == SourceFormat::kAscendSideFiles ? RankExport::kAscendPartial
                                                                      : RankExport::kAscendText;
  f.input.resolved = std::move(*resolved);
  f.info_file = info->first;
  w.found.push_back(std::move(f));
  return Status::Ok();
}

// A .json/.json.gz file: a rank when it reads as a Kineto trace (an object with "traceEvents" in its head).
Status AddKinetoFile(const fs::path& file, Walk& w) {
  auto resolved = ResolveInput(file.string(), false, InputFormat::kAuto);
  if (!resolved.ok() || resolved->format != SourceFormat::kKinetoJson) return Status::Ok();
  PD_ASSIGN_OR_RETURN(KinetoHead head, ReadKinetoHead(file.string()));
  if (!head.trace_events) return Status::Ok();
  std::optional<int64_t> rank = head.rank;
  RankIdSource source = RankIdSource::kDistributedInfo;
  if (!rank) {
    rank = RankFromFileName(file.filename().string());
    source = RankIdSource::kFileName;
    if (!rank) {
      w.warnings.push_back(fmt::format(
          "{}: no distributedInfo.rank in the trace and no rank number in its name: the trace is skipped",
          file.string()));
      return Status::Ok();
    }
    w.warnings.push_back(fmt::format("{}: no distributedInfo.rank: rank {} taken from the file name",
                                     file.string(), *rank));
  }
  Found f;
  f.input.rank = *rank;
  f.input.rank_source = source;
  f.input.kind = RankExport::kKineto;
  f.input.path = file.string();
  f.input.resolved = std::move(*resolved);
  w.found.push_back(std::move(f));
  return Status::Ok();
}

Status WalkDir(const fs::path& dir, int depth, Walk& w) {
  std::error_code ec;
  for (const auto& e : SortedEntries(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory(ec)) {
      if (name == kOwnOutputDir) continue;
      if (IsAscendRankFolderName(name)) {
        PD_RETURN_IF_ERROR(AddAscendFolder(e.path(), w));
      } else if (depth < w.options.max_depth) {
        PD_RETURN_IF_ERROR(WalkDir(e.path(), depth + 1, w));
      }
    } else if (e.is_regular_file(ec) && IsKinetoCandidateName(name)) {
      PD_RETURN_IF_ERROR(AddKinetoFile(e.path(), w));
    }
  }
  return Status::Ok();
}

// true when `a` is newer than `b` (folder time stamps, else profiler_info modification times, else path).
bool Newer(const Found& a, const Found& b) {
  const auto ta = FolderTimestamp(fs::path(a.input.path).filename().string());
  const auto tb = FolderTimestamp(fs::path(b.input.path).filename().string());
  if (ta && tb && *ta != *tb) return *ta > *tb;
  std::error_code ea, eb;
  const std::string& fa = a.info_file.empty() ? a.input.path : a.info_file;
  const std::string& fb = b.info_file.empty() ? b.input.path : b.info_file;
  const auto ma = fs::last_write_time(fa, ea), mb = fs::last_write_time(fb, eb);
  if (!ea && !eb && ma != mb) return ma > mb;
  return a.input.path > b.input.path;
}

// One input per rank (the newest), ascending by rank.
std::vector<RankInput> KeepNewest(std::vector<Found> found, std::vector<std::string>& warnings) {
  std::map<int64_t, Found> by_rank;
  for (Found& f : found) {
    auto it = by_rank.find(f.input.rank);
    if (it == by_rank.end()) {
      const int64_t rank = f.input.rank;
      by_rank.emplace(rank, std::move(f));
      continue;
    }
    const bool newer = Newer(f, it->second);
    const std::string& kept = newer ? f.input.path : it->second.input.path;
    const std::string& dropped = newer ? it->second.input.path : f.input.path;
    warnings.push_back(fmt::format("rank {} found twice: {} is kept (the newest), {} is ignored", f.input.rank,
                                   kept, dropped));
    if (newer) it->second = std::move(f);
  }
  std::vector<RankInput> ranks;
  for (auto& [rank, f] : by_rank) ranks.push_back(std::move(f.input));
  return ranks;
}

// Text and DB exports, or Ascend and Kineto ranks, are not one run.
Status CheckOneExport(const std::vector<RankInput>& ranks, InputFormat format) {
  const RankInput* db = nullptr;
  const RankInput* text = nullptr;
  const RankInput* kineto = nullptr;
  for (const RankInput& r : ranks) {
    const RankInput*& slot = r.kind == RankExport::kAscendDb ? db : r.kind == RankExport::kKineto ? kineto : text;
    if (slot == nullptr) slot = &r;
  }
  if (kineto != nullptr && (db != nullptr || text != nullptr)) {
    const RankInput* ascend = db != nullptr ? db : text;
    return Unsupported(fmt::format("the run mixes Ascend rank folders ({}) and Kineto traces ({}): pass a "
                                   "directory holding the ranks of one run",
                                   ascend->path, kineto->path));
  }
  if (db != nullptr && text != nullptr && format == InputFormat::kAuto) {
    return Unsupported(fmt::format(
        "the run mixes DB exports (rank {}: {}) and text exports (rank {}: {}): pass --input-format text "
        "or --input-format db to read one of them",
        db->rank, db->path, text->rank, text->path));
  }
  return Status::Ok();
}

}  // namespace

std::string_view RankExportName(RankExport kind) {
  switch (kind) {
    case RankExport::kAscendText: return "text";
    case RankExport::kAscendDb: return "db";
    case RankExport::kAscendPartial: return "partial";
    case RankExport::kKineto: return "kineto";
  }
  return "unknown";
}

std::string_view RankIdSourceName(RankIdSource source) {
  switch (source) {
    case RankIdSource::kProfilerInfoName: return "profiler_info";
    case RankIdSource::kDistributedInfo: return "distributedInfo";
    case RankIdSource::kFileName: return "file name";
  }
  return "unknown";
}

std::optional<int64_t> RankFromFileName(std::string_view file_name) {
  std::string lower(file_name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto digits_at = [&](size_t i) {
    size_t j = i;
    while (j < lower.size() && std::isdigit(static_cast<unsigned char>(lower[j]))) ++j;
    return ParseDigits(std::string_view(lower).substr(i, j - i));
  };
  for (size_t pos = lower.find("rank"); pos != std::string::npos; pos = lower.find("rank", pos + 1)) {
    size_t i = pos + 4;
    while (i < lower.size() && (lower[i] == '_' || lower[i] == '-' || lower[i] == '.')) ++i;
    if (auto v = digits_at(i)) return v;
  }
  const size_t dot = lower.find('.');
  const std::string_view stem = std::string_view(lower).substr(0, dot);
  size_t end = stem.size();
  while (end > 0 && !std::isdigit(static_cast<unsigned char>(stem[end - 1]))) --end;
  size_t begin = end;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(stem[begin - 1]))) --begin;
  if (begin == end) return std::nullopt;
  return ParseDigits(stem.substr(begin, end - begin));
}

namespace {

// distributedInfo.rank of the head, when its object is whole in it; `complete` says whether it is.
std::optional<int64_t> DistributedRank(const std::string& head, bool& complete) {
  complete = false;
  const size_t key = head.find("\"distributedInfo\"");
  if (key == std::string::npos) return std::nullopt;
  const size_t open = head.find('{', key);
  if (open == std::string::npos) return std::nullopt;
  int depth = 0;
  bool in_string = false;
  for (size_t i = open; i < head.size(); ++i) {
    const char c = head[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{') ++depth;
    else if (c == '}' && --depth == 0) {
      complete = true;
      const auto obj = nlohmann::json::parse(head.begin() + static_cast<std::ptrdiff_t>(open),
                                             head.begin() + static_cast<std::ptrdiff_t>(i + 1), nullptr, false);
      if (obj.is_object() && obj.contains("rank") && obj["rank"].is_number_integer()) return obj["rank"].get<int64_t>();
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

// Reads the head 64 KiB at a time and stops as soon as it holds both the "traceEvents" key and a whole
// distributedInfo object (Kineto writes distributedInfo first): the answer is the one the whole
// `head_bytes` would give, from a fraction of them.
StatusOr<KinetoHead> ReadKinetoHead(const std::string& trace_file, size_t head_bytes) {
  constexpr size_t kChunk = 64 << 10;
  PD_ASSIGN_OR_RETURN(auto src, ByteSource::Open(trace_file, kChunk));
  std::string head;
  KinetoHead out;
  bool complete = false;
  while (head.size() < head_bytes) {
    const size_t before = head.size();
    head.resize(std::min(head_bytes, before + kChunk));
    PD_ASSIGN_OR_RETURN(size_t n, src->Read(head.data() + before, head.size() - before));
    head.resize(before + n);
    if (n == 0) break;
    if (!out.trace_events) out.trace_events = head.find("\"traceEvents\"") != std::string::npos;
    if (!complete) out.rank = DistributedRank(head, complete);
    if (out.trace_events && complete) break;
  }
  return out;
}

StatusOr<ClusterInputs> DiscoverCluster(std::string_view run_dir, const ClusterDiscoveryOptions& options) {
  const fs::path dir{std::string(run_dir)};
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return NotFound(fmt::format("{}: not a directory (pass the directory holding the ranks of one run)", run_dir));
  Walk w{options, {}, {}};
  // RUN may be one rank folder itself; a folder named like one but without profiler_info holds ranks.
  if (IsAscendRankFolderName(dir.filename().string()) && ProfilerInfoRank(dir)) {
    PD_RETURN_IF_ERROR(AddAscendFolder(dir, w));
  } else {
    PD_RETURN_IF_ERROR(WalkDir(dir, 1, w));
  }
  ClusterInputs out;
  out.run_dir = std::string(run_dir);
  out.ranks = KeepNewest(std::move(w.found), w.warnings);
  out.warnings = std::move(w.warnings);
  if (out.ranks.empty()) {
    return NotFound(fmt::format(
        "{}: no rank found: no *_ascend_pt / *_ascend_ms folder with a profiler_info_<rank>.json and no "
        "Kineto trace (*.json, *.json.gz) up to {} levels below it",
        run_dir, options.max_depth));
  }
  PD_RETURN_IF_ERROR(CheckOneExport(out.ranks, options.input_format));
  return out;
}

}  // namespace profdiff
