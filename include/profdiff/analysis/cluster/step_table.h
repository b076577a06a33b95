// The reduce step behind cluster_step_trace_time.csv: every rank's step rows, then one `stage` row per
// (step, pipeline stage) holding the largest value of the stage's ranks per column (the reference's
// rule). Reads RankSummary values only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/parallel_index.h"
#include "profdiff/analysis/cluster/rank_summary.h"

namespace profdiff::analysis {

struct ClusterStepRow {
  std::string step;
  bool stage = false;  // false: a rank row
  std::string index;   // a rank row: "3"; a stage row: the stage's ranks as Python prints a tuple, "(0, 1)"
  std::vector<int64_t> values_ns;      // per ClusterStepTable::columns; kAbsentNs when unknown
  std::vector<double> values_us_float; // the reference's floats (NaN when unknown)
  std::vector<int64_t> ranks = {};     // a rank row: its rank; a stage row: the stage's ranks (ascending)
  // Its DP / PP / TP index (ClusterStepTable::parallel_columns; nullopt: "NA", and every stage row).
  std::optional<ParallelIndex> parallel = std::nullopt;
};

struct ClusterStepTable {
  std::vector<std::string> columns;  // value columns: the first rank's, then any other rank's new ones
  std::vector<ClusterStepRow> rows;  // rank rows (rank ascending, each rank's steps in its order), then stage rows
  // The reference's "DP Index", "PP Index", "TP Index" columns: the ranks' distributed_args
  // partition them (AddParallelIndexes).
  bool parallel_columns = false;
};

// `ranks` ascending by rank. `stage_groups`: the ranks of each pipeline stage (the reference's p2p
// communication groups); empty: no stage rows (the reference writes none either). A rank in no stage
// group is counted in the stage "()" when there are groups, as the reference does. `step`: only that
// step's rows (the step id as written, "50"); nullopt: every step.
ClusterStepTable BuildClusterStepTable(const std::vector<RankSummary>& ranks,
                                       const std::vector<std::vector<int64_t>>& stage_groups,
                                       const std::optional<std::string>& step = std::nullopt);

// The DP / PP / TP columns, as the reference adds them: from the first rank (ascending) whose
// profiler_metadata.json has distributed_args, when they partition the ranks (PartitionRanks) into at
// least as many as the ranks with step rows of their own (step_trace_time.csv / analysis.db); a rank
// the partition leaves out, or beyond its world size, and every stage row are "NA". Else no columns,
// and `warnings` says why (nothing without distributed_args).
void AddParallelIndexes(const std::vector<RankSummary>& ranks, ClusterStepTable& table, std::vector<std::string>& warnings);

// Python's repr of a tuple of ints: "()", "(3,)", "(0, 1)".
std::string PythonTupleText(const std::vector<int64_t>& values);

}  // namespace profdiff::analysis
