// cluster_step_trace_time.csv, the cluster JSON result and the screen summary (cluster_report.h).
#include "profdiff/report/cluster/cluster_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include "profdiff/base/time.h"
#include "profdiff/report/csv_writer.h"
#include "profdiff/report/json_report.h"
#include "profdiff/report/screen.h"
#include "profdiff/report/python_float.h"
#include "run_detail_report.h"

namespace profdiff::report {
namespace {

std::string CellText(int64_t ns, double us_float, const analysis::ReferencePolicy& policy) {
  if (policy.cluster_step_values_as_python_floats) {
    if (!std::isnan(us_float)) return PyFloatRepr(us_float);
    return ns == kAbsentNs ? std::string() : PyFloatRepr(NsToUs(ns));
  }
  return ns == kAbsentNs ? std::string() : FormatNsAsMicrosShortest(ns);
}

OrderedJson NsOrNull(int64_t ns) { return ns == kAbsentNs ? OrderedJson(nullptr) : OrderedJson(ns); }

OrderedJson RankJson(const analysis::RankSummary& r) {
  OrderedJson steps = OrderedJson::array();
  for (const analysis::RankStep& s : r.steps) {
    OrderedJson values = OrderedJson::object();
    for (size_t c = 0; c < r.columns.size(); ++c)
      values[r.columns[c]] = NsOrNull(c < s.values_ns.size() ? s.values_ns[c] : kAbsentNs);
    steps.push_back({{"step", s.step}, {"step_time_ns", NsOrNull(s.step_time_ns)}, {"values_ns", values}});
  }
  OrderedJson groups = OrderedJson::array();
  for (const analysis::CommunicationGroupSplit& g : r.groups) {
    groups.push_back({{"group", g.group},
                      {"uncovered_ns", g.uncovered_ns},
                      {"transmit_ns", g.transmit_ns},
                      {"wait_ns", g.wait_ns},
                      {"idle_ns", g.idle_ns}});
  }
  return {{"rank", r.rank},
          {"export", r.export_kind},
          {"path", r.source_path},
          {"device", std::string(Name(r.device))},
          {"world_size", r.world_size == kNoNumber ? OrderedJson(nullptr) : OrderedJson(r.world_size)},
          {"step_source", std::string(analysis::RankStepSourceName(r.step_source))},
          {"missing", r.missing},
          {"notes", r.notes},
          {"steps", steps},
          {"communication_groups", groups}};
}

OrderedJson StragglerJson(const analysis::StepStraggler& s) {
  OrderedJson waiters = OrderedJson::array();
  for (const analysis::RankWait& w : s.waiters) waiters.push_back({{"rank", w.rank}, {"extra_wait_ns", w.extra_wait_ns}});
  return {{"step", s.step},
          {"ranks", s.ranks},
          {"rank", s.rank},
          {"cause", std::string(analysis::SlowCauseName(s.cause))},
          {"work_ns", s.work_ns},
          {"median_work_ns", s.median_work_ns},
          {"computing_excess_ns", s.computing_excess_ns},
          {"free_excess_ns", s.free_excess_ns},
          {"waiters", waiters},
          {"saving_if_median_ns", s.saving_if_median_ns},
          {"longest_step_rank", s.longest_step_ns == kAbsentNs ? OrderedJson(nullptr) : OrderedJson(s.longest_step_rank)},
          {"longest_step_ns", NsOrNull(s.longest_step_ns)}};
}

std::string Ms(int64_t ns) { return fmt::format("{:.3f} ms", NsToMs(ns)); }

OrderedJson CollectivesJson(const ClusterResult& result) {
  OrderedJson late = OrderedJson::array();
  for (size_t i = 0; i < result.late_ranks.size(); ++i) {
    const analysis::LateRank& l = result.late_ranks[i];
    OrderedJson entry = {{"rank", l.rank}, {"times_last", l.times_last}, {"skew_ns", l.skew_ns}};
    if (i < result.late_causes.size()) {
      const analysis::LateArrivalCause& c = result.late_causes[i];
      OrderedJson kernels = OrderedJson::array();
      for (const analysis::LeadInKernel& k : c.top_kernels) kernels.push_back({{"name", k.name}, {"ns", k.ns}});
      entry["before_arrival"] = {{"cause", c.cause},
                                 {"computing_excess_ns", c.computing_excess_ns},
                                 {"idle_excess_ns", c.idle_excess_ns},
                                 {"unexplained_ns", c.unexplained_ns},
                                 {"top_kernels", kernels}};
    }
    late.push_back(std::move(entry));
  }
  OrderedJson items = OrderedJson::array();
  for (const analysis::MatchedCollective& c : result.collectives.collectives) {
    OrderedJson arrivals = OrderedJson::array();
    for (const analysis::CollectiveArrival& a : c.arrivals) {
      OrderedJson j = {{"rank", a.rank}, {"start_ns", a.start_ns}, {"end_ns", a.end_ns}, {"wait_ns", a.wait_ns}};
      if (!a.transport.empty()) {  // only where the profile says what it moved
        j["transport"] = a.transport;
        j["size_mb"] = a.size_mb;
        j["bandwidth_gbps"] = a.bandwidth_gbps;
      }
      arrivals.push_back(std::move(j));
    }
    OrderedJson item = {{"group", c.group}, {"index", c.index}};
    if (c.seq >= 0) item["seq"] = c.seq;
    item["name"] = c.name;
    item["names_differ"] = c.names_differ;
    item["last_rank"] = c.last_rank;
    item["skew_ns"] = c.skew_ns;
    item["arrivals"] = std::move(arrivals);
    items.push_back(std::move(item));
  }
  OrderedJson waits = OrderedJson::array();
  for (const analysis::RankWaitsOn& w : result.waits_on)
    waits.push_back({{"waiter", w.waiter}, {"blocker", w.blocker}, {"wait_ns", w.wait_ns}, {"collectives", w.collectives}});
  return {{"matched", result.collectives.collectives.size()},
          {"late_ranks", late},
          {"waits_on", waits},
          {"notes", result.collectives.notes},
          {"items", items}};
}

OrderedJson SlowRankVoteJson(const analysis::SlowRankVote& v) {
  OrderedJson ranks = OrderedJson::array();
  for (const analysis::RankVotes& r : v.ranks) ranks.push_back({{"rank", r.rank}, {"votes", r.votes}});
  OrderedJson ops = OrderedJson::array();
  for (const analysis::VotedOp& op : v.ops) {
    const analysis::VoteStats& st = op.stats;
    OrderedJson stats;
    if (v.as_reference) {
      stats = {{"mean_us", st.mean_us}, {"std_us", st.std_us}, {"min_us", st.min_us}, {"q1_us", st.q1_us},
               {"median_us", st.median_us}, {"q3_us", st.q3_us}, {"max_us", st.max_us}, {"sum_us", st.sum_us}};
    } else {
      auto ns = [](int64_t q4) { return q4 % 4 == 0 ? OrderedJson(q4 / 4) : OrderedJson(static_cast<double>(q4) / 4); };
      stats = {{"mean_ns", ns(st.mean_q4)}, {"std_ns", ns(st.std_q4)}, {"min_ns", ns(st.min_q4)},
               {"q1_ns", ns(st.q1_q4)}, {"median_ns", ns(st.median_q4)}, {"q3_ns", ns(st.q3_q4)},
               {"max_ns", ns(st.max_q4)}, {"sum_ns", ns(st.sum_q4)}};
    }
    ops.push_back({{"slow_ranks", op.slow_ranks}, {"name", op.name}, {"group", op.group},
                   {"timestamp_ns", op.timestamp_ns}, {"count", st.count}, {"durations", stats}});
  }
  return {{"method", v.as_reference ? "reference" : "exact"},
          {"ranks", ranks},
          {"collectives", ops},
          {"excluded_groups", v.excluded_groups}};
}

std::string SlowRankVoteLine(const analysis::SlowRankVote& v) {
  if (v.ranks.empty()) return "";
  std::string list;
  for (size_t i = 0; i < v.ranks.size() && i < 5; ++i)
    list += fmt::format("{}rank {} ({})", i == 0 ? "" : ", ", v.ranks[i].rank, v.ranks[i].votes);
  if (v.ranks.size() > 5) list += fmt::format(", and {} more", v.ranks.size() - 5);
  return fmt::format("    the reference's slow-rank vote (outlier-short collectives): {}\n", list);
}

// What preceded a rank's late arrivals, one screen line ("" when nothing was measured).
std::string LateCauseLine(const ClusterResult& result, size_t i) {
  if (i >= result.late_causes.size() || result.late_causes[i].cause == "unknown") return "";
  const analysis::LateArrivalCause& c = result.late_causes[i];
  std::string top;
  if (!c.top_kernels.empty())
    top = fmt::format(" (longest there: {} {})", ScreenName(c.top_kernels.front().name), Ms(c.top_kernels.front().ns));
  std::string line = fmt::format("      before those arrivals, against the other ranks' median: computing {:+.3f} ms{}, "
                                 "idle {:+.3f} ms: cause {}\n",
                                 NsToMs(c.computing_excess_ns), top, NsToMs(c.idle_excess_ns), c.cause);
  if (2 * c.unexplained_ns > c.skew_ns) {
    line += fmt::format("      {} of its {} lateness is not in those lead-ins: it began earlier (the rank started "
                        "later, or the hosts' clocks differ)\n",
                        Ms(c.unexplained_ns), Ms(c.skew_ns));
  }
  return line;
}

// The ops' bandwidth where the profiles say what they moved: the median and the slowest op among those
// that moved at least the median size (a small message's bandwidth is its latency).
std::string BandwidthLine(const ClusterResult& result) {
  std::vector<std::pair<double, const analysis::CollectiveArrival*>> bw;
  std::vector<const analysis::MatchedCollective*> of;
  for (const analysis::MatchedCollective& c : result.collectives.collectives) {
    for (const analysis::CollectiveArrival& a : c.arrivals) {
      if (a.transport.empty() || !(a.bandwidth_gbps > 0)) continue;
      bw.emplace_back(a.bandwidth_gbps, &a);
      of.push_back(&c);
    }
  }
  if (bw.empty()) return "";
  std::vector<size_t> order(bw.size());
  std::vector<double> sizes;
  for (size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    sizes.push_back(bw[i].second->size_mb);
  }
  std::sort(sizes.begin(), sizes.end());
  const double median_size = sizes[(sizes.size() - 1) / 2];
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bw[a].first < bw[b].first; });
  const double median = bw[order[(order.size() - 1) / 2]].first;
  size_t slowest = order.front();
  for (size_t i : order) {
    if (bw[i].second->size_mb < median_size) continue;
    slowest = i;
    break;
  }
  const analysis::CollectiveArrival& a = *bw[slowest].second;
  return fmt::format("    bandwidth of {} ops: median {:.3f} GB/s; of those moving the median size or more, the slowest: "
                     "rank {} at {} #{} {} ({}, {:g} MB): {:.3f} GB/s\n",
                     bw.size(), median, a.rank, of[slowest]->group, of[slowest]->index, ScreenName(of[slowest]->name),
                     a.transport, a.size_mb, a.bandwidth_gbps);
}

std::string CollectivesLine(const ClusterResult& result) {
  const auto& items = result.collectives.collectives;
  if (items.empty()) return "";
  int64_t max_skew = 0;
  for (const analysis::MatchedCollective& c : items) max_skew = std::max(max_skew, c.skew_ns);
  std::string out = fmt::format("  collectives: {} matched across ranks", items.size());
  if (result.late_ranks.empty()) return out + "; the ranks arrive together (skew 0)\n" + BandwidthLine(result);
  const analysis::LateRank& l = result.late_ranks.front();
  out += fmt::format("; rank {} arrives last by {} in total (last at {} of them; largest skew {})\n", l.rank,
                     Ms(l.skew_ns), l.times_last, Ms(max_skew));
  out += LateCauseLine(result, 0);
  for (size_t i = 1; i < result.late_ranks.size(); ++i)
    out += fmt::format("    rank {} arrives last by {} in total (at {})\n", result.late_ranks[i].rank,
                       Ms(result.late_ranks[i].skew_ns), result.late_ranks[i].times_last);
  if (!result.waits_on.empty()) {
    const analysis::RankWaitsOn& w = result.waits_on.front();
    out += fmt::format("    the longest wait: rank {} waits {} for rank {} (at {} collective{}; {} waiter -> blocker "
                       "pair{} in the JSON)\n",
                       w.waiter, Ms(w.wait_ns), w.blocker, w.collectives, w.collectives == 1 ? "" : "s",
                       result.waits_on.size(), result.waits_on.size() == 1 ? "" : "s");
  }
  return out + BandwidthLine(result);
}

OrderedJson JobTotalsJson(const analysis::JobTotals& t) {
  return {{"step_ns", t.step_ns},
          {"computing_ns", t.computing_ns},
          {"communication_ns", t.communication_ns},
          {"free_ns", t.free_ns},
          {"slow_excess_ns", t.slow_excess_ns}};
}

OrderedJson JobStepJson(const analysis::JobStep& j) {
  return {{"step", j.step},
          {"ranks", j.ranks},
          {"step_ns", j.step_ns},
          {"computing_ns", j.computing_ns},
          {"communication_ns", j.communication_ns},
          {"free_ns", j.free_ns},
          {"slow_rank", j.slow_rank ? OrderedJson(*j.slow_rank) : OrderedJson(nullptr)},
          {"slow_cause", std::string(analysis::SlowCauseName(j.slow_cause))},
          {"slow_excess_ns", j.slow_excess_ns}};
}

}  // namespace

std::vector<std::string> StragglerReasons(const ClusterResult& result) {
  std::vector<std::string> out;
  for (const analysis::SlowRankChange& r : result.run_comparison->slow_ranks) {
    if (r.status != "new") continue;
    int64_t lead = 0, steps = 0;
    std::string cause;
    for (const analysis::StepStraggler& s : result.stragglers) {
      if (s.rank != r.rank || s.cause == analysis::SlowCause::kNone) continue;
      lead += s.work_ns - s.median_work_ns;
      ++steps;
      if (cause.empty()) cause = std::string(analysis::SlowCauseName(s.cause));
    }
    if (steps == 0) continue;
    out.push_back(fmt::format("rank {} is a new straggler: it holds back {} step{} by {} of computing + free above "
                              "the median rank in all (cause {}); the others wait for it",
                              r.rank, steps, steps == 1 ? "" : "s", Ms(lead), cause));
  }
  return out;
}

namespace {

// The two-run comparison (null for one run).
OrderedJson RunComparisonJson(const ClusterResult& result) {
  if (!result.run_comparison || !result.base_run) return nullptr;
  const analysis::ClusterRunComparison& c = *result.run_comparison;
  OrderedJson steps = OrderedJson::array();
  for (const analysis::StepComparison& s : c.steps)
    steps.push_back({{"base", JobStepJson(s.base)}, {"comparison", JobStepJson(s.comparison)},
                     {"step_delta_ns", s.comparison.step_ns - s.base.step_ns}});
  OrderedJson ranks = OrderedJson::array();
  for (const analysis::RankComparison& r : c.ranks) {
    ranks.push_back({{"rank", r.rank}, {"steps", r.steps},
                     {"base", {{"step_ns", r.base_step_ns}, {"computing_ns", r.base_computing_ns},
                               {"communication_ns", r.base_communication_ns}, {"free_ns", r.base_free_ns}}},
                     {"comparison", {{"step_ns", r.comparison_step_ns}, {"computing_ns", r.comparison_computing_ns},
                                     {"communication_ns", r.comparison_communication_ns},
                                     {"free_ns", r.comparison_free_ns}}}});
  }
  OrderedJson slow = OrderedJson::array();
  for (const analysis::SlowRankChange& r : c.slow_ranks)
    slow.push_back({{"rank", r.rank}, {"status", r.status}, {"base_steps", r.base_steps},
                    {"comparison_steps", r.comparison_steps}});
  std::vector<int64_t> base_found;
  for (const analysis::RankSummary& r : result.base_run->ranks) base_found.push_back(r.rank);
  OrderedJson out = {{"base_run", {{"path", result.base_run->run_path}, {"ranks_found", base_found},
                        {"warnings", result.base_run->warnings}}},
          {"steps_by_position", c.steps_by_position},
          {"base", JobTotalsJson(c.base)},
          {"comparison", JobTotalsJson(c.comparison)},
          {"delta", {{"step_ns", c.comparison.step_ns - c.base.step_ns},
                     {"computing_ns", c.comparison.computing_ns - c.base.computing_ns},
                     {"communication_ns", c.comparison.communication_ns - c.base.communication_ns},
                     {"free_ns", c.comparison.free_ns - c.base.free_ns},
                     {"slow_excess_ns", c.comparison.slow_excess_ns - c.base.slow_excess_ns}}},
          {"steps", steps},
          {"ranks", ranks},
          {"base_only_ranks", c.base_only_ranks},
          {"comparison_only_ranks", c.comparison_only_ranks},
          {"slow_ranks", slow},
          {"incomparable_reasons", c.incomparable},
          {"straggler_reasons", StragglerReasons(result)}};
  if (result.run_detail) AddRunDetailJson(*result.run_detail, out);
  return out;
}

std::string Signed(int64_t ns) { return fmt::format("{:+.3f} ms", NsToMs(ns)); }

// The screen's two-run lines: the job's step, what changed, the slow ranks, then the gate.
std::string RunComparisonScreen(const ClusterResult& result) {
  if (!result.run_comparison || !result.base_run) return "";
  const analysis::ClusterRunComparison& c = *result.run_comparison;
  std::string out = fmt::format("against the base run {} ({} rank{}):\n", result.base_run->run_path,
                                result.base_run->ranks.size(), result.base_run->ranks.size() == 1 ? "" : "s");
  if (c.steps.empty()) return out + "  no step to compare\n" + RenderVerdict(result.gate);
  const double pct = c.base.step_ns ? 100.0 * static_cast<double>(c.comparison.step_ns - c.base.step_ns) /
                                          static_cast<double>(c.base.step_ns)
                                    : 0.0;
  out += fmt::format("  job step (slowest rank, median of {} step{}{}): {} -> {} ({}, {:+.1f} %)\n", c.steps.size(),
                     c.steps.size() == 1 ? "" : "s", c.steps_by_position ? ", paired in order" : "",
                     Ms(c.base.step_ns), Ms(c.comparison.step_ns), Signed(c.comparison.step_ns - c.base.step_ns), pct);
  out += fmt::format("  mean rank: computing {}, uncovered communication {}, free {}; the slow rank's lead {}\n",
                     Signed(c.comparison.computing_ns - c.base.computing_ns),
                     Signed(c.comparison.communication_ns - c.base.communication_ns),
                     Signed(c.comparison.free_ns - c.base.free_ns),
                     Signed(c.comparison.slow_excess_ns - c.base.slow_excess_ns));
  for (const analysis::SlowRankChange& r : c.slow_ranks) {
    out += fmt::format("  slow rank {}: {} (holds back {} of {} base and {} of {} comparison steps)\n", r.rank,
                       r.status, r.base_steps, c.steps.size(), r.comparison_steps, c.steps.size());
  }
  if (result.run_detail) out += RunDetailScreen(*result.run_detail);
  out += RenderVerdict(result.gate);
  if (result.gate.ran && result.gate.verdict == analysis::Verdict::kRegression)
    for (const std::string& why : StragglerReasons(result)) out += "  why: " + why + "\n";
  return out;
}

}  // namespace

std::string RankRangesText(const std::vector<int64_t>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(ranks[i]);
    if (j > i) out += (j == i + 1 ? ", " : "-") + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

std::string RenderClusterStepTraceCsv(const analysis::ClusterStepTable& table, const analysis::ReferencePolicy& policy) {
  std::string out = "Step,Type,Index";
  for (const std::string& c : table.columns) out += "," + CsvField(c);
  if (table.parallel_columns) out += ",DP Index,PP Index,TP Index";
  out += "\r\n";
  for (const analysis::ClusterStepRow& row : table.rows) {
    out += CsvField(row.step) + (row.stage ? ",stage," : ",rank,") + CsvField(row.index);
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const int64_t ns = c < row.values_ns.size() ? row.values_ns[c] : kAbsentNs;
      const double f = c < row.values_us_float.size() ? row.values_us_float[c] : NAN;
      out += "," + CellText(ns, f, policy);
    }
    if (table.parallel_columns) {
      for (int i = 0; i < 3; ++i) out += row.parallel ? fmt::format(",{}", (*row.parallel)[static_cast<size_t>(i)]) : ",NA";
    }
    out += "\r\n";
  }
  return out;
}

// One row of the time summary: its exact ns per metric, by the reference's column names.
OrderedJson TimeRowJson(const analysis::TimeSummaryRow& r) {
  OrderedJson j = {{"rank", r.rank}, {"step", r.step}};
  for (size_t i = 0; i < analysis::kTimeMetricCount; ++i)
    j[std::string(analysis::TimeMetricName(static_cast<analysis::TimeMetric>(i))) + "_ns"] = r.ns[i];
  return j;
}

// The reference's ClusterTimeSummary (a run of DB exports) and, with a DB base run, its comparison.
OrderedJson TimeSummaryJson(const ClusterResult& result) {
  const analysis::ClusterTimeSummary& s = result.time_summary;
  if (s.rows.empty() && s.empty_reason.empty()) return nullptr;  // not a run of DB exports
  OrderedJson rows = OrderedJson::array();
  for (const analysis::TimeSummaryRow& r : s.rows) rows.push_back(TimeRowJson(r));
  OrderedJson compare = OrderedJson::array();
  for (const analysis::TimeCompareRow& r : result.time_compare)
    compare.push_back({{"rank", r.rank}, {"step", r.step}, {"base", TimeRowJson(r.base)},
                       {"comparison", TimeRowJson(r.current)}});
  return {{"rows", rows},
          {"not_written_because", s.empty_reason.empty() ? OrderedJson(nullptr) : OrderedJson(s.empty_reason)},
          {"compare", result.base_run != nullptr ? compare : OrderedJson(nullptr)}};
}

// The ranks that wait for a step's straggler: one line each for a few; for many, the most waiting
// ones and the others in ranges (the JSON lists every one).
static std::string WaitersLines(const std::vector<analysis::RankWait>& waiters) {
  constexpr size_t kEach = 4;
  std::string out;
  const size_t each = waiters.size() <= kEach + 1 ? waiters.size() : kEach - 1;
  for (size_t i = 0; i < each; ++i)
    out += fmt::format("    rank {} waits {} more in communication\n", waiters[i].rank, Ms(waiters[i].extra_wait_ns));
  if (each == waiters.size()) return out;
  std::vector<int64_t> rest;
  int64_t least = waiters[each].extra_wait_ns, most = least;
  for (size_t i = each; i < waiters.size(); ++i) {
    rest.push_back(waiters[i].rank);
    least = std::min(least, waiters[i].extra_wait_ns);
    most = std::max(most, waiters[i].extra_wait_ns);
  }
  std::sort(rest.begin(), rest.end());
  return out + fmt::format("    {} more ranks ({}) wait {}{} more in communication\n", rest.size(), RankRangesText(rest),
                           least == most ? "" : Ms(least) + " to ", Ms(most));
}

OrderedJson LinksJson(const analysis::LinkMatrix& m) {
  if (m.source.empty()) return nullptr;
  auto link = [](const analysis::RunLink& l) {
    return OrderedJson{{"step", l.step},       {"group", l.group},         {"src", l.src},
                       {"dst", l.dst},         {"transport", l.transport}, {"size_mb", l.size_mb},
                       {"time_ms", l.time_ms}, {"bandwidth_gbps", l.bandwidth_gbps}};
  };
  OrderedJson items = OrderedJson::array(), slow = OrderedJson::array();
  for (const analysis::RunLink& l : m.links) items.push_back(link(l));
  for (const analysis::SlowLink& s : m.slow) {
    OrderedJson j = link(s.link);
    j["transport_median_gbps"] = s.transport_median_gbps;
    slow.push_back(std::move(j));
  }
  return {{"source", m.source}, {"items", items}, {"slow", slow}, {"notes", m.notes}};
}

// The link matrix in one line: the slowest link against its transport's median, or that none is slow.
std::string LinksLine(const analysis::LinkMatrix& m) {
  if (m.links.empty()) return "";
  std::string out = fmt::format("  links: {} src -> dst links in the link matrix ({})", m.links.size(), m.source);
  if (m.slow.empty()) {
    std::map<std::string, std::pair<double, double>> range;  // transport -> min, max between two ranks
    for (const analysis::RunLink& l : m.links) {
      if (l.src == l.dst) continue;
      auto [it, fresh] = range.try_emplace(l.transport, l.bandwidth_gbps, l.bandwidth_gbps);
      it->second = {std::min(it->second.first, l.bandwidth_gbps), std::max(it->second.second, l.bandwidth_gbps)};
    }
    std::string ranges;
    for (const auto& [transport, mm] : range)
      ranges += fmt::format("{}{} {:.3f}-{:.3f} GB/s", ranges.empty() ? "" : ", ", transport, mm.first, mm.second);
    return out + "; none below half its transport's median bandwidth" + (ranges.empty() ? "" : " (" + ranges + ")") + "\n";
  }
  const analysis::SlowLink& s = m.slow.front();
  return out + fmt::format("; {} below half their transport's median bandwidth, the slowest rank {} -> {} ({}, {}): "
                           "{:.3f} GB/s against a median {:.3f} GB/s\n",
                           m.slow.size(), s.link.src, s.link.dst, s.link.transport, s.link.step,
                           s.link.bandwidth_gbps, s.transport_median_gbps);
}

OrderedJson ClusterJson(const ClusterResult& result, const std::string& version) {
  OrderedJson ranks = OrderedJson::array();
  std::vector<int64_t> found;
  std::map<int64_t, analysis::ParallelIndex> parallel;  // the step table's DP / PP / TP of each rank
  for (const analysis::ClusterStepRow& row : result.step_table.rows)
    if (!row.stage && row.parallel && !row.ranks.empty()) parallel[row.ranks.front()] = *row.parallel;
  for (const analysis::RankSummary& r : result.ranks) {
    OrderedJson j = RankJson(r);
    if (auto it = parallel.find(r.rank); it != parallel.end())
      j["parallel_index"] = {{"dp", it->second[0]}, {"pp", it->second[1]}, {"tp", it->second[2]}};
    else
      j["parallel_index"] = nullptr;
    ranks.push_back(std::move(j));
    found.push_back(r.rank);
  }
  OrderedJson slow = OrderedJson::array();
  for (const analysis::StepStraggler& s : result.stragglers) slow.push_back(StragglerJson(s));
  const analysis::ReferencePolicy& p = result.policy;
  return {{"schema", kClusterJsonSchema},
          {"tool", {{"name", "profdiff"}, {"version", version}}},
          {"mode", std::string(analysis::PolicyModeName(p))},
          {"reference_line",
           p.reference_compat ? OrderedJson(std::string(analysis::ReferenceLineName(p.line))) : OrderedJson(nullptr)},
          {"run",
           {{"path", result.run_path},
            {"world_size", result.world_size < 0 ? OrderedJson(nullptr) : OrderedJson(result.world_size)},
            {"ranks_found", found},
            {"missing_ranks", result.missing_ranks}}},
          {"ranks", ranks},
          {"slow_ranks", slow},
          {"collectives", CollectivesJson(result)},
          {"links", LinksJson(result.links)},
          {"slow_rank_vote", SlowRankVoteJson(result.slow_rank_vote)},
          {"run_comparison", RunComparisonJson(result)},
          {"time_summary", TimeSummaryJson(result)},
          {"drill_down", result.drill_down.rank < 0
                             ? OrderedJson(nullptr)
                             : OrderedJson({{"rank", result.drill_down.rank},
                                            {"why", result.drill_down.why},
                                            {"workbook", result.drill_down.workbook},
                                            {"base_e2e_ns", result.drill_down.base_e2e_ns},
                                            {"comparison_e2e_ns", result.drill_down.comparison_e2e_ns}})},
          {"verdict", result.gate.ran ? GateVerdictJson(result.gate) : OrderedJson(nullptr)},
          {"warnings", result.warnings},
          {"outputs", result.outputs}};
}

// What each rank is, one line per kind: ranks that say the same share a line ("ranks 0-255: kineto
// export, 5 steps from timeline"), in the order of their first rank.
std::string RankLines(const std::vector<analysis::RankSummary>& ranks) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> lines;
  for (const analysis::RankSummary& r : ranks) {
    std::string text = fmt::format("{} export, {} step{} from {}", r.export_kind, r.steps.size(),
                                   r.steps.size() == 1 ? "" : "s", analysis::RankStepSourceName(r.step_source));
    if (!r.missing.empty()) {
      std::string list;
      for (const std::string& m : r.missing) list += (list.empty() ? "" : ", ") + m;
      text += fmt::format("; missing: {}", list);
    }
    auto it = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == text; });
    if (it == lines.end()) lines.emplace_back(std::move(text), std::vector<int64_t>{r.rank});
    else it->second.push_back(r.rank);
  }
  std::string out;
  for (const auto& [text, ids] : lines)
    out += fmt::format("  rank{} {}: {}\n", ids.size() == 1 ? "" : "s", RankRangesText(ids), text);
  return out;
}

std::string RenderClusterScreen(const ClusterResult& result) {
  std::string out = fmt::format("profdiff cluster: {} rank{} in {}", result.ranks.size(),
                                result.ranks.size() == 1 ? "" : "s", result.run_path);
  if (result.world_size >= 0) out += fmt::format(" (world size {})", result.world_size);
  out += "\n";
  if (!result.missing_ranks.empty()) out += fmt::format("  missing ranks: {}\n", RankRangesText(result.missing_ranks));
  out += RankLines(result.ranks);
  out += CollectivesLine(result);
  out += LinksLine(result.links);
  out += SlowRankVoteLine(result.slow_rank_vote);
  if (result.stragglers.empty()) out += "  no step is known on two ranks: nobody to compare\n";
  for (const analysis::StepStraggler& s : result.stragglers) {
    if (s.cause == analysis::SlowCause::kNone) {
      out += fmt::format("  step {}: the {} ranks did the same work (computing + free {})\n", s.step, s.ranks,
                         Ms(s.work_ns));
      continue;
    }
    out += fmt::format("  step {}: rank {} holds the step back: computing + free {}, {} above the median rank "
                       "(computing {:+.3f} ms, free {:+.3f} ms): cause {}\n",
                       s.step, s.rank, Ms(s.work_ns), Ms(s.work_ns - s.median_work_ns),
                       NsToMs(s.computing_excess_ns), NsToMs(s.free_excess_ns), analysis::SlowCauseName(s.cause));
    out += WaitersLines(s.waiters);
    if (s.saving_if_median_ns > 0)
      out += fmt::format("    if rank {} did the median rank's work, the step would be about {} shorter\n", s.rank,
                         Ms(s.saving_if_median_ns));
  }
  out += RunComparisonScreen(result);
  const auto& d = result.drill_down;
  if (d.rank >= 0)
    out += fmt::format("drill-down: rank {} ({}): E2E {} -> {} ({}); every comparison in {}\n", d.rank, d.why,
                       Ms(d.base_e2e_ns), Ms(d.comparison_e2e_ns), Signed(d.comparison_e2e_ns - d.base_e2e_ns),
                       d.workbook);
  return out;
}

}  // namespace profdiff::report
