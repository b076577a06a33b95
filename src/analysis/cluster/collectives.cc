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

// One collective: each rank's op, ranks ascending.
using RankOps = std::vector<std::pair<int64_t, const RankCollective*>>;

MatchedCollective MatchOne(const std::string& group, size_t k, const RankOps& ops, bool by_seq) {
  MatchedCollective m;
  m.group = group;
  m.index = static_cast<int64_t>(k);
  m.name = ops.front().second->name;
  m.seq = by_seq ? ops.front().second->seq : -1;
  int64_t first = 0, last = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const RankCollective& c = *ops[i].second;
    if (c.name != m.name) m.names_differ = true;
    m.arrivals.push_back({ops[i].first, c.start_ns, c.end_ns, 0, c.lead_in_busy_ns, c.lead_in_idle_ns, c.lead_in_top,
                          c.lead_in_top_ns, c.transport, c.size_mb, c.bandwidth_gbps});
    if (i == 0 || c.start_ns < first) first = c.start_ns;
    if (i == 0 || c.start_ns > last) {
      last = c.start_ns;
      m.last_rank = ops[i].first;
    }
  }
  for (CollectiveArrival& a : m.arrivals) a.wait_ns = last - a.start_ns;
  m.skew_ns = last - first;
  return m;
}

std::string CountsText(const GroupOps& g) {
  std::string counts;
  for (const auto& [rank, ops] : g.by_rank) counts += fmt::format("{}rank {}: {}", counts.empty() ? "" : ", ", rank, ops.size());
  return counts;
}

// The k-th op of the group on every rank, up to the shortest rank's count.
void MatchByOrder(const std::string& group, const GroupOps& g, CollectiveMatching& out) {
  size_t n = g.by_rank.front().second.size();
  bool differ = false;
  for (const auto& [rank, ops] : g.by_rank) {
    differ = differ || ops.size() != n;
    n = std::min(n, ops.size());
  }
  if (differ) {
    out.notes.push_back(fmt::format("group {}: the ranks hold different numbers of collectives ({}); the first {} are "
                                    "matched by order",
                                    group, CountsText(g), n));
  }
  for (size_t k = 0; k < n; ++k) {
    RankOps ops;
    for (const auto& [rank, rank_ops] : g.by_rank) ops.emplace_back(rank, rank_ops[k]);
    out.collectives.push_back(MatchOne(group, k, ops, false));
  }
}

// Every op numbered (Seq) and no number twice on a rank: the group is matched by its numbers.
bool NumberedOnce(const GroupOps& g) {
  for (const auto& [rank, ops] : g.by_rank) {
    std::vector<int64_t> seqs;
    for (const RankCollective* c : ops) {
      if (c->seq < 0) return false;
      seqs.push_back(c->seq);
    }
    std::sort(seqs.begin(), seqs.end());
    if (std::adjacent_find(seqs.begin(), seqs.end()) != seqs.end()) return false;
  }
  return true;
}

// The ops of one number on every rank, in the lowest rank's order; numbers some rank lacks are left
// out with a note (a capture that started or stopped at another collective on some rank).
void MatchBySeq(const std::string& group, const GroupOps& g, CollectiveMatching& out) {
  std::vector<std::map<int64_t, const RankCollective*>> by_seq(g.by_rank.size());
  for (size_t i = 0; i < g.by_rank.size(); ++i)
    for (const RankCollective* c : g.by_rank[i].second) by_seq[i][c->seq] = c;
  size_t k = 0, left_out = 0;
  for (const RankCollective* c : g.by_rank.front().second) {
    RankOps ops;
    for (size_t i = 0; i < g.by_rank.size(); ++i) {
      const auto it = by_seq[i].find(c->seq);
      if (it == by_seq[i].end()) break;
      ops.emplace_back(g.by_rank[i].first, it->second);
    }
    if (ops.size() == g.by_rank.size()) out.collectives.push_back(MatchOne(group, k++, ops, true));
  }
  for (const auto& ops : by_seq) left_out += ops.size() - k;
  if (left_out > 0) {
    out.notes.push_back(fmt::format("group {}: the ranks hold different collectives ({}); the {} numbered (Seq) on "
                                    "every rank are matched by their number, {} ops of some ranks only are left out",
                                    group, CountsText(g), k, left_out));
  }
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
    if (NumberedOnce(g)) {
      MatchBySeq(group, g, out);
    } else {
      MatchByOrder(group, g, out);
    }
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
