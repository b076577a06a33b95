// HCCL groups and planes from the HCCL threads' names and sort order
// (docs/reference/overall.md#communication-wait-transmit, #pg-names).
#include "profdiff/analysis/timeline/hccl_groups.h"

#include <gtest/gtest.h>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

std::vector<std::string> Names(const Profile& p, const std::vector<SliceId>& ids) {
  std::vector<std::string> out;
  for (SliceId id : ids) out.emplace_back(p.str(p.slices[id].name));
  return out;
}

TEST(HcclGroups, GroupsOpenAtCommunicationThreadsInSortOrderAndOwnTheNamedThreadsAfterThem) {
  ProfileBuilder b(DeviceKind::kNpu);
  // Process 3 holds the HCCL events; its threads are declared out of sort order.
  TrackId p1 = b.Track("3", "21", "Plane 0", 4);
  TrackId g1 = b.Track("3", "20", "Group 1 Communication", 3);
  TrackId before = b.Track("3", "5", "Plane -1", 0);  // before any group: no group's plane
  TrackId p0 = b.Track("3", "11", "Plane 0", 2);
  TrackId g0 = b.Track("3", "10", "Group 0 Communication", 1);
  TrackId unnamed = b.Track("3", "12", "", 2);         // no name: not a plane
  TrackId p0b = b.Track("3", "13", "Plane 1", kNoNumber);  // no sort index: last, so group 1's plane
  TrackId other = b.Track("4", "1", "Stream Communication", 1);  // no HCCL event in process 4
  b.Add(g0, SliceKind::kHcclOp, "hcom_allReduce_1", "", 100, 50);
  b.Add(p0, SliceKind::kHcclTask, "Notify_Wait", "", 100, 10);
  b.Add(p0, SliceKind::kHcclTask, "Memcpy", "", 110, 40);
  b.Add(g1, SliceKind::kHcclOp, "hcom_broadcast_1", "", 120, 30);
  b.Add(p1, SliceKind::kHcclTask, "Memcpy_p1", "", 120, 30);
  b.Add(p0b, SliceKind::kHcclTask, "RDMASend", "", 125, 5);
  b.Add(before, SliceKind::kHcclTask, "stray", "", 1, 1);
  b.Add(unnamed, SliceKind::kHcclTask, "unnamed", "", 2, 1);
  b.Add(g0, SliceKind::kNpuTask, "not_hccl", "", 3, 1);
  b.Add(other, SliceKind::kNpuTask, "task", "", 4, 1);
  b.p.npu.parallel_group_names["0"] = "tp";
  b.p.npu.parallel_group_names["7"] = "dp";  // no such group

  HcclGroups h = FindHcclGroups(b.p);
  ASSERT_EQ(h.groups.size(), 2u);
  const HcclGroup& a = h.groups[0];
  EXPECT_EQ(a.track, g0);
  EXPECT_EQ(a.name, "Group 0 Communication");
  EXPECT_EQ(a.pg_name, "tp");
  EXPECT_EQ(Names(b.p, a.ops), std::vector<std::string>{"hcom_allReduce_1"});
  ASSERT_EQ(a.planes.size(), 1u);
  EXPECT_EQ(a.planes[0].track, p0);
  EXPECT_EQ(Names(b.p, a.planes[0].tasks), (std::vector<std::string>{"Notify_Wait", "Memcpy"}));
  EXPECT_EQ(a.planes[0].kinds, (std::vector<HcclTaskKind>{HcclTaskKind::kWait, HcclTaskKind::kTransmit}));
  const HcclGroup& c = h.groups[1];
  EXPECT_EQ(c.name, "Group 1 Communication");
  EXPECT_FALSE(c.pg_name.has_value());
  ASSERT_EQ(c.planes.size(), 2u);
  EXPECT_EQ(c.planes[0].track, p1);
  EXPECT_EQ(c.planes[1].track, p0b);
  EXPECT_EQ(Names(b.p, c.planes[1].tasks), std::vector<std::string>{"RDMASend"});
  EXPECT_EQ(c.planes[1].kinds, std::vector<HcclTaskKind>{HcclTaskKind::kTransmit});
  EXPECT_EQ(c.planes[0].kinds, std::vector<HcclTaskKind>{HcclTaskKind::kOther});  // "Memcpy_p1"

  // The Timeline derives them once.
  Timeline t = BuildTimeline(b.p, {});
  ASSERT_EQ(t.hccl.groups.size(), 2u);
  EXPECT_EQ(t.hccl.groups[1].planes.size(), 2u);
}

// A DB export's groups are named by its ops' Group Name arg and its tasks' plane tracks
// (DbInfo::plane_groups): in first-appearance order among the ops, then a task's group joins them.
TEST(HcclGroups, ADbExportsTasksTakeTheGroupOfTheirPlane) {
  ProfileBuilder b(DeviceKind::kNpu);
  b.p.npu.db.present = true;
  const TrackId ga = b.Track("Communication", "a", "a", kNoNumber);
  const TrackId a0 = b.Track("Communication", "a/Plane 0", "Plane 0", kNoNumber);
  const TrackId b0 = b.Track("Communication", "b/Plane 0", "Plane 0", kNoNumber);
  const TrackId a1 = b.Track("Communication", "a/Plane 1", "Plane 1", kNoNumber);
  b.Add(ga, SliceKind::kHcclOp, "hcom_allReduce_1", "", 100, 50, {}, {{ArgKey::kGroupName, "a"}});
  b.Add(b0, SliceKind::kHcclTask, "Memcpy", "", 100, 10);
  b.Add(a1, SliceKind::kHcclTask, "Notify_Wait", "", 110, 10);
  b.Add(a0, SliceKind::kHcclTask, "Memcpy", "", 120, 10);
  for (auto [t, g] : {std::pair{a0, "a"}, std::pair{b0, "b"}, std::pair{a1, "a"}})
    b.p.npu.db.plane_groups.emplace_back(t, b.p.strings.Intern(g));
  HcclGroups h = FindHcclGroups(b.p);
  ASSERT_EQ(h.groups.size(), 2u);
  EXPECT_EQ(h.groups[0].name, "a");
  EXPECT_EQ(Names(b.p, h.groups[0].ops), (std::vector<std::string>{"hcom_allReduce_1"}));
  ASSERT_EQ(h.groups[0].planes.size(), 2u);  // its planes in their tasks' order: 1, then 0
  EXPECT_EQ(h.groups[0].planes[0].track, a1);
  EXPECT_EQ(h.groups[0].planes[1].track, a0);
  EXPECT_EQ(h.groups[1].name, "b");
  ASSERT_EQ(h.groups[1].planes.size(), 1u);
  EXPECT_EQ(Names(b.p, h.groups[1].planes[0].tasks), (std::vector<std::string>{"Memcpy"}));
}

TEST(HcclGroups, TasksAreClassifiedByNameWhateverTheSpelling) {
  for (const char* wait : {"Notify_Wait", "Notify Wait", "notify_wait", "NOTIFY WAIT"})
    EXPECT_EQ(ClassifyHcclTask(wait), HcclTaskKind::kWait) << wait;
  for (const char* transmit : {"Memcpy", "MEMCPY", "Reduce_Inline", "Reduce Inline", "Reduce_TBE", "RDMASend", "SDMA"})
    EXPECT_EQ(ClassifyHcclTask(transmit), HcclTaskKind::kTransmit) << transmit;
  for (const char* other : {"Notify_Record", "Notify Record", "", "Notify_Wait2", "Memcpy_p1", "hcom_allReduce_1"})
    EXPECT_EQ(ClassifyHcclTask(other), HcclTaskKind::kOther) << other;
}

TEST(HcclGroups, NoneOnAProfileWithoutHcclEvents) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId t = b.Track("0", "7", "Group 0 Communication", 1);
  b.Add(t, SliceKind::kKernel, "ncclKernel", "kernel", 0, 10);
  EXPECT_TRUE(FindHcclGroups(b.p).groups.empty());
}

}  // namespace
}  // namespace profdiff::analysis
