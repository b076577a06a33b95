// The two-run detail in the cluster JSON and on the screen (run_detail_report.h).
#include "run_detail_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "profdiff/base/time.h"
#include "profdiff/report/cluster/cluster_report.h"

namespace profdiff::report {
namespace {

OrderedJson NsOrNull(int64_t ns) { return ns == kAbsentNs ? OrderedJson(nullptr) : OrderedJson(ns); }

OrderedJson TotalsJson(const analysis::CollectiveTotals& t) {
  return {{"count", t.count}, {"transfer_ns", t.transfer_ns}, {"skew_ns", t.skew_ns}, {"wait_ns", t.wait_ns}};
}

OrderedJson SideJson(const analysis::CollectiveSide& s) {
  return {{"name", s.name},       {"kind", s.kind},           {"ranks", s.ranks},    {"transfer_ns", s.transfer_ns},
          {"skew_ns", s.skew_ns}, {"last_rank", s.last_rank}, {"wait_ns", s.wait_ns}};
}

OrderedJson CollectivesJson(const analysis::CollectiveComparison& c) {
  OrderedJson groups = OrderedJson::array();
  for (const analysis::CollectiveGroupChange& g : c.groups)
    groups.push_back({{"group", g.group},
                      {"base_collectives", g.base_collectives},
                      {"comparison_collectives", g.comparison_collectives},
                      {"matched", g.matched},
                      {"kinds_differ", g.kinds_differ}});
  OrderedJson kinds = OrderedJson::array();
  for (const analysis::CollectiveKindChange& k : c.kinds) {
    const analysis::CollectiveTotals& b = k.base;
    const analysis::CollectiveTotals& m = k.comparison;
    kinds.push_back({{"group", k.group},
                     {"kind", k.kind},
                     {"base", TotalsJson(b)},
                     {"comparison", TotalsJson(m)},
                     {"delta", TotalsJson({m.count - b.count, m.transfer_ns - b.transfer_ns, m.skew_ns - b.skew_ns,
                                           m.wait_ns - b.wait_ns})}});
  }
  return {{"matched", c.matched}, {"groups", groups}, {"kinds", kinds}};
}

OrderedJson TopJson(const analysis::CollectiveComparison& c) {
  OrderedJson top = OrderedJson::array();
  for (const analysis::CollectiveChange& ch : c.top)
    top.push_back({{"group", ch.group},
                   {"index", ch.index},
                   {"change_ns", ch.ChangeNs()},
                   {"base", SideJson(ch.base)},
                   {"comparison", SideJson(ch.comparison)},
                   {"delta",
                    {{"transfer_ns", ch.comparison.transfer_ns - ch.base.transfer_ns},
                     {"skew_ns", ch.comparison.skew_ns - ch.base.skew_ns},
                     {"wait_ns", ch.comparison.wait_ns - ch.base.wait_ns}}}});
  return top;
}

OrderedJson StagesJson(const analysis::StageComparison& s) {
  OrderedJson items = OrderedJson::array();
  for (const analysis::StageChange& st : s.stages) {
    OrderedJson values = OrderedJson::array();
    for (const analysis::StageColumnChange& c : st.columns)
      values.push_back({{"column", c.column},
                        {"steps", c.steps},
                        {"base_ns", NsOrNull(c.base_ns)},
                        {"comparison_ns", NsOrNull(c.comparison_ns)},
                        {"delta_ns", c.steps == 0 ? OrderedJson(nullptr) : OrderedJson(c.comparison_ns - c.base_ns)}});
    items.push_back({{"stage", st.stage},
                     {"base_ranks", st.base_ranks},
                     {"comparison_ranks", st.comparison_ranks},
                     {"steps", st.steps},
                     {"values", values}});
  }
  return {{"base_stages", s.base_stages},
          {"comparison_stages", s.comparison_stages},
          {"columns", s.columns},
          {"not_compared_because",
           s.not_compared_because.empty() ? OrderedJson(nullptr) : OrderedJson(s.not_compared_because)},
          {"items", items}};
}

OrderedJson PercentilesJson(const analysis::RunDetailComparison& d) {
  const analysis::RankPercentiles& p = d.percentiles;
  OrderedJson rows = OrderedJson::array();
  for (const analysis::PercentileRow& r : p.rows)
    rows.push_back({{"metric", r.metric},
                    {"stat", r.stat},
                    {"base_ns", r.base_ns},
                    {"base_rank", r.base_rank},
                    {"comparison_ns", r.comparison_ns},
                    {"comparison_rank", r.comparison_rank},
                    {"delta_ns", r.comparison_ns - r.base_ns}});
  return {{"method", "nearest-rank"},
          {"base_ranks", p.base_ranks},
          {"comparison_ranks", p.comparison_ranks},
          {"note", d.rank_sets_note.empty() ? OrderedJson(nullptr) : OrderedJson(d.rank_sets_note)},
          {"rows", rows}};
}

std::string Ms(int64_t ns) { return fmt::format("{:.3f} ms", NsToMs(ns)); }
std::string Signed(int64_t ns) { return fmt::format("{:+.3f} ms", NsToMs(ns)); }

// A kind for the screen: a kernel's name without its argument list (the JSON has it whole).

// The group × kind whose transfer or skew grew most; when none grew, the one that shrank most.
std::string CollectivesLine(const analysis::CollectiveComparison& c) {
  if (c.kinds.empty()) return "";
  const analysis::CollectiveKindChange *grew = nullptr, *shrank = nullptr;
  int64_t most = 0, least = 0;
  bool grew_skew = false, shrank_skew = false;
  for (const analysis::CollectiveKindChange& k : c.kinds) {
    const int64_t dt = k.comparison.transfer_ns - k.base.transfer_ns, ds = k.comparison.skew_ns - k.base.skew_ns;
    if (std::max(dt, ds) > most) grew = &k, most = std::max(dt, ds), grew_skew = ds >= dt;
    if (std::min(dt, ds) < least) shrank = &k, least = std::min(dt, ds), shrank_skew = ds <= dt;
  }
  const analysis::CollectiveKindChange* k = grew != nullptr ? grew : shrank;
  const bool skew = grew != nullptr ? grew_skew : shrank_skew;
  if (k == nullptr)
    return fmt::format("  collectives ({} compared by group and position): no transfer or skew changed\n", c.matched);
  const analysis::CollectiveTotals& b = k->base;
  const analysis::CollectiveTotals& m = k->comparison;
  return fmt::format("  collectives: {}the {} of {} in {} {} most: {} ({} -> {} collectives; {} {}, wait {})\n",
                     grew != nullptr ? "" : "none grew; ", skew ? "skew" : "transfer", ScreenName(k->kind), k->group,
                     grew != nullptr ? "grew" : "shrank", Signed(grew != nullptr ? most : least), b.count, m.count,
                     skew ? "transfer" : "skew", Signed(skew ? m.transfer_ns - b.transfer_ns : m.skew_ns - b.skew_ns),
                     Signed(m.wait_ns - b.wait_ns));
}

// A stage's growth: its largest column change (nullopt when no column is known in both runs).
std::optional<int64_t> StageGrowth(const analysis::StageChange& st) {
  std::optional<int64_t> most;
  for (const analysis::StageColumnChange& c : st.columns)
    if (c.steps > 0) most = std::max(most.value_or(c.comparison_ns - c.base_ns), c.comparison_ns - c.base_ns);
  return most;
}

std::string StagesLine(const analysis::StageComparison& s) {
  if (s.stages.empty())
    return s.base_stages == 0 && s.comparison_stages == 0 ? "" : "  stages: " + s.not_compared_because + "\n";
  const analysis::StageChange* best = nullptr;
  int64_t grew = 0;
  for (const analysis::StageChange& st : s.stages) {
    const std::optional<int64_t> g = StageGrowth(st);
    if (g && *g > grew) best = &st, grew = *g;
  }
  if (best == nullptr) return fmt::format("  stages ({} compared in order): no stage grew\n", s.stages.size());
  std::string values;
  for (const analysis::StageColumnChange& c : best->columns)
    if (c.steps > 0 && c.comparison_ns != c.base_ns)
      values += fmt::format("{}{} {}", values.empty() ? "" : ", ", c.column, Signed(c.comparison_ns - c.base_ns));
  const std::string b = RankRangesText(best->base_ranks), c = RankRangesText(best->comparison_ranks);
  return fmt::format("  stages: stage {} (ranks {}) grew most: {}\n", best->stage,
                     b == c ? b : fmt::format("{} in the base, {} in the comparison", b, c), values);
}

std::string PercentilesLine(const analysis::RunDetailComparison& d) {
  const analysis::RankPercentiles& p = d.percentiles;
  if (d.rank_sets_note.empty() || p.rows.empty()) return "";
  std::string out = fmt::format("  ranks by percentile (different ranks: {} in the base, {} in the comparison): step",
                                p.base_ranks, p.comparison_ranks);
  for (const analysis::PercentileRow& r : p.rows)
    if (r.metric == "step" && (r.stat == "p50" || r.stat == "max"))
      out += fmt::format(" {} {} -> {} ({})", r.stat, Ms(r.base_ns), Ms(r.comparison_ns),
                         Signed(r.comparison_ns - r.base_ns));
  return out + "\n";
}

}  // namespace

void AddRunDetailJson(const analysis::RunDetailComparison& d, OrderedJson& run_comparison) {
  run_comparison["collectives"] = CollectivesJson(d.collectives);
  run_comparison["top_collectives"] = TopJson(d.collectives);
  run_comparison["stages"] = StagesJson(d.stages);
  run_comparison["rank_percentiles"] = PercentilesJson(d);
  run_comparison["notes"] = d.notes;
}

std::string ScreenName(const std::string& name) {
  constexpr size_t kMax = 80;
  const size_t paren = name.find('(');
  std::string out = paren != std::string::npos && paren > 0 ? name.substr(0, paren) : name;
  if (out.size() <= kMax) return out;
  size_t cut = kMax - 3;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // not inside a code point
  return out.substr(0, cut) + "...";
}

std::string RunDetailScreen(const analysis::RunDetailComparison& d) {
  return CollectivesLine(d.collectives) + StagesLine(d.stages) + PercentilesLine(d);
}

}  // namespace profdiff::report
