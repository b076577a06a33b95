// FindStepStragglers (slow_ranks.h).
#include "profdiff/analysis/cluster/slow_ranks.h"

#include <algorithm>
#include <map>
#include <utility>

namespace profdiff::analysis {
namespace {

struct RankStepWork {
  int64_t rank = 0;
  int64_t computing_ns = 0;
  int64_t comm_ns = 0;  // Communication(Not Overlapped)
  int64_t free_ns = 0;
  int64_t step_time_ns = kAbsentNs;
  int64_t work() const { return computing_ns + free_ns; }
};

int64_t LowerMedian(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 2];
}

StepStraggler Judge(const std::string& step, const std::vector<RankStepWork>& ranks) {
  StepStraggler s;
  s.step = step;
  s.ranks = static_cast<int64_t>(ranks.size());
  const RankStepWork* slow = &ranks.front();
  for (const RankStepWork& r : ranks)
    if (r.work() > slow->work()) slow = &r;
  std::vector<int64_t> work, computing, free;
  for (const RankStepWork& r : ranks) {
    work.push_back(r.work());
    computing.push_back(r.computing_ns);
    free.push_back(r.free_ns);
    if (r.step_time_ns != kAbsentNs && (s.longest_step_ns == kAbsentNs || r.step_time_ns > s.longest_step_ns)) {
      s.longest_step_ns = r.step_time_ns;
      s.longest_step_rank = r.rank;
    }
  }
  s.rank = slow->rank;
  s.work_ns = slow->work();
  s.median_work_ns = LowerMedian(work);
  s.computing_excess_ns = slow->computing_ns - LowerMedian(computing);
  s.free_excess_ns = slow->free_ns - LowerMedian(free);
  if (s.work_ns > s.median_work_ns)
    s.cause = s.computing_excess_ns >= s.free_excess_ns ? SlowCause::kComputing : SlowCause::kFree;
  for (const RankStepWork& r : ranks)
    if (r.comm_ns > slow->comm_ns) s.waiters.push_back({r.rank, r.comm_ns - slow->comm_ns});
  std::stable_sort(s.waiters.begin(), s.waiters.end(),
                   [](const RankWait& a, const RankWait& b) { return a.extra_wait_ns > b.extra_wait_ns; });
  if (s.cause != SlowCause::kNone && !s.waiters.empty())
    s.saving_if_median_ns = std::min(s.work_ns - s.median_work_ns, s.waiters.front().extra_wait_ns);
  return s;
}

}  // namespace

std::string_view SlowCauseName(SlowCause cause) {
  switch (cause) {
    case SlowCause::kComputing: return "computing";
    case SlowCause::kFree: return "free";
    case SlowCause::kNone: return "none";
  }
  return "none";
}

std::vector<StepStraggler> FindStepStragglers(const std::vector<RankSummary>& ranks) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<RankStepWork>> by_step;
  for (const RankSummary& r : ranks) {
    for (const RankStep& s : r.steps) {
      RankStepWork w;
      w.rank = r.rank;
      w.computing_ns = s.Value(r.columns, kColComputing);
      w.comm_ns = s.Value(r.columns, kColCommNotOverlapped);
      w.free_ns = s.Value(r.columns, kColFree);
      w.step_time_ns = s.step_time_ns;
      if (w.computing_ns == kAbsentNs || w.comm_ns == kAbsentNs || w.free_ns == kAbsentNs) continue;
      auto [it, inserted] = by_step.try_emplace(s.step);
      if (inserted) order.push_back(s.step);
      it->second.push_back(w);
    }
  }
  std::vector<StepStraggler> out;
  for (const std::string& step : order) {
    const auto& rs = by_step[step];
    if (rs.size() >= 2) out.push_back(Judge(step, rs));
  }
  return out;
}

}  // namespace profdiff::analysis
