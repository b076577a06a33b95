// The reference's cluster_analysis.db, all but its communication sums (db_tables.h; those are in
// db_communication.cc).
#include "profdiff/analysis/cluster/db_tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "db_cells.h"

namespace profdiff::analysis {
namespace {

using db_cells::PyStr;
using db_cells::TextKey;

// The reference's get_comm_type_from_op_name.
std::string CommType(const SqlValue& op_name) {
  std::string lower = op_name.kind == SqlValue::Kind::kText ? op_name.text : "";
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool p2p = lower.find("send") != std::string::npos || lower.find("receive") != std::string::npos ||
                   lower.find("recv") != std::string::npos;
  return p2p ? "p2p" : "collective";
}

// One row of the reference's parallel_info frame (its META_DATA groups, as it de-duplicates them).
struct ParallelRow {
  std::string group_name, group_id, pg_name;
  std::vector<int64_t> global_ranks;
  bool operator==(const ParallelRow&) const = default;
};

ResultColumn Col(std::string name, SqlType type) { return ResultColumn{std::move(name), type}; }

SqlValue NsOrUs(int64_t ns, double us, bool reference_floats) {
  if (reference_floats) return std::isnan(us) ? SqlValue::Null() : SqlValue::Real(us);
  return ns == kAbsentNs ? SqlValue::Null() : SqlValue::Real(static_cast<double>(ns) / 1e3);
}

// Python's comparison of two cells of a sorted list (numbers by value before text; NULL first).
int CompareCells(const SqlValue& a, const SqlValue& b) {
  auto rank = [](const SqlValue& v) { return v.is_null() ? 0 : v.is_number() ? 1 : 2; };
  if (rank(a) != rank(b)) return rank(a) < rank(b) ? -1 : 1;
  if (a.is_number()) {
    if (a.kind == SqlValue::Kind::kInt && b.kind == SqlValue::Kind::kInt) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    const double x = a.AsDouble(), y = b.AsDouble();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
}

// A rank's host and device rows as the reference's HostInfoAnalysis takes them: both tables with a
// row, else nothing of the rank.
struct RankHost {
  std::string uid, name;
  std::vector<std::vector<SqlValue>> devices;
};
std::optional<RankHost> HostOf(const RankSummary& r) {
  const ClusterDbTables& t = r.db_tables;
  if (t.host_info.rows.empty() || t.rank_device_map.rows.empty()) return std::nullopt;
  const std::vector<SqlValue>& host = t.host_info.rows.front();
  if (host.size() < 2) return std::nullopt;
  RankHost out{PyStr(host[0]), PyStr(host[1]), {}};
  for (const std::vector<SqlValue>& row : t.rank_device_map.rows) {
    std::vector<SqlValue> device(row.begin(), row.begin() + std::min<size_t>(row.size(), 2));
    device.resize(2);
    out.devices.push_back(std::move(device));
  }
  return out;
}

}  // namespace

std::string_view SqlTypeName(SqlType type) {
  switch (type) {
    case SqlType::kText: return "TEXT";
    case SqlType::kInteger: return "INTEGER";
    case SqlType::kReal: return "REAL";
    case SqlType::kNumeric: return "NUMERIC";
  }
  return "TEXT";
}

std::string DbRankSetText(const std::vector<int64_t>& ranks) {
  std::string s = "(";
  for (size_t i = 0; i < ranks.size(); ++i) s += (i > 0 ? "," : "") + std::to_string(ranks[i]);
  return s + ")";
}

std::vector<GroupParallelInfo> DbCommunicationGroupMapping(const std::vector<RankSummary>& ranks,
                                                           const ReferencePolicy& policy) {
  std::map<std::pair<std::string, std::string>, std::set<int64_t>> groups;  // (type, group name), sorted
  std::vector<ParallelRow> parallel;  // concatenated over the ranks, duplicates dropped
  for (const RankSummary& r : ranks) {
    const SqlRows& t = r.db_tables.comm_time;
    const int op = t.Column("hccl_op_name"), group = t.Column("group_name");
    if (t.rows.empty() || op < 0 || group < 0) continue;
    for (const std::vector<SqlValue>& row : t.rows) {
      const std::optional<std::string> name = TextKey(row[static_cast<size_t>(group)]);
      if (name) groups[{CommType(row[static_cast<size_t>(op)]), *name}].insert(r.rank);
    }
    for (const DbParallelGroup& g : r.db_tables.parallel_groups) {
      ParallelRow p{std::to_string(GroupNameHash(g.group_id)), g.group_id, g.pg_name, g.global_ranks};
      if (std::find(parallel.begin(), parallel.end(), p) == parallel.end()) parallel.push_back(std::move(p));
    }
  }
  std::vector<GroupParallelInfo> out;
  for (const auto& [key, members] : groups) {
    const std::vector<int64_t> found(members.begin(), members.end());
    bool matched = false;
    for (const ParallelRow& p : parallel) {  // the left merge: each matching row, in their order
      if (p.group_name != key.second) continue;
      matched = true;
      const bool use_global = !p.global_ranks.empty() || policy.cluster_db_empty_global_ranks;
      out.push_back({key.first, use_global ? p.global_ranks : found, key.second, p.group_id, p.pg_name});
    }
    if (!matched) out.push_back({key.first, found, key.second, "", ""});
  }
  return out;
}

CommunicationGroups FindDbCommunicationGroups(const std::vector<RankSummary>& ranks, const ReferencePolicy& policy) {
  CommunicationGroups out;
  out.parallel_info = DbCommunicationGroupMapping(ranks, policy);
  for (const GroupParallelInfo& g : out.parallel_info)
    (g.type == "p2p" ? out.p2p : out.collective).push_back({g.group_name, g.rank_set});
  return out;
}

std::vector<std::vector<int64_t>> DbStageGroups(const std::vector<GroupParallelInfo>& mapping) {
  for (const GroupParallelInfo& g : mapping)
    if (g.rank_set.empty()) return {};
  CommunicationGroups groups;
  groups.parallel_info = mapping;
  return StageGroups(groups);
}

std::optional<ResultTable> CommunicationGroupMappingTable(const std::vector<GroupParallelInfo>& mapping) {
  if (mapping.empty()) return std::nullopt;
  ResultTable t{"CommunicationGroupMapping", {}, {}, true};
  for (const char* c : {"type", "rank_set", "group_name", "group_id", "pg_name"}) t.columns.push_back(Col(c, SqlType::kText));
  for (const GroupParallelInfo& g : mapping) {
    t.rows.push_back({SqlValue::Text(g.type), SqlValue::Text(DbRankSetText(g.rank_set)), SqlValue::Text(g.group_name),
                      SqlValue::Text(g.group_id), SqlValue::Text(g.pg_name)});
  }
  return t;
}

std::optional<ResultTable> ClusterStepTraceTimeTable(const ClusterStepTable& steps, const ReferencePolicy& policy) {
  if (steps.rows.empty()) return std::nullopt;
  // analysis.db StepTraceTime's columns as the reference selects them, by their step_trace_time.csv names.
  static constexpr std::pair<const char*, std::string_view> kValues[] = {
      {"computing", kColComputing},
      {"communication_not_overlapped", kColCommNotOverlapped},
      {"overlapped", kColOverlapped},
      {"communication", kColCommunication},
      {"free", kColFree},
      {"stage", kColStage},
      {"bubble", kColBubble},
      {"communication_not_overlapped_and_exclude_receive", kColCommExcludeReceive},
      {"preparing", kColPreparing}};
  ResultTable t{"ClusterStepTraceTime", {Col("step", SqlType::kText), Col("type", SqlType::kText),
                                         Col("index", SqlType::kText)}, {}, false};
  std::vector<int> source;
  for (const auto& [name, csv_name] : kValues) {
    t.columns.push_back(Col(name, SqlType::kNumeric));
    auto it = std::find(steps.columns.begin(), steps.columns.end(), csv_name);
    source.push_back(it == steps.columns.end() ? -1 : static_cast<int>(it - steps.columns.begin()));
  }
  for (const char* c : {"dp_index", "pp_index", "tp_index"}) t.columns.push_back(Col(c, SqlType::kInteger));
  for (const ClusterStepRow& r : steps.rows) {
    std::vector<SqlValue> row = {SqlValue::Text(r.step), SqlValue::Text(r.stage ? "stage" : "rank"),
                                 SqlValue::Text(r.stage ? DbRankSetText(r.ranks) : r.index)};
    for (int c : source) {
      const auto k = static_cast<size_t>(c);
      row.push_back(c < 0 ? SqlValue::Null()
                          : NsOrUs(r.values_ns[k], r.values_us_float[k], policy.cluster_step_values_as_python_floats));
    }
    for (size_t i = 0; i < 3; ++i) {  // the reference pads with 0 without a partition, "NA" where it has none
      row.push_back(!steps.parallel_columns ? SqlValue::Int(0)
                    : r.parallel            ? SqlValue::Int((*r.parallel)[i])
                                            : SqlValue::Text("NA"));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::optional<ResultTable> HostInfoTable(const std::vector<RankSummary>& ranks) {
  std::vector<std::pair<std::string, std::string>> hosts;  // a dict: first place, last name
  for (const RankSummary& r : ranks) {
    const std::optional<RankHost> h = HostOf(r);
    if (!h || h->uid.empty() || h->name.empty()) continue;
    auto it = std::find_if(hosts.begin(), hosts.end(), [&](const auto& e) { return e.first == h->uid; });
    if (it == hosts.end()) hosts.emplace_back(h->uid, h->name);
    else it->second = h->name;
  }
  if (hosts.empty()) return std::nullopt;
  ResultTable t{"HostInfo", {Col("hostUid", SqlType::kText), Col("hostName", SqlType::kText)}, {}, false};
  for (auto& [uid, name] : hosts) t.rows.push_back({SqlValue::Text(uid), SqlValue::Text(name)});
  return t;
}

std::optional<ResultTable> RankDeviceMapTable(const std::vector<RankSummary>& ranks,
                                              const std::vector<std::string>& profile_paths) {
  std::vector<std::vector<SqlValue>> rows;
  for (size_t i = 0; i < ranks.size(); ++i) {
    std::optional<RankHost> h = HostOf(ranks[i]);
    if (!h) continue;
    for (std::vector<SqlValue>& d : h->devices) {
      d.push_back(SqlValue::Text(h->uid));
      d.push_back(SqlValue::Text(i < profile_paths.size() ? profile_paths[i] : ranks[i].source_path));
      rows.push_back(std::move(d));
    }
  }
  if (rows.empty()) return std::nullopt;
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    for (size_t c = 0; c < a.size(); ++c)
      if (const int k = CompareCells(a[c], b[c]); k != 0) return k < 0;
    return false;
  });
  ResultTable t{"RankDeviceMap", {Col("rankId", SqlType::kInteger), Col("deviceId", SqlType::kInteger),
                                  Col("hostUid", SqlType::kText), Col("profilePath", SqlType::kText)}, {}, false};
  t.rows = std::move(rows);
  return t;
}

std::optional<ResultTable> ClusterTimeSummaryTable(const ClusterTimeSummary& summary, const ReferencePolicy& policy) {
  if (summary.rows.empty()) return std::nullopt;
  ResultTable t{"ClusterTimeSummary", {Col("rank", SqlType::kInteger), Col("step", SqlType::kInteger)}, {}, true};
  for (size_t i = 0; i < kTimeMetricCount; ++i)
    t.columns.push_back(Col(std::string(TimeMetricName(static_cast<TimeMetric>(i))), SqlType::kReal));
  for (const TimeSummaryRow& r : summary.rows) {
    std::vector<SqlValue> row = {SqlValue::Int(r.rank), SqlValue::Int(r.step)};
    for (size_t i = 0; i < kTimeMetricCount; ++i)
      row.push_back(NsOrUs(r.ns[i], r.us[i], policy.cluster_time_values_as_python_floats));
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::optional<ResultTable> ClusterTimeCompareSummaryTable(const std::vector<TimeCompareRow>& rows,
                                                          const ReferencePolicy& policy) {
  if (rows.empty()) return std::nullopt;
  ResultTable t{"ClusterTimeCompareSummary", {Col("rank", SqlType::kInteger), Col("step", SqlType::kInteger)}, {},
                true};
  for (size_t i = 0; i < kTimeMetricCount; ++i) {
    const std::string name(TimeMetricName(static_cast<TimeMetric>(i)));
    for (const char* suffix : {"", "Base", "Diff"}) t.columns.push_back(Col(name + suffix, SqlType::kReal));
  }
  const bool floats = policy.cluster_time_values_as_python_floats;
  for (const TimeCompareRow& r : rows) {
    std::vector<SqlValue> row = {SqlValue::Int(r.rank), SqlValue::Int(r.step)};
    for (size_t i = 0; i < kTimeMetricCount; ++i) {
      const int64_t cur = r.current.ns[i], base = r.base.ns[i];
      row.push_back(NsOrUs(cur, r.current.us[i], floats));
      row.push_back(NsOrUs(base, r.base.us[i], floats));
      row.push_back(NsOrUs(cur - base, r.current.us[i] - r.base.us[i], floats));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::optional<ResultTable> SlowRankTable(const SlowRankVote& vote) {
  if (vote.ranks.empty()) return std::nullopt;
  ResultTable t{"SlowRank", {Col("rankId", SqlType::kInteger), Col("slowAffectCount", SqlType::kInteger)}, {}, true};
  for (const RankVotes& r : vote.ranks) t.rows.push_back({SqlValue::Int(r.rank), SqlValue::Int(r.votes)});
  return t;
}

std::optional<ResultTable> SlowOpStatsTable(const SlowRankVote& vote) {
  if (vote.ranks.empty() || vote.ops.empty()) return std::nullopt;
  ResultTable t{"SlowOpStats", {Col("SlowRank", SqlType::kText), Col("OpName", SqlType::kText),
                                Col("GroupName", SqlType::kText), Col("Timestamp", SqlType::kInteger),
                                Col("Count", SqlType::kInteger)}, {}, true};
  for (const char* c : {"MeanNs", "StdNs", "MinNs", "Q1Ns", "MedianNs", "Q3Ns", "MaxNs", "SumNs"})
    t.columns.push_back(Col(c, SqlType::kReal));
  for (const VotedOp& op : vote.ops) {
    std::string ranks;
    for (int64_t r : op.slow_ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(r);
    std::vector<SqlValue> row = {SqlValue::Text(ranks), SqlValue::Text(op.name), SqlValue::Text(op.group),
                                 SqlValue::Int(op.timestamp_ns), SqlValue::Int(op.stats.count)};
    const VoteStats& s = op.stats;
    if (vote.as_reference) {
      for (double us : {s.mean_us, s.std_us, s.min_us, s.q1_us, s.median_us, s.q3_us, s.max_us, s.sum_us})
        row.push_back(SqlValue::Real(us));
    } else {
      for (int64_t q4 : {s.mean_q4, s.std_q4, s.min_q4, s.q1_q4, s.median_q4, s.q3_q4, s.max_q4, s.sum_q4})
        row.push_back(SqlValue::Real(static_cast<double>(q4) / 4.0));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

ClusterDbOutput BuildClusterDbTables(const ClusterDbInputs& in) {
  ClusterDbOutput out;
  const std::vector<RankSummary>& ranks = *in.ranks;
  auto add = [&](std::optional<ResultTable> t) {
    if (t) out.tables.push_back(std::move(*t));
  };
  // The reference's order: its recipes first, then its analyses.
  add(CommunicationGroupMappingTable(*in.mapping));
  if (ReadsCommunicationTime(in.mode) && !in.mapping->empty()) {
    CommunicationTimeTables time = CommunicationTimeSumTables(ranks, *in.mapping, in.policy, out.notes);
    add(std::move(time.time));
    add(std::move(time.bandwidth));
  }
  if (ReadsCommunicationMatrix(in.mode)) add(CommunicationMatrixTable(ranks, in.policy, out.notes));
  add(HostInfoTable(ranks));
  add(RankDeviceMapTable(ranks, in.profile_paths));
  if (in.steps != nullptr) add(ClusterStepTraceTimeTable(*in.steps, in.policy));
  if (in.time_summary != nullptr) add(ClusterTimeSummaryTable(*in.time_summary, in.policy));
  if (in.time_compare != nullptr) add(ClusterTimeCompareSummaryTable(*in.time_compare, in.policy));
  if (in.vote != nullptr) {
    add(SlowRankTable(*in.vote));
    add(SlowOpStatsTable(*in.vote));
  }
  for (const RankSummary& r : ranks)
    for (const std::string& n : r.db_tables.notes) out.notes.push_back(fmt::format("rank {}: {}", r.rank, n));
  return out;
}

}  // namespace profdiff::analysis
