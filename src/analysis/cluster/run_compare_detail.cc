// CompareCollectives, CompareStages, CompareRankPercentiles, CompareRunDetails
// (run_compare_detail.h).
#include "profdiff/analysis/cluster/run_compare_detail.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

namespace profdiff::analysis {
namespace {

int64_t Abs(int64_t v) { return v < 0 ? -v : v; }

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A run's matched collectives by group: the groups in order of first appearance.
struct GroupedCollectives {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const MatchedCollective*>> by_group;
};

GroupedCollectives Grouped(const CollectiveMatching& m) {
  GroupedCollectives g;
  for (const MatchedCollective& c : m.collectives) {
    auto [it, inserted] = g.by_group.try_emplace(c.group);
    if (inserted) g.order.push_back(c.group);
    it->second.push_back(&c);
  }
  return g;
}

// The ranks whose collectives keep their names as their kind (GPU ranks: kernel names).
std::set<int64_t> GpuRanks(const std::vector<RankSummary>& ranks) {
  std::set<int64_t> out;
  for (const RankSummary& r : ranks)
    if (r.device == DeviceKind::kGpu) out.insert(r.rank);
  return out;
}

CollectiveSide Measure(const MatchedCollective& c, const std::set<int64_t>& gpu) {
  return MeasureCollective(c, !c.arrivals.empty() && gpu.count(c.arrivals.front().rank) > 0);
}

void Add(CollectiveTotals& t, const CollectiveSide& s) {
  ++t.count;
  t.transfer_ns += s.transfer_ns;
  t.skew_ns += s.skew_ns;
  t.wait_ns += s.wait_ns;
}

// Rolls a group's collectives of one run up by kind into `kinds`, whose entries from `first` on are
// the group's (new kinds appended in order).
void RollUp(const std::string& group, const std::vector<CollectiveSide>& sides,
            CollectiveTotals CollectiveKindChange::*side, size_t first, std::vector<CollectiveKindChange>& kinds) {
  for (const CollectiveSide& s : sides) {
    auto it = std::find_if(kinds.begin() + static_cast<std::ptrdiff_t>(first), kinds.end(),
                           [&](const CollectiveKindChange& k) { return k.kind == s.kind; });
    if (it == kinds.end()) {
      kinds.push_back({group, s.kind, {}, {}});
      it = kinds.end() - 1;
    }
    Add((*it).*side, s);
  }
}

// The notes on one group: in one run only, different counts, different kinds at the same position.
void GroupNotes(const CollectiveGroupChange& g, const std::string& first_differ, std::vector<std::string>& notes) {
  if (g.base_collectives == 0 || g.comparison_collectives == 0) {
    const bool base = g.comparison_collectives == 0;
    notes.push_back(
        fmt::format("collective group {} is in the {} run only ({} collective{}): not compared collective "
                    "by collective",
                    g.group, base ? "base" : "comparison", base ? g.base_collectives : g.comparison_collectives,
                    (base ? g.base_collectives : g.comparison_collectives) == 1 ? "" : "s"));
    return;
  }
  if (g.base_collectives != g.comparison_collectives)
    notes.push_back(
        fmt::format("collective group {}: the base run has {} collectives, the comparison {}: the first {} "
                    "are compared by position",
                    g.group, g.base_collectives, g.comparison_collectives, g.matched));
  if (g.kinds_differ > 0)
    notes.push_back(
        fmt::format("collective group {}: at {} of the {} compared positions the runs' collectives are of "
                    "different kinds ({})",
                    g.group, g.kinds_differ, g.matched, first_differ));
}

}  // namespace

std::string CollectiveKind(std::string_view name, bool as_written) {
  if (as_written) return std::string(name);
  size_t end = name.size();
  bool dropped = false;
  for (;;) {
    size_t j = end;
    while (j > 0 && IsDigit(name[j - 1])) --j;
    if (j == end || j == 0 || name[j - 1] != '_') break;
    end = j - 1;  // "_<digits>" dropped
    dropped = true;
  }
  if (dropped)
    while (end > 0 && name[end - 1] == '_') --end;
  return end == 0 ? std::string(name) : std::string(name.substr(0, end));
}

CollectiveSide MeasureCollective(const MatchedCollective& c, bool as_written) {
  CollectiveSide s;
  s.name = c.name;
  s.kind = CollectiveKind(c.name, as_written);
  s.ranks = static_cast<int64_t>(c.arrivals.size());
  s.skew_ns = c.skew_ns;
  s.last_rank = c.last_rank;
  if (c.arrivals.empty()) return s;
  int64_t last_arrival = c.arrivals.front().start_ns, latest_end = c.arrivals.front().end_ns;
  for (const CollectiveArrival& a : c.arrivals) {
    last_arrival = std::max(last_arrival, a.start_ns);
    latest_end = std::max(latest_end, a.end_ns);
    s.wait_ns += a.wait_ns;
  }
  s.transfer_ns = std::max<int64_t>(0, latest_end - last_arrival);
  return s;
}

CollectiveComparison CompareCollectives(const CollectiveMatching& base, const std::vector<RankSummary>& base_ranks,
                                        const CollectiveMatching& comparison,
                                        const std::vector<RankSummary>& comparison_ranks, size_t top) {
  CollectiveComparison out;
  const GroupedCollectives b = Grouped(base), c = Grouped(comparison);
  const std::set<int64_t> b_gpu = GpuRanks(base_ranks), c_gpu = GpuRanks(comparison_ranks);
  std::vector<std::string> order = b.order;
  for (const std::string& g : c.order)
    if (!b.by_group.count(g)) order.push_back(g);
  const std::vector<const MatchedCollective*> none;
  std::vector<CollectiveChange> changes;
  for (const std::string& group : order) {
    auto bi = b.by_group.find(group);
    auto ci = c.by_group.find(group);
    const auto& b_ops = bi == b.by_group.end() ? none : bi->second;
    const auto& c_ops = ci == c.by_group.end() ? none : ci->second;
    CollectiveGroupChange g{group, static_cast<int64_t>(b_ops.size()), static_cast<int64_t>(c_ops.size()),
                            static_cast<int64_t>(std::min(b_ops.size(), c_ops.size())), 0};
    std::vector<CollectiveSide> b_sides, c_sides;  // each collective measured once
    for (const MatchedCollective* op : b_ops) b_sides.push_back(Measure(*op, b_gpu));
    for (const MatchedCollective* op : c_ops) c_sides.push_back(Measure(*op, c_gpu));
    std::string first_differ;
    for (size_t k = 0; k < static_cast<size_t>(g.matched); ++k) {
      CollectiveChange ch{group, static_cast<int64_t>(k), b_sides[k], c_sides[k]};
      if (ch.base.kind != ch.comparison.kind && g.kinds_differ++ == 0)
        first_differ = fmt::format("first at position {}: {} in the base, {} in the comparison", k, ch.base.kind,
                                   ch.comparison.kind);
      changes.push_back(std::move(ch));
    }
    const size_t first = out.kinds.size();
    RollUp(group, b_sides, &CollectiveKindChange::base, first, out.kinds);
    RollUp(group, c_sides, &CollectiveKindChange::comparison, first, out.kinds);
    GroupNotes(g, first_differ, out.notes);
    out.matched += g.matched;
    out.groups.push_back(std::move(g));
  }
  std::erase_if(changes, [](const CollectiveChange& ch) { return ch.ChangeNs() == 0; });
  std::stable_sort(changes.begin(), changes.end(), [](const CollectiveChange& x, const CollectiveChange& y) {
    return Abs(x.ChangeNs()) > Abs(y.ChangeNs());
  });
  if (changes.size() > top) changes.resize(top);
  out.top = std::move(changes);
  return out;
}

namespace {

// A step table's stage rows: the stages in order of first appearance, each row by (step, stage).
struct StageRows {
  std::vector<std::vector<int64_t>> stages;
  std::map<std::pair<std::string, std::vector<int64_t>>, const ClusterStepRow*> rows;
};

StageRows StagesOf(const ClusterStepTable& t) {
  StageRows out;
  for (const ClusterStepRow& r : t.rows) {
    if (!r.stage) continue;
    if (std::find(out.stages.begin(), out.stages.end(), r.ranks) == out.stages.end()) out.stages.push_back(r.ranks);
    out.rows.try_emplace({r.step, r.ranks}, &r);
  }
  return out;
}

std::optional<size_t> ColumnIndex(const ClusterStepTable& t, std::string_view column) {
  for (size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i] == column) return i;
  return std::nullopt;
}

int64_t ValueAt(const ClusterStepRow& r, size_t i) { return i < r.values_ns.size() ? r.values_ns[i] : kAbsentNs; }

std::string NoStagesReason(size_t base_stages, size_t comparison_stages) {
  constexpr const char* kWhy = "no stage rows in its step table: no pipeline-parallel communication groups";
  if (base_stages == 0 && comparison_stages == 0) return fmt::format("neither run has pipeline stages ({})", kWhy);
  return fmt::format("the {} run has no pipeline stages ({}), the {} has {}: nothing to compare stage by stage",
                     base_stages == 0 ? "base" : "comparison", kWhy, base_stages == 0 ? "comparison" : "base",
                     std::max(base_stages, comparison_stages));
}

}  // namespace

StageComparison CompareStages(const ClusterStepTable& base, const ClusterStepTable& comparison,
                              const std::vector<StepComparison>& steps) {
  StageComparison out;
  const StageRows b = StagesOf(base), c = StagesOf(comparison);
  out.base_stages = static_cast<int64_t>(b.stages.size());
  out.comparison_stages = static_cast<int64_t>(c.stages.size());
  if (b.stages.empty() || c.stages.empty()) {
    out.not_compared_because = NoStagesReason(b.stages.size(), c.stages.size());
    return out;
  }
  std::vector<std::pair<size_t, size_t>> at;  // each column's index in the two tables
  for (std::string_view col : {kColComputing, kColCommNotOverlapped, kColFree, kColStage, kColBubble}) {
    const auto bi = ColumnIndex(base, col), ci = ColumnIndex(comparison, col);
    if (!bi || !ci) continue;
    out.columns.emplace_back(col);
    at.emplace_back(*bi, *ci);
  }
  if (b.stages.size() != c.stages.size())
    out.notes.push_back(fmt::format(
        "the base run has {} pipeline stage{}, the comparison {}: the first {} are "
        "compared in order",
        b.stages.size(), b.stages.size() == 1 ? "" : "s", c.stages.size(), std::min(b.stages.size(), c.stages.size())));
  for (size_t k = 0; k < std::min(b.stages.size(), c.stages.size()); ++k) {
    StageChange st{static_cast<int64_t>(k), b.stages[k], c.stages[k], 0, {}};
    std::vector<std::pair<int64_t, int64_t>> sums(at.size(), {0, 0});
    for (const std::string& col : out.columns) st.columns.push_back({col, 0, kAbsentNs, kAbsentNs});
    for (const StepComparison& s : steps) {
      auto rb = b.rows.find({s.base.step, b.stages[k]});
      auto rc = c.rows.find({s.comparison.step, c.stages[k]});
      if (rb == b.rows.end() || rc == c.rows.end()) continue;
      ++st.steps;
      for (size_t i = 0; i < at.size(); ++i) {
        const int64_t vb = ValueAt(*rb->second, at[i].first), vc = ValueAt(*rc->second, at[i].second);
        if (vb == kAbsentNs || vc == kAbsentNs) continue;
        ++st.columns[i].steps;
        sums[i].first += vb;
        sums[i].second += vc;
      }
    }
    for (size_t i = 0; i < at.size(); ++i) {
      StageColumnChange& col = st.columns[i];
      if (col.steps == 0) continue;
      col.base_ns = sums[i].first / col.steps;
      col.comparison_ns = sums[i].second / col.steps;
    }
    out.stages.push_back(std::move(st));
  }
  return out;
}

size_t NearestRankIndex(size_t n, int pct) {
  const size_t pos = (static_cast<size_t>(std::clamp(pct, 0, 100)) * n + 99) / 100;  // ceil(pct × n / 100)
  return pos == 0 ? 0 : std::min(pos, n) - 1;
}

namespace {

// Each rank's means over the compared steps of one run (ranks without one left out).
std::vector<std::pair<int64_t, RankStepTimes>> RankMeans(const std::vector<RankSummary>& ranks,
                                                         const std::set<std::string>& steps) {
  std::vector<std::pair<int64_t, RankStepTimes>> out;
  for (const RankSummary& r : ranks) {
    RankStepTimes sum;
    int64_t n = 0;
    std::set<std::string> seen;
    for (const RankStep& s : r.steps) {
      if (!steps.count(s.step) || !seen.insert(s.step).second) continue;
      const std::optional<RankStepTimes> v = RankStepTimesOf(r, s);
      if (!v) continue;
      ++n;
      sum.step_ns += v->step_ns;
      sum.computing_ns += v->computing_ns;
      sum.communication_ns += v->communication_ns;
      sum.free_ns += v->free_ns;
    }
    if (n == 0) continue;
    out.emplace_back(r.rank,
                     RankStepTimes{sum.step_ns / n, sum.computing_ns / n, sum.communication_ns / n, sum.free_ns / n});
  }
  return out;
}

// One metric's values of a run, (value, rank) ascending.
std::vector<std::pair<int64_t, int64_t>> Sorted(const std::vector<std::pair<int64_t, RankStepTimes>>& means,
                                                int64_t RankStepTimes::*metric) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& [rank, v] : means) out.emplace_back(v.*metric, rank);
  std::sort(out.begin(), out.end());
  return out;
}

// The value at `i` of `sorted` and the lowest rank that holds it.
std::pair<int64_t, int64_t> Holder(const std::vector<std::pair<int64_t, int64_t>>& sorted, size_t i) {
  const std::pair<int64_t, int64_t> first_of_value{sorted[i].first, std::numeric_limits<int64_t>::min()};
  return *std::lower_bound(sorted.begin(), sorted.end(), first_of_value);
}

}  // namespace

RankPercentiles CompareRankPercentiles(const std::vector<RankSummary>& base, const std::vector<RankSummary>& comparison,
                                       const std::vector<StepComparison>& steps) {
  std::set<std::string> b_steps, c_steps;
  for (const StepComparison& s : steps) {
    b_steps.insert(s.base.step);
    c_steps.insert(s.comparison.step);
  }
  const auto b = RankMeans(base, b_steps), c = RankMeans(comparison, c_steps);
  RankPercentiles out;
  out.base_ranks = static_cast<int64_t>(b.size());
  out.comparison_ranks = static_cast<int64_t>(c.size());
  if (b.empty() || c.empty()) return out;
  const std::tuple<const char*, int64_t RankStepTimes::*> metrics[] = {
      {"step", &RankStepTimes::step_ns},
      {"computing", &RankStepTimes::computing_ns},
      {"communication", &RankStepTimes::communication_ns},
      {"free", &RankStepTimes::free_ns}};
  const std::pair<const char*, int> stats[] = {{"min", 0}, {"p50", 50}, {"p90", 90}, {"max", 100}};
  for (const auto& [metric, field] : metrics) {
    const auto bs = Sorted(b, field), cs = Sorted(c, field);
    for (const auto& [stat, pct] : stats) {
      const auto vb = Holder(bs, NearestRankIndex(bs.size(), pct));
      const auto vc = Holder(cs, NearestRankIndex(cs.size(), pct));
      out.rows.push_back({metric, stat, vb.first, vc.first, vb.second, vc.second});
    }
  }
  return out;
}

RunDetailComparison CompareRunDetails(const ClusterRunComparison& cmp, const RunDetailInputs& base,
                                      const RunDetailInputs& comparison, size_t top) {
  RunDetailComparison out;
  out.collectives = CompareCollectives(base.collectives, base.ranks, comparison.collectives, comparison.ranks, top);
  out.stages = CompareStages(base.step_table, comparison.step_table, cmp.steps);
  out.percentiles = CompareRankPercentiles(base.ranks, comparison.ranks, cmp.steps);
  out.notes = out.collectives.notes;
  out.notes.insert(out.notes.end(), out.stages.notes.begin(), out.stages.notes.end());
  if ((out.stages.base_stages == 0) != (out.stages.comparison_stages == 0))
    out.notes.push_back(out.stages.not_compared_because);
  if (!cmp.base_only_ranks.empty() || !cmp.comparison_only_ranks.empty()) {
    out.rank_sets_note = fmt::format(
        "the runs have different ranks ({} in the base, {} in the comparison): ranks are matched "
        "by id only where "
        "both runs have them (the per-rank rows); the rank percentiles compare the whole runs{}",
        base.ranks.size(), comparison.ranks.size(),
        out.stages.stages.empty() ? ""
                                  : ", and the stages compare roles (stage k of the base with stage k of the "
                                    "comparison, whatever their ranks)");
    out.notes.push_back(out.rank_sets_note);
  }
  return out;
}

}  // namespace profdiff::analysis
