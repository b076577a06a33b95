// MatchCollectives, LastArrivals (collectives.h).
#include "profdiff/analysis/cluster/collectives.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace profdiff::analysis {
namespace {

// group -> per rank (ascending) the indices of its collectives in RankSummary::collectives.
struct GroupOps {
  std::vector<std::pair<int64_t, std::vector<const RankCollective*>>> by_rank;
};

MatchedCollective MatchOne(const std::string& group, size_t k, const GroupOps& g) {
  MatchedCollective m;
  m.group = group;
  m.index = static_cast<int64_t>(k);
  m.name = g.by_rank.front().second[k]->name;
  int64_t first = 0, last = 0;
  for (size_t i = 0; i < g.by_rank.size(); ++i) {
    const RankCollective& c = *g.by_rank[i].second[k];
    if (c.name != m.name) m.names_differ = true;
    m.arrivals.push_back({g.by_rank[i].first, c.start_ns, c.end_ns, 0, c.lead_in_busy_ns, c.lead_in_idle_ns,
                          c.lead_in_top, c.lead_in_top_ns});
    if (i == 0 || c.start_ns < first) first = c.start_ns;
    if (i == 0 || c.start_ns > last) {
      last = c.start_ns;
      m.last_rank = g.by_rank[i].first;
    }
  }
  for (CollectiveArrival& a : m.arrivals) a.wait_ns = last - a.start_ns;
  m.skew_ns = last - first;
  return m;
}

}  // namespace

CollectiveMatching MatchCollectives(const std::vector<RankSummary>& ranks) {
  std::vector<std::string> order;
  std::map<std::string, GroupOps> groups;
  for (const RankSummary& r : ranks) {
    for (const RankCollective& c : r.collectives) {
      auto [it, inserted] = groups.try_emplace(c.group);
      if (inserted) order.push_back(c.group);
      auto& by_rank = it->second.by_rank;
      if (by_rank.empty() || by_rank.back().first != r.rank) by_rank.emplace_back(r.rank, std::vector<const RankCollective*>());
      by_rank.back().second.push_back(&c);
    }
  }
  CollectiveMatching out;
  for (const std::string& group : order) {
    const GroupOps& g = groups[group];
    if (g.by_rank.size() < 2) continue;
    size_t n = g.by_rank.front().second.size();
    bool differ = false;
    for (const auto& [rank, ops] : g.by_rank) {
      differ = differ || ops.size() != n;
      n = std::min(n, ops.size());
    }
    if (differ) {
      std::string counts;
      for (const auto& [rank, ops] : g.by_rank) counts += fmt::format("{}rank {}: {}", counts.empty() ? "" : ", ", rank, ops.size());
      out.notes.push_back(fmt::format("group {}: the ranks hold different numbers of collectives ({}); the first {} are "
                                      "matched by order",
                                      group, counts, n));
    }
    for (size_t k = 0; k < n; ++k) out.collectives.push_back(MatchOne(group, k, g));
  }
  return out;
}

std::vector<LateRank> LastArrivals(const CollectiveMatching& matching) {
  std::map<int64_t, LateRank> by_rank;
  for (const MatchedCollective& c : matching.collectives) {
    if (c.skew_ns == 0) continue;  // everyone arrived together: nobody was last
    LateRank& l = by_rank[c.last_rank];
    l.rank = c.last_rank;
    ++l.times_last;
    l.skew_ns += c.skew_ns;
  }
  std::vector<LateRank> out;
  for (const auto& [rank, l] : by_rank) out.push_back(l);
  std::stable_sort(out.begin(), out.end(), [](const LateRank& a, const LateRank& b) {
    if (a.skew_ns != b.skew_ns) return a.skew_ns > b.skew_ns;
    return a.times_last > b.times_last;
  });
  return out;
}

std::vector<RankWaitsOn> WaitsOn(const CollectiveMatching& matching) {
  std::map<std::pair<int64_t, int64_t>, RankWaitsOn> pairs;
  for (const MatchedCollective& c : matching.collectives) {
    if (c.skew_ns == 0) continue;
    for (const CollectiveArrival& a : c.arrivals) {
      if (a.rank == c.last_rank || a.wait_ns <= 0) continue;
      RankWaitsOn& w = pairs[{a.rank, c.last_rank}];
      w.waiter = a.rank;
      w.blocker = c.last_rank;
      w.wait_ns += a.wait_ns;
      ++w.collectives;
    }
  }
  std::vector<RankWaitsOn> out;
  for (const auto& [key, w] : pairs) out.push_back(w);
  std::stable_sort(out.begin(), out.end(), [](const RankWaitsOn& a, const RankWaitsOn& b) { return a.wait_ns > b.wait_ns; });
  return out;
}

}  // namespace profdiff::analysis
