// A "Kernel Details" line prints the kernel's duration as the trace wrote it (Python's repr of the
// float read): digits below 1e-5 ns included, shortest round trip otherwise.
#include <gtest/gtest.h>

#include <string>
#include <unordered_map>

#include "profdiff/model/profile.h"
#include "profdiff/report/operators/operator_sheets.h"

namespace profdiff::report {
namespace {

SliceId AddKernel(Profile& p, const char* name, int64_t dur_ns, int32_t sub_e5) {
  Slice s;
  s.name = p.strings.Intern(name);
  s.kind = SliceKind::kKernel;
  s.dur_ns = dur_ns;
  s.dur_sub_e5 = sub_e5;
  p.slices.push_back(s);
  return static_cast<SliceId>(p.slices.size() - 1);
}

TEST(KernelLine, DurationAsWritten) {
  Profile p;
  p.GetOrCreateTrack("1", "2");
  const SliceId fine = AddKernel(p, "aclnnCast_CastAiCpu_Cast", 139419, -39801);
  p.fine_dur_us.emplace_back(fine, 139.4186019897461);
  const SliceId e5 = AddKernel(p, "k", 53841, 9375);
  const SliceId whole = AddKernel(p, "w", 2000, 0);
  const std::unordered_map<int64_t, StringId> no_shapes;
  EXPECT_EQ(KernelLine(p, fine, no_shapes), "aclnnCast_CastAiCpu_Cast [duration: 139.4186019897461]\n");
  EXPECT_EQ(KernelLine(p, e5, no_shapes), "k [duration: 53.84109375]\n");
  EXPECT_EQ(KernelLine(p, whole, no_shapes), "w [duration: 2.0]\n");
}

// An Ascend DB task names itself by its device task id by default, by the DB's globalTaskId under
// --reference-compat (ReferencePolicy::db_kernel_lines_global_task_id); a text export always by its
// Task Id.
// A DB task keeps its task id as its arg, its type and global task id in its compute row
// (Profile::TaskType, DbComputeRow); a task without one is typed by its name.
TEST(KernelLine, DbTaskIdOfEachMode) {
  Profile p;
  p.meta.format = SourceFormat::kAscendDb;
  p.GetOrCreateTrack("1", "2");
  const SliceId k = AddKernel(p, "trans_TransData_2", 27901, 0);
  const SliceId wait = AddKernel(p, "EVENT_WAIT_SQE", 1000, 0);
  for (SliceId id : {k, wait}) {
    Slice& s = p.slices[id];
    s.kind = SliceKind::kNpuTask;
    s.args_begin = static_cast<uint32_t>(p.args.size());
    s.args_count = 1;
    p.args.push_back(Arg::Int(ArgKey::kTaskId, id == k ? 11066 : 11067, p.strings));
  }
  p.npu.db.compute_tasks.push_back({kNoNumber, 6, k, p.strings.Intern("KERNEL_AIVEC"), 0});
  p.npu.kernel_details.rows.emplace_back().accelerator_core = p.strings.Intern("AI_VECTOR_CORE");
  const std::unordered_map<int64_t, StringId> no_shapes;
  const analysis::ReferencePolicy compat = analysis::ReferenceCompatPolicy(analysis::ReferenceLine::k26_1);
  EXPECT_EQ(KernelTaskIdKey(p, analysis::ExactPolicy()), ArgKey::kTaskId);
  EXPECT_EQ(KernelLine(p, k, no_shapes, KernelTaskIdKey(p, analysis::ExactPolicy())),
            "trans_TransData_2, 11066, AI_VECTOR_CORE [duration: 27.901]\n");
  EXPECT_EQ(KernelLine(p, k, no_shapes, KernelTaskIdKey(p, compat)),
            "trans_TransData_2, 6, AI_VECTOR_CORE [duration: 27.901]\n");
  // Without a compute row: its task id in both modes, its name as its type.
  EXPECT_EQ(KernelLine(p, wait, no_shapes, KernelTaskIdKey(p, compat)),
            "EVENT_WAIT_SQE, 11067, EVENT_WAIT_SQE [duration: 1.0]\n");
  p.meta.format = SourceFormat::kAscendProfileDir;
  EXPECT_EQ(KernelTaskIdKey(p, compat), ArgKey::kTaskId);
  // A text export's task reads its args: no Task Type arg is "None".
  EXPECT_EQ(KernelLine(p, wait, no_shapes, KernelTaskIdKey(p, compat)),
            "EVENT_WAIT_SQE, 11067, None [duration: 1.0]\n");
}

}  // namespace
}  // namespace profdiff::report
