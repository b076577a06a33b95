// The trace-event JSON loaders: PyTorch Kineto (`*.pt.trace.json`, plain or .gz) and Ascend
// `trace_view.json`, read in one streaming pass (io/json_reader.h) into the timeline model.
//
// With LoadOptions::threads above 1, a trace of two parallel blocks (64 MiB) or more has the middle
// of its array parsed in blocks on that many threads (trace_json_parallel.cc): the model, string ids
// and diagnostics are exactly those of a one-thread load (docs/architecture.md "Parallel reading of
// one trace"; tests/loaders/parallel_load_test.cc).
//
// Format rule (decided by content, documented in docs/performance.md "Loading" too):
//  * a top-level object with a "traceEvents" array is Kineto (device GPU);
//  * a top-level bare array is Ascend trace_view (device NPU) when at least one event shows an Ascend
//    convention: a `ts` written as a JSON string (torch_npu writes "1736408883688177.930"), a
//    process_name metadata naming an Ascend lane ("Ascend Hardware", "HCCL", "Overlap Analysis",
//    "CANN", "AscendCL"), or the flow category "async_npu"; otherwise it is an old (2020) Kineto
//    bare-array trace (device GPU). The decision is made after the pass, so the order of events does
//    not matter.
//
// Per event: ph X (complete), B/E (paired into X per track, in file order), i/I/R (instants; "[memory]"
// instants go to Profile::memory_events instead), s/f/t (Profile::flows), C (Profile::counters, one
// row per numeric arg), M (process/thread names, labels, sort indexes). `ts`/`dur` may be int, float or
// string and are converted to ns exactly. Only catalogued args (model/enums.h ArgKey) are kept.
// Slice kinds come from the category (case-insensitive) and, after the pass (metadata may come last),
// from the Ascend process an X event lives in: "Ascend Hardware" -> kNpuTask, "HCCL"/"Communication"
// -> kHcclOp on threads whose name contains "Communication", else kHcclTask, "Overlap Analysis" ->
// kOverlap.
//
// Malformed events are counted in profile.diagnostics and skipped; a file that is not JSON, is empty,
// has the wrong top-level type or no "traceEvents" array is an error naming the file and offset. On an
// error the profile's content is unspecified.
#pragma once

#include <cstddef>
#include <string>

#include "profdiff/base/status.h"
#include "profdiff/io/byte_source.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/model/profile.h"

namespace profdiff {

// Loads `file` (Kineto or Ascend trace_view, detected by content) into `profile` and fills
// profile.meta (format, device, schema_version, base_time_ns, device_names, rank, trace_file,
// files, input_bytes). Malformed events only become diagnostics here: options.strict is enforced by
// LoadProfile, once for the whole input.
Status LoadTraceJson(const std::string& file, Profile& profile, const LoadOptions& options);

// Same, reading the file in chunks of `chunk_bytes` (tests use tiny chunks).
Status LoadTraceJson(const std::string& file, Profile& profile, const LoadOptions& options,
                     size_t chunk_bytes);

}  // namespace profdiff
