#include "profdiff/analysis/overall/step_split.h"

#include <algorithm>
#include <utility>

namespace profdiff::analysis {
namespace {

// |merged ∩ [lo, hi)|: binary search to the first interval ending after lo, then walk.
int64_t LengthWithin(const std::vector<Interval>& merged, int64_t lo, int64_t hi) {
  auto it = std::upper_bound(merged.begin(), merged.end(), lo,
                             [](int64_t t, const Interval& i) { return t < i.end_ns; });
  int64_t total = 0;
  for (; it != merged.end() && it->start_ns < hi; ++it)
    total += std::min(it->end_ns, hi) - std::max(it->start_ns, lo);
  return total;
}

}  // namespace

StepCoverage CoverageOfSteps(const std::vector<Step>& steps, const std::vector<Interval>& busy) {
  StepCoverage c;
  c.busy_ns = TotalLength(busy);
  std::vector<Interval> windows;
  windows.reserve(steps.size());
  for (const Step& s : steps) windows.push_back({s.start_ns, s.end_ns});
  int64_t inside = 0;
  for (const Interval& w : MergeIntervals(std::move(windows))) inside += LengthWithin(busy, w.start_ns, w.end_ns);
  c.outside_ns = c.busy_ns - inside;
  return c;
}

std::optional<Interval> StepWindow(const std::vector<Step>& steps, int64_t id) {
  const std::optional<StepSpan> w = SpanOf(steps, id);
  if (!w) return std::nullopt;
  return Interval{w->start_ns, w->end_ns};
}

std::vector<StepSplit> SplitSteps(const std::vector<Step>& steps, const std::vector<Interval>& computing,
                                  const std::vector<Interval>& busy) {
  const std::vector<StepSpan> windows = StepSpans(steps);
  std::vector<StepSplit> out;
  out.reserve(windows.size());
  for (const StepSpan& w : windows) {
    StepSplit s;
    s.id = w.id;
    s.start_ns = w.start_ns;
    s.e2e_ns = w.end_ns - w.start_ns;
    s.computing_ns = LengthWithin(computing, w.start_ns, w.end_ns);
    s.communication_ns = LengthWithin(busy, w.start_ns, w.end_ns) - s.computing_ns;
    s.free_ns = s.e2e_ns - s.computing_ns - s.communication_ns;
    out.push_back(s);
  }
  return out;
}

std::optional<StepMean> MeanStep(const std::vector<StepSplit>& steps) {
  if (steps.empty()) return std::nullopt;
  StepMean m;
  m.count = static_cast<int64_t>(steps.size());
  for (const StepSplit& s : steps) {
    m.e2e_ns += s.e2e_ns;
    m.computing_ns += s.computing_ns;
    m.communication_ns += s.communication_ns;
  }
  m.e2e_ns /= m.count;
  m.computing_ns /= m.count;
  m.communication_ns /= m.count;
  m.free_ns = m.e2e_ns - m.computing_ns - m.communication_ns;
  return m;
}

}  // namespace profdiff::analysis
