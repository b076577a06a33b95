// The cluster time summaries as CSV (time_summary_csv.h).
#include "profdiff/report/cluster/time_summary_csv.h"

#include "profdiff/base/time.h"
#include "profdiff/report/python_float.h"

namespace profdiff::report {
namespace {

using analysis::kTimeMetricCount;
using analysis::TimeMetric;

std::string Value(int64_t ns, double us, const analysis::ReferencePolicy& policy) {
  return policy.cluster_time_values_as_python_floats ? PyFloatRepr(us) : FormatNsAsMicrosShortest(ns);
}

TimeMetric Metric(size_t i) { return static_cast<TimeMetric>(i); }

}  // namespace

std::string RenderClusterTimeSummaryCsv(const analysis::ClusterTimeSummary& summary,
                                        const analysis::ReferencePolicy& policy) {
  std::string out = "Rank,Step";
  for (size_t i = 0; i < kTimeMetricCount; ++i) out += "," + std::string(analysis::TimeMetricTextName(Metric(i)));
  out += "\n";
  for (const analysis::TimeSummaryRow& r : summary.rows) {
    out += std::to_string(r.rank) + "," + std::to_string(r.step);
    for (size_t i = 0; i < kTimeMetricCount; ++i) out += "," + Value(r.ns[i], r.us[i], policy);
    out += "\n";
  }
  return out;
}

std::string RenderClusterTimeCompareCsv(const std::vector<analysis::TimeCompareRow>& rows,
                                        const analysis::ReferencePolicy& policy) {
  std::string out = "rank,step";
  for (size_t i = 0; i < kTimeMetricCount; ++i) {
    const std::string name(analysis::TimeMetricName(Metric(i)));
    out += "," + name + "," + name + "Base," + name + "Diff";
  }
  out += "\n";
  for (const analysis::TimeCompareRow& r : rows) {
    out += std::to_string(r.rank) + "," + std::to_string(r.step);
    for (size_t i = 0; i < kTimeMetricCount; ++i) {
      const int64_t cur = r.current.ns[i], base = r.base.ns[i];
      out += "," + Value(cur, r.current.us[i], policy) + "," + Value(base, r.base.us[i], policy) + "," +
             Value(cur - base, r.current.us[i] - r.base.us[i], policy);
    }
    out += "\n";
  }
  return out;
}

}  // namespace profdiff::report
