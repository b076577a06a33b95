// The operator tree of an Ascend DB export: one node per op by default; under --reference-compat one
// node per PYTORCH_API row and connection id, each holding its own id's kernels
// (ReferencePolicy::db_api_row_per_connection_id).
#include <gtest/gtest.h>

#include <vector>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/timeline/op_tree.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

// aten::conv2d [0, 100] µs launched two tasks through connection ids 11 and 12; its child
// aten::add [10, 20] µs one task through id 13; aten::relu [200, 210] µs none.
Profile DbProfile() {
  ProfileBuilder b(DeviceKind::kNpu);
  b.p.meta.format = SourceFormat::kAscendDb;
  const TrackId cpu = b.Track("1", "1"), npu = b.Track("2", "1");
  const SliceId conv = b.Add(cpu, SliceKind::kCpuOp, "aten::conv2d", "cpu_op", 0, 100000);
  const SliceId add = b.Add(cpu, SliceKind::kCpuOp, "aten::add", "cpu_op", 10000, 10000);
  b.Add(cpu, SliceKind::kCpuOp, "aten::relu", "cpu_op", 200000, 10000);
  const SliceId conv_a = b.Add(npu, SliceKind::kNpuTask, "Conv2D_a", "kernel", 300000, 5000);
  const SliceId conv_b = b.Add(npu, SliceKind::kNpuTask, "Conv2D_b", "kernel", 310000, 5000);
  const SliceId add_task = b.Add(npu, SliceKind::kNpuTask, "Add", "kernel", 320000, 5000);
  // A DB export's launches are slice pairs (DbInfo::launch_links), not flow events.
  b.p.npu.db.launch_links = {{11, conv, conv_a}, {12, conv, conv_b}, {13, add, add_task}};
  b.p.npu.db.op_launches = {{11, conv}, {12, conv}, {13, add}};
  return std::move(b.p);
}

std::vector<std::string_view> Names(const Profile& p, std::span<const SliceId> ks) {
  std::vector<std::string_view> out;
  for (SliceId k : ks) out.push_back(p.str(p.slices[k].name));
  return out;
}

TEST(OpTreeDb, OneNodePerOpByDefault) {
  const Profile p = DbProfile();
  const Timeline tl = BuildTimeline(p, {});
  const OpTree t = BuildOpTree(tl, ExactPolicy());
  ASSERT_EQ(t.size(), 4u);  // root, conv2d, add, relu
  EXPECT_EQ(t.node(2).parent, 1u);
  EXPECT_EQ(Names(p, t.kernels(1)), (std::vector<std::string_view>{"Conv2D_a", "Conv2D_b"}));
  EXPECT_EQ(Names(p, t.kernels(2)), (std::vector<std::string_view>{"Add"}));
  EXPECT_EQ(t.AllLayerOps().size(), 3u);
}

TEST(OpTreeDb, OneNodePerConnectionIdUnderReferenceCompat) {
  for (ReferenceLine line : {ReferenceLine::k8_2, ReferenceLine::k26_1}) {
    const Profile p = DbProfile();
    const Timeline tl = BuildTimeline(p, {});
    const OpTree t = BuildOpTree(tl, ReferenceCompatPolicy(line));
    // root, conv2d (id 11), conv2d (id 12) inside it, add inside the second copy, relu.
    ASSERT_EQ(t.size(), 5u);
    EXPECT_EQ(t.node(1).slice, t.node(2).slice);
    EXPECT_EQ(t.node(2).parent, 1u);
    EXPECT_EQ(t.node(3).parent, 2u);
    EXPECT_EQ(t.node(3).depth, 3u);
    EXPECT_EQ(t.node(4).parent, kRootNode);
    EXPECT_EQ(Names(p, t.kernels(1)), (std::vector<std::string_view>{"Conv2D_a"}));
    EXPECT_EQ(Names(p, t.kernels(2)), (std::vector<std::string_view>{"Conv2D_b"}));
    EXPECT_EQ(Names(p, t.kernels(3)), (std::vector<std::string_view>{"Add"}));
    EXPECT_EQ(t.node(1).kernel_num, 3);
    EXPECT_EQ(t.AllLayerOps().size(), 4u);  // the API sheet counts conv2d twice
  }
}

// The module comparison's kernel groups: by default every kernel an op launched at its start; the
// reference's DB dict keeps, per op start, the last connection id's kernels only.
TEST(OpTreeDb, ModuleKernelGroupsOfTheLastConnectionId) {
  const Profile p = DbProfile();
  const Timeline tl = BuildTimeline(p, {});
  KernelDict dict = LinkKernels(tl, ExactPolicy());
  ASSERT_EQ(dict.groups.size(), 2u);
  EXPECT_EQ(Names(p, dict.groups[0].kernels), (std::vector<std::string_view>{"Conv2D_a", "Conv2D_b"}));
  GroupDbKernelsByLastConnection(tl, dict);
  ASSERT_EQ(dict.groups.size(), 2u);
  EXPECT_EQ(dict.groups[0].ts_ns, 0);
  EXPECT_EQ(Names(p, dict.groups[0].kernels), (std::vector<std::string_view>{"Conv2D_b"}));
  EXPECT_EQ(dict.groups[1].ts_ns, 10000);
  EXPECT_EQ(Names(p, dict.groups[1].kernels), (std::vector<std::string_view>{"Add"}));
}

TEST(OpTreeDb, TextExportsAreNeverDuplicated) {
  Profile p = DbProfile();
  p.meta.format = SourceFormat::kAscendProfileDir;
  const Timeline tl = BuildTimeline(p, {});
  EXPECT_EQ(BuildOpTree(tl, ReferenceCompatPolicy(ReferenceLine::k26_1)).size(), 4u);
}

}  // namespace
}  // namespace profdiff::analysis
