// load_bench: loads one trace file with the streaming trace loader and prints throughput
// (decompressed MB per wall second and per CPU second: the machine may be shared), event counts,
// peak RSS and peak RSS / input size.
//
//   load_bench FILE [--repeat N] [--chunk BYTES] [--threads N] [--block BYTES] [--scan-only]
//
// --scan-only measures the JSON layer alone (array streaming + tokenizing every element) without
// building the model. --threads is the loader's `--threads` (default 1 here: one core, the
// figures of the single-thread target), --block the parallel reader's block size. Large inputs: bench/make_load_inputs.sh (generated under build/ or /tmp).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "profdiff/io/byte_source.h"
#include "profdiff/io/json_reader.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/loaders/trace_json.h"
#include "profdiff/model/profile.h"

namespace {

// User + system CPU seconds of this process so far.
double CpuSeconds() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

long PeakRssKiB() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

int ScanOnly(const std::string& file, size_t chunk) {
  auto src = profdiff::ByteSource::Open(file, chunk);
  if (!src.ok()) {
    std::fprintf(stderr, "%s\n", src.status().ToString().c_str());
    return 1;
  }
  profdiff::JsonArrayStream stream(**src);
  auto t0 = std::chrono::steady_clock::now();
  const double c0 = CpuSeconds();
  profdiff::Status st = stream.Start();
  uint64_t n = 0, bad = 0;
  std::string scratch;
  std::string_view el;
  while (st.ok()) {
    // The same one-pass protocol as the loader: tokenize in place, fall back to the bracket scan.
    auto more = stream.BeginElement(&el);
    if (!more.ok()) {
      st = more.status();
      break;
    }
    if (!*more) break;
    ++n;
    profdiff::JsonCursor cur(el, &scratch, 64 << 10);
    if (cur.SkipValue()) {
      st = stream.ConsumeElement(cur.pos());
      if (!st.ok()) break;
      continue;
    }
    auto whole = stream.ScanElement();
    if (!whole.ok()) {
      st = whole.status();
      break;
    }
    profdiff::JsonCursor again(*whole, &scratch);
    if (!again.SkipValue()) ++bad;
  }
  if (st.ok()) st = stream.Finish();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu = CpuSeconds() - c0;
  if (!st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    return 1;
  }
  double mb = static_cast<double>(stream.bytes_read()) / 1e6;
  std::printf(
      "scan-only %s: %.1f MB in %.3f s wall = %.1f MB/s (%.3f s CPU = %.1f MB/CPU-s), %llu elements (%llu "
      "malformed), peak RSS %.1f MiB\n",
      file.c_str(), mb, secs, mb / secs, cpu, mb / cpu, static_cast<unsigned long long>(n),
      static_cast<unsigned long long>(bad), static_cast<double>(PeakRssKiB()) / 1024.0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: load_bench FILE [--repeat N] [--chunk BYTES] [--threads N] [--block BYTES] [--scan-only]\n");
    return 2;
  }
  std::string file = argv[1];
  int repeat = 1;
  size_t chunk = profdiff::ByteSource::kDefaultChunkBytes;
  bool scan_only = false;
  profdiff::LoadOptions options;
  options.threads = 1;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--chunk") == 0 && i + 1 < argc) {
      chunk = static_cast<size_t>(std::strtoull(argv[++i], nullptr, 10));
    } else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      options.threads = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--block") == 0 && i + 1 < argc) {
      options.parallel_block_bytes = static_cast<size_t>(std::strtoull(argv[++i], nullptr, 10));
    } else if (std::strcmp(argv[i], "--scan-only") == 0) {
      scan_only = true;
    } else {
      std::fprintf(stderr, "unknown argument: %s\n", argv[i]);
      return 2;
    }
  }
  if (scan_only) return ScanOnly(file, chunk);
  double best = 1e300;
  for (int r = 0; r < repeat; ++r) {
    auto profile = std::make_unique<profdiff::Profile>();
    profdiff::ParallelLoadStats stats;
    options.parallel_stats = &stats;
    auto t0 = std::chrono::steady_clock::now();
    const double c0 = CpuSeconds();
    profdiff::Status st = profdiff::LoadTraceJson(file, *profile, options, chunk);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = CpuSeconds() - c0;
    if (!st.ok()) {
      std::fprintf(stderr, "%s\n", st.ToString().c_str());
      return 1;
    }
    best = std::min(best, secs);
    double mb = static_cast<double>(profile->meta.input_bytes) / 1e6;
    const double rss_mib = static_cast<double>(PeakRssKiB()) / 1024.0;
    std::printf(
        "%s [%s, %d thread(s)]: %.1f MB in %.3f s wall = %.1f MB/s (%.3f s CPU = %.1f MB/CPU-s); slices %zu, args %zu, "
        "flows %zu, counters %zu, memory %zu, tracks %zu, strings %zu (%.1f MiB); peak RSS %.1f MiB = %.2fx "
        "input\n",
        file.c_str(), std::string(profdiff::Name(profile->meta.format)).c_str(), options.threads, mb, secs, mb / secs, cpu,
        mb / cpu,
        profile->slices.size(), profile->args.size(), profile->flows.size(), profile->counters.size(),
        profile->memory_events.size(), profile->tracks.size(), profile->strings.size(),
        static_cast<double>(profile->strings.arena_bytes()) / (1024.0 * 1024.0), rss_mib,
        rss_mib * 1024.0 * 1024.0 / 1e6 / mb);
    if (stats.rounds > 0) {
      std::printf("  parallel: %llu rounds, %llu of %llu blocks kept, %.1f MB in blocks\n",
                  static_cast<unsigned long long>(stats.rounds), static_cast<unsigned long long>(stats.blocks_absorbed),
                  static_cast<unsigned long long>(stats.blocks), static_cast<double>(stats.bytes_absorbed) / 1e6);
    }
    if (r == 0 && !profile->diagnostics.empty()) std::printf("%s", profile->diagnostics.Summary().c_str());
  }
  return 0;
}
