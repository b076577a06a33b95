// HCCL communication groups of an NPU profile
// (docs/reference/overall.md#communication-wait-transmit, #pg-names), derived once per profile and
// read by the overall comparison (communication wait/transmit, group overlap) and, later, by the
// communication comparison.
//
// The text export has no explicit group table: the threads of the processes holding HCCL events are
// taken in thread-sort order; a thread whose name contains "Communication" opens a group ("Group 0
// Communication"), and every other named thread after it, up to the next group, is one of its planes.
// A group's op events are the HCCL slices on its own thread; its task events those on its planes.
// profiler_metadata.json names the process group behind "Group {id} Communication" (pg name).
//
// Each plane task is classified once by its name (ClassifyHcclTask): a task that moves data
// (transmit), a Notify_Wait (wait for a peer's notify), or anything else (Notify_Record and the
// like: bookkeeping that neither moves data nor waits). The overall comparison's exact
// wait/transmit/idle split of uncovered communication reads these kinds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/model/profile.h"

namespace profdiff::analysis {

// What an HCCL plane task does.
enum class HcclTaskKind : uint8_t {
  kOther,     // neither moves data nor waits (Notify_Record, unknown names)
  kTransmit,  // moves data: Memcpy, Reduce_Inline, Reduce_TBE, RDMASend, SDMA
  kWait,      // Notify_Wait: the plane waits for a notify from a peer
};

// The kind of a task by its name, case-insensitively, with ' ' and '_' the same ("Notify Wait" and
// "Notify_Wait" are both waits).
HcclTaskKind ClassifyHcclTask(std::string_view name);

struct HcclPlane {
  TrackId track = 0;
  std::vector<SliceId> tasks;       // complete ('X') HCCL slices on the plane's thread, in file order
  std::vector<HcclTaskKind> kinds;  // kinds[i] = ClassifyHcclTask(name of tasks[i])
};

struct HcclGroup {
  TrackId track = 0;
  std::string name;                    // the thread name, e.g. "Group 0 Communication"
  std::optional<std::string> pg_name;  // its parallel_group_info group_name, when the metadata has one
  std::vector<SliceId> ops;            // complete ('X') HCCL slices on the group's thread, in file order
  std::vector<HcclPlane> planes;       // in thread-sort order
};

struct HcclGroups {
  std::vector<HcclGroup> groups;  // in thread-sort order (threads without a sort index last)
};

HcclGroups FindHcclGroups(const Profile& profile);

}  // namespace profdiff::analysis
