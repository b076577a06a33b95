// profdiff_cluster.html (cluster_html.h): the sections of the page, each from the cluster JSON.
#include "profdiff/report/cluster/cluster_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "profdiff/report/cluster/cluster_report.h"
#include "profdiff/report/html/html_escape.h"
#include "profdiff/report/html/html_report.h"
#include "profdiff/report/html/html_table.h"
#include "profdiff/report/html/svg_charts.h"

namespace profdiff::report {
namespace {

using html::EscapeText;
using html::FormatMs;
using html::Member;
using html::Td;
using html::Text;
using html::VerdictHtml;

constexpr size_t kTopCollectives = 10;
// The rank bars' segments (one colour per category, as compare's step bars: computing, uncovered
// communication, free).
constexpr const char* kComputingColor = "#4e79a7";
constexpr const char* kCommunicationColor = "#e15759";
constexpr const char* kFreeColor = "#f1ce63";
// One colour per last-arriving rank in the skew chart (cycled past ten).
constexpr const char* kRankColors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                       "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

int64_t I(const OrderedJson& j, const char* key) {
  const OrderedJson& v = Member(j, key);
  return v.is_number() ? v.get<int64_t>() : 0;
}

std::string S(const OrderedJson& j, const char* key) {
  const OrderedJson& v = Member(j, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::vector<int64_t> Ints(const OrderedJson& a) {
  std::vector<int64_t> out;
  if (a.is_array())
    for (const OrderedJson& v : a)
      if (v.is_number()) out.push_back(v.get<int64_t>());
  return out;
}

std::string Ms(int64_t ns) { return FormatMs(ns) + " ms"; }
std::string SignedMs(int64_t ns) { return (ns > 0 ? "+" : "") + FormatMs(ns) + " ms"; }

// A ms cell of a time (sortable by its ns).
std::string MsTd(int64_t ns) { return fmt::format("<td class=\"n\" data-v=\"{}\">{}</td>", ns, FormatMs(ns)); }
// A ms cell of a change: red when it grew (worse), green when it shrank.
std::string DeltaTd(int64_t ns) {
  return fmt::format("<td class=\"n{}\" data-v=\"{}\">{}{}</td>", ns > 0 ? " up" : ns < 0 ? " down" : "", ns,
                     ns > 0 ? "+" : "", FormatMs(ns));
}

// A kernel's name without its argument list ("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*,
// ...)": the arguments are the same for every NCCL kernel), cut in the middle past 60 characters; the
// whole name is the cell's title.
std::string ShortName(const std::string& name) {
  const size_t paren = name.find('(');
  return html::ShortenMiddle(paren != std::string::npos && paren > 0 ? name.substr(0, paren) : name, 60);
}

std::string RankLabel(int64_t rank) { return "rank " + std::to_string(rank); }

// The ranks a step's slow rank holds back (cause not "none").
std::set<int64_t> SlowRanks(const OrderedJson& doc) {
  std::set<int64_t> out;
  for (const OrderedJson& s : Member(doc, "slow_ranks"))
    if (Member(s, "cause") != "none") out.insert(I(s, "rank"));
  return out;
}

std::string StragglerLine(const OrderedJson& s) {
  if (Member(s, "cause") == "none")
    return fmt::format("<li><b>step {}</b>: the {} ranks did the same work (computing + free {})</li>",
                       Text(Member(s, "step")), I(s, "ranks"), Ms(I(s, "work_ns")));
  std::vector<int64_t> waiters;
  for (const OrderedJson& w : Member(s, "waiters")) waiters.push_back(I(w, "rank"));
  std::sort(waiters.begin(), waiters.end());
  std::string out = fmt::format(
      "<li><b>step {}</b>: <b>rank {}</b> holds the step back: computing + free {}, <b>{}</b> above the median "
      "rank; cause <b>{}</b>",
      Text(Member(s, "step")), I(s, "rank"), Ms(I(s, "work_ns")), Ms(I(s, "work_ns") - I(s, "median_work_ns")),
      Text(Member(s, "cause")));
  if (!waiters.empty())
    out += fmt::format("; {} rank{} wait{} for it ({})", waiters.size(), waiters.size() == 1 ? "" : "s",
                       waiters.size() == 1 ? "s" : "", EscapeText(RankRangesText(waiters)));
  if (I(s, "saving_if_median_ns") > 0)
    out += fmt::format("; the step would be about {} shorter if it did the median rank's work",
                       Ms(I(s, "saving_if_median_ns")));
  return out + "</li>";
}

// The reference's slow-rank vote, one line ("" when it votes for nobody).
std::string VoteLine(const OrderedJson& vote) {
  const OrderedJson& ranks = Member(vote, "ranks");
  if (!ranks.is_array() || ranks.empty()) return "";
  std::string list;
  for (const OrderedJson& r : ranks)
    list += fmt::format("{}rank {} ({} vote{})", list.empty() ? "" : ", ", I(r, "rank"), I(r, "votes"),
                        I(r, "votes") == 1 ? "" : "s");
  return "<li>the reference's slow-rank vote (collectives where a rank's op is an outlier-short one): " +
         EscapeText(list) + "</li>";
}

std::string CollectivesLine(const OrderedJson& collectives) {
  const OrderedJson& late = Member(collectives, "late_ranks");
  const int64_t matched = I(collectives, "matched");
  if (matched == 0) return "";
  if (!late.is_array() || late.empty())
    return fmt::format("<li>{} collectives matched across ranks: the ranks arrive together (skew 0)</li>", matched);
  const OrderedJson& l = late.front();
  std::string out = fmt::format("<li><b>rank {}</b> arrives last at {} of {} collectives, {} late in all",
                                I(l, "rank"), I(l, "times_last"), matched, Ms(I(l, "skew_ns")));
  const OrderedJson& before = Member(l, "before_arrival");
  if (before.is_object() && S(before, "cause") != "unknown")
    out += fmt::format("; before those arrivals, against the other ranks' median: computing {:+.3f} ms, idle "
                       "{:+.3f} ms: cause <b>{}</b>",
                       static_cast<double>(I(before, "computing_excess_ns")) / 1e6,
                       static_cast<double>(I(before, "idle_excess_ns")) / 1e6, EscapeText(S(before, "cause")));
  out += "</li>";
  const OrderedJson& waits = Member(collectives, "waits_on");
  if (waits.is_array() && !waits.empty()) {
    const OrderedJson& w = waits.front();
    out += fmt::format("<li>the longest wait: rank {} waits {} for rank {} (at {} collective{})</li>", I(w, "waiter"),
                       Ms(I(w, "wait_ns")), I(w, "blocker"), I(w, "collectives"), I(w, "collectives") == 1 ? "" : "s");
  }
  return out;
}

// The verdict of two runs, the job's step change and why it regressed.
std::string VerdictPart(const OrderedJson& doc) {
  const OrderedJson& cmp = Member(doc, "run_comparison");
  if (!cmp.is_object()) return "";
  const OrderedJson& verdict = Member(doc, "verdict");
  std::string out = "<h3>Against the base run</h3>";
  const int64_t base = I(Member(cmp, "base"), "step_ns"), now = I(Member(cmp, "comparison"), "step_ns");
  out += fmt::format("<p>Job step (the slowest rank, median step): {} &rarr; {} (<b>{}</b>{}).</p>", Ms(base), Ms(now),
                     SignedMs(now - base),
                     base > 0 ? fmt::format(", {:+.1f} %", 100.0 * static_cast<double>(now - base) / static_cast<double>(base))
                              : std::string());
  out += VerdictHtml(verdict);
  std::string why;
  for (const OrderedJson& r : Member(cmp, "straggler_reasons")) why += "<li>" + Text(r) + "</li>";
  for (const OrderedJson& r : Member(cmp, "incomparable_reasons")) why += "<li class=\"warn\">" + Text(r) + "</li>";
  if (!why.empty()) out += "<p>Why:</p><ul>" + why + "</ul>";
  return out;
}

std::string SummarySection(const OrderedJson& doc) {
  const OrderedJson& run = Member(doc, "run");
  std::vector<std::string> rows = {
      Td("run") + Td("<code>" + Text(Member(run, "path")) + "</code>") +
      Td(EscapeText(RankRangesText(Ints(Member(run, "ranks_found"))))) + Td(Text(Member(run, "world_size"))) +
      Td(EscapeText(RankRangesText(Ints(Member(run, "missing_ranks")))))};
  const OrderedJson& base = Member(Member(doc, "run_comparison"), "base_run");
  if (base.is_object())
    rows.push_back(Td("base run") + Td("<code>" + Text(Member(base, "path")) + "</code>") +
                   Td(EscapeText(RankRangesText(Ints(Member(base, "ranks_found"))))) + Td("") + Td(""));
  std::string out = "<section id=\"summary\"><h2>Run</h2>" +
                    html::SimpleTable({"", "path", "ranks found", "world size", "missing ranks"}, rows);
  std::string mode = Text(Member(doc, "mode"));
  if (Member(doc, "reference_line").is_string()) mode += " (line " + Text(Member(doc, "reference_line")) + ")";
  out += "<p>Mode: <b>" + mode + "</b>.</p><h3>At a glance</h3><ul>";
  for (const OrderedJson& s : Member(doc, "slow_ranks")) out += StragglerLine(s);
  if (Member(doc, "slow_ranks").empty()) out += "<li>no step is known on two ranks: nobody to compare</li>";
  out += CollectivesLine(Member(doc, "collectives")) + VoteLine(Member(doc, "slow_rank_vote")) + "</ul>" +
         VerdictPart(doc);
  std::string warnings;
  for (const OrderedJson& w : Member(doc, "warnings")) warnings += "<li>" + Text(w) + "</li>";
  if (!warnings.empty()) out += "<h3>Warnings</h3><ul class=\"warn\">" + warnings + "</ul>";
  return out + "</section>";
}

// Each rank's mean step over its steps that have the three values; appended to `data` as drawn.
std::string RankTimeSection(const OrderedJson& doc, OrderedJson& data) {
  const std::set<int64_t> slow = SlowRanks(doc);
  std::vector<html::StackedBar> bars;
  data = OrderedJson::array();
  for (const OrderedJson& r : Member(doc, "ranks")) {
    int64_t sums[3] = {0, 0, 0}, n = 0;
    for (const OrderedJson& s : Member(r, "steps")) {
      const OrderedJson& v = Member(s, "values_ns");
      const OrderedJson* parts[3] = {&Member(v, "Computing"), &Member(v, "Communication(Not Overlapped)"),
                                     &Member(v, "Free")};
      if (!parts[0]->is_number() || !parts[1]->is_number() || !parts[2]->is_number()) continue;
      for (int i = 0; i < 3; ++i) sums[i] += parts[i]->get<int64_t>();
      ++n;
    }
    const int64_t rank = I(r, "rank");
    const int64_t mean[3] = {n ? sums[0] / n : 0, n ? sums[1] / n : 0, n ? sums[2] / n : 0};
    html::StackedBar bar;
    bar.label = RankLabel(rank) + (slow.count(rank) ? " (slow)" : n == 0 ? " (no step)" : "");
    bar.segments = {{"computing", mean[0], kComputingColor},
                    {"communication not overlapped", mean[1], kCommunicationColor},
                    {"free", mean[2], kFreeColor}};
    bar.total_ns = mean[0] + mean[1] + mean[2];
    bars.push_back(std::move(bar));
    data.push_back({{"rank", rank}, {"steps", n}, {"computing_ns", mean[0]}, {"communication_ns", mean[1]},
                    {"free_ns", mean[2]}});
  }
  if (bars.empty()) return "";
  return "<section id=\"rank-time\"><h2>Where each rank's time goes</h2><p>Each rank's mean step: computing, "
         "communication not overlapped by computing (waiting for the others included) and free time, on one "
         "scale. In a synchronous step every rank ends together: the rank with the most computing + free is "
         "the one the others wait for, not the one with the longest bar.</p>" +
         html::StackedBarsSvg(bars) + "</section>";
}

std::string SlowRanksSection(const OrderedJson& doc) {
  std::vector<std::string> rows;
  for (const OrderedJson& s : Member(doc, "slow_ranks")) {
    const bool none = Member(s, "cause") == "none";
    std::vector<int64_t> waiters;
    int64_t longest = 0;
    for (const OrderedJson& w : Member(s, "waiters")) {
      waiters.push_back(I(w, "rank"));
      longest = std::max(longest, I(w, "extra_wait_ns"));
    }
    std::sort(waiters.begin(), waiters.end());
    rows.push_back(Td(Text(Member(s, "step"))) + Td(none ? "" : std::to_string(I(s, "rank"))) +
                   Td(Text(Member(s, "cause"))) + MsTd(I(s, "work_ns") - I(s, "median_work_ns")) +
                   MsTd(I(s, "computing_excess_ns")) + MsTd(I(s, "free_excess_ns")) +
                   Td(EscapeText(RankRangesText(waiters))) + MsTd(longest) + MsTd(I(s, "saving_if_median_ns")));
  }
  if (rows.empty()) return "";
  return "<section id=\"slow-ranks\"><h2>Slow ranks</h2><p>Per step the rank with the most computing + free, "
         "its lead over the median rank, whichever of the two exceeds the median more (the cause), the ranks "
         "that wait longer than it in communication and about how much shorter the step would be without "
         "its lead.</p>" +
         html::SimpleTable({"step", "slow rank", "cause", "lead (ms)", "computing excess (ms)", "free excess (ms)",
                            "waiting ranks", "longest extra wait (ms)", "saving if median (ms)"},
                           rows) +
         "</section>";
}

std::string RunCompareSection(const OrderedJson& doc) {
  const OrderedJson& cmp = Member(doc, "run_comparison");
  if (!cmp.is_object()) return "";
  const OrderedJson& b = Member(cmp, "base");
  const OrderedJson& c = Member(cmp, "comparison");
  std::vector<std::string> totals;
  const std::pair<const char*, const char*> rows[] = {
      {"job step (the slowest rank, median step)", "step_ns"}, {"computing (mean rank)", "computing_ns"},
      {"communication not overlapped (mean rank)", "communication_ns"}, {"free (mean rank)", "free_ns"},
      {"the slow rank's lead (mean)", "slow_excess_ns"}};
  for (const auto& [label, key] : rows)
    totals.push_back(Td(label) + MsTd(I(b, key)) + MsTd(I(c, key)) + DeltaTd(I(c, key) - I(b, key)));
  std::set<int64_t> new_slow;
  std::string changes;
  const int64_t steps = Member(cmp, "steps").is_array() ? static_cast<int64_t>(Member(cmp, "steps").size()) : 0;
  for (const OrderedJson& r : Member(cmp, "slow_ranks")) {
    if (Member(r, "status") == "new") new_slow.insert(I(r, "rank"));
    changes += fmt::format("<li>rank {}: <b>{}</b> (holds back {} of {} base and {} of {} comparison steps)</li>",
                           I(r, "rank"), Text(Member(r, "status")), I(r, "base_steps"), steps, I(r, "comparison_steps"),
                           steps);
  }
  std::vector<std::string> ranks;
  for (const OrderedJson& r : Member(cmp, "ranks")) {
    const OrderedJson& rb = Member(r, "base");
    const OrderedJson& rc = Member(r, "comparison");
    ranks.push_back(Td(EscapeText(RankLabel(I(r, "rank")) + (new_slow.count(I(r, "rank")) ? " (new slow rank)" : ""))) +
                    Td(std::to_string(I(r, "steps"))) + MsTd(I(rb, "step_ns")) + MsTd(I(rc, "step_ns")) +
                    DeltaTd(I(rc, "step_ns") - I(rb, "step_ns")) +
                    DeltaTd(I(rc, "computing_ns") - I(rb, "computing_ns")) +
                    DeltaTd(I(rc, "communication_ns") - I(rb, "communication_ns")) +
                    DeltaTd(I(rc, "free_ns") - I(rb, "free_ns")));
  }
  std::string out = "<section id=\"run-compare\"><h2>Against the base run</h2>" +
                    html::SimpleTable({"", "base (ms)", "comparison (ms)", "change (ms)"}, totals);
  if (!changes.empty()) out += "<h3>Slow ranks in both runs</h3><ul>" + changes + "</ul>";
  out += "<h3>Per rank</h3><p>Each rank's means over the compared steps it has in both runs; a change red when "
         "it grew, green when it shrank.</p>" +
         html::SimpleTable({"rank", "steps", "base step (ms)", "comparison step (ms)", "step change (ms)",
                            "computing change (ms)", "communication not overlapped change (ms)",
                            "free change (ms)"},
                           ranks);
  for (const char* key : {"base_only_ranks", "comparison_only_ranks"}) {
    const std::vector<int64_t> only = Ints(Member(cmp, key));
    if (!only.empty())
      out += fmt::format("<p class=\"warn\">Ranks in the {} run only: {}</p>",
                         std::string_view(key) == "base_only_ranks" ? "base" : "comparison", EscapeText(RankRangesText(only)));
  }
  return out + "</section>";
}

// The two runs' collectives by group and kind (those that changed most), their pipeline stages and
// their ranks by percentile (run_comparison's detail); "" for one run.
std::string RunDetailSection(const OrderedJson& doc) {
  const OrderedJson& cmp = Member(doc, "run_comparison");
  const OrderedJson& kinds = Member(Member(cmp, "collectives"), "kinds");
  const OrderedJson& stages = Member(Member(cmp, "stages"), "items");
  const OrderedJson& percentiles = Member(Member(cmp, "rank_percentiles"), "rows");
  if (!kinds.is_array() && !stages.is_array() && !percentiles.is_array()) return "";
  std::string out = "<section id=\"run-detail\"><h2>Collectives, stages and ranks against the base run</h2>";
  for (const OrderedJson& note : Member(cmp, "notes")) out += "<p class=\"warn\">" + Text(note) + "</p>";
  std::vector<const OrderedJson*> changed;
  auto change = [](const OrderedJson& k) {
    const OrderedJson& d = Member(k, "delta");
    return std::abs(I(d, "transfer_ns")) + std::abs(I(d, "skew_ns"));
  };
  for (const OrderedJson& k : kinds) changed.push_back(&k);
  std::stable_sort(changed.begin(), changed.end(),
                   [&](const OrderedJson* a, const OrderedJson* b) { return change(*a) > change(*b); });
  std::vector<std::string> rows;
  for (size_t i = 0; i < changed.size() && i < kTopCollectives; ++i) {
    const OrderedJson& k = *changed[i];
    const OrderedJson& d = Member(k, "delta");
    rows.push_back(Td(Text(Member(k, "group"))) + Td(EscapeText(ShortName(S(k, "kind")))) +
                   Td(std::to_string(I(Member(k, "base"), "count"))) +
                   Td(std::to_string(I(Member(k, "comparison"), "count"))) + DeltaTd(I(d, "transfer_ns")) +
                   DeltaTd(I(d, "skew_ns")) + DeltaTd(I(d, "wait_ns")));
  }
  if (!rows.empty())
    out += fmt::format("<h3>Collectives by group and kind</h3><p>Each run's collectives of a kind: the change of their "
                       "transfer (the last arrival to the latest end), skew and the ranks' waits, summed; the {} that "
                       "changed most of {}.</p>",
                       rows.size(), changed.size()) +
           html::SimpleTable({"group", "kind", "base count", "comparison count", "transfer change (ms)",
                              "skew change (ms)", "wait change (ms)"},
                             rows);
  rows.clear();
  for (const OrderedJson& st : stages) {
    std::string changes;
    for (const OrderedJson& v : Member(st, "values"))
      if (Member(v, "delta_ns").is_number())
        changes += fmt::format("{}{} {}", changes.empty() ? "" : ", ", S(v, "column"), SignedMs(I(v, "delta_ns")));
    rows.push_back(Td(std::to_string(I(st, "stage"))) + Td(EscapeText(RankRangesText(Ints(Member(st, "base_ranks"))))) +
                   Td(EscapeText(RankRangesText(Ints(Member(st, "comparison_ranks"))))) +
                   Td(std::to_string(I(st, "steps"))) + Td(EscapeText(changes)));
  }
  if (!rows.empty())
    out += "<h3>Pipeline stages</h3><p>Stage k of the base against stage k of the comparison: the change of each "
           "column's mean over the compared steps.</p>" +
           html::SimpleTable({"stage", "base ranks", "comparison ranks", "steps", "changes"}, rows);
  rows.clear();
  for (const OrderedJson& r : percentiles)
    rows.push_back(Td(Text(Member(r, "metric"))) + Td(Text(Member(r, "stat"))) + MsTd(I(r, "base_ns")) +
                   Td(RankLabel(I(r, "base_rank"))) + MsTd(I(r, "comparison_ns")) +
                   Td(RankLabel(I(r, "comparison_rank"))) + DeltaTd(I(r, "delta_ns")));
  if (!rows.empty())
    out += "<h3>Ranks by percentile</h3><p>Each rank's mean over the compared steps, across the ranks of each run "
           "(nearest-rank percentiles): the whole runs, whatever their ranks.</p>" +
           html::SimpleTable({"metric", "", "base (ms)", "base rank", "comparison (ms)", "comparison rank",
                              "change (ms)"},
                             rows);
  return out + "</section>";
}

// The collectives by their first arrival, each as tall as its skew and coloured by its last rank;
// appended to `data` as drawn.
std::string SkewChart(const OrderedJson& items, OrderedJson& data) {
  std::vector<std::pair<int64_t, const OrderedJson*>> order;  // first arrival, collective
  std::set<int64_t> last_ranks;
  for (const OrderedJson& c : items) {
    int64_t first = INT64_MAX;
    for (const OrderedJson& a : Member(c, "arrivals")) first = std::min(first, I(a, "start_ns"));
    order.push_back({first, &c});
    if (I(c, "skew_ns") > 0) last_ranks.insert(I(c, "last_rank"));
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<html::Column> columns;
  data = OrderedJson::array();
  for (const auto& [first, c] : order) {
    const int64_t last = I(*c, "last_rank");
    const auto at = static_cast<size_t>(std::distance(last_ranks.begin(), last_ranks.find(last)));
    columns.push_back({S(*c, "group") + " #" + std::to_string(I(*c, "index")) + " " + S(*c, "name") +
                           ": last rank " + std::to_string(last),
                       I(*c, "skew_ns"), "last: " + RankLabel(last),
                       kRankColors[at % std::size(kRankColors)]});
    data.push_back({{"group", Member(*c, "group")}, {"index", I(*c, "index")}, {"last_rank", last},
                    {"skew_ns", I(*c, "skew_ns")}});
  }
  return html::ColumnsSvg(columns, fmt::format("{} collectives in the order they start; each as tall as its skew "
                                               "(last arrival − first), coloured by the rank that arrives last",
                                               columns.size()));
}

std::string CollectivesSection(const OrderedJson& doc, OrderedJson& data) {
  const OrderedJson& coll = Member(doc, "collectives");
  const OrderedJson& items = Member(coll, "items");
  std::string out = "<section id=\"collectives\"><h2>Collectives across ranks</h2>";
  if (!items.is_array() || items.empty()) {
    data = OrderedJson::array();
    out += "<p>No collective is matched across ranks (a run of one rank, or ranks without communication).</p>";
    for (const OrderedJson& n : Member(coll, "notes")) out += "<p class=\"note\">" + Text(n) + "</p>";
    return out + "</section>";
  }
  out += "<p>Each communication group's collectives matched by their order on every rank; the skew is how much "
         "later the last rank arrives than the first (on the ranks' own clocks).</p>" +
         SkewChart(items, data);
  std::vector<std::string> late;
  for (const OrderedJson& l : Member(coll, "late_ranks"))
    late.push_back(Td(EscapeText(RankLabel(I(l, "rank")))) + Td(std::to_string(I(l, "times_last"))) +
                   MsTd(I(l, "skew_ns")));
  if (!late.empty())
    out += "<h3>Who arrives last</h3>" + html::SimpleTable({"rank", "times last", "skew when last, in all (ms)"}, late);
  std::vector<const OrderedJson*> top;  // the collectives some rank waited at
  for (const OrderedJson& c : items)
    if (I(c, "skew_ns") > 0) top.push_back(&c);
  std::stable_sort(top.begin(), top.end(),
                   [](const OrderedJson* x, const OrderedJson* y) { return I(*x, "skew_ns") > I(*y, "skew_ns"); });
  if (top.size() > kTopCollectives) top.resize(kTopCollectives);
  std::vector<std::string> rows;
  for (const OrderedJson* c : top) {
    const std::string name = S(*c, "name");
    rows.push_back(Td(Text(Member(*c, "group"))) + Td(std::to_string(I(*c, "index"))) + "<td title=\"" +
                   html::EscapeAttribute(name) + "\">" + EscapeText(ShortName(name)) + "</td>" +
                   Td(std::to_string(I(*c, "last_rank"))) + MsTd(I(*c, "skew_ns")));
  }
  if (rows.empty()) {
    out += "<p>Every collective starts on every rank at once (skew 0).</p>";
  } else {
    out += (rows.size() == 1 ? std::string("<h3>The largest skew</h3>")
                             : fmt::format("<h3>The {} largest skews</h3>", rows.size())) +
           html::SimpleTable({"group", "#", "collective", "last rank", "skew (ms)"}, rows);
  }
  for (const OrderedJson& n : Member(coll, "notes")) out += "<p class=\"note\">" + Text(n) + "</p>";
  return out + "</section>";
}

std::string WaitMatrixSection(const OrderedJson& doc) {
  const OrderedJson& waits = Member(Member(doc, "collectives"), "waits_on");
  if (!waits.is_array()) return "";
  std::set<int64_t> waiters, blockers;
  std::map<std::pair<int64_t, int64_t>, int64_t> ns;
  for (const OrderedJson& w : waits) {
    waiters.insert(I(w, "waiter"));
    blockers.insert(I(w, "blocker"));
    ns[{I(w, "waiter"), I(w, "blocker")}] = I(w, "wait_ns");
  }
  std::string out = "<section id=\"wait-matrix\"><h2>Who waits for whom</h2>";
  if (waits.empty())
    return out + "<p>Nobody waited: the ranks arrive together at every collective.</p></section>";
  html::HeatMap map;
  map.row_title = "waiter";
  map.column_title = "waits on (ms, at the collectives that rank arrives last at)";
  map.verb = "waits on";
  for (int64_t b : blockers) map.columns.push_back(RankLabel(b));
  for (int64_t w : waiters) {
    map.rows.push_back(RankLabel(w));
    std::vector<int64_t> row;
    for (int64_t b : blockers) row.push_back(ns.count({w, b}) ? ns[{w, b}] : 0);
    map.ns.push_back(std::move(row));
  }
  return out + "<p>At each collective every rank that arrived before the last one waited for it: each cell is "
               "how long the row's rank waited on the column's rank in all, the darker the longer.</p>" +
         html::HeatMapSvg(map) + "</section>";
}

}  // namespace

std::string RenderClusterHtmlPage(const OrderedJson& doc) {
  OrderedJson rank_bars, skew;
  std::string body = SummarySection(doc);
  body += RankTimeSection(doc, rank_bars);
  body += SlowRanksSection(doc);
  body += RunCompareSection(doc);
  body += RunDetailSection(doc);
  body += CollectivesSection(doc, skew);
  body += WaitMatrixSection(doc);
  std::string title = "profdiff cluster: " + Text(Member(Member(doc, "run"), "path"));
  const OrderedJson& base = Member(Member(doc, "run_comparison"), "base_run");
  if (base.is_object()) title += " vs " + Text(Member(base, "path"));
  OrderedJson data;
  data["schema"] = Member(doc, "schema");
  data["run"] = Member(doc, "run");
  data["rank_bars"] = std::move(rank_bars);
  data["collective_skew"] = std::move(skew);
  data["waits_on"] = Member(Member(doc, "collectives"), "waits_on");
  data["verdict"] = Member(Member(doc, "verdict"), "result");
  return html::RenderPageFrame({title, Text(Member(Member(doc, "tool"), "version")), std::move(body), std::move(data)});
}

}  // namespace profdiff::report
