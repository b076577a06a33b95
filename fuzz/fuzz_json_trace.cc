// Fuzzes the trace-event JSON loader (Kineto object/array, Ascend trace_view) with arbitrary bytes, and
// the JSON side-file loaders (communication.json, profiler_info, profiler_metadata) with the same bytes.
// Any outcome is fine except a crash, a sanitizer report, a hang or an exception escaping: malformed
// input must come back as a Status or as diagnostics. It is also differential: the parallel reader
// (small blocks, three threads, both read paths) must build exactly what the serial one builds.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_util.h"
#include "profdiff/loaders/ascend_side_files.h"
#include "profdiff/loaders/trace_json.h"

namespace {

// Everything a load builds, as text (ids as numbers), or its error.
std::string Dump(const profdiff::Status& status, const profdiff::Profile& p) {
  if (!status.ok()) return "ERROR " + status.ToString();
  std::string o;
  auto add = [&o](auto... v) {
    ((o += std::to_string(v), o += ' '), ...);
    o += '\n';
  };
  for (size_t i = 0; i < p.strings.size(); ++i) (o += p.strings.Get(static_cast<profdiff::StringId>(i))) += '\n';
  for (const auto& x : p.processes) add(x.pid_text, x.pid, x.name, x.labels, x.sort_index);
  for (const auto& t : p.tracks) add(t.process, t.tid_text, t.tid, t.name, t.sort_index);
  for (const auto& s : p.slices) {
    add(s.ts_ns, int64_t{s.dur_ns}, s.name, p.Cat(s), uint32_t{s.track}, s.args_begin, s.args_count,
        static_cast<int>(s.kind), s.phase, int64_t{s.dur_sub_e5});
  }
  for (const auto& a : p.args) add(static_cast<int>(a.key), static_cast<int>(a.type), a.text(), a.i());
  for (const auto& f : p.flows) add(f.ts_ns, f.id, f.id_is_string, f.phase, f.track, f.cat);
  for (const auto& c : p.counters) add(c.ts_ns, c.track, c.name, c.series);
  for (const auto& m : p.memory_events) add(m.ts_ns, m.track, m.bytes, m.addr);
  for (const auto& [id, us] : p.fine_dur_us) add(id);
  o += p.diagnostics.Summary();
  for (size_t i = 0; i < profdiff::kDiagCount; ++i) {
    for (const auto& ex : p.diagnostics.entry(static_cast<profdiff::DiagId>(i)).examples) {
      o += ex.where.ToString() + " " + ex.detail + "\n";
    }
  }
  add(p.meta.input_bytes, static_cast<int>(p.meta.format));
  return o;
}

// Prints the first line where the two dumps differ (with its line number), so that a crash report
// says what the parallel reader got wrong without re-running the input under a debugger.
void ReportFirstDifference(const std::string& serial, const std::string& parallel) {
  size_t line = 1, begin = 0;
  const size_t n = std::min(serial.size(), parallel.size());
  for (size_t i = 0; i < n && serial[i] == parallel[i]; ++i) {
    if (serial[i] == '\n') ++line, begin = i + 1;
  }
  auto line_at = [begin](const std::string& s) { return s.substr(begin, s.find('\n', begin) - begin); };
  std::fprintf(stderr, "first difference at dump line %zu:\n  serial:   %s\n  parallel: %s\n", line,
               line_at(serial).c_str(), line_at(parallel).c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = profdiff::fuzz::WriteTempFile(data, size, ".json");
  {
    profdiff::Profile profile;
    // Default chunking, then tiny chunks so tokens straddle chunk boundaries.
    profdiff::Status s = profdiff::LoadTraceJson(path, profile, profdiff::LoadOptions{});
    (void)s;
    profdiff::Profile small;
    profdiff::Status s2 = profdiff::LoadTraceJson(path, small, profdiff::LoadOptions{}, 64);
    const std::string serial = Dump(s2, small);
    // One read path per input, by its length's parity: each round starts threads, and a thread
    // costs the sanitizers about a millisecond (its stack's shadow), which at 16 blocks and both
    // paths was most of an execution.
    for (bool map : {size % 2 == 0}) {
      profdiff::LoadOptions parallel;
      parallel.threads = 3;
      parallel.parallel_block_bytes = std::max<size_t>(16, size / 8);  // a few rounds, not thousands
      parallel.parallel_map_file = map;
      profdiff::Profile p;
      profdiff::Status s3 = profdiff::LoadTraceJson(path, p, parallel, 64);
      const std::string parallel_dump = Dump(s3, p);
      if (parallel_dump != serial) {
        std::fprintf(stderr, "parallel load (map %d) differs from the serial one\n", map ? 1 : 0);
        ReportFirstDifference(serial, parallel_dump);
        std::abort();
      }
    }
    // The model's helpers must be safe on whatever the loader produced.
    (void)small.CountByKind();
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
