// Operator-matching benchmark (prints sizes and timings; asserts nothing).
//
//   match_bench [N] [BASE_TRACE COMPARISON_TRACE]
//
// 1. Synthetic sequences: a base of N operator keys (default 100,000) drawn from a training-step-like
//    repeated pattern over ~300 names, and a comparison that is the base with ~5% random edits
//    (substitutions, insertions, deletions). Times the true LCS (default mode) and the reference
//    recurrence (--reference-compat) at N x N.
// 2. With two trace paths: load both, then time CompareOperators (default and --reference-compat)
//    and the sheet build separately.
#include <chrono>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "profdiff/analysis/operators/operator_compare.h"
#include "profdiff/analysis/common/sequence_match.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/report/operators/operator_sheets.h"

namespace {

using Clock = std::chrono::steady_clock;
double Secs(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

using profdiff::analysis::MatchKey;

std::vector<MatchKey> MakeBase(size_t n, std::mt19937_64& rng) {
  // A "layer" of 40 ops repeated with some per-layer variety, like a training step.
  std::vector<MatchKey> layer;
  std::uniform_int_distribution<MatchKey> name(0, 299);
  for (int i = 0; i < 40; ++i) layer.push_back(name(rng));
  std::vector<MatchKey> out;
  out.reserve(n);
  std::uniform_int_distribution<int> pct(0, 99);
  while (out.size() < n)
    for (MatchKey k : layer) {
      if (out.size() == n) break;
      out.push_back(pct(rng) < 10 ? name(rng) : k);
    }
  return out;
}

std::vector<MatchKey> Edit(const std::vector<MatchKey>& base, std::mt19937_64& rng) {
  std::vector<MatchKey> out;
  out.reserve(base.size() + base.size() / 20);
  std::uniform_int_distribution<int> pct(0, 999);
  std::uniform_int_distribution<MatchKey> name(0, 299);
  for (MatchKey k : base) {
    int r = pct(rng);
    if (r < 17) continue;                    // delete
    if (r < 34) out.push_back(name(rng));    // insert before
    out.push_back(r < 50 ? name(rng) : k);   // substitute or keep
  }
  return out;
}

void Synthetic(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<MatchKey> base = MakeBase(n, rng);
  std::vector<MatchKey> comp = Edit(base, rng);
  auto t0 = Clock::now();
  std::vector<profdiff::analysis::MatchPair> lcs = profdiff::analysis::MatchLcs(base, comp);
  auto t1 = Clock::now();
  std::printf("synthetic: base %zu x comparison %zu keys\n", base.size(), comp.size());
  std::printf("  true LCS (default):          %8.3f s, %zu matched, %zu pairs\n", Secs(t0, t1),
              profdiff::analysis::CountMatched(lcs), lcs.size());
  t0 = Clock::now();
  auto ref = profdiff::analysis::MatchReferenceCompat(base, comp);
  t1 = Clock::now();
  std::printf("  reference recurrence (--reference-compat): %8.3f s, %zu matched, %zu pairs\n", Secs(t0, t1),
              profdiff::analysis::CountMatched(ref), ref.size());
}

int Traces(const char* base_path, const char* comp_path) {
  auto t0 = Clock::now();
  auto base = profdiff::LoadProfile(base_path, {});
  auto comp = profdiff::LoadProfile(comp_path, {});
  auto t1 = Clock::now();
  if (!base.ok() || !comp.ok()) {
    std::fprintf(stderr, "load failed: %s %s\n", base.status().message().c_str(), comp.status().message().c_str());
    return 3;
  }
  std::printf("traces: loaded both in %.3f s (%zu + %zu slices)\n", Secs(t0, t1), (*base)->slices.size(),
              (*comp)->slices.size());
  for (bool compat : {false, true}) {
    const profdiff::analysis::ReferencePolicy policy = profdiff::analysis::MakeReferencePolicy(
        compat ? std::optional(profdiff::analysis::kCurrentReferenceLine) : std::nullopt);
    auto a = Clock::now();
    auto cmp = profdiff::analysis::CompareOperators(profdiff::analysis::BuildTimeline(**base, {}),
                                                    profdiff::analysis::BuildTimeline(**comp, {}), policy, {});
    auto b = Clock::now();
    auto sheets = profdiff::report::BuildOperatorSheets(cmp, base_path, comp_path);
    auto c = Clock::now();
    size_t rows = 0;
    for (const auto& s : sheets) rows += s.rows.size();
    std::printf("  %-17s compare %.3f s (%llu/%llu items, %llu matched), sheets %.3f s (%zu rows)\n",
                compat ? "reference-compat:" : "default:", Secs(a, b),
                static_cast<unsigned long long>(cmp.base_items),
                static_cast<unsigned long long>(cmp.comparison_items),
                static_cast<unsigned long long>(cmp.matched), Secs(b, c), rows);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  size_t n = 100000;
  int arg = 1;
  if (argc > arg && std::isdigit(static_cast<unsigned char>(argv[arg][0]))) n = std::strtoull(argv[arg++], nullptr, 10);
  Synthetic(n);
  if (argc >= arg + 2) return Traces(argv[arg], argv[arg + 1]);
  return 0;
}
