// The reference's cluster_analysis.db of a run of Ascend DB exports (analysis/cluster/db_tables.h),
// written as an SQLite file: each table created as the reference creates it (pandas' to_sql, or its
// own CREATE TABLE of its table configuration) and its rows bound as the reference's Python values,
// so SQLite stores them under the same column affinities.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/db_tables.h"
#include "profdiff/base/status.h"

namespace profdiff::report {

// ClusterBaseInfo: ("distributed_args", json.dumps of the first rank's profiler_metadata.json
// distributed_args without its "rank"); nullopt when no rank has them (the reference writes none).
std::optional<analysis::ResultTable> ClusterBaseInfoTable(const std::vector<analysis::RankSummary>& ranks);

// The CREATE TABLE statement of `table`.
std::string CreateTableSql(const analysis::ResultTable& table);

// Writes `tables` to a new SQLite file at `path` through a temporary file in its directory renamed
// into place (never over an existing file unless `force`; nothing left behind on failure).
Status WriteClusterDb(const std::string& path, const std::vector<analysis::ResultTable>& tables, bool force);

}  // namespace profdiff::report
