// profdiff_cluster.xlsx: the sheets of one run (cluster_workbook.h); the two-run sheets are in
// cluster_workbook_compare.cc.
#include "profdiff/report/cluster/cluster_workbook.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "cluster_workbook_cells.h"
#include "profdiff/base/time.h"
#include "profdiff/report/xlsx_writer.h"

namespace profdiff::report {
namespace cluster_cells {

ColumnSpec Col(std::string header, double width, CellFormat format) {
  ColumnSpec c;
  c.header = std::move(header);
  c.width = width;
  c.format = format;
  return c;
}

ColumnSpec DiffCol(std::string header, double width) {
  ColumnSpec c = Col(std::move(header), width);
  c.red_above_zero = true;
  return c;
}

Cell Us(int64_t ns) { return ns == kAbsentNs ? Cell::Blank() : Cell::Number(NsToUs(ns)); }

Cell Int(int64_t v) { return Cell::Number(static_cast<double>(v)); }

Cell IdCell(const std::string& text) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  // A number only when it reads back as the same text ("50", not "050" or "1e3").
  if (!text.empty() && ec == std::errc() && p == end && std::to_string(v) == text) return Int(v);
  return Cell::String(text);
}

void RunBanner(SheetSpec& sheet, const ClusterResult& result) {
  const int last = static_cast<int>(sheet.columns.size()) - 1;
  if (result.base_run != nullptr) {
    sheet.comparison_banner = {0, last, ComparisonBannerText(result.run_path)};
  } else {
    sheet.base_banner = {0, last, "Cluster Profiling: " + result.run_path};
  }
}

std::string BasePath(const ClusterResult& result) {
  return result.base_run != nullptr ? result.base_run->run_path : std::string();
}

void Banners(SheetSpec& s, const ClusterResult& result, int base_first, int base_last, int cmp_first, int cmp_last) {
  s.base_banner = {base_first, base_last, BaseBannerText(BasePath(result))};
  s.comparison_banner = {cmp_first, cmp_last, ComparisonBannerText(result.run_path)};
}

}  // namespace cluster_cells

namespace {

using namespace cluster_cells;  // NOLINT: the sheet builders' vocabulary

Cell StepValue(int64_t ns, double us_float, const analysis::ReferencePolicy& policy) {
  if (policy.cluster_step_values_as_python_floats && !std::isnan(us_float)) return Cell::Number(us_float);
  return Us(ns);
}

// Where each collective's first rank arrived (the arrivals' earliest start).
int64_t FirstArrival(const analysis::MatchedCollective& c, int64_t* rank) {
  int64_t first = c.arrivals.empty() ? 0 : c.arrivals.front().start_ns;
  if (rank != nullptr) *rank = c.arrivals.empty() ? -1 : c.arrivals.front().rank;
  for (const analysis::CollectiveArrival& a : c.arrivals) {
    if (a.start_ns < first) {
      first = a.start_ns;
      if (rank != nullptr) *rank = a.rank;
    }
  }
  return first;
}

}  // namespace

SheetSpec BuildClusterStepSheet(const ClusterResult& result) {
  const analysis::ClusterStepTable& t = result.step_table;
  SheetSpec s;
  s.name = "ClusterStepTraceTime";
  s.columns = {Col("Step", 10, CellFormat::kDefault), Col("Type", 10, CellFormat::kDefault),
               Col("Index", 10, CellFormat::kDefault)};
  for (const std::string& c : t.columns) s.columns.push_back(Col(c, 16));
  for (const analysis::ClusterStepRow& r : t.rows) {
    RowSpec row;
    row.cells = {IdCell(r.step), Cell::String(r.stage ? "stage" : "rank"), IdCell(r.index)};
    for (size_t c = 0; c < t.columns.size(); ++c) {
      const int64_t ns = c < r.values_ns.size() ? r.values_ns[c] : kAbsentNs;
      const double f = c < r.values_us_float.size() ? r.values_us_float[c] : NAN;
      row.cells.push_back(StepValue(ns, f, result.policy));
    }
    s.rows.push_back(std::move(row));
  }
  RunBanner(s, result);
  return s;
}

SheetSpec BuildSlowRanksSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "SlowRanks";
  s.columns = {Col("Step", 10, CellFormat::kDefault),  Col("Ranks", 8, CellFormat::kDefault),
               Col("Slow Rank", 10, CellFormat::kDefault), Col("Cause", 10, CellFormat::kDefault),
               Col("Computing + Free(us)", 16),        Col("Median Computing + Free(us)", 16),
               Col("Lead(us)", 14),                    Col("Computing Excess(us)", 16),
               Col("Free Excess(us)", 16),             Col("Waiting Ranks", 10, CellFormat::kDefault),
               Col("Waiters", 20, CellFormat::kDefault), Col("Longest Extra Wait(us)", 16),
               Col("Saving If Median(us)", 16),        Col("Longest Step Rank", 10, CellFormat::kDefault),
               Col("Longest Step(us)", 16)};
  for (const analysis::StepStraggler& st : result.stragglers) {
    const bool slow = st.cause != analysis::SlowCause::kNone;
    std::vector<int64_t> waiters;
    int64_t longest_wait = 0;
    for (const analysis::RankWait& w : st.waiters) {
      waiters.push_back(w.rank);
      longest_wait = std::max(longest_wait, w.extra_wait_ns);
    }
    std::sort(waiters.begin(), waiters.end());
    RowSpec row;
    row.cells = {IdCell(st.step),
                 Int(st.ranks),
                 slow ? Int(st.rank) : Cell::Blank(),
                 Cell::String(std::string(analysis::SlowCauseName(st.cause))),
                 Us(st.work_ns),
                 Us(st.median_work_ns),
                 Us(st.work_ns - st.median_work_ns),
                 Us(st.computing_excess_ns),
                 Us(st.free_excess_ns),
                 Int(static_cast<int64_t>(waiters.size())),
                 Cell::String(RankRangesText(waiters)),
                 waiters.empty() ? Cell::Blank() : Us(longest_wait),
                 Us(st.saving_if_median_ns),
                 st.longest_step_ns == kAbsentNs ? Cell::Blank() : Int(st.longest_step_rank),
                 Us(st.longest_step_ns)};
    s.rows.push_back(std::move(row));
  }
  RunBanner(s, result);
  return s;
}

SheetSpec BuildCollectiveSkewSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "CollectiveSkew";
  s.columns = {Col("Group", 20, CellFormat::kDefault),     Col("Index", 8, CellFormat::kDefault),
               Col("Name", 30, CellFormat::kDefault),      Col("Names Differ", 10, CellFormat::kDefault),
               Col("Ranks", 8, CellFormat::kDefault),      Col("First Rank", 10, CellFormat::kDefault),
               Col("Last Rank", 10, CellFormat::kDefault), Col("Skew(us)", 14)};
  for (const analysis::MatchedCollective& c : result.collectives.collectives) {
    int64_t first_rank = -1;
    FirstArrival(c, &first_rank);
    RowSpec row;
    row.cells = {Cell::String(c.group),
                 Int(c.index),
                 Cell::String(c.name),
                 Cell::String(c.names_differ ? "yes" : "no"),
                 Int(static_cast<int64_t>(c.arrivals.size())),
                 Int(first_rank),
                 Int(c.last_rank),
                 Us(c.skew_ns)};
    s.rows.push_back(std::move(row));
  }
  RunBanner(s, result);
  return s;
}

namespace {

// The collectives whose arrivals CollectiveArrivals lists: all when they fit in max_rows, else the
// largest skews (ties: the earlier) that fit, back in their order.
std::vector<size_t> ArrivalCollectives(const std::vector<analysis::MatchedCollective>& all, size_t max_rows) {
  std::vector<size_t> order(all.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  size_t rows = 0;
  for (const analysis::MatchedCollective& c : all) rows += c.arrivals.size();
  if (rows <= max_rows) return order;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return all[a].skew_ns > all[b].skew_ns; });
  std::vector<size_t> kept;
  rows = 0;
  for (size_t i : order) {
    if (rows + all[i].arrivals.size() > max_rows) break;
    rows += all[i].arrivals.size();
    kept.push_back(i);
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

}  // namespace

SheetSpec BuildCollectiveArrivalsSheet(const ClusterResult& result, size_t max_rows) {
  SheetSpec s;
  s.name = "CollectiveArrivals";
  s.columns = {Col("Group", 20, CellFormat::kDefault), Col("Index", 8, CellFormat::kDefault),
               Col("Name", 30, CellFormat::kDefault),  Col("Rank", 8, CellFormat::kDefault),
               Col("Arrival After First(us)", 16),    Col("Duration(us)", 14),
               Col("Wait(us)", 14),                   Col("Last Rank", 10, CellFormat::kDefault),
               Col("Skew(us)", 14),                   Col("Transport", 10, CellFormat::kDefault),
               Col("Size(MB)", 12),                   Col("Bandwidth(GB/s)", 14)};
  const auto& all = result.collectives.collectives;
  const std::vector<size_t> shown = ArrivalCollectives(all, max_rows);
  for (size_t i : shown) {
    const analysis::MatchedCollective& c = all[i];
    const int64_t first = FirstArrival(c, nullptr);
    for (const analysis::CollectiveArrival& a : c.arrivals) {
      RowSpec row;
      row.cells = {Cell::String(c.group), Int(c.index),          Cell::String(c.name),
                   Int(a.rank),           Us(a.start_ns - first), Us(a.end_ns - a.start_ns),
                   Us(a.wait_ns),         Int(c.last_rank),       Us(c.skew_ns)};
      if (!a.transport.empty()) {
        row.cells.push_back(Cell::String(a.transport));
        row.cells.push_back(Cell::Number(a.size_mb));
        row.cells.push_back(Cell::Number(a.bandwidth_gbps));
      }
      s.rows.push_back(std::move(row));
    }
  }
  RunBanner(s, result);
  if (shown.size() < all.size()) {
    (result.base_run != nullptr ? s.comparison_banner : s.base_banner).text +=
        fmt::format(" (the arrivals of the {} collectives of largest skew, of {}; every arrival is in "
                    "profdiff_cluster.json)",
                    shown.size(), all.size());
  }
  return s;
}

SheetSpec BuildLateRanksSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "LateRanks";
  s.columns = {Col("Rank", 8, CellFormat::kDefault),          Col("Times Last", 12, CellFormat::kDefault),
               Col("Total Skew When Last(us)", 18),              Col("Cause Before Arrival", 14, CellFormat::kDefault),
               Col("Computing Excess(us)", 16),                  Col("Idle Excess(us)", 16),
               Col("Longest Kernel Before", 30, CellFormat::kDefault), Col("Longest Kernel(us)", 16)};
  for (size_t i = 0; i < result.late_ranks.size(); ++i) {
    const analysis::LateRank& l = result.late_ranks[i];
    RowSpec row{{Int(l.rank), Int(l.times_last), Us(l.skew_ns)}, kNoFill, 0};
    if (i < result.late_causes.size() && result.late_causes[i].cause != "unknown") {
      const analysis::LateArrivalCause& c = result.late_causes[i];
      const bool kernel = !c.top_kernels.empty();
      row.cells.insert(row.cells.end(), {Cell::String(c.cause), Us(c.computing_excess_ns), Us(c.idle_excess_ns),
                                         kernel ? Cell::String(c.top_kernels.front().name) : Cell::Blank(),
                                         kernel ? Us(c.top_kernels.front().ns) : Cell::Blank()});
    }
    s.rows.push_back(std::move(row));
  }
  RunBanner(s, result);
  return s;
}

// The reference's slow-rank vote as its SlowOpStats table (slow_op_stats.csv's columns), in µs.
SheetSpec BuildLinkMatrixSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "LinkMatrix";
  s.columns = {Col("Step", 10, CellFormat::kDefault),     Col("Group", 24, CellFormat::kDefault),
               Col("Src Rank", 9, CellFormat::kDefault),  Col("Dst Rank", 9, CellFormat::kDefault),
               Col("Transport", 10, CellFormat::kDefault), Col("Transit Size(MB)", 14),
               Col("Transit Time(ms)", 14),               Col("Bandwidth(GB/s)", 14),
               Col("Transport Median(GB/s)", 14),         Col("Slow", 6, CellFormat::kDefault)};
  std::map<std::tuple<std::string, std::string, int64_t, int64_t>, double> slow;  // the slow links' medians
  for (const analysis::SlowLink& l : result.links.slow)
    slow[{l.link.step, l.link.group, l.link.src, l.link.dst}] = l.transport_median_gbps;
  for (const analysis::RunLink& l : result.links.links) {
    const auto it = slow.find({l.step, l.group, l.src, l.dst});
    const bool is_slow = it != slow.end();
    RowSpec row{{Cell::String(l.step), Cell::String(l.group), Int(l.src), Int(l.dst), Cell::String(l.transport),
                 Cell::Number(l.size_mb), Cell::Number(l.time_ms), Cell::Number(l.bandwidth_gbps),
                 is_slow ? Cell::Number(it->second) : Cell::String(""), Cell::String(is_slow ? "yes" : "")},
                is_slow ? kFillRed : kNoFill, 0};
    s.rows.push_back(std::move(row));
  }
  RunBanner(s, result);
  return s;
}

SheetSpec BuildSlowRankVoteSheet(const ClusterResult& result) {
  const analysis::SlowRankVote& v = result.slow_rank_vote;
  SheetSpec s;
  s.name = "SlowRankVote";
  s.columns = {Col("SlowRank", 10, CellFormat::kDefault), Col("OpName", 30, CellFormat::kDefault),
               Col("GroupName", 30, CellFormat::kDefault), Col("Timestamp", 22, CellFormat::kDefault),
               Col("Count", 8, CellFormat::kDefault)};
  for (const char* name : {"Mean(us)", "Std(us)", "Min(us)", "Q1(us)", "Median(us)", "Q3(us)", "Max(us)", "Sum(us)"})
    s.columns.push_back(Col(name, 14));
  for (const analysis::VotedOp& op : v.ops) {
    std::string ranks;
    for (int64_t r : op.slow_ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
    RowSpec row{{Cell::String(ranks), Cell::String(op.name), Cell::String(op.group),
                 Cell::String(std::to_string(op.timestamp_ns)), Int(op.stats.count)},
                kNoFill, 0};
    const analysis::VoteStats& st = op.stats;
    if (v.as_reference) {
      for (double us : {st.mean_us, st.std_us, st.min_us, st.q1_us, st.median_us, st.q3_us, st.max_us, st.sum_us})
        row.cells.push_back(Cell::Number(us));
    } else {
      for (int64_t q4 : {st.mean_q4, st.std_q4, st.min_q4, st.q1_q4, st.median_q4, st.q3_q4, st.max_q4, st.sum_q4})
        row.cells.push_back(Cell::Number(static_cast<double>(q4) / 4000.0));
    }
    s.rows.push_back(std::move(row));
  }
  RunBanner(s, result);
  return s;
}

// Rows: the ranks that waited; columns: the ranks they waited on (ascending), then each waiter's
// total and at how many collectives it waited.
SheetSpec BuildWaitMatrixSheet(const ClusterResult& result) {
  std::set<int64_t> waiters, blockers;
  std::map<std::pair<int64_t, int64_t>, const analysis::RankWaitsOn*> cell;
  for (const analysis::RankWaitsOn& w : result.waits_on) {
    waiters.insert(w.waiter);
    blockers.insert(w.blocker);
    cell[{w.waiter, w.blocker}] = &w;
  }
  SheetSpec s;
  s.name = "WaitMatrix";
  s.columns = {Col("Waiter Rank", 12, CellFormat::kDefault)};
  for (int64_t b : blockers) s.columns.push_back(Col("Waits On Rank " + std::to_string(b) + "(us)", 16));
  s.columns.push_back(Col("Total Wait(us)", 16));
  s.columns.push_back(Col("Collectives", 12, CellFormat::kDefault));
  for (int64_t w : waiters) {
    RowSpec row;
    row.cells.push_back(Int(w));
    int64_t total = 0, count = 0;
    for (int64_t b : blockers) {
      auto it = cell.find({w, b});
      if (it == cell.end()) {
        row.cells.push_back(Cell::Blank());
        continue;
      }
      row.cells.push_back(Us(it->second->wait_ns));
      total += it->second->wait_ns;
      count += it->second->collectives;
    }
    row.cells.push_back(Us(total));
    row.cells.push_back(Int(count));
    s.rows.push_back(std::move(row));
  }
  RunBanner(s, result);
  return s;
}

SheetSpec BuildClusterTimeSummarySheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "ClusterTimeSummary";
  s.columns = {Col("rank", 8, CellFormat::kDefault), Col("step", 8, CellFormat::kDefault)};
  for (size_t i = 0; i < analysis::kTimeMetricCount; ++i)
    s.columns.push_back(Col(std::string(analysis::TimeMetricName(static_cast<analysis::TimeMetric>(i))), 16));
  for (const analysis::TimeSummaryRow& r : result.time_summary.rows) {
    RowSpec row;
    row.cells = {Int(r.rank), Int(r.step)};
    for (size_t i = 0; i < analysis::kTimeMetricCount; ++i)
      row.cells.push_back(TimeValue(r.ns[i], r.us[i], result.policy));
    s.rows.push_back(std::move(row));
  }
  RunBanner(s, result);
  return s;
}

std::vector<SheetSpec> BuildClusterSheets(const ClusterResult& result) {
  std::vector<SheetSpec> sheets = {BuildClusterStepSheet(result),        BuildSlowRanksSheet(result),
                                   BuildCollectiveSkewSheet(result),     BuildCollectiveArrivalsSheet(result),
                                   BuildLateRanksSheet(result),          BuildWaitMatrixSheet(result),
                                   BuildSlowRankVoteSheet(result)};
  if (!result.links.links.empty()) sheets.push_back(BuildLinkMatrixSheet(result));
  if (result.base_run != nullptr && result.run_comparison) {
    sheets.push_back(BuildRunCompareSheet(result));
    sheets.push_back(BuildStepCompareSheet(result));
    sheets.push_back(BuildRankCompareSheet(result));
    sheets.push_back(BuildSlowRankChangesSheet(result));
    sheets.push_back(BuildCollectiveCompareSheet(result));
    sheets.push_back(BuildTopCollectiveChangesSheet(result));
    sheets.push_back(BuildStageCompareSheet(result));
    sheets.push_back(BuildRankPercentilesSheet(result));
  }
  sheets.push_back(BuildClusterTimeSummarySheet(result));
  if (result.base_run != nullptr) sheets.push_back(BuildClusterTimeCompareSheet(result));
  return sheets;
}

Status WriteClusterWorkbook(const ClusterResult& result, const std::string& path, bool force, size_t threads) {
  WorkbookOptions options;
  options.force = force;
  options.empty_reason = "no rank of the run has a step or a collective to show";
  options.base_path_arg = result.base_run != nullptr ? result.base_run->run_path : std::string();
  options.comparison_path_arg = result.run_path;
  options.fit_text_columns = !result.policy.workbook_reference_widths;
  options.wrap_banners = !result.policy.workbook_one_line_banners;
  options.infinite_ratio_as_number = !result.policy.workbook_ratio_inf_text;
  options.created = kFixedWorkbookCreated;  // the same result, the same bytes
  options.threads = threads;
  return WriteWorkbook(BuildClusterSheets(result), path, options);
}

}  // namespace profdiff::report
