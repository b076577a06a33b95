// Ascend NPU text-export side files (docs/reference/inputs.md#side-files): the CSV/JSON files
// beside trace_view.json in ASCEND_PROFILER_OUTPUT, plus profiler_info_*.json /
// profiler_metadata.json in the *_ascend_pt dir. Each is a FileLoader filling `profile.npu` (or
// `profile.meta`). A loader fills a local table and moves it into the profile only when the file
// was read, so a failed load leaves no partial data.
//
// Columns are found by NAME (column sets differ across CANN versions). Times are µs text parsed
// exactly into ns. Absent, empty or "N/A" metric cells are kAbsentNs. Bad cells are diagnostics with
// file:line (csv_bad_time: row skipped; csv_bad_number: value absent), never a crash.
#pragma once

#include <string>
#include <string_view>

#include "profdiff/base/status.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/model/profile.h"

namespace profdiff {

// kernel_details.csv -> npu.kernel_details. Needs `Name`, `Start Time(us)` and `Duration(us)`.
const FileLoader& KernelDetailsCsvLoader();
// op_statistic.csv -> npu.op_statistic. Needs `OP Type`, `Core Type`.
const FileLoader& OpStatisticCsvLoader();
// operator_memory.csv -> npu.operator_memory. Needs `Name`.
const FileLoader& OperatorMemoryCsvLoader();
// memory_record.csv -> npu.memory_record (its rows and largest reserved total). Needs `Total Reserved(MB)`.
const FileLoader& MemoryRecordCsvLoader();
// step_trace_time.csv -> npu.step_trace (first column = step, every other column a µs value).
const FileLoader& StepTraceTimeCsvLoader();
// communication.json -> npu.communication (collective bandwidth per step; absent block not fatal;
// with LoadOptions::cluster_tables also every operator whole, npu.communication.records).
const FileLoader& CommunicationJsonLoader();
// communication_matrix.json -> npu.communication_matrix (every operator whole).
const FileLoader& CommunicationMatrixJsonLoader();
// profiler_info_*.json -> meta.profiler_info_json (verbatim), meta.profiler_level, meta.rank.
const FileLoader& ProfilerInfoJsonLoader();
// profiler_metadata.json -> npu.parallel_group_names and npu.parallel_group_ranks (parallel_group_info
// group id -> group_name, global_ranks), meta.world_size (distributed_args).
const FileLoader& ProfilerMetadataJsonLoader();

// File names of the side files inside ASCEND_PROFILER_OUTPUT.
inline constexpr std::string_view kKernelDetailsCsv = "kernel_details.csv";
inline constexpr std::string_view kOpStatisticCsv = "op_statistic.csv";
inline constexpr std::string_view kOperatorMemoryCsv = "operator_memory.csv";
inline constexpr std::string_view kMemoryRecordCsv = "memory_record.csv";
inline constexpr std::string_view kStepTraceTimeCsv = "step_trace_time.csv";
inline constexpr std::string_view kCommunicationJson = "communication.json";
inline constexpr std::string_view kCommunicationMatrixJson = "communication_matrix.json";
inline constexpr std::string_view kProfilerMetadataJson = "profiler_metadata.json";

// With LoadOptions::cluster_tables: ASCEND_OUTPUT/communication_matrix.json, its outcome recorded
// as a side file's (not one of inspect's side files: `profdiff cluster` reads it, for a partial rank too).
void LoadCommunicationMatrix(const std::string& ascend_output, Profile& profile, const LoadOptions& options);

// "profiler_info.json" or "profiler_info_<digits>.json" (docs/reference/inputs.md#path-resolution).
bool IsProfilerInfoFileName(std::string_view file_name);

// The loader of a side file, chosen by its base name (the names above and profiler_info_*.json), or
// nullptr for any other name.
const FileLoader* SideFileLoaderForName(std::string_view file_name);

// Reads every side file that applies to `input` (none at "trace" level; profiler_info only at
// "profiling" level, as the reference does). A missing file is a `side_file_missing` diagnostic; a
// file that fails to load is a `side_file_unreadable` diagnostic carrying the error (its data stays
// absent); neither fails the load. Each file read is appended to profile.meta.files.
Status LoadAscendSideFiles(const ResolvedInput& input, Profile& profile, const LoadOptions& options);

}  // namespace profdiff
