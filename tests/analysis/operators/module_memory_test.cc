// Memory of the module comparison (docs/performance.md, "Module comparison at scale"): the call
// tree (one node per python function) must not hold a path or a call stack per node, which grows
// with the square of the nesting depth (4.2 GB on a 333 MB trace before). A module's call stack is
// still the full chain of the call functions around it.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/operators/operator_compare.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

// `depth` nested call functions (names of about 100 characters), call i over
// [10 i, 10 (2 depth - i)], and one module starting inside the innermost one, with an op.
Profile DeepCalls(int depth) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId py = b.Track("1", "1");
  for (int i = 0; i < depth; ++i) {
    const std::string name = "model.py(" + std::to_string(i) + "): " + std::string(90, 'f');
    b.Add(py, SliceKind::kPythonFunction, name, "python_function", 10 * i, 10 * (2 * (depth - i)));
  }
  b.Add(py, SliceKind::kPythonFunction, "nn.Module: Linear_0", "python_function", 10 * depth, 5);
  b.Add(py, SliceKind::kCpuOp, "aten::linear", "cpu_op", 10 * depth + 1, 2);
  return std::move(b.p);
}

// The joined names of the calls 0 .. depth-1, as DeepCalls names them.
std::string ExpectedStack(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i) {
    if (i > 0) s += ";\n";
    s += "model.py(" + std::to_string(i) + "): " + std::string(90, 'f');
  }
  return s;
}

// A "VmRSS:" / "VmHWM:" value of /proc/self/status in KiB, or -1.
int64_t StatusKib(std::string_view key) {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.compare(0, key.size(), key) == 0) return std::stoll(line.substr(key.size()));
  return -1;
}

// Resets the process's peak RSS (VmHWM) to its current RSS (Linux >= 4.0).
bool ResetPeakRss() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  f.flush();
  return f.good();
}

OperatorComparison CompareSame(const Profile& p) {
  const Timeline t = BuildTimeline(p, {});
  return CompareOperators(t, t, ExactPolicy(), OperatorCompareOptions{});
}

TEST(ModuleCompareMemory, CallStackIsTheWholeChainOfCallFunctions) {
  const Profile p = DeepCalls(40);
  const OperatorComparison r = CompareSame(p);
  ASSERT_EQ(r.kind, OperatorCompareKind::kModule);
  ASSERT_EQ(r.module_blocks.size(), 1u);
  EXPECT_EQ(r.module_blocks[0].base.call_stack, ExpectedStack(40));
  ASSERT_EQ(r.module_stats.size(), 1u);
  EXPECT_EQ(r.module_stats[0].comparison.call_stack, ExpectedStack(40));
}

TEST(ModuleCompareMemory, PeakGrowthDoesNotFollowTheSquareOfTheCallDepth) {
  // 1000 nested calls of ~100 characters (a ~200 KB profile): a path and a stack per call node
  // would hold 2 x 1000^2 / 2 x 102 B = 100 MB at least (520 MB of peak growth measured at 1500).
  const Profile p = DeepCalls(1000);
  if (StatusKib("VmRSS:") < 0 || !ResetPeakRss()) GTEST_SKIP() << "no /proc/self/status or clear_refs";
  const int64_t before_kib = StatusKib("VmRSS:");
  const OperatorComparison r = CompareSame(p);
  const int64_t growth_kib = StatusKib("VmHWM:") - before_kib;
  ASSERT_EQ(r.kind, OperatorCompareKind::kModule);
  EXPECT_EQ(r.module_blocks.at(0).base.call_stack.size(), ExpectedStack(1000).size());
  EXPECT_LT(growth_kib, 48 * 1024) << "peak RSS grew by " << growth_kib << " KiB";
}

}  // namespace
}  // namespace profdiff::analysis
