// `profdiff cluster summarize` and the reduce's reading of summary files (cluster_summaries.h). The
// file: docs/rank-summary.md.
#include "profdiff/pipeline/cluster_summaries.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <utility>

#include "cluster_map.h"
#include "input_error.h"
#include "profdiff/analysis/cluster/summary_codec.h"
#include "profdiff/io/byte_source.h"
#include "profdiff/loaders/cluster_discovery.h"
#include "profdiff/report/cluster/cluster_report.h"
#include "profdiff/report/output_file.h"

namespace profdiff::pipeline {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr std::string_view kFilePrefix = "rank_";
constexpr std::string_view kFileSuffix = ".summary.json";

// FNV-1a, 64 bits, as 16 hex digits: a fingerprint, not a security measure.
class Fingerprint {
 public:
  void Add(std::string_view bytes) {
    for (unsigned char c : bytes) hash_ = (hash_ ^ c) * 1099511628211ULL;
    hash_ = (hash_ ^ 0xFF) * 1099511628211ULL;  // a separator no byte sequence of its own makes
  }
  void Add(int64_t v) { Add(std::to_string(v)); }
  std::string Hex() const { return fmt::format("{:016x}", hash_); }

 private:
  uint64_t hash_ = 14695981039346656037ULL;
};

// What a summary records of its run: the same in every summary of the run.
struct RunIdentity {
  std::string path, real_path, fingerprint;
  std::vector<int64_t> ranks;
  std::vector<std::string> warnings;
};

// The run's real path and its ranks (id, export kind, path below the run): what tells one run from another.
RunIdentity IdentityOf(const std::string& run_path, const ClusterInputs& inputs) {
  RunIdentity id{run_path, RealRunPath(run_path), "", {}, inputs.warnings};
  Fingerprint f;
  f.Add(id.real_path);
  for (const RankInput& r : inputs.ranks) {
    id.ranks.push_back(r.rank);
    f.Add(r.rank);
    f.Add(RankExportName(r.kind));
    f.Add(fs::path(r.path).lexically_relative(run_path).generic_string());
  }
  id.fingerprint = f.Hex();
  return id;
}

// The files of a rank's input (a folder: every file below it; a trace: the file) by path, size and
// modification time: a summary of the same signature was made from the same bytes.
struct InputSignature {
  int64_t files = 0, bytes = 0;
  std::string hash;
};

void AddFile(const fs::path& file, const fs::path& root, std::vector<std::string>& lines, InputSignature& sig) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  const int64_t mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  lines.push_back(fmt::format("{}\t{}\t{}", file.lexically_relative(root).generic_string(), st.st_size, mtime_ns));
  ++sig.files;
  sig.bytes += st.st_size;
}

InputSignature SignatureOf(const std::string& path) {
  InputSignature sig;
  std::vector<std::string> lines;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      AddFile(it->path(), path, lines, sig);
  } else {
    AddFile(path, fs::path(path).parent_path(), lines, sig);
  }
  std::sort(lines.begin(), lines.end());
  Fingerprint f;
  for (const std::string& l : lines) f.Add(l);
  sig.hash = f.Hex();
  return sig;
}

Json OptionsJson(const std::optional<analysis::ReferenceLine>& line, InputFormat format, bool strict) {
  Json o = Json::object();
  o["reference_compat"] = line ? Json(std::string(analysis::ReferenceLineName(*line))) : Json(nullptr);
  o["input_format"] = std::string(InputFormatName(format));
  o["strict"] = strict;
  return o;
}

Json RunJson(const RunIdentity& id) {
  Json run = Json::object();
  run["path"] = analysis::BytesToJson(id.path);
  run["real_path"] = analysis::BytesToJson(id.real_path);
  run["fingerprint"] = id.fingerprint;
  run["ranks"] = id.ranks;
  Json warnings = Json::array();
  for (const std::string& w : id.warnings) warnings.push_back(analysis::BytesToJson(w));
  run["warnings"] = std::move(warnings);
  return run;
}

Json InputJson(const RankInput& rank, const InputSignature& sig) {
  Json in = Json::object();
  in["path"] = analysis::BytesToJson(rank.path);
  in["kind"] = std::string(RankExportName(rank.kind));
  in["files"] = sig.files;
  in["bytes"] = sig.bytes;
  in["signature"] = sig.hash;
  return in;
}

// The whole file: the header, then the summary.
std::string SummaryFileText(const RunIdentity& id, const Json& options, const Json& input,
                            const analysis::RankSummary& summary) {
  Json file = Json::object();
  file["format"] = kSummaryFormat;
  file["schema_version"] = kSummarySchemaVersion;
  file["profdiff_version"] = PROFDIFF_VERSION;
  file["run"] = RunJson(id);
  file["options"] = options;
  file["input"] = input;
  file["summary"] = analysis::RankSummaryToJson(summary);
  return file.dump() + "\n";
}

// What an existing summary file of the rank is to the one this run would write.
enum class Existing : uint8_t { kNone, kSame, kUnreadable, kDifferent };
struct ExistingFile {
  Existing state = Existing::kNone;
  std::string why;  // kUnreadable, kDifferent: what
};

// The header fields that differ between an existing summary and the one to write ("" when none).
std::string HeaderDifference(const Json& j, const std::string& fingerprint, const Json& options,
                             const std::string& signature) {
  auto at = [&](const char* pointer) -> Json {
    const Json::json_pointer p(pointer);
    return j.contains(p) ? j.at(p) : Json();
  };
  if (at("/schema_version") != Json(kSummarySchemaVersion)) return "schema version " + at("/schema_version").dump();
  if (at("/run/fingerprint") != Json(fingerprint)) return "another run (" + at("/run/real_path").dump() + ")";
  if (at("/options") != options) return "other options (" + at("/options").dump() + ")";
  if (at("/input/signature") != Json(signature)) return "other input files (the rank's files changed since)";
  if (at("/profdiff_version") != Json(PROFDIFF_VERSION)) return "profdiff " + at("/profdiff_version").dump();
  return "";
}

ExistingFile CheckExisting(const std::string& path, const std::string& fingerprint, const Json& options,
                           const std::string& signature) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return {};
  auto text = ReadWholeFile(path);
  if (!text.ok()) return {Existing::kUnreadable, text.status().message()};
  const Json j = Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("summary") ||
      j.value("format", Json()) != Json(kSummaryFormat))
    return {Existing::kUnreadable, "not a profdiff rank summary"};
  if (std::string diff = HeaderDifference(j, fingerprint, options, signature); !diff.empty())
    return {Existing::kDifferent, std::move(diff)};
  if (auto body = analysis::RankSummaryFromJson(j["summary"]); !body.ok())
    return {Existing::kUnreadable, body.status().message()};
  return {Existing::kSame, ""};
}

// One rank of the shard: where its summary goes and what is there already.
struct ShardRank {
  const RankInput* input = nullptr;
  std::string file;
  InputSignature signature;
  ExistingFile existing;
};

// The shard's ranks with their files checked before any is loaded: a summary of another run, input or
// options is refused without --force; an unreadable one is replaced (a warning says so).
StatusOr<std::vector<ShardRank>> PlanShard(const SummarizeRequest& request, const ClusterInputs& inputs,
                                           const RunIdentity& id, const Json& options, RunMessages& messages) {
  std::vector<ShardRank> plan;
  for (size_t p = request.shard_index; p < inputs.ranks.size(); p += request.shard_count) {
    ShardRank r{&inputs.ranks[p], (fs::path(request.output_dir) / SummaryFileName(inputs.ranks[p].rank)).string(),
                SignatureOf(inputs.ranks[p].path), {}};
    PD_RETURN_IF_ERROR(report::CheckOutputPath(r.file, /*force=*/true));
    r.existing = CheckExisting(r.file, id.fingerprint, options, r.signature.hash);
    if (r.existing.state == Existing::kDifferent && !request.force)
      return AlreadyExists(fmt::format("{} exists and is a summary of {}: --force replaces it", r.file,
                                       r.existing.why));
    if (r.existing.state == Existing::kUnreadable)
      messages.Warning(fmt::format("{} exists but cannot be read ({}): it is replaced", r.file, r.existing.why));
    plan.push_back(std::move(r));
  }
  return plan;
}

// The summaries of the shard's ranks that need one, each as its file's text (computed on the workers).
std::vector<std::optional<StatusOr<std::string>>> MapShard(const std::vector<ShardRank>& plan,
                                                           const SummarizeRequest& request, const RunIdentity& id,
                                                           const Json& options) {
  std::vector<size_t> todo;
  for (size_t i = 0; i < plan.size(); ++i)
    if (plan[i].existing.state != Existing::kSame) todo.push_back(i);
  MapOptions map{request.strict, request.input_format, request.threads,
                 analysis::MakeReferencePolicy(request.reference_line)};
  std::vector<std::optional<StatusOr<std::string>>> texts(plan.size());
  ForEachOnWorkers(todo.size(), request.threads, [&](size_t k, int load_threads) {
    const ShardRank& r = plan[todo[k]];
    auto summary = SummarizeOne(*r.input, map, load_threads);
    if (!summary.ok()) {
      texts[todo[k]].emplace(summary.status());
      return;
    }
    texts[todo[k]].emplace(SummaryFileText(id, options, InputJson(*r.input, r.signature), *summary));
  });
  return texts;
}

// A summary file read back: its header (the file without "summary") and its summary.
struct ReadSummary {
  int64_t rank = 0;  // by its file name
  std::string file;
  Json header;
  analysis::RankSummary summary;
};

// The rank_<R>.summary.json files of `dir`, by rank.
StatusOr<std::vector<std::pair<int64_t, std::string>>> ListSummaryFiles(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return NotFound(fmt::format("--summaries {}: no such directory", dir));
  std::vector<std::pair<int64_t, std::string>> files;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(kFilePrefix) || !name.ends_with(kFileSuffix)) continue;
    const std::string_view digits =
        std::string_view(name).substr(kFilePrefix.size(), name.size() - kFilePrefix.size() - kFileSuffix.size());
    int64_t rank = -1;
    auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
    if (err != std::errc() || end != digits.data() + digits.size() || digits.empty() || rank < 0) continue;
    files.emplace_back(rank, it->path().string());
  }
  if (ec) return IoError(fmt::format("--summaries {}: cannot list it: {}", dir, ec.message()));
  if (files.empty())
    return NotFound(fmt::format("--summaries {}: no summary (rank_<R>.summary.json) in it; `profdiff cluster "
                                "summarize -d RUN -o {}` writes them", dir, dir));
  std::sort(files.begin(), files.end());
  return files;
}

// The header's members the reduce reads, each of its type.
Status CheckHeader(const Json& j) {
  struct Want {
    const char* pointer;
    Json::value_t type;
  };
  static const Want kWant[] = {
      {"/run", Json::value_t::object},          {"/run/fingerprint", Json::value_t::string},
      {"/run/ranks", Json::value_t::array},     {"/run/warnings", Json::value_t::array},
      {"/options", Json::value_t::object},      {"/input", Json::value_t::object},
      {"/summary", Json::value_t::object},
  };
  for (const Want& w : kWant) {
    const Json::json_pointer p(w.pointer);
    if (!j.contains(p)) return ParseError(fmt::format("{}: missing", w.pointer));
    if (j.at(p).type() != w.type) return ParseError(fmt::format("{}: expected {}", w.pointer, Json(w.type).type_name()));
  }
  for (const Json& r : j["run"]["ranks"])
    if (!r.is_number_integer()) return ParseError("/run/ranks: expected integers");
  return Status::Ok();
}

StatusOr<ReadSummary> ReadSummaryFile(int64_t rank, const std::string& file) {
  auto fail = [&](std::string_view what) { return ParseError(fmt::format("rank {}: {}: {}", rank, file, what)); };
  auto text = ReadWholeFile(file);
  if (!text.ok()) return fail(text.status().message());
  ReadSummary out{rank, file, {}, {}};
  try {
    out.header = Json::parse(*text);
  } catch (const Json::parse_error& e) {
    return fail(fmt::format("not a summary: byte {}: {}", e.byte, e.what()));
  }
  if (!out.header.is_object() || out.header.value("format", Json()) != Json(kSummaryFormat))
    return fail(fmt::format("not a profdiff rank summary (no \"format\": \"{}\")", kSummaryFormat));
  const Json version = out.header.value("schema_version", Json());
  if (version != Json(kSummarySchemaVersion))
    return fail(fmt::format("schema version {}, this profdiff ({}) reads version {}: summarize the run again with this "
                            "profdiff, or reduce with the one that wrote it ({})",
                            version.dump(), PROFDIFF_VERSION, kSummarySchemaVersion,
                            out.header.value("profdiff_version", Json("?")).dump()));
  if (Status s = CheckHeader(out.header); !s.ok()) return fail(s.message());
  auto summary = analysis::RankSummaryFromJson(out.header["summary"]);
  if (!summary.ok()) {
    std::string_view m = summary.status().message();
    if (m.starts_with("the summary")) m.remove_prefix(std::string_view("the summary").size());
    return fail(fmt::format("/summary{}", m));
  }
  if (summary->rank != rank) return fail(fmt::format("holds the summary of rank {} (a renamed file?)", summary->rank));
  out.summary = std::move(*summary);
  out.header.erase("summary");
  return out;
}

// Every summary is of one run (the one most of them record) and of the same options.
Status CheckOneRun(const std::string& dir, const std::vector<ReadSummary>& read) {
  // The run most summaries record; of two as many, the one the lowest rank's summary records.
  std::vector<std::pair<std::string, std::vector<int64_t>>> by_run;  // in order of the lowest rank
  for (const ReadSummary& r : read) {
    const std::string fp = r.header["run"]["fingerprint"].get<std::string>();
    auto it = std::find_if(by_run.begin(), by_run.end(), [&](const auto& e) { return e.first == fp; });
    if (it == by_run.end()) it = by_run.insert(by_run.end(), {fp, {}});
    it->second.push_back(r.rank);
  }
  auto most = std::max_element(by_run.begin(), by_run.end(),
                               [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
  for (const ReadSummary& r : read) {
    if (r.header["run"]["fingerprint"] == Json(most->first)) continue;
    const ReadSummary& other = *std::find_if(read.begin(), read.end(), [&](const ReadSummary& x) {
      return x.header["run"]["fingerprint"] == Json(most->first);
    });
    return Unsupported(fmt::format(
        "--summaries {} mixes runs: rank {}'s summary ({}) is of the run {}, {} other(s) of the run {}: remove it, or "
        "summarize that rank of the run again (--force)",
        dir, r.rank, r.file, r.header["run"].value("real_path", Json("?")).dump(), most->second.size(),
        other.header["run"].value("real_path", Json("?")).dump()));
  }
  for (const ReadSummary& r : read)
    if (r.header["options"] != read.front().header["options"])
      return Unsupported(fmt::format("--summaries {} mixes options: rank {}'s summary ({}) was made with {}, rank {}'s "
                                     "with {}: summarize them again with the same options",
                                     dir, read.front().rank, read.front().file, read.front().header["options"].dump(),
                                     r.rank, r.header["options"].dump()));
  return Status::Ok();
}

std::string RankFilesText(const std::string& dir, const std::vector<int64_t>& ranks) {
  std::string s;
  for (size_t i = 0; i < ranks.size() && i < 8; ++i)
    s += (s.empty() ? "" : ", ") + (fs::path(dir) / SummaryFileName(ranks[i])).string();
  return ranks.size() > 8 ? s + fmt::format(", ... ({} in all)", ranks.size()) : s;
}

// The ranks the reduce needs: the run's (those of --rank_list), each with its summary.
StatusOr<std::vector<int64_t>> ExpectedRanks(const std::string& dir, const std::vector<ReadSummary>& read,
                                             const std::optional<std::vector<int64_t>>& rank_list) {
  std::vector<int64_t> run_ranks;
  for (const Json& r : read.front().header["run"]["ranks"]) run_ranks.push_back(r.get<int64_t>());
  std::vector<int64_t> expected = run_ranks;
  if (rank_list) {
    for (int64_t want : *rank_list)
      if (std::find(run_ranks.begin(), run_ranks.end(), want) == run_ranks.end())
        return NotFound(fmt::format("--rank_list: the run of the summaries in {} has no rank {}", dir, want));
    std::erase_if(expected, [&](int64_t r) { return std::find(rank_list->begin(), rank_list->end(), r) == rank_list->end(); });
  }
  std::vector<int64_t> missing;
  for (int64_t r : expected)
    if (std::none_of(read.begin(), read.end(), [&](const ReadSummary& s) { return s.rank == r; })) missing.push_back(r);
  if (!missing.empty())
    return NotFound(fmt::format(
        "--summaries {}: no summary of rank(s) {} ({}): the shard(s) holding them did not finish; run `profdiff cluster "
        "summarize` again for them (the summaries already written are kept)",
        dir, report::RankRangesText(missing), RankFilesText(dir, missing)));
  return expected;
}

}  // namespace

std::string SummaryFileName(int64_t rank) { return fmt::format("{}{}{}", kFilePrefix, rank, kFileSuffix); }

}  // namespace profdiff::pipeline

namespace profdiff::pipeline {

StatusOr<SummarizeResult> RunSummarize(const SummarizeRequest& request, RunMessages& messages) {
  std::optional<PhaseScope> phase(std::in_place, messages, "discover ranks");
  ClusterDiscoveryOptions discovery;
  discovery.input_format = request.input_format;
  auto found = DiscoverCluster(request.run_path, discovery);
  if (!found.ok()) return AsInputError(found.status());
  for (const std::string& w : found->warnings) messages.Warning(w);
  SummarizeResult result;
  for (const RankInput& r : found->ranks) result.run_ranks.push_back({r.rank, std::string(RankExportName(r.kind)), r.path});
  if (request.list_ranks) return result;
  if (request.shard_count == 0 || request.shard_index >= request.shard_count)
    return InvalidArgument(fmt::format("--shard-index {} is not below --shard-count {}", request.shard_index,
                                       request.shard_count));
  report::OutputScope scope;  // a kill leaves no partial file; the summaries written stay (Commit below)
  scope.ProtectInput(request.run_path);
  for (const RankInput& r : found->ranks) scope.ProtectInput(r.path);
  PD_RETURN_IF_ERROR(report::MakeOutputDirs(request.output_dir, 0750));
  PD_RETURN_IF_ERROR(report::CheckDirectoryWritable((fs::path(request.output_dir) / SummaryFileName(0)).string()));
  const RunIdentity id = IdentityOf(request.run_path, *found);
  const Json options = OptionsJson(request.reference_line, request.input_format, request.strict);
  PD_ASSIGN_OR_RETURN(std::vector<ShardRank> plan, PlanShard(request, *found, id, options, messages));
  phase.emplace(messages, "load and summarise ranks");
  auto texts = MapShard(plan, request, id, options);
  phase.emplace(messages, "write summaries");
  Status first_error = Status::Ok();
  for (size_t i = 0; i < plan.size(); ++i) {
    result.shard_ranks.push_back(plan[i].input->rank);
    if (!texts[i]) {
      result.kept.push_back(plan[i].file);
    } else if (!texts[i]->ok()) {
      if (first_error.ok()) first_error = texts[i]->status();
    } else if (Status s = report::WriteFileAtomically(plan[i].file, **texts[i], /*force=*/true); !s.ok()) {
      if (first_error.ok()) first_error = s;
    } else {
      result.written.push_back(plan[i].file);
    }
  }
  scope.Commit();  // each summary written is whole on its own: a retry of the shard keeps it
  if (!first_error.ok()) return first_error;
  return result;
}

}  // namespace profdiff::pipeline

namespace profdiff::pipeline {

StatusOr<SummarySet> ReadSummarySet(const std::string& dir, const std::optional<std::vector<int64_t>>& rank_list,
                                    const std::optional<analysis::ReferenceLine>& reference_line, int threads) {
  PD_ASSIGN_OR_RETURN(auto files, ListSummaryFiles(dir));
  std::vector<std::optional<StatusOr<ReadSummary>>> results(files.size());
  ForEachOnWorkers(files.size(), threads, [&](size_t i, int) {
    results[i].emplace(ReadSummaryFile(files[i].first, files[i].second));
  });
  std::vector<ReadSummary> read;
  for (auto& r : results) {
    if (!r->ok()) return r->status();
    read.push_back(std::move(**r));
  }
  PD_RETURN_IF_ERROR(CheckOneRun(dir, read));
  const Json want = reference_line ? Json(std::string(analysis::ReferenceLineName(*reference_line))) : Json(nullptr);
  const Json made = read.front().header["options"].value("reference_compat", Json());
  if (made != want) {
    auto said = [](const Json& line) {
      return line.is_string() ? "with --reference-compat=" + line.get<std::string>() : std::string("without --reference-compat");
    };
    return InvalidArgument(fmt::format("the summaries in {} were made {}, the reduce is run {}: give both the same "
                                       "--reference-compat",
                                       dir, said(made), said(want)));
  }
  PD_ASSIGN_OR_RETURN(std::vector<int64_t> expected, ExpectedRanks(dir, read, rank_list));
  SummarySet set;
  set.dir = dir;
  const Json& run = read.front().header["run"];
  PD_ASSIGN_OR_RETURN(set.run_path, analysis::BytesFromJson(run.value("path", Json()), "/run/path"));
  PD_ASSIGN_OR_RETURN(set.real_path, analysis::BytesFromJson(run.value("real_path", Json()), "/run/real_path"));
  for (const Json& w : run["warnings"]) {
    PD_ASSIGN_OR_RETURN(std::string text, analysis::BytesFromJson(w, "/run/warnings"));
    set.warnings.push_back(std::move(text));
  }
  for (ReadSummary& r : read)
    if (std::find(expected.begin(), expected.end(), r.rank) != expected.end()) set.ranks.push_back(std::move(r.summary));
  return set;
}

}  // namespace profdiff::pipeline
