// profdiff_cluster.xlsx: the cluster result (cluster_report.h) as a workbook, a sheet per section,
// built on the sheet model and written by the workbook writer `compare` uses (sheet.h,
// xlsx_writer.h): row 1 the run's banner ("Cluster Profiling: RUN"; with -bp the base run's green and
// the run's yellow, as compare's "Base Profiling" / "Comparison Profiling"), the header in row 3, the
// data from row 4, an autofilter and frozen header. Times are µs (the reference's unit); a DIFF
// column (comparison − base) is red above 0: more time is worse. The reference's names where it has
// them: ClusterStepTraceTime (cluster_step_trace_time.csv's columns), ClusterTimeSummary and
// ClusterTimeCompareSummary (its cluster_analysis.db tables' columns). The same result is the same
// bytes (no time inside: WorkbookOptions::created).
#pragma once

#include <string>
#include <vector>

#include "profdiff/base/status.h"
#include "profdiff/report/cluster/cluster_report.h"
#include "profdiff/report/sheet.h"

namespace profdiff::report {

// The sheets, each with a builder of its own (empty sheets are not written):
//   ClusterStepTraceTime  Step, Type, Index and the value columns of cluster_step_trace_time.csv
//   SlowRanks             per step the rank that holds it back, its lead, the cause, who waits
//   CollectiveSkew        per collective matched across ranks: the last rank and the skew
//   CollectiveArrivals    per collective and rank: its arrival after the first, duration and wait
//   LateRanks             per rank: how often and by how much it arrives last
//   WaitMatrix            waiter (row) -> blocker (column): how long it waited on that rank
//   with -bp: RunCompare (the job's totals and the gate), StepCompare, RankCompare, SlowRankChanges,
//             CollectiveCompare (per group × collective kind), TopCollectiveChanges (the collectives
//             whose transfer + skew changed most), StageCompare (stage k against stage k),
//             RankPercentiles (min, p50, p90, max across each run's ranks)
//   ClusterTimeSummary, ClusterTimeCompareSummary (runs of Ascend DB exports)
SheetSpec BuildClusterStepSheet(const ClusterResult& result);
SheetSpec BuildSlowRanksSheet(const ClusterResult& result);
SheetSpec BuildCollectiveSkewSheet(const ClusterResult& result);
// One row per collective and rank, up to `max_rows` (a spreadsheet holds 1,048,576 rows, and a
// person reads far fewer): beyond it the collectives with the largest skew whose arrivals fit, in
// their order, and the banner says so (every arrival is in the JSON).
inline constexpr size_t kMaxArrivalRows = 100000;
SheetSpec BuildCollectiveArrivalsSheet(const ClusterResult& result, size_t max_rows = kMaxArrivalRows);
SheetSpec BuildLateRanksSheet(const ClusterResult& result);
// The run's link matrix (ClusterResult::links), when it has one; slow links red.
SheetSpec BuildLinkMatrixSheet(const ClusterResult& result);
SheetSpec BuildWaitMatrixSheet(const ClusterResult& result);
SheetSpec BuildRunCompareSheet(const ClusterResult& result);
SheetSpec BuildStepCompareSheet(const ClusterResult& result);
SheetSpec BuildRankCompareSheet(const ClusterResult& result);
SheetSpec BuildSlowRankChangesSheet(const ClusterResult& result);
SheetSpec BuildCollectiveCompareSheet(const ClusterResult& result);
SheetSpec BuildTopCollectiveChangesSheet(const ClusterResult& result);
SheetSpec BuildStageCompareSheet(const ClusterResult& result);
SheetSpec BuildRankPercentilesSheet(const ClusterResult& result);
SheetSpec BuildClusterTimeSummarySheet(const ClusterResult& result);
SheetSpec BuildClusterTimeCompareSheet(const ClusterResult& result);

// Every sheet in the order above (the two-run sheets only with -bp).
std::vector<SheetSpec> BuildClusterSheets(const ClusterResult& result);

// Writes the workbook to `path` (atomically; an existing file only with `force`); `threads` as
// WorkbookOptions::threads.
Status WriteClusterWorkbook(const ClusterResult& result, const std::string& path, bool force, size_t threads);

}  // namespace profdiff::report
