// Fuzzes the trace-event JSON loader (Kineto object/array, Ascend trace_view) with arbitrary bytes, and
// the JSON side-file loaders (communication.json, profiler_info, profiler_metadata) with the same bytes.
// Any outcome is fine except a crash, a sanitizer report, a hang or an exception escaping: malformed
// input must come back as a Status or as diagnostics.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "profdiff/loaders/ascend_side_files.h"
#include "profdiff/loaders/trace_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = profdiff::fuzz::WriteTempFile(data, size, ".json");
  {
    profdiff::Profile profile;
    // Default chunking, then tiny chunks so tokens straddle chunk boundaries.
    profdiff::Status s = profdiff::LoadTraceJson(path, profile, profdiff::LoadOptions{});
    (void)s;
    profdiff::Profile small;
    profdiff::Status s2 = profdiff::LoadTraceJson(path, small, profdiff::LoadOptions{}, 64);
    (void)s2;
    // The model's helpers must be safe on whatever the loader produced.
    (void)small.CountByKind();
    (void)small.TimeSpan();
    for (const profdiff::Slice& slice : small.slices) {
      (void)small.ArgText(slice, profdiff::ArgKey::kInputDims);
      (void)small.ArgInt(slice, profdiff::ArgKey::kCorrelation);
    }
  }
  {
    // --strict is applied by LoadProfile (the ".json" path resolves to this trace).
    profdiff::LoadOptions strict;
    strict.strict = true;
    auto loaded = profdiff::LoadProfile(path, strict);
    (void)loaded;
  }
  const profdiff::FileLoader* side[] = {&profdiff::CommunicationJsonLoader(), &profdiff::ProfilerInfoJsonLoader(),
                                       &profdiff::ProfilerMetadataJsonLoader()};
  for (const profdiff::FileLoader* loader : side) {
    profdiff::Profile profile;
    profdiff::Status s = loader->Load(path, profile, profdiff::LoadOptions{});
    (void)s;
  }
  return 0;
}
