// Reading every side file that applies to a resolved Ascend text input.
#include "profdiff/loaders/ascend_side_files.h"

#include <sys/stat.h>

#include <filesystem>
#include <utility>

#include "profdiff/base/file_kind.h"

namespace profdiff {
namespace {

void LoadOne(const FileLoader& loader, const std::string& path, Profile& profile,
             const LoadOptions& options) {
  SideFileOutcome outcome{std::string(loader.name()), path, SideFileState::kAbsent, {}};
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (!exists) {
    profile.diagnostics.Add(DiagId::side_file_missing, {path, 0, -1}, std::string(loader.name()));
  } else if (!S_ISREG(st.st_mode)) {  // a FIFO would block the read forever; a directory is no file
    outcome.state = SideFileState::kUnreadable;
    outcome.error = path + ": is a " + FileKindName(st.st_mode) + ", not a regular file";
    profile.diagnostics.Add(DiagId::side_file_unreadable, {path, 0, -1}, outcome.error);
  } else if (Status s = loader.Load(path, profile, options); !s.ok()) {
    outcome.state = SideFileState::kUnreadable;
    outcome.error = s.ToString();
    profile.diagnostics.Add(DiagId::side_file_unreadable, {path, 0, -1}, outcome.error);
  } else {
    outcome.state = SideFileState::kLoaded;
    profile.meta.files.push_back(path);
  }
  profile.npu.side_files.push_back(std::move(outcome));
}

std::string Join(const std::string& dir, std::string_view name) {
  return (std::filesystem::path(dir) / std::string(name)).string();
}

}  // namespace

bool IsProfilerInfoFileName(std::string_view n) {
  if (n == "profiler_info.json") return true;
  constexpr std::string_view kPrefix = "profiler_info_";
  constexpr std::string_view kSuffix = ".json";
  if (n.size() <= kPrefix.size() + kSuffix.size() || !n.starts_with(kPrefix) ||
      !n.ends_with(kSuffix)) {
    return false;
  }
  std::string_view digits = n.substr(kPrefix.size(), n.size() - kPrefix.size() - kSuffix.size());
  for (char c : digits)
    if (c < '0' || c > '9') return false;
  return true;
}

const FileLoader* SideFileLoaderForName(std::string_view n) {
  if (n == kKernelDetailsCsv) return &KernelDetailsCsvLoader();
  if (n == kOpStatisticCsv) return &OpStatisticCsvLoader();
  if (n == kOperatorMemoryCsv) return &OperatorMemoryCsvLoader();
  if (n == kMemoryRecordCsv) return &MemoryRecordCsvLoader();
  if (n == kStepTraceTimeCsv) return &StepTraceTimeCsvLoader();
  if (n == kCommunicationJson) return &CommunicationJsonLoader();
  if (n == kProfilerMetadataJson) return &ProfilerMetadataJsonLoader();
  if (IsProfilerInfoFileName(n)) return &ProfilerInfoJsonLoader();
  return nullptr;
}

void LoadCommunicationMatrix(const std::string& ascend_output, Profile& profile, const LoadOptions& options) {
  if (options.cluster_tables)
    LoadOne(CommunicationMatrixJsonLoader(), Join(ascend_output, kCommunicationMatrixJson), profile, options);
}

Status LoadAscendSideFiles(const ResolvedInput& input, Profile& profile, const LoadOptions& options) {
  if (!options.read_side_files) return Status::Ok();
  if (input.path_level != "ascend_output" && input.path_level != "profiling") return Status::Ok();
  if (input.ascend_output.empty()) {
    return Internal("LoadAscendSideFiles: resolved input has no ASCEND_PROFILER_OUTPUT directory");
  }
  const std::string& out = input.ascend_output;
  LoadOne(KernelDetailsCsvLoader(), Join(out, kKernelDetailsCsv), profile, options);
  LoadOne(OpStatisticCsvLoader(), Join(out, kOpStatisticCsv), profile, options);
  LoadOne(OperatorMemoryCsvLoader(), Join(out, kOperatorMemoryCsv), profile, options);
  LoadOne(MemoryRecordCsvLoader(), Join(out, kMemoryRecordCsv), profile, options);
  LoadOne(StepTraceTimeCsvLoader(), Join(out, kStepTraceTimeCsv), profile, options);
  LoadOne(CommunicationJsonLoader(), Join(out, kCommunicationJson), profile, options);
  LoadCommunicationMatrix(out, profile, options);
  if (!input.profiling_dir.empty()) {
    LoadOne(ProfilerMetadataJsonLoader(), Join(input.profiling_dir, kProfilerMetadataJson), profile,
            options);
  }
  // The reference reads profiler_info only at "profiling" level.
  if (input.path_level == "profiling" && !input.info_file.empty()) {
    LoadOne(ProfilerInfoJsonLoader(), input.info_file, profile, options);
  }
  return Status::Ok();
}

}  // namespace profdiff
