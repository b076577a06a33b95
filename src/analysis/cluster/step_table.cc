// BuildClusterStepTable (step_table.h).
#include "profdiff/analysis/cluster/step_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace profdiff::analysis {
namespace {

std::vector<std::string> UnionColumns(const std::vector<RankSummary>& ranks) {
  std::vector<std::string> columns;
  for (const RankSummary& r : ranks)
    for (const std::string& c : r.columns)
      if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
  return columns;
}

ClusterStepRow RankRow(const RankSummary& r, const RankStep& s, const std::vector<std::string>& columns) {
  ClusterStepRow row;
  row.step = s.step;
  row.index = std::to_string(r.rank);
  row.ranks = {r.rank};
  row.values_ns.assign(columns.size(), kAbsentNs);
  row.values_us_float.assign(columns.size(), std::numeric_limits<double>::quiet_NaN());
  for (size_t c = 0; c < columns.size(); ++c) {
    for (size_t k = 0; k < r.columns.size(); ++k) {
      if (r.columns[k] != columns[c]) continue;
      if (k < s.values_ns.size()) row.values_ns[c] = s.values_ns[k];
      if (k < s.values_us_float.size()) row.values_us_float[c] = s.values_us_float[k];
    }
  }
  return row;
}

// The stage a rank belongs to: the first group holding it, else the empty stage.
std::vector<int64_t> StageOf(int64_t rank, const std::vector<std::vector<int64_t>>& groups) {
  for (const auto& g : groups)
    if (std::find(g.begin(), g.end(), rank) != g.end()) return g;
  return {};
}

// Per column the largest known value of `rows` (the reference's max over the stage's rows).
ClusterStepRow MaxRow(const std::vector<const ClusterStepRow*>& rows, size_t columns) {
  ClusterStepRow out;
  out.stage = true;
  out.values_ns.assign(columns, kAbsentNs);
  out.values_us_float.assign(columns, std::numeric_limits<double>::quiet_NaN());
  for (const ClusterStepRow* r : rows) {
    for (size_t c = 0; c < columns; ++c) {
      if (r->values_ns[c] != kAbsentNs && (out.values_ns[c] == kAbsentNs || r->values_ns[c] > out.values_ns[c]))
        out.values_ns[c] = r->values_ns[c];
      const double f = r->values_us_float[c];
      if (!std::isnan(f) && (std::isnan(out.values_us_float[c]) || f > out.values_us_float[c]))
        out.values_us_float[c] = f;
    }
  }
  return out;
}

}  // namespace

std::string PythonTupleText(const std::vector<int64_t>& values) {
  std::string s = "(";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  if (values.size() == 1) s += ",";
  return s + ")";
}

ClusterStepTable BuildClusterStepTable(const std::vector<RankSummary>& ranks,
                                       const std::vector<std::vector<int64_t>>& stage_groups,
                                       const std::optional<std::string>& step) {
  ClusterStepTable t;
  t.columns = UnionColumns(ranks);
  std::vector<std::pair<int64_t, size_t>> rank_of_row;  // (rank, row index) of the rank rows
  for (const RankSummary& r : ranks) {
    for (const RankStep& s : r.steps) {
      if (step && s.step != *step) continue;
      rank_of_row.emplace_back(r.rank, t.rows.size());
      t.rows.push_back(RankRow(r, s, t.columns));
    }
  }
  if (stage_groups.empty()) return t;
  // (step, stage) in order of first appearance among the rank rows.
  std::vector<std::pair<std::string, std::vector<int64_t>>> keys;
  std::map<std::pair<std::string, std::vector<int64_t>>, std::vector<const ClusterStepRow*>> members;
  for (const auto& [rank, index] : rank_of_row) {
    auto key = std::make_pair(t.rows[index].step, StageOf(rank, stage_groups));
    auto [it, inserted] = members.try_emplace(key);
    if (inserted) keys.push_back(key);
    it->second.push_back(&t.rows[index]);
  }
  std::vector<ClusterStepRow> stage_rows;
  for (const auto& key : keys) {
    ClusterStepRow row = MaxRow(members[key], t.columns.size());
    row.step = key.first;
    row.index = PythonTupleText(key.second);
    row.ranks = key.second;
    stage_rows.push_back(std::move(row));
  }
  for (ClusterStepRow& r : stage_rows) t.rows.push_back(std::move(r));
  return t;
}

void AddParallelIndexes(const std::vector<RankSummary>& ranks, ClusterStepTable& table, std::vector<std::string>& warnings) {
  const auto with_args = std::find_if(ranks.begin(), ranks.end(), [](const RankSummary& r) { return !r.distributed_args_json.empty(); });
  if (with_args == ranks.end() || table.rows.empty()) return;
  const ParallelPartition p = PartitionRanks(with_args->distributed_args_json);
  if (!p.ok) {
    warnings.push_back(fmt::format("rank {}'s distributed_args do not partition the ranks ({}): no DP / PP / TP index",
                                   with_args->rank, p.why_not));
    return;
  }
  const auto own_steps = std::count_if(ranks.begin(), ranks.end(), [](const RankSummary& r) {
    return r.step_source == RankStepSource::kStepTraceTime || r.step_source == RankStepSource::kAnalysisDb;
  });
  if (static_cast<int64_t>(p.by_rank.size()) < own_steps) {
    warnings.push_back(fmt::format("rank {}'s distributed_args give a world of {} ranks, fewer than the {} with step "
                                   "data: no DP / PP / TP index",
                                   with_args->rank, p.by_rank.size(), own_steps));
    return;
  }
  table.parallel_columns = true;
  for (ClusterStepRow& row : table.rows) {
    if (row.stage || row.ranks.empty()) continue;
    const int64_t rank = row.ranks.front();
    if (rank >= 0 && rank < static_cast<int64_t>(p.by_rank.size())) row.parallel = p.by_rank[static_cast<size_t>(rank)];
  }
}

}  // namespace profdiff::analysis
