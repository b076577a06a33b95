// The Ascend SQLite export (`export_type=db`: ascend_pytorch_profiler_<rank>.db,
// ascend_mindspore_profiler_<rank>.db, msmonitor*.db), read into the same timeline model as the text
// export (docs/reference/inputs.md#db-export).
#pragma once

#include <string>

#include "profdiff/base/status.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/model/profile.h"

namespace profdiff {

// Reads `db_file` into `profile`. The file is opened read-only and immutable (no lock, no journal,
// no change of any kind). Missing tables leave their data empty (diagnostic db_table_missing); a
// file that is not an SQLite database, or a table that lacks a column the loader reads, is an error
// naming the file (and the table). Malformed rows are counted in profile.diagnostics and skipped.
//
// What lands where:
//  * PYTORCH_API: torch-side slices on process "Python" (pid and tid from globalTid), kind from
//    ENUM_API_TYPE ('op' cpu_op, 'queue' enqueue/dequeue by name, 'trace' python_function,
//    ProfilerStep#N a step marker); args Input Dims (inputShapes), Sequence number, Fwd thread id,
//    connection_id. Each CONNECTION_IDS row of the API row adds a flow start (cat async_npu) whose id
//    is the CANN connection id.
//  * TASK (+ COMPUTE_TASK_INFO when it has the task): device tasks on process "Ascend Hardware", one
//    track per stream; a flow end for each task whose connection id some API row holds. Compute tasks
//    also fill npu.kernel_details (task id = globalTaskId, step from STEP_TIME).
//  * COMMUNICATION_OP: HCCL ops on process "Communication", one track per groupName (the group name
//    is also the Group Name arg); COMMUNICATION_TASK_INFO + TASK: HCCL tasks on one track per
//    (groupName, planeId), named "Plane <planeId>".
//  * OP_MEMORY, MEMORY_RECORD: npu.operator_memory (size in KB = bytes / 1024) and npu.memory_record
//    (its largest reserved total in MB = bytes / 2^20, and each step's in npu.db.steps; the rows are
//    not kept). STEP_TIME: npu.db.steps. Every table looked at: npu.db.tables.
Status LoadAscendDb(const std::string& db_file, Profile& profile, const LoadOptions& options);

}  // namespace profdiff
