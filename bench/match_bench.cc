// Operator-matching benchmark (prints sizes and timings; asserts nothing), and a pairs printer.
//
//   match_bench [N] [BASE_TRACE COMPARISON_TRACE]
//   match_bench --adversarial [N]
//   match_bench --pairs ALGORITHM GAP_ORDER < cases
//
// 1. Synthetic sequences: a base of N operator keys (default 100,000) drawn from a
//    training-step-like repeated pattern over ~300 names, and a comparison that is the base with
//    ~5% random edits (substitutions, insertions, deletions). Times the true LCS (default mode), the 8.2 reference
//    recurrence (--reference-compat) and the 26.1 reference's difflib SequenceMatcher at N x N.
// 2. With two trace paths: load both, then time CompareOperators (default and --reference-compat)
//    and the sheet build separately.
// 3. --adversarial: inputs chosen to be hard for the SequenceMatcher blocks (few distinct names,
//    heavy repetition, very unbalanced splits; see AdversarialCases below), N keys a side.
// 4. --pairs: reads test cases from stdin, two lines each (base keys, then comparison keys, as
//    space-separated unsigned integers; an empty line is an empty list), and prints one line per
//    case: the pairs as "b,c" tokens with "-" for a missing side. ALGORITHM is lcs,
//    reference-compat, sequence-matcher or none; GAP_ORDER is comparison-first or base-first.
//    tests/oracle/test_sequence_matcher_python.py drives it against Python's difflib.
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "profdiff/analysis/common/sequence_match.h"
#include "profdiff/analysis/operators/operator_compare.h"
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

using profdiff::analysis::GapOrder;
using profdiff::analysis::MatchPair;

// Runs one matching, prints its wall and CPU time (this process; the machine may be shared) and
// counts.
template <typename F>
void TimeOne(const char* label, F&& match) {
  const std::clock_t c0 = std::clock();
  auto t0 = Clock::now();
  std::vector<MatchPair> pairs = match();
  auto t1 = Clock::now();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  std::printf("  %-48s %7.3f s wall, %7.3f s CPU, %zu matched, %zu pairs\n", label, Secs(t0, t1),
              cpu, profdiff::analysis::CountMatched(pairs), pairs.size());
}

void Synthetic(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<MatchKey> base = MakeBase(n, rng);
  std::vector<MatchKey> comp = Edit(base, rng);
  namespace pa = profdiff::analysis;
  std::printf("synthetic: base %zu x comparison %zu keys\n", base.size(), comp.size());
  TimeOne("true LCS (default):",
          [&] { return pa::MatchLcs(base, comp, GapOrder::kComparisonFirst); });
  TimeOne("8.2 reference recurrence (--reference-compat):",
          [&] { return pa::MatchReferenceCompat(base, comp, GapOrder::kComparisonFirst); });
  TimeOne("26.1 difflib SequenceMatcher:",
          [&] { return pa::MatchSequenceMatcher(base, comp, GapOrder::kBaseFirst); });
}

// Inputs that are hard for the SequenceMatcher blocks, n keys a side:
//  * two-names: both sides random over 2 names (longest blocks ~2 log2 n, ~n/8 blocks, every
//    substring occurs everywhere);
//  * period-2: (a b)^(n/2) against a copy with 5 % random edits drawn from {a, b, c};
//  * interleaved: n distinct names against the same names with an extra "c" after every one: every
//    block has length 1 and is found at the left edge of its range (n nested ranges);
//  * staircase: runs x^L y x^(L-1) y ... x^1 against the same runs separated by z: every range's
//    block is one shorter than its bound, the worst case of the bound argument (each base item is
//    rescanned ~sqrt(2n) times).
void Adversarial(size_t n) {
  namespace pa = profdiff::analysis;
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> bit(0, 1), pct(0, 99);
  struct Case {
    const char* name;
    std::vector<MatchKey> base, comp;
  };
  std::vector<Case> cases(4);
  cases[0].name = "two-names";
  for (size_t i = 0; i < n; ++i) cases[0].base.push_back(static_cast<MatchKey>(bit(rng)));
  for (size_t i = 0; i < n; ++i) cases[0].comp.push_back(static_cast<MatchKey>(bit(rng)));
  cases[1].name = "period-2";
  for (size_t i = 0; i < n; ++i) cases[1].base.push_back(static_cast<MatchKey>(i % 2));
  for (MatchKey k : cases[1].base) {
    const int r = pct(rng);
    if (r < 2) continue;                                                   // delete
    if (r < 4) cases[1].comp.push_back(static_cast<MatchKey>(rng() % 3));  // insert before
    cases[1].comp.push_back(r < 5 ? static_cast<MatchKey>(rng() % 3) : k);
  }
  cases[2].name = "interleaved";
  for (size_t i = 0; i < n; ++i) {
    cases[2].base.push_back(static_cast<MatchKey>(i + 1));
    if (cases[2].comp.size() + 2 <= n) {
      cases[2].comp.push_back(static_cast<MatchKey>(i + 1));
      cases[2].comp.push_back(0);
    }
  }
  cases[3].name = "staircase";
  size_t len = 1;
  while ((len + 1) * (len + 2) / 2 + len + 1 <= n) ++len;
  for (size_t run = len; run > 0; --run) {
    cases[3].base.insert(cases[3].base.end(), run, 0);
    cases[3].base.push_back(1);
    cases[3].comp.insert(cases[3].comp.end(), run, 0);
    cases[3].comp.push_back(2);
  }
  for (const Case& c : cases) {
    std::printf("adversarial %s: base %zu x comparison %zu keys\n", c.name, c.base.size(),
                c.comp.size());
    TimeOne("26.1 difflib SequenceMatcher:",
            [&] { return pa::MatchSequenceMatcher(c.base, c.comp, GapOrder::kBaseFirst); });
  }
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

std::optional<std::vector<MatchKey>> ParseKeys(const std::string& line) {
  std::vector<MatchKey> keys;
  std::istringstream in(line);
  std::string token;
  while (in >> token) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(token.c_str(), &end, 10);
    if (end == token.c_str() || *end != '\0' || v > 0xFFFFFFFFUL) return std::nullopt;
    keys.push_back(static_cast<MatchKey>(v));
  }
  return keys;
}

// --pairs ALGORITHM GAP_ORDER: see the file comment.
int PrintPairs(const char* algorithm_name, const char* gap_order_name) {
  namespace pa = profdiff::analysis;
  pa::MatchAlgorithm algorithm;
  if (std::strcmp(algorithm_name, "lcs") == 0) {
    algorithm = pa::MatchAlgorithm::kLcs;
  } else if (std::strcmp(algorithm_name, "reference-compat") == 0) {
    algorithm = pa::MatchAlgorithm::kReferenceCompat;
  } else if (std::strcmp(algorithm_name, "sequence-matcher") == 0) {
    algorithm = pa::MatchAlgorithm::kSequenceMatcher;
  } else if (std::strcmp(algorithm_name, "none") == 0) {
    algorithm = pa::MatchAlgorithm::kNone;
  } else {
    std::fprintf(stderr, "unknown algorithm %s\n", algorithm_name);
    return 2;
  }
  GapOrder gap_order;
  if (std::strcmp(gap_order_name, "comparison-first") == 0) {
    gap_order = GapOrder::kComparisonFirst;
  } else if (std::strcmp(gap_order_name, "base-first") == 0) {
    gap_order = GapOrder::kBaseFirst;
  } else {
    std::fprintf(stderr, "unknown gap order %s\n", gap_order_name);
    return 2;
  }
  std::string base_line, comp_line;
  while (std::getline(std::cin, base_line)) {
    if (!std::getline(std::cin, comp_line)) {
      std::fprintf(stderr, "odd number of input lines\n");
      return 2;
    }
    auto base = ParseKeys(base_line);
    auto comp = ParseKeys(comp_line);
    if (!base || !comp) {
      std::fprintf(stderr, "bad key list\n");
      return 2;
    }
    std::string out;
    for (const MatchPair& p : pa::MatchSequences(algorithm, *base, *comp, gap_order)) {
      if (!out.empty()) out += ' ';
      out += p.base == pa::kNoIndex ? "-" : std::to_string(p.base);
      out += ',';
      out += p.comparison == pa::kNoIndex ? "-" : std::to_string(p.comparison);
    }
    std::cout << out << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--pairs") == 0) {
    if (argc != 4) {
      std::fprintf(stderr, "usage: match_bench --pairs ALGORITHM GAP_ORDER < cases\n");
      return 2;
    }
    return PrintPairs(argv[2], argv[3]);
  }
  size_t n = 100000;
  int arg = 1;
  const bool adversarial = argc > arg && std::strcmp(argv[arg], "--adversarial") == 0;
  if (adversarial) ++arg;
  if (argc > arg && std::isdigit(static_cast<unsigned char>(argv[arg][0]))) n = std::strtoull(argv[arg++], nullptr, 10);
  if (adversarial) {
    Adversarial(n);
    return 0;
  }
  Synthetic(n);
  if (argc >= arg + 2) return Traces(argv[arg], argv[arg + 1]);
  return 0;
}
