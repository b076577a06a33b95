// What `profdiff cluster` reads of an Ascend DB export for the reference's cluster_analysis.db (its
// DB route; LoadOptions::cluster_tables only): the analysis.db tables CommAnalyzerTime,
// CommAnalyzerBandwidth and CommAnalyzerMatrix, the export's HOST_INFO, RANK_DEVICE_MAP and
// META_DATA parallel_group_info, and the rank folder's profiler_metadata.json distributed_args. The
// cells are kept as Python's sqlite3 module hands them to the reference (None, int, float, str): its
// pandas columns, and so the columns it writes, take their types from them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace profdiff {

// One SQLite cell by its storage class (a BLOB is read as NULL).
struct SqlValue {
  enum class Kind : uint8_t { kNull, kInt, kReal, kText };
  Kind kind = Kind::kNull;
  int64_t i = 0;
  double r = 0;
  std::string text;

  static SqlValue Null() { return {}; }
  static SqlValue Int(int64_t v) {
    SqlValue c;
    c.kind = Kind::kInt;
    c.i = v;
    return c;
  }
  static SqlValue Real(double v) {
    SqlValue c;
    c.kind = Kind::kReal;
    c.r = v;
    return c;
  }
  static SqlValue Text(std::string v) {
    SqlValue c;
    c.kind = Kind::kText;
    c.text = std::move(v);
    return c;
  }
  bool is_null() const { return kind == Kind::kNull; }
  bool is_number() const { return kind == Kind::kInt || kind == Kind::kReal; }
  // An INTEGER or REAL cell's value as a double (NaN otherwise).
  double AsDouble() const;
  bool operator==(const SqlValue& o) const = default;
};

// One table read whole: its columns (all of them, in table order) and rows (rowid order).
struct SqlRows {
  bool present = false;  // the table exists
  std::vector<std::string> columns;
  std::vector<std::vector<SqlValue>> rows;
  // The index of `name` in `columns`, -1 when the table has no such column.
  int Column(std::string_view name) const;
};

// One group of META_DATA's parallel_group_info, in the JSON's order.
struct DbParallelGroup {
  std::string group_id;               // the key
  std::string pg_name;                // its "group_name" ("" when it has none)
  std::vector<int64_t> global_ranks;  // its "global_ranks", ascending
};

struct ClusterDbTables {
  bool present = false;  // read: an Ascend DB export loaded with LoadOptions::cluster_tables
  bool has_analysis_db = false;
  SqlRows comm_time;        // analysis.db CommAnalyzerTime
  SqlRows comm_bandwidth;   // analysis.db CommAnalyzerBandwidth
  SqlRows comm_matrix;      // analysis.db CommAnalyzerMatrix
  SqlRows host_info;        // HOST_INFO, its first row only
  SqlRows rank_device_map;  // RANK_DEVICE_MAP
  bool has_parallel_group_info = false;  // META_DATA holds a parallel_group_info that reads as JSON
  std::vector<DbParallelGroup> parallel_groups;
  // profiler_metadata.json's distributed_args without its "rank", as compact JSON in the file's key
  // order; empty when the file or the object is absent.
  std::string distributed_args_json;
  // What could not be read and was left out ("META_DATA parallel_group_info is not JSON: ...").
  std::vector<std::string> notes;
};

}  // namespace profdiff
