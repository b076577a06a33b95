// The slow-rank vote (slow_rank_vote.h).
#include "profdiff/analysis/cluster/slow_rank_vote.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <numeric>
#include <string_view>
#include <tuple>
#include <utility>

#include "profdiff/analysis/common/numpy_numbers.h"

namespace profdiff::analysis {
namespace {

__extension__ typedef __int128 I128;  // GCC/Clang; -Wpedantic needs the __extension__

// Dixon's one-sided test at 99.5 %: the critical value for n = 3..100 values, in thousandths.
constexpr std::array<int16_t, 101> kDixon995Milli = {
    0,   0,   0,   994, 920, 823, 744, 680, 723, 676, 638, 707, 675, 649, 672, 649, 629, 611, 595, 580, 568,
    556, 545, 536, 526, 519, 510, 503, 496, 489, 484, 478, 473, 468, 463, 458, 454, 450, 446, 442, 439,
    435, 432, 429, 425, 423, 420, 417, 414, 412, 409, 407, 405, 402, 400, 398, 396, 394, 392, 391, 388,
    387, 385, 383, 382, 380, 379, 377, 376, 374, 372, 371, 370, 368, 368, 366, 365, 364, 363, 361, 360,
    359, 358, 356, 356, 355, 353, 352, 352, 351, 350, 349, 348, 347, 346, 345, 344, 344, 343, 341, 341};
constexpr size_t kMaxDixon = 100;

// Dixon's ratio for n sorted values: which gap over which range (the reference's choice by n).
struct DixonTerms {
  size_t gap_hi;    // the gap is sorted[gap_hi] - sorted[0]
  size_t range_hi;  // the range is sorted[n - 1 - range_hi] - sorted[0]
};
DixonTerms DixonFor(size_t n) {
  if (n <= 7) return {1, 0};
  if (n <= 10) return {1, 1};
  if (n <= 13) return {2, 1};
  return {2, 2};
}

template <typename T>
size_t DistinctCount(std::vector<T> sorted) {
  return static_cast<size_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
}

template <typename T>
size_t FirstIndexOf(const std::vector<T>& values, T v) {
  return static_cast<size_t>(std::find(values.begin(), values.end(), v) - values.begin());
}

std::vector<size_t> DixonExact(const std::vector<int64_t>& d) {
  std::vector<int64_t> s = d;
  std::sort(s.begin(), s.end());
  if (d.size() < 3 || DistinctCount(s) <= 3) return {};
  const DixonTerms t = DixonFor(d.size());
  const I128 gap = s[t.gap_hi] - s[0];
  const I128 range = s[s.size() - 1 - t.range_hi] - s[0];
  if (range == 0 || gap * 1000 <= static_cast<I128>(kDixon995Milli[d.size()]) * range) return {};
  return {FirstIndexOf(d, s[0])};
}

std::vector<size_t> ThreeSigmaExact(const std::vector<int64_t>& d) {
  // x < mean - 3 sd  <=>  S - n x > 3 sqrt(n SS - S^2), in integers (sd: population, as np.std).
  const auto n = static_cast<I128>(d.size());
  I128 sum = 0, squares = 0;
  for (int64_t v : d) {
    sum += v;
    squares += static_cast<I128>(v) * v;
  }
  const I128 nine_var = 9 * (n * squares - sum * sum);
  auto beyond = [&](I128 gap) { return gap > 0 && gap * gap > nine_var; };
  std::vector<size_t> out;
  for (size_t i = 0; i < d.size(); ++i)
    if (beyond(sum - n * d[i])) out.push_back(i);
  const int64_t max = *std::max_element(d.begin(), d.end());
  const size_t min_at = FirstIndexOf(d, *std::min_element(d.begin(), d.end()));
  if (beyond(n * max - sum) && std::find(out.begin(), out.end(), min_at) == out.end()) out.push_back(min_at);
  return out;
}

std::vector<size_t> DixonFloat(const std::vector<double>& d) {
  std::vector<double> s = d;
  std::sort(s.begin(), s.end());
  if (d.size() < 3 || DistinctCount(s) <= 3) return {};
  const DixonTerms t = DixonFor(d.size());
  const double range = s[s.size() - 1 - t.range_hi] - s[0];
  const double flag = range != 0 ? (s[t.gap_hi] - s[0]) / range : 0.0;
  if (!(flag > static_cast<double>(kDixon995Milli[d.size()]) / 1000.0)) return {};
  return {FirstIndexOf(d, s[0])};
}

std::vector<size_t> ThreeSigmaFloat(const std::vector<double>& d) {
  const double mean = NumpyMean(d);
  const double sd = NumpyStd(d, 0);
  const double high = mean + 3 * sd, low = mean - 3 * sd;
  std::vector<size_t> out;
  for (size_t i = 0; i < d.size(); ++i)
    if (d[i] < low) out.push_back(i);
  const double max = *std::max_element(d.begin(), d.end());
  const size_t min_at = FirstIndexOf(d, *std::min_element(d.begin(), d.end()));
  if (max > high && std::find(out.begin(), out.end(), min_at) == out.end()) out.push_back(min_at);
  return out;
}

bool ContainsAnyCase(std::string_view s, std::string_view part) {
  auto eq = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  };
  return std::search(s.begin(), s.end(), part.begin(), part.end(), eq) != s.end();
}

// Whether the vote leaves the op out: point-to-point ops are not collectives.
bool IsPointToPoint(std::string_view name, bool as_reference) {
  if (as_reference) return name.find("send") != std::string_view::npos || name.find("receive") != std::string_view::npos;
  return ContainsAnyCase(name, "send") || ContainsAnyCase(name, "recv") || ContainsAnyCase(name, "receive");
}

// One collective of the vote: its ops (indices into the input), keyed within its group.
struct VoteKey {
  std::string group;
  std::string key;  // the op name (reference) or the op's position in its group on each rank
  bool operator<(const VoteKey& o) const { return std::tie(group, key) < std::tie(o.group, o.key); }
};
struct VoteCollective {
  VoteKey key;
  std::vector<size_t> ops;
};

// The input's collectives in the reference's order (groups by first appearance, then their keys by
// first appearance), without point-to-point ops and without groups whose keys occur unevenly.
std::vector<VoteCollective> GroupOps(const std::vector<VoteOp>& ops, bool as_reference,
                                     std::vector<std::string>& excluded_groups) {
  std::vector<VoteCollective> out;
  std::map<VoteKey, size_t> at;
  std::map<std::pair<int64_t, std::string>, int64_t> position;  // (rank, group) -> ops seen
  for (size_t i = 0; i < ops.size(); ++i) {
    const VoteOp& op = ops[i];
    const int64_t k = position[{op.rank, op.group}]++;
    if (IsPointToPoint(op.name, as_reference)) continue;
    VoteKey key{op.group, as_reference ? op.name : std::to_string(k)};
    auto [it, fresh] = at.try_emplace(key, out.size());
    if (fresh) out.push_back({std::move(key), {}});
    out[it->second].ops.push_back(i);
  }
  std::map<std::string, std::vector<size_t>> sizes;  // group -> its collectives' op counts
  std::vector<std::string> groups;                   // by first appearance
  for (const VoteCollective& c : out) {
    auto [it, fresh] = sizes.try_emplace(c.key.group);
    if (fresh) groups.push_back(c.key.group);
    it->second.push_back(c.ops.size());
  }
  for (const std::string& g : groups) {
    const std::vector<size_t>& n = sizes[g];
    if (std::adjacent_find(n.begin(), n.end(), std::not_equal_to<>()) != n.end()) excluded_groups.push_back(g);
  }
  std::erase_if(out, [&](const VoteCollective& c) {
    return std::find(excluded_groups.begin(), excluded_groups.end(), c.key.group) != excluded_groups.end();
  });
  return out;
}

// Exact statistics in quarter ns (slow_rank_vote.h).
void ExactStats(std::vector<int64_t> d, VoteStats& st) {
  std::sort(d.begin(), d.end());
  const auto n = static_cast<int64_t>(d.size());
  I128 sum = 0, squares = 0;
  for (int64_t v : d) {
    sum += v;
    squares += static_cast<I128>(v) * v;
  }
  auto quantile_q4 = [&](int64_t quarters) {  // the value at (n - 1) * quarters / 4
    const int64_t pos = (n - 1) * quarters;
    const auto i = static_cast<size_t>(pos / 4);
    const int64_t frac = pos % 4;
    return 4 * d[i] + (frac == 0 ? 0 : frac * (d[i + 1] - d[i]));
  };
  st.count = n;
  st.min_q4 = 4 * d.front();
  st.max_q4 = 4 * d.back();
  st.sum_q4 = static_cast<int64_t>(4 * sum);
  st.q1_q4 = quantile_q4(1);
  st.median_q4 = quantile_q4(2);
  st.q3_q4 = quantile_q4(3);
  st.mean_q4 = 4 * static_cast<int64_t>(std::llround(static_cast<long double>(sum) / n));
  if (n > 1) {
    const auto var = static_cast<long double>(n * squares - sum * sum) / (static_cast<long double>(n) * (n - 1));
    st.std_q4 = 4 * static_cast<int64_t>(std::llround(std::sqrt(var)));
  }
}

// The reference's statistics of its float µs durations (pandas with bottleneck).
void ReferenceStats(const std::vector<double>& d, VoteStats& st) {
  std::vector<double> s = d;
  std::sort(s.begin(), s.end());
  st.count = static_cast<int64_t>(d.size());
  st.mean_us = NumpyMean(d);
  st.std_us = BottleneckStd(d, 1);
  st.min_us = s.front();
  st.q1_us = NumpyQuantileSorted(s, 0.25);
  st.median_us = BottleneckMedianSorted(s);
  st.q3_us = NumpyQuantileSorted(s, 0.75);
  st.max_us = s.back();
  st.sum_us = NumpySum(d);
}

}  // namespace

std::vector<VoteOp> VoteOpsOf(const std::vector<RankSummary>& ranks, const std::optional<std::string>& step) {
  std::vector<VoteOp> out;
  for (const RankSummary& r : ranks)
    for (const RankCollective& c : r.collectives)
      if (!step || c.step == *step)
        out.push_back({r.rank, c.source_group.empty() ? c.group : c.source_group, c.name, c.start_ns,
                     c.end_ns - c.start_ns});
  return out;
}

std::vector<size_t> JudgeSlowRankExact(const std::vector<int64_t>& durations_ns) {
  if (durations_ns.empty()) return {};
  return durations_ns.size() <= kMaxDixon ? DixonExact(durations_ns) : ThreeSigmaExact(durations_ns);
}

std::vector<size_t> JudgeSlowRankFloat(const std::vector<double>& durations_us) {
  if (durations_us.empty()) return {};
  return durations_us.size() <= kMaxDixon ? DixonFloat(durations_us) : ThreeSigmaFloat(durations_us);
}

SlowRankVote VoteSlowRanks(const std::vector<VoteOp>& ops, const ReferencePolicy& policy) {
  SlowRankVote out;
  out.as_reference = policy.slow_rank_vote_as_reference;
  for (const VoteCollective& c : GroupOps(ops, out.as_reference, out.excluded_groups)) {
    std::vector<int64_t> ns;
    std::vector<double> us;
    for (size_t i : c.ops) {
      ns.push_back(ops[i].dur_ns);
      us.push_back(static_cast<double>(ops[i].dur_ns) / 1000.0);  // its SQL: (endNs - startNs) / 1000.0
    }
    const std::vector<size_t> slow = out.as_reference ? JudgeSlowRankFloat(us) : JudgeSlowRankExact(ns);
    if (slow.empty()) continue;
    VotedOp v;
    v.name = ops[c.ops.front()].name;
    v.group = c.key.group;
    v.timestamp_ns = INT64_MAX;
    for (size_t k : slow) {
      const VoteOp& op = ops[c.ops[k]];
      v.slow_ranks.push_back(op.rank);
      v.timestamp_ns = std::min(v.timestamp_ns, op.start_ns);
      auto it = std::find_if(out.ranks.begin(), out.ranks.end(), [&](const RankVotes& r) { return r.rank == op.rank; });
      if (it == out.ranks.end()) it = out.ranks.insert(out.ranks.end(), {op.rank, 0});
      ++it->votes;
    }
    if (out.as_reference) ReferenceStats(us, v.stats);
    else ExactStats(ns, v.stats);
    out.ops.push_back(std::move(v));
  }
  std::stable_sort(out.ops.begin(), out.ops.end(),
                   [](const VotedOp& a, const VotedOp& b) { return a.timestamp_ns < b.timestamp_ns; });
  return out;
}

}  // namespace profdiff::analysis
