// profdiff_cluster.xlsx: the sheets of two runs (-bp; cluster_workbook.h). Base columns under the
// green "Base Profiling: BASE" banner, the run's under the yellow "Comparison Profiling: RUN", the
// DIFF columns (comparison − base) red above 0.
#include <optional>
#include <string>
#include <vector>

#include "cluster_workbook_cells.h"
#include "profdiff/analysis/common/python_numbers.h"
#include "profdiff/report/cluster/cluster_workbook.h"

namespace profdiff::report {
namespace {

using namespace cluster_cells;  // NOLINT: the sheet builders' vocabulary

const analysis::GateCheck* CheckOf(const analysis::GateResult& gate, analysis::GateCategory category) {
  for (const analysis::GateCheck& c : gate.checks)
    if (c.category == category) return &c;
  return nullptr;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

// The verdict's row: the result and why (the new stragglers under a regression, else what makes
// the runs incomparable or the gate unable to pass).
RowSpec VerdictRow(const ClusterResult& result) {
  const analysis::GateResult& g = result.gate;
  std::vector<std::string> why = g.incomparable_reasons;
  why.insert(why.end(), g.unsafe_reasons.begin(), g.unsafe_reasons.end());
  if (g.ran && g.verdict == analysis::Verdict::kRegression) {
    const std::vector<std::string> stragglers = StragglerReasons(result);
    why.insert(why.end(), stragglers.begin(), stragglers.end());
  }
  std::string verdict = g.ran ? std::string(analysis::Name(g.verdict)) : "no gate (no --gate-* option)";
  for (char& ch : verdict)
    if (g.ran && ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
  return {{Cell::String("Verdict"), Cell::Blank(), Cell::Blank(), Cell::Blank(), Cell::Blank(), Cell::Blank(),
           Cell::String(verdict), Cell::String(Joined(why))},
          kNoFill,
          0};
}

}  // namespace

// One row per total of the comparison (the gate's categories), then the verdict.
SheetSpec BuildRunCompareSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "RunCompare";
  s.columns = {Col("Index", 40, CellFormat::kDefault), Col("Base(us)", 16), Col("Comparison(us)", 16),
               DiffCol("Diff(us)"), Col("Diff Ratio", 12, CellFormat::kDefaultRatio),
               Col("Gate Threshold(%)", 12), Col("Result", 14, CellFormat::kDefault),
               Col("Reason", 60, CellFormat::kDefault)};
  s.columns[4].ratio = true;
  s.columns[7].wrap = true;
  Banners(s, result, 1, 1, 2, 2);
  if (!result.run_comparison) return s;
  const analysis::JobTotals& b = result.run_comparison->base;
  const analysis::JobTotals& c = result.run_comparison->comparison;
  struct Total {
    const char* label;
    int64_t base_ns, comparison_ns;
    std::optional<analysis::GateCategory> category;
  };
  const Total totals[] = {
      {"Job Step (slowest rank, median step)", b.step_ns, c.step_ns, analysis::GateCategory::kE2e},
      {"Computing (mean rank)", b.computing_ns, c.computing_ns, analysis::GateCategory::kComputing},
      {"Communication(Not Overlapped) (mean rank)", b.communication_ns, c.communication_ns,
       analysis::GateCategory::kCommunication},
      {"Free (mean rank)", b.free_ns, c.free_ns, analysis::GateCategory::kFree},
      {"Slow Rank Lead (mean)", b.slow_excess_ns, c.slow_excess_ns, std::nullopt},
  };
  for (const Total& t : totals) {
    const analysis::GateCheck* check = t.category ? CheckOf(result.gate, *t.category) : nullptr;
    RowSpec row;
    row.cells = {Cell::String(t.label),
                 Us(t.base_ns),
                 Us(t.comparison_ns),
                 Us(t.comparison_ns - t.base_ns),
                 RatioCell(analysis::DiffRatio(static_cast<double>(t.base_ns), static_cast<double>(t.comparison_ns),
                                               result.policy)),
                 check != nullptr ? Cell::Number(check->threshold_pct) : Cell::Blank(),
                 check != nullptr ? Cell::String(std::string(analysis::Name(check->verdict))) : Cell::Blank(),
                 check != nullptr ? Cell::String(check->reason) : Cell::Blank()};
    s.rows.push_back(std::move(row));
  }
  s.rows.push_back(VerdictRow(result));
  return s;
}

namespace {

void AppendJobStep(std::vector<Cell>& cells, const analysis::JobStep& j) {
  const bool slow = j.slow_rank.has_value();
  cells.insert(cells.end(), {IdCell(j.step), Int(j.ranks), Us(j.step_ns), Us(j.computing_ns), Us(j.communication_ns),
                             Us(j.free_ns), slow ? Int(*j.slow_rank) : Cell::Blank(),
                             Cell::String(std::string(analysis::SlowCauseName(j.slow_cause))), Us(j.slow_excess_ns)});
}

std::vector<ColumnSpec> JobStepColumns() {
  return {Col("Step", 10, CellFormat::kDefault),
          Col("Ranks", 8, CellFormat::kDefault),
          Col("Step(us)", 16),
          Col("Computing(us)", 16),
          Col("Communication(Not Overlapped)(us)", 16),
          Col("Free(us)", 16),
          Col("Slow Rank", 10, CellFormat::kDefault),
          Col("Slow Cause", 10, CellFormat::kDefault),
          Col("Slow Lead(us)", 16)};
}

// The four diff columns of a step or a rank: step, computing, communication, free.
void AppendDiffColumns(std::vector<ColumnSpec>& columns) {
  for (const char* name : {"Diff Step(us)", "Diff Computing(us)", "Diff Communication(Not Overlapped)(us)",
                           "Diff Free(us)"})
    columns.push_back(DiffCol(name));
}

}  // namespace

SheetSpec BuildStepCompareSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "StepCompare";
  s.columns = JobStepColumns();
  const std::vector<ColumnSpec> side = JobStepColumns();
  s.columns.insert(s.columns.end(), side.begin(), side.end());
  AppendDiffColumns(s.columns);
  Banners(s, result, 0, 8, 9, 17);
  if (!result.run_comparison) return s;
  for (const analysis::StepComparison& st : result.run_comparison->steps) {
    RowSpec row;
    AppendJobStep(row.cells, st.base);
    AppendJobStep(row.cells, st.comparison);
    row.cells.insert(row.cells.end(), {Us(st.comparison.step_ns - st.base.step_ns),
                                       Us(st.comparison.computing_ns - st.base.computing_ns),
                                       Us(st.comparison.communication_ns - st.base.communication_ns),
                                       Us(st.comparison.free_ns - st.base.free_ns)});
    s.rows.push_back(std::move(row));
  }
  return s;
}

SheetSpec BuildRankCompareSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "RankCompare";
  s.columns = {Col("Rank", 8, CellFormat::kDefault), Col("Steps", 8, CellFormat::kDefault)};
  for (int side = 0; side < 2; ++side)
    for (const char* name : {"Step(us)", "Computing(us)", "Communication(Not Overlapped)(us)", "Free(us)"})
      s.columns.push_back(Col(name, 16));
  AppendDiffColumns(s.columns);
  Banners(s, result, 2, 5, 6, 9);
  if (!result.run_comparison) return s;
  for (const analysis::RankComparison& r : result.run_comparison->ranks) {
    RowSpec row;
    row.cells = {Int(r.rank),
                 Int(r.steps),
                 Us(r.base_step_ns),
                 Us(r.base_computing_ns),
                 Us(r.base_communication_ns),
                 Us(r.base_free_ns),
                 Us(r.comparison_step_ns),
                 Us(r.comparison_computing_ns),
                 Us(r.comparison_communication_ns),
                 Us(r.comparison_free_ns),
                 Us(r.comparison_step_ns - r.base_step_ns),
                 Us(r.comparison_computing_ns - r.base_computing_ns),
                 Us(r.comparison_communication_ns - r.base_communication_ns),
                 Us(r.comparison_free_ns - r.base_free_ns)};
    s.rows.push_back(std::move(row));
  }
  return s;
}

SheetSpec BuildSlowRankChangesSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "SlowRankChanges";
  s.columns = {Col("Rank", 8, CellFormat::kDefault), Col("Status", 12, CellFormat::kDefault),
               Col("Base Steps", 12, CellFormat::kDefault), Col("Comparison Steps", 12, CellFormat::kDefault)};
  Banners(s, result, 2, 2, 3, 3);
  if (!result.run_comparison) return s;
  for (const analysis::SlowRankChange& r : result.run_comparison->slow_ranks)
    s.rows.push_back({{Int(r.rank), Cell::String(r.status), Int(r.base_steps), Int(r.comparison_steps)}, kNoFill, 0});
  return s;
}

// The reference's ClusterTimeCompareSummary: per metric the run's value, the base's and the diff.
SheetSpec BuildClusterTimeCompareSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "ClusterTimeCompareSummary";
  s.columns = {Col("rank", 8, CellFormat::kDefault), Col("step", 8, CellFormat::kDefault)};
  for (size_t i = 0; i < analysis::kTimeMetricCount; ++i) {
    const std::string name(analysis::TimeMetricName(static_cast<analysis::TimeMetric>(i)));
    s.columns.push_back(Col(name, 16));
    s.columns.push_back(Col(name + "Base", 16));
    s.columns.push_back(DiffCol(name + "Diff"));
  }
  // The runs' columns alternate: one banner names both.
  s.comparison_banner = {0, static_cast<int>(s.columns.size()) - 1,
                         ComparisonBannerText(result.run_path) + "; " + BaseBannerText(BasePath(result)) +
                             " (the columns ending in Base)"};
  for (const analysis::TimeCompareRow& r : result.time_compare) {
    RowSpec row;
    row.cells = {Int(r.rank), Int(r.step)};
    for (size_t i = 0; i < analysis::kTimeMetricCount; ++i) {
      row.cells.push_back(TimeValue(r.current.ns[i], r.current.us[i], result.policy));
      row.cells.push_back(TimeValue(r.base.ns[i], r.base.us[i], result.policy));
      row.cells.push_back(TimeValue(r.current.ns[i] - r.base.ns[i], r.current.us[i] - r.base.us[i], result.policy));
    }
    s.rows.push_back(std::move(row));
  }
  return s;
}

}  // namespace profdiff::report
