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

}  // namespace
}  // namespace profdiff::report
