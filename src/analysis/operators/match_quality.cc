#include "profdiff/analysis/operators/match_quality.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>

namespace profdiff::analysis {
namespace {

// Unmatched operators per name on one side, heaviest (device time) first.
std::vector<UnmatchedName> Unmatched(const OperatorComparison& oc, bool base) {
  std::map<std::string, UnmatchedName> by_name;
  for (const OperatorRow& r : oc.operator_rows) {
    const OperatorSide& s = base ? r.base : r.comparison;
    const OperatorSide& other = base ? r.comparison : r.base;
    if (!s.present || other.present) continue;
    UnmatchedName& u = by_name[std::string(s.name)];
    u.name = std::string(s.name);
    ++u.count;
    u.device_ns += s.device.Ns();
  }
  std::vector<UnmatchedName> out;
  for (auto& [name, u] : by_name) out.push_back(std::move(u));
  std::stable_sort(out.begin(), out.end(), [](const UnmatchedName& a, const UnmatchedName& b) {
    return a.device_ns != b.device_ns ? a.device_ns > b.device_ns : a.count > b.count;
  });
  return out;
}

// An operator name without what differs between frameworks and versions: the namespace
// ("aten::", "npu::"), vendor words, an autograd suffix digit ("Backward0"), separators and case.
constexpr std::string_view kAutogradWrapper = "autograd::engine::evaluate_function: ";

std::string Canonical(std::string_view name) {
  if (name.starts_with(kAutogradWrapper)) name.remove_prefix(kAutogradWrapper.size());
  if (size_t colon = name.rfind("::"); colon != std::string_view::npos) name = name.substr(colon + 2);
  std::string s;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c))) s.push_back(static_cast<char>(std::tolower(c)));
  for (std::string_view vendor : {"cudnn", "mkldnn", "miopen", "npu", "cuda", "native"}) {
    if (s.starts_with(vendor) && s.size() > vendor.size() + 2) s.erase(0, vendor.size());
  }
  while (!s.empty() && std::isdigit(static_cast<unsigned char>(s.back())) && s.size() > 1 &&
         !std::isdigit(static_cast<unsigned char>(s[s.size() - 2])))
    s.pop_back();
  return s;
}

// Names that differ only by '_': "aten::detach" against "aten::detach_" is an out-of-place op
// against its in-place twin, not a rename.
bool OnlyUnderscoresDiffer(std::string_view a, std::string_view b) {
  auto strip = [](std::string_view s) {
    std::string out;
    for (char c : s)
      if (c != '_') out.push_back(c);
    return out;
  };
  return strip(a) == strip(b);
}

inline constexpr size_t kMaxTrials = 2 * kHeaviestUnmatched;

// Candidate pairs: a heavy unmatched base name and the only unmatched comparison name with the same
// canonical form (and no other base name sharing that form), both with device time.
std::vector<NameMapSuggestion> Candidates(const std::vector<UnmatchedName>& base,
                                          const std::vector<UnmatchedName>& comparison) {
  std::map<std::string, std::vector<const UnmatchedName*>> base_by, comparison_by;
  for (const UnmatchedName& u : base) base_by[Canonical(u.name)].push_back(&u);
  for (const UnmatchedName& u : comparison) comparison_by[Canonical(u.name)].push_back(&u);
  std::vector<NameMapSuggestion> out;
  for (const UnmatchedName& u : base) {
    if (out.size() == kMaxTrials) break;
    const std::string key = Canonical(u.name);
    auto it = comparison_by.find(key);
    if (key.empty() || it == comparison_by.end() || it->second.size() != 1 || base_by[key].size() != 1) continue;
    const UnmatchedName& c = *it->second.front();
    if (u.device_ns <= 0 || c.device_ns <= 0 || OnlyUnderscoresDiffer(u.name, c.name)) continue;
    out.push_back({u.name, c.name});
  }
  return out;
}

// The candidates that raise the match count, each tried on top of those kept before it.
void TryCandidates(std::vector<NameMapSuggestion> candidates, const NameMapTrial& trial, MatchQuality& q) {
  if (!trial) return;
  PairingOutcome now{q.matched, q.wrappers_drilled.base + q.wrappers_drilled.comparison};
  for (NameMapSuggestion& c : candidates) {
    if (q.suggestions.size() == kHeaviestUnmatched) break;
    q.suggestions.push_back(c);
    const PairingOutcome with = trial(q.suggestions);
    if (with.matched <= now.matched) {
      q.suggestions.pop_back();
      ++q.suggestions_refused;
      continue;
    }
    q.suggestions.back().matched_gain = with.matched - now.matched;
    q.suggestions.back().wrappers_no_longer_drilled =
        with.wrappers_drilled < now.wrappers_drilled ? now.wrappers_drilled - with.wrappers_drilled : 0;
    now = with;
  }
}

std::string Percent(uint64_t part, uint64_t whole) {
  return whole == 0 ? std::string("n/a") : fmt::format("{:.1f} %", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string NameList(const std::vector<UnmatchedName>& names) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < kHeaviestUnmatched; ++i)
    out += fmt::format("{}'{}' ×{} ({:.3f} ms)", i ? ", " : "", names[i].name, names[i].count,
                       static_cast<double>(names[i].device_ns) / 1e6);
  return out.empty() ? "none" : out;
}

// Whether a side's unmatched operators are autograd wrappers ("autograd::engine::evaluate_function: X").
bool HasAutogradWrappers(const std::vector<UnmatchedName>& names) {
  return std::any_of(names.begin(), names.end(),
                     [](const UnmatchedName& u) { return u.name.starts_with(kAutogradWrapper); });
}

// Why few operators matched, as far as the names tell: wrappers on one side only, the same operators
// renamed, very different numbers of operators, or simply other operators.
std::string Reasons(const MatchQuality& q, const std::vector<UnmatchedName>& base,
                    const std::vector<UnmatchedName>& comparison) {
  std::vector<std::string> why;
  const bool bw = HasAutogradWrappers(base), cw = HasAutogradWrappers(comparison);
  if (bw != cw) {
    why.push_back(fmt::format("autograd wrappers: the {} side records backward operators as '{}<op>', the "
                              "other side records the op itself",
                              bw ? "base" : "comparison", kAutogradWrapper));
  }
  if (!q.suggestions.empty()) why.push_back("naming drift: the same operators carry other names on the two sides");
  const uint64_t few = std::min(q.base_items, q.comparison_items), many = std::max(q.base_items, q.comparison_items);
  if (few > 0 && 5 * few <= many) {
    why.push_back(fmt::format("the {} side has {} top-level operators against {} (a shorter capture, or "
                              "annotations wrapping its operators)",
                              q.base_items < q.comparison_items ? "base" : "comparison", few, many));
  }
  if (why.empty()) why.push_back("the two sides run different operators (another model, framework version or step?)");
  std::string out;
  for (const std::string& w : why) out += (out.empty() ? "" : "; ") + w;
  return out;
}

}  // namespace

MatchQuality AssessMatchQuality(const OperatorComparison& oc, const NameMapTrial& trial) {
  MatchQuality q;
  if (oc.kind != OperatorCompareKind::kOperator || !oc.details) return q;
  q.base_items = oc.base_items;
  q.comparison_items = oc.comparison_items;
  q.matched = oc.matched;
  q.wrappers_drilled = oc.wrappers_drilled;
  q.low = (q.base_items > 0 && 2 * q.matched < q.base_items) ||
          (q.comparison_items > 0 && 2 * q.matched < q.comparison_items);
  if (!q.low) return q;
  std::vector<UnmatchedName> base = Unmatched(oc, true), comparison = Unmatched(oc, false);
  TryCandidates(Candidates(base, comparison), trial, q);
  q.reason = Reasons(q, base, comparison);
  if (base.size() > kHeaviestUnmatched) base.resize(kHeaviestUnmatched);
  if (comparison.size() > kHeaviestUnmatched) comparison.resize(kHeaviestUnmatched);
  q.base_unmatched = std::move(base);
  q.comparison_unmatched = std::move(comparison);
  return q;
}

std::string MatchQualityWarning(const MatchQuality& q) {
  if (!q.low) return {};
  const std::string drilled =
      q.wrappers_drilled.base + q.wrappers_drilled.comparison == 0
          ? std::string()
          : fmt::format(", after drilling into {} base and {} comparison wrapper(s)", q.wrappers_drilled.base,
                        q.wrappers_drilled.comparison);
  std::string w = fmt::format(
      "operator matching: only {} of {} base and {} of {} comparison operators matched ({}, {}){}; "
      "likely causes: {}. Heaviest unmatched: base {}; comparison {}",
      q.matched, q.base_items, q.matched, q.comparison_items, Percent(q.matched, q.base_items),
      Percent(q.matched, q.comparison_items), drilled, q.reason, NameList(q.base_unmatched),
      NameList(q.comparison_unmatched));
  if (!q.suggestions.empty()) {
    std::string map;
    for (const NameMapSuggestion& s : q.suggestions) map += (map.empty() ? "" : ",") + fmt::format("'{}':'{}'", s.base, s.comparison);
    uint64_t gain = 0;
    std::string whole;  // the wrappers a suggestion matches whole instead of drilling into them
    for (const NameMapSuggestion& s : q.suggestions) {
      gain += s.matched_gain;
      if (s.wrappers_no_longer_drilled == 0) continue;
      whole += fmt::format("{}{} with '{}'", whole.empty() ? "" : ", ", s.wrappers_no_longer_drilled, s.base);
    }
    w += fmt::format(". Try --op_name_map \"{{{}}}\": tried, it matches {} more operator(s)", map, gain);
    if (!whole.empty()) {
      w += fmt::format("; the pairing then drills into fewer wrappers ({}): their operators are compared as one "
                       "row each, no longer one by one",
                       whole);
    }
  }
  if (q.suggestions_refused > 0) {
    w += fmt::format(" ({} other similar name pair(s) were tried and left out: they match no more operators)",
                     q.suggestions_refused);
  }
  return w;
}

}  // namespace profdiff::analysis
