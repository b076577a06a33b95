// What `profdiff cluster` reads of an Ascend DB export beyond what `compare` reads
// (LoadOptions::cluster_tables): CANN_API's launch starts and the analysis.db beside the export.
#pragma once

#include "ascend_db_sqlite.h"
#include "profdiff/base/status.h"
#include "profdiff/model/profile.h"

namespace profdiff {

// After the export's own tables are in `profile` (its communication ops and compute tasks name the
// connection ids to look up): npu.db.cann_api_starts; analysis.db's StepTraceTime into
// npu.step_trace (the columns named as step_trace_time.csv's) and CommAnalyzerTime's row count; and
// npu.db.cluster (model/cluster_db_tables.h): analysis.db's CommAnalyzerTime, CommAnalyzerBandwidth
// and CommAnalyzerMatrix, the export's HOST_INFO, RANK_DEVICE_MAP and META_DATA
// parallel_group_info, the rank folder's profiler_metadata.json distributed_args. An export without
// analysis.db (or any of these) is no error (the cluster then says what it lacks).
Status LoadClusterDbTables(const db::Database& db, Profile& profile);

}  // namespace profdiff
