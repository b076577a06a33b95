// The reference's cluster_analysis.db of a run of Ascend DB exports: what its DB route of
// `msprof-analyze cluster -m all|communication_time|communication_matrix` writes (ClusterStepTraceTime,
// HostInfo, RankDeviceMap, ClusterBaseInfo, CommunicationGroupMapping, ClusterCommunicationTime,
// ClusterCommunicationBandwidth, ClusterCommunicationMatrix) and the tables of its
// cluster_time_summary and cluster_time_compare_summary recipes (ClusterTimeSummary,
// ClusterTimeCompareSummary), as typed tables that report/cluster/cluster_db.h stores. Built from the
// ranks' summaries alone (RankSummary::db_tables, the step table, the time summaries).
//
// Each table has the reference's columns, declared types and rows: the communication tables follow
// its pandas code (a column holding only integers is INTEGER, one with a float REAL; groupby keys
// sorted, rows with a NULL key left out of the sums; its Total Op Info rows), their sums and roundings
// in its float arithmetic under ReferencePolicy::cluster_db_float_sums and exact otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/cluster/communication_groups.h"
#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/analysis/cluster/slow_rank_vote.h"
#include "profdiff/analysis/cluster/step_table.h"
#include "profdiff/analysis/cluster/time_summary.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/model/cluster_db_tables.h"

namespace profdiff::analysis {

inline constexpr const char* kClusterAnalysisDb = "cluster_analysis.db";

enum class SqlType : uint8_t { kText, kInteger, kReal, kNumeric };
std::string_view SqlTypeName(SqlType type);  // "TEXT", "INTEGER", "REAL", "NUMERIC"

struct ResultColumn {
  std::string name;
  SqlType type = SqlType::kText;
};

struct ResultTable {
  std::string name;
  std::vector<ResultColumn> columns;
  std::vector<std::vector<SqlValue>> rows;  // stored under the columns' affinity, as SQLite stores them
  // How the reference made it: pandas' DataFrame.to_sql (true) or a CREATE TABLE of its own table
  // configuration (false); only the CREATE TABLE text differs.
  bool pandas = true;
};

// The reference's CommunicationGroupMapping (its CommunicationGroupMap recipe): per communication
// type ("collective"; "p2p" for an op whose name holds send/receive/recv) and group name of the ranks'
// CommAnalyzerTime, sorted by both, its ranks; joined by group name with the META_DATA
// parallel_group_info of those ranks (group id, process group name, and its global ranks as the rank
// set when it lists any; under policy.cluster_db_empty_global_ranks also when it lists none: "()").
// Empty when no rank's CommAnalyzerTime has a row (the reference then writes no table).
std::vector<GroupParallelInfo> DbCommunicationGroupMapping(const std::vector<RankSummary>& ranks,
                                                           const ReferencePolicy& policy);

// The communication groups of a run of DB exports: the mapping as `parallel_info`, its collective and
// p2p rows as the group lists.
CommunicationGroups FindDbCommunicationGroups(const std::vector<RankSummary>& ranks, const ReferencePolicy& policy);

// The pipeline stages of a DB run (StageGroups over the mapping); none when a row's rank set is empty
// (the reference cannot read "()" back and leaves its stage rows out).
std::vector<std::vector<int64_t>> DbStageGroups(const std::vector<GroupParallelInfo>& mapping);

// The rank sets as the DB route writes them: "(0,1)".
std::string DbRankSetText(const std::vector<int64_t>& ranks);

struct ClusterDbInputs {
  const std::vector<RankSummary>* ranks = nullptr;  // ascending
  // Each rank's folder as the reference names it (its real path), parallel to `ranks`.
  std::vector<std::string> profile_paths;
  ClusterMode mode = ClusterMode::kAll;
  ReferencePolicy policy;
  const std::vector<GroupParallelInfo>* mapping = nullptr;  // DbCommunicationGroupMapping
  const ClusterStepTable* steps = nullptr;
  const ClusterTimeSummary* time_summary = nullptr;         // nullptr or no rows: no table
  const std::vector<TimeCompareRow>* time_compare = nullptr;  // nullptr or none: no table
  const SlowRankVote* vote = nullptr;  // nullptr or no vote: no SlowRank / SlowOpStats tables
};

struct ClusterDbOutput {
  std::vector<ResultTable> tables;  // in the order the reference creates them
  std::vector<std::string> notes;   // what was left out and why (said as warnings)
};

ClusterDbOutput BuildClusterDbTables(const ClusterDbInputs& in);

// ---- the tables one by one (BuildClusterDbTables; nullopt: the reference writes no such table) ----

std::optional<ResultTable> CommunicationGroupMappingTable(const std::vector<GroupParallelInfo>& mapping);
// ClusterCommunicationTime and ClusterCommunicationBandwidth (its CommunicationTimeSum recipe): every
// row of the ranks whose CommAnalyzerTime and CommAnalyzerBandwidth both have rows, then per (group,
// step, rank) and (group, step, rank, transport, package size) a "Total Op Info" row.
struct CommunicationTimeTables {
  std::optional<ResultTable> time, bandwidth;
};
CommunicationTimeTables CommunicationTimeSumTables(const std::vector<RankSummary>& ranks,
                                                   const std::vector<GroupParallelInfo>& mapping,
                                                   const ReferencePolicy& policy, std::vector<std::string>& notes);
// ClusterCommunicationMatrix (its CommMatrixSum recipe): each operator's links summed over the ranks,
// local ranks mapped to global ranks by the ranks' own links ("3-3" in global rank 5's table), then
// per (group, step, source, destination) the "total" operators summed as "Total Op Info".
std::optional<ResultTable> CommunicationMatrixTable(const std::vector<RankSummary>& ranks,
                                                    const ReferencePolicy& policy, std::vector<std::string>& notes);
std::optional<ResultTable> ClusterStepTraceTimeTable(const ClusterStepTable& steps, const ReferencePolicy& policy);
std::optional<ResultTable> HostInfoTable(const std::vector<RankSummary>& ranks);
std::optional<ResultTable> RankDeviceMapTable(const std::vector<RankSummary>& ranks,
                                              const std::vector<std::string>& profile_paths);
std::optional<ResultTable> ClusterTimeSummaryTable(const ClusterTimeSummary& summary, const ReferencePolicy& policy);
// The reference's slow_rank recipe with its default --export_type db: SlowRank (rankId,
// slowAffectCount) and SlowOpStats (the voted ops' statistics; its ...Ns columns hold its float µs;
// by default the ns their names say: exact, the quartiles to the quarter ns). None when nobody is
// voted for (the reference writes nothing then).
std::optional<ResultTable> SlowRankTable(const SlowRankVote& vote);
std::optional<ResultTable> SlowOpStatsTable(const SlowRankVote& vote);

std::optional<ResultTable> ClusterTimeCompareSummaryTable(const std::vector<TimeCompareRow>& rows,
                                                          const ReferencePolicy& policy);

}  // namespace profdiff::analysis
