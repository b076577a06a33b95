// Internal to the cluster workbook (cluster_workbook.cc, cluster_workbook_compare.cc): the cells and
// columns its sheets are built of. Not a public header.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/base/time.h"
#include "profdiff/report/cluster/cluster_report.h"
#include "profdiff/report/sheet.h"

namespace profdiff::report::cluster_cells {

// A column of µs (by default) or of another format.
ColumnSpec Col(std::string header, double width, CellFormat format = CellFormat::kDefaultFloat);
// A DIFF column of µs: red above 0 (more time is worse).
ColumnSpec DiffCol(std::string header, double width = 16);

Cell Us(int64_t ns);    // ns as µs; kAbsentNs is blank
Cell Int(int64_t v);
// A step id or index: a number when the text is one ("50"), else the text ("(0, 1)").
Cell IdCell(const std::string& text);

// A value of the reference's time summaries: its float µs under
// policy.cluster_time_values_as_python_floats, else the exact ns as µs (as time_summary_csv.h).
inline Cell TimeValue(int64_t ns, double us, const analysis::ReferencePolicy& policy) {
  return policy.cluster_time_values_as_python_floats ? Cell::Number(us) : Cell::Number(NsToUs(ns));
}

// Row 1 of a sheet of the run (-d) over every column: "Cluster Profiling: RUN" (green); with -bp the
// run is the comparison: "Comparison Profiling: RUN" (yellow), as compare's banners.
void RunBanner(SheetSpec& sheet, const ClusterResult& result);

// -bp: the base run's path (-bp as given; "" for one run).
std::string BasePath(const ClusterResult& result);
// -bp: the green base banner over columns [base_first, base_last], the yellow comparison banner over
// [cmp_first, cmp_last] (0-based).
void Banners(SheetSpec& s, const ClusterResult& result, int base_first, int base_last, int cmp_first, int cmp_last);

}  // namespace profdiff::report::cluster_cells
