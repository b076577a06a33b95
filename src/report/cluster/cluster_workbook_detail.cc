// profdiff_cluster.xlsx: the two-run detail sheets (-bp; cluster_workbook.h): collectives by group
// × kind and the ones that changed most, pipeline stages, the ranks by percentile. Base columns
// under the green banner, the run's under the yellow one, DIFF columns (comparison − base) red
// above 0.
#include <string>
#include <vector>

#include "cluster_workbook_cells.h"
#include "profdiff/report/cluster/cluster_workbook.h"

namespace profdiff::report {
namespace {

using namespace cluster_cells;  // NOLINT: the sheet builders' vocabulary

const analysis::RunDetailComparison* Detail(const ClusterResult& result) {
  return result.base_run != nullptr && result.run_detail ? &*result.run_detail : nullptr;
}

void AppendTotals(std::vector<Cell>& cells, const analysis::CollectiveTotals& t) {
  cells.insert(cells.end(), {Int(t.count), Us(t.transfer_ns), Us(t.skew_ns), Us(t.wait_ns)});
}

void AppendSide(std::vector<Cell>& cells, const analysis::CollectiveSide& s) {
  cells.insert(cells.end(),
               {Cell::String(s.name), Int(s.ranks), Int(s.last_rank), Us(s.transfer_ns), Us(s.skew_ns), Us(s.wait_ns)});
}

}  // namespace

SheetSpec BuildCollectiveCompareSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "CollectiveCompare";
  s.columns = {Col("Group", 24, CellFormat::kDefault), Col("Kind", 28, CellFormat::kDefault)};
  for (int side = 0; side < 2; ++side) {
    s.columns.push_back(Col("Count", 10, CellFormat::kDefault));
    for (const char* name : {"Transfer(us)", "Skew(us)", "Wait(us)"}) s.columns.push_back(Col(name, 16));
  }
  s.columns.push_back(Col("Diff Count", 10, CellFormat::kDefault));
  for (const char* name : {"Diff Transfer(us)", "Diff Skew(us)", "Diff Wait(us)"}) s.columns.push_back(DiffCol(name));
  Banners(s, result, 2, 5, 6, 9);
  const analysis::RunDetailComparison* d = Detail(result);
  if (d == nullptr) return s;
  for (const analysis::CollectiveKindChange& k : d->collectives.kinds) {
    RowSpec row;
    row.cells = {Cell::String(k.group), Cell::String(k.kind)};
    AppendTotals(row.cells, k.base);
    AppendTotals(row.cells, k.comparison);
    row.cells.insert(row.cells.end(),
                     {Int(k.comparison.count - k.base.count), Us(k.comparison.transfer_ns - k.base.transfer_ns),
                      Us(k.comparison.skew_ns - k.base.skew_ns), Us(k.comparison.wait_ns - k.base.wait_ns)});
    s.rows.push_back(std::move(row));
  }
  return s;
}

SheetSpec BuildTopCollectiveChangesSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "TopCollectiveChanges";
  s.columns = {Col("Group", 24, CellFormat::kDefault), Col("Index", 8, CellFormat::kDefault)};
  for (int side = 0; side < 2; ++side) {
    s.columns.insert(s.columns.end(), {Col("Name", 28, CellFormat::kDefault), Col("Ranks", 8, CellFormat::kDefault),
                                       Col("Last Rank", 10, CellFormat::kDefault)});
    for (const char* name : {"Transfer(us)", "Skew(us)", "Wait(us)"}) s.columns.push_back(Col(name, 16));
  }
  for (const char* name : {"Diff Transfer(us)", "Diff Skew(us)", "Diff Wait(us)", "Diff Transfer+Skew(us)"})
    s.columns.push_back(DiffCol(name));
  Banners(s, result, 2, 7, 8, 13);
  const analysis::RunDetailComparison* d = Detail(result);
  if (d == nullptr) return s;
  for (const analysis::CollectiveChange& ch : d->collectives.top) {
    RowSpec row;
    row.cells = {Cell::String(ch.group), Int(ch.index)};
    AppendSide(row.cells, ch.base);
    AppendSide(row.cells, ch.comparison);
    row.cells.insert(row.cells.end(),
                     {Us(ch.comparison.transfer_ns - ch.base.transfer_ns), Us(ch.comparison.skew_ns - ch.base.skew_ns),
                      Us(ch.comparison.wait_ns - ch.base.wait_ns), Us(ch.ChangeNs())});
    s.rows.push_back(std::move(row));
  }
  return s;
}

SheetSpec BuildStageCompareSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "StageCompare";
  const analysis::RunDetailComparison* d = Detail(result);
  const std::vector<std::string> none;
  const std::vector<std::string>& columns = d != nullptr ? d->stages.columns : none;
  const int n = static_cast<int>(columns.size());
  s.columns = {Col("Stage", 8, CellFormat::kDefault), Col("Steps", 8, CellFormat::kDefault)};
  for (int side = 0; side < 2; ++side) {
    s.columns.push_back(Col("Ranks", 16, CellFormat::kDefault));
    for (const std::string& c : columns) s.columns.push_back(Col(c + "(us)", 16));
  }
  for (const std::string& c : columns) s.columns.push_back(DiffCol("Diff " + c + "(us)"));
  Banners(s, result, 2, 2 + n, 3 + n, 3 + 2 * n);
  if (d == nullptr) return s;
  for (const analysis::StageChange& st : d->stages.stages) {
    RowSpec row;
    row.cells = {Int(st.stage), Int(st.steps), Cell::String(analysis::PythonTupleText(st.base_ranks))};
    for (const analysis::StageColumnChange& c : st.columns) row.cells.push_back(Us(c.base_ns));
    row.cells.push_back(Cell::String(analysis::PythonTupleText(st.comparison_ranks)));
    for (const analysis::StageColumnChange& c : st.columns) row.cells.push_back(Us(c.comparison_ns));
    for (const analysis::StageColumnChange& c : st.columns)
      row.cells.push_back(c.steps == 0 ? Cell::Blank() : Us(c.comparison_ns - c.base_ns));
    s.rows.push_back(std::move(row));
  }
  return s;
}

SheetSpec BuildRankPercentilesSheet(const ClusterResult& result) {
  SheetSpec s;
  s.name = "RankPercentiles";
  s.columns = {Col("Metric", 36, CellFormat::kDefault),
               Col("Percentile", 10, CellFormat::kDefault),
               Col("Value(us)", 16),
               Col("Rank", 8, CellFormat::kDefault),
               Col("Value(us)", 16),
               Col("Rank", 8, CellFormat::kDefault),
               DiffCol("Diff(us)")};
  Banners(s, result, 2, 3, 4, 5);
  const analysis::RunDetailComparison* d = Detail(result);
  if (d == nullptr) return s;
  for (const analysis::PercentileRow& r : d->percentiles.rows) {
    const std::string metric = r.metric == "step"            ? "Step"
                               : r.metric == "computing"     ? "Computing"
                               : r.metric == "communication" ? "Communication(Not Overlapped)"
                                                             : "Free";
    s.rows.push_back({{Cell::String(metric), Cell::String(r.stat), Us(r.base_ns), Int(r.base_rank), Us(r.comparison_ns),
                       Int(r.comparison_rank), Us(r.comparison_ns - r.base_ns)},
                      kNoFill,
                      0});
  }
  return s;
}

}  // namespace profdiff::report
