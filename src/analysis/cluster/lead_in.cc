// Lead-ins to the collectives and the causes of late arrivals (lead_in.h).
#include "profdiff/analysis/cluster/lead_in.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>
#include <utility>

#include "profdiff/analysis/common/device_kernels.h"

namespace profdiff::analysis {
namespace {

struct Work {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  StringId name = 0;
};

// The rank's device compute work by start: kernels and device tasks that are not communication.
std::vector<Work> ComputeWork(const Profile& p) {
  const DeviceKernelNames names;
  std::unordered_map<StringId, bool> communication;  // by name, decided once
  std::string lower;
  std::vector<Work> out;
  for (const Slice& s : p.slices) {
    if ((s.kind != SliceKind::kKernel && s.kind != SliceKind::kNpuTask) || s.dur_ns <= 0) continue;
    auto [it, fresh] = communication.try_emplace(s.name, false);
    if (fresh) {
      lower.assign(p.str(s.name));
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      it->second = names.IsCommunication(lower) || lower.starts_with("hcom") || lower.starts_with("hccl");
    }
    if (!it->second) out.push_back({s.ts_ns, s.end_ns(), s.name});
  }
  std::sort(out.begin(), out.end(), [](const Work& a, const Work& b) { return a.start_ns < b.start_ns; });
  return out;
}

// The busy time (the union of the work) in [from, to) and the work name that covers most of it.
struct Window {
  int64_t busy_ns = 0;
  StringId top = 0;
  int64_t top_ns = 0;
};
Window Measure(const std::vector<Work>& work, int64_t longest_ns, int64_t from, int64_t to,
               std::unordered_map<StringId, int64_t>& by_name) {
  Window w;
  by_name.clear();
  auto it = std::lower_bound(work.begin(), work.end(), from - longest_ns,
                             [](const Work& a, int64_t t) { return a.start_ns < t; });
  int64_t covered_to = from;  // the union so far reaches here
  for (; it != work.end() && it->start_ns < to; ++it) {
    const int64_t s = std::max(it->start_ns, from), e = std::min(it->end_ns, to);
    if (e <= s) continue;
    by_name[it->name] += e - s;
    if (e > covered_to) {
      w.busy_ns += e - std::max(s, covered_to);
      covered_to = e;
    }
  }
  for (const auto& [name, ns] : by_name)
    if (ns > w.top_ns || (ns == w.top_ns && name < w.top)) w = {w.busy_ns, name, ns};
  return w;
}

}  // namespace

void MeasureLeadIns(const Profile& profile, RankSummary& out) {
  if (out.collectives.empty()) return;
  const std::vector<Work> work = ComputeWork(profile);
  int64_t longest_ns = 0;
  for (const Work& w : work) longest_ns = std::max(longest_ns, w.end_ns - w.start_ns);
  // The rank's collectives in time (any group): each one's lead-in starts where the latest earlier
  // one ended.
  std::vector<size_t> by_start(out.collectives.size());
  for (size_t i = 0; i < by_start.size(); ++i) by_start[i] = i;
  std::stable_sort(by_start.begin(), by_start.end(), [&](size_t a, size_t b) {
    return out.collectives[a].start_ns < out.collectives[b].start_ns;
  });
  std::unordered_map<StringId, int64_t> by_name;
  std::unordered_map<StringId, int32_t> name_index;
  int64_t previous_end = work.empty() ? 0 : work.front().start_ns;
  for (size_t i : by_start) {
    RankCollective& c = out.collectives[i];
    const int64_t from = std::min(previous_end, c.start_ns);
    const Window w = Measure(work, longest_ns, from, c.start_ns, by_name);
    c.lead_in_busy_ns = w.busy_ns;
    c.lead_in_idle_ns = (c.start_ns - from) - w.busy_ns;
    if (w.top_ns > 0) {
      auto [it, fresh] = name_index.try_emplace(w.top, static_cast<int32_t>(out.kernel_names.size()));
      if (fresh) out.kernel_names.emplace_back(profile.str(w.top));
      c.lead_in_top = it->second;
      c.lead_in_top_ns = w.top_ns;
    }
    previous_end = std::max(previous_end, c.end_ns);
  }
}

std::vector<LateArrivalCause> ExplainLateArrivals(const CollectiveMatching& matching,
                                                  const std::vector<LateRank>& late,
                                                  const std::vector<RankSummary>& ranks) {
  std::map<int64_t, const RankSummary*> summary;
  for (const RankSummary& r : ranks) summary[r.rank] = &r;
  std::vector<LateArrivalCause> out;
  for (const LateRank& l : late) {
    LateArrivalCause c{.rank = l.rank, .cause = "unknown"};
    std::map<std::string, int64_t> kernels;
    bool measured = false;
    for (const MatchedCollective& m : matching.collectives) {
      if (m.skew_ns == 0 || m.last_rank != l.rank) continue;
      ++c.collectives;
      c.skew_ns += m.skew_ns;
      std::vector<int64_t> busy, idle;
      const CollectiveArrival* mine = nullptr;
      for (const CollectiveArrival& a : m.arrivals) {
        if (a.rank == l.rank) {
          mine = &a;
          continue;
        }
        busy.push_back(a.lead_in_busy_ns);
        idle.push_back(a.lead_in_idle_ns);
      }
      if (mine == nullptr || busy.empty()) continue;
      std::sort(busy.begin(), busy.end());
      std::sort(idle.begin(), idle.end());
      const size_t mid = (busy.size() - 1) / 2;  // the lower median
      c.computing_excess_ns += mine->lead_in_busy_ns - busy[mid];
      c.idle_excess_ns += mine->lead_in_idle_ns - idle[mid];
      measured = measured || mine->lead_in_busy_ns + mine->lead_in_idle_ns > 0;
      const RankSummary* r = summary[l.rank];
      if (mine->lead_in_top >= 0 && r != nullptr && static_cast<size_t>(mine->lead_in_top) < r->kernel_names.size())
        kernels[r->kernel_names[static_cast<size_t>(mine->lead_in_top)]] += mine->lead_in_top_ns;
    }
    if (measured) {
      c.cause = c.computing_excess_ns <= 0 && c.idle_excess_ns <= 0 ? "unexplained"
                : c.computing_excess_ns >= c.idle_excess_ns          ? "computing"
                                                                     : "idle";
    }
    c.unexplained_ns =
        std::max<int64_t>(0, c.skew_ns - std::max<int64_t>(0, c.computing_excess_ns) - std::max<int64_t>(0, c.idle_excess_ns));
    for (const auto& [name, ns] : kernels) c.top_kernels.push_back({name, ns});
    std::stable_sort(c.top_kernels.begin(), c.top_kernels.end(),
                     [](const LeadInKernel& a, const LeadInKernel& b) { return a.ns > b.ns; });
    if (c.top_kernels.size() > 3) c.top_kernels.resize(3);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace profdiff::analysis
