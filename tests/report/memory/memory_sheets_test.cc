// The memory comparison's sheets, "Allocated Details" lines and JSON section
// (docs/reference/memory.md#memory-sheets, #memory-record-fields).
#include "profdiff/report/memory/memory_sheets.h"

#include <gtest/gtest.h>

#include <cstdint>

#include <cstdio>

#include <cmath>

#include <string>
#include <vector>

#include "../../common/profile_builder.h"
#include "profdiff/report/memory/memory_json.h"

namespace profdiff::report {
namespace {

using analysis::testing::ProfileBuilder;

void AddRow(Profile& p, std::string_view name, double size_kb, int64_t allocation_ns, int64_t release_ns) {
  OperatorMemoryRow r;
  r.name = p.strings.Intern(name);
  r.size_kb = size_kb;
  r.allocation_ns = allocation_ns;
  r.release_ns = release_ns;
  p.npu.operator_memory.push_back(r);
  p.npu.has_operator_memory = true;
}

// One op, aten::to [T, T + 1 ms], with one unreleased and one released record.
Profile Npu(int64_t t) {
  ProfileBuilder b(DeviceKind::kNpu);
  b.Add(b.Track("1", "1"), SliceKind::kCpuOp, "aten::to", "cpu_op", t, 1000000);
  AddRow(b.p, "aten::empty_strided", 18816.5, t + 10, kAbsentNs);
  AddRow(b.p, "cann::Cast", 0.5, t + 20, t + 34058260);
  return std::move(b.p);
}

TEST(MemorySheets, AllocatedDetailsAsTheReferencePrintsThem) {
  const int64_t t = 1736408883694624800;
  const Profile b = Npu(t), c = Npu(t);
  const analysis::Timeline bt = analysis::BuildTimeline(b, {}), ct = analysis::BuildTimeline(c, {});
  const analysis::MemoryComparison cmp = analysis::CompareMemory(bt, ct, analysis::ExactPolicy(), {});
  ASSERT_EQ(cmp.rows.size(), 1u);
  const std::vector<uint32_t>& recs = cmp.rows[0].base.records;
  ASSERT_EQ(recs.size(), 2u);
  // A record without its own name takes its op's; an absent NPU release prints 0.
  EXPECT_EQ(AllocatedDetailsLine(b, cmp.base_tree(), cmp.base_memory, recs[0], cmp.policy),
            "aten::to, (1736408883694624.810, 0), [duration: 0.0], [size: 18816.5]\n");
  EXPECT_EQ(AllocatedDetailsLine(b, cmp.base_tree(), cmp.base_memory, recs[1], cmp.policy),
            "cann::Cast, (1736408883694624.820, 1736408883728683.060), [duration: 34058.24], [size: 0.5]\n");

  std::vector<SheetSpec> sheets = BuildMemorySheets(cmp, "b_dir", "c_dir");
  ASSERT_EQ(sheets.size(), 2u);
  EXPECT_EQ(sheets[0].name, "MemoryCompareStatistic");
  EXPECT_EQ(sheets[1].name, "MemoryCompare");
  const SheetSpec& mc = sheets[1];
  ASSERT_EQ(mc.columns.size(), 13u);
  EXPECT_EQ(mc.base_banner.first_col, 1);
  EXPECT_EQ(mc.comparison_banner.last_col, 10);
  ASSERT_EQ(mc.rows.size(), 1u);
  EXPECT_EQ(mc.rows[0].cells[5], Cell::Number(18817));
  EXPECT_EQ(mc.rows[0].cells[11], Cell::Number(0));
  EXPECT_EQ(mc.rows[0].cells[12], Cell::Number(1));
  const SheetSpec& st = sheets[0];
  ASSERT_EQ(st.columns.size(), 10u);
  EXPECT_EQ(st.columns[5].header, "Comparison Allocated Duration(ms)");
  EXPECT_EQ(st.columns[5].width, 27);
  ASSERT_EQ(st.rows.size(), 1u);
  EXPECT_EQ(st.rows[0].cells[2], Cell::Number(34.05824));
  EXPECT_EQ(st.rows[0].cells[3], Cell::Number(18817.0 / 1024));

  const OrderedJson j = MemoryJsonSection(cmp);
  EXPECT_EQ(j["base"]["records"], 2);
  EXPECT_EQ(j["base"]["duration_ns"], 34058240);
  EXPECT_EQ(j["rows"].size(), 1u);
  EXPECT_EQ(j["rows"][0]["base"]["name"], "aten::to");
  EXPECT_EQ(j["statistics"][0]["base"]["operators"], 1);
  EXPECT_EQ(j["top_by_diff"].size(), 1u);
}

// The same op from an Ascend DB export (no input shapes: NULL inputShapes): the default prints it as
// the text export; under --reference-compat the times are Python floats, an absent release 0.0, the
// shape "None", and on the 8.2 line the size is the DB's bytes.
TEST(MemorySheets, DbRecordsAsEachModePrintsThem) {
  const int64_t t = 1736410576404541230;
  Profile b = Npu(t), c = Npu(t);
  b.meta.format = c.meta.format = SourceFormat::kAscendDb;
  b.npu.operator_memory[0].size_kb = c.npu.operator_memory[0].size_kb = 19268096.0 / 1024;
  for (Profile* p : {&b, &c}) p->npu.operator_memory[1].name = p->strings.Intern("aten::empty");  // not cann::
  const analysis::Timeline bt = analysis::BuildTimeline(b, {}), ct = analysis::BuildTimeline(c, {});
  struct Want {
    analysis::ReferencePolicy policy;
    std::string unreleased, released, shape;
  };
  const Want wants[] = {
      {analysis::ExactPolicy(), "aten::to, (1736410576404541.240, 0), [duration: 0.0], [size: 18816.5]\n",
       "aten::to, (1736410576404541.250, 1736410576438599.490), [duration: 34058.24], [size: 0.5]\n", "N/A"},
      {analysis::ReferenceCompatPolicy(analysis::ReferenceLine::k26_1),
       "aten::to, (1736410576404541.2, 0.0), [duration: 0.0], [size: 18816.5]\n",
       "aten::to, (1736410576404541.2, 1736410576438599.5), [duration: 34058.25], [size: 0.5]\n", "None"},
      {analysis::ReferenceCompatPolicy(analysis::ReferenceLine::k8_2),
       "aten::to, (1736410576404541.2, 0.0), [duration: 0.0], [size: 19268096]\n",
       "aten::to, (1736410576404541.2, 1736410576438599.5), [duration: 34058.25], [size: 512]\n", "None"},
  };
  for (const Want& w : wants) {
    const analysis::MemoryComparison cmp = analysis::CompareMemory(bt, ct, w.policy, {});
    ASSERT_EQ(cmp.rows.size(), 1u);
    const std::vector<uint32_t>& recs = cmp.rows[0].base.records;
    ASSERT_EQ(recs.size(), 2u);
    EXPECT_EQ(AllocatedDetailsLine(b, cmp.base_tree(), cmp.base_memory, recs[0], cmp.policy), w.unreleased);
    EXPECT_EQ(AllocatedDetailsLine(b, cmp.base_tree(), cmp.base_memory, recs[1], cmp.policy), w.released);
    const std::vector<SheetSpec> sheets = BuildMemorySheets(cmp, "b", "c");
    ASSERT_EQ(sheets.size(), 2u);
    EXPECT_EQ(sheets[1].rows[0].cells[2], Cell::String(w.shape));
  }
}

TEST(MemorySheets, GpuTimesAndDisableDetails) {
  ProfileBuilder g(DeviceKind::kGpu);
  g.Add(g.Track("1", "1"), SliceKind::kCpuOp, "aten::add", "cpu_op", 500, 10000);
  MemoryEvent alloc, free;
  alloc.ts_ns = 1000;
  alloc.bytes = 512;
  alloc.device_id = 0;
  free = alloc;
  free.ts_ns = 2500;
  free.bytes = -512;
  g.p.memory_events = {alloc, free};
  const analysis::Timeline t = analysis::BuildTimeline(g.p, {});
  analysis::OperatorCompareOptions o;
  o.disable_details = true;
  const analysis::MemoryComparison cmp = analysis::CompareMemory(t, t, analysis::ExactPolicy(), o);
  EXPECT_EQ(AllocatedDetailsLine(g.p, cmp.base_tree(), cmp.base_memory, 0, cmp.policy),
            "aten::add, (1, 2.5), [duration: 1.5], [size: 0.5]\n");
  std::vector<SheetSpec> sheets = BuildMemorySheets(cmp, "b", "c");
  ASSERT_EQ(sheets.size(), 1u);  // no MemoryCompare under --disable_details
  EXPECT_EQ(sheets[0].rows.size(), 1u);  // one name, both sides unmatched but grouped
}

// A modern Kineto trace writes ns-precise µs (88437691101.719): printed as written by default, as
// the exact value of its double (and subtracted as doubles) under --reference-compat.
TEST(MemorySheets, GpuFloatTimesOnlyUnderReferenceCompat) {
  ProfileBuilder g(DeviceKind::kGpu);
  g.Add(g.Track("1", "1"), SliceKind::kCpuOp, "aten::add", "cpu_op", 88437691101000, 10000);
  MemoryEvent alloc, free;
  alloc.ts_ns = 88437691101719;
  alloc.bytes = 1024;
  alloc.device_id = 0;
  free = alloc;
  free.ts_ns = 88437691101938;
  free.bytes = -1024;
  g.p.memory_events = {alloc, free};
  const analysis::Timeline t = analysis::BuildTimeline(g.p, {});
  const analysis::MemoryComparison exact = analysis::CompareMemory(t, t, analysis::ExactPolicy(), {});
  EXPECT_EQ(AllocatedDetailsLine(g.p, exact.base_tree(), exact.base_memory, 0, exact.policy),
            "aten::add, (88437691101.719, 88437691101.938), [duration: 0.219], [size: 1.0]\n");
  const analysis::ReferencePolicy compat = analysis::ReferenceCompatPolicy(analysis::ReferenceLine::k26_1);
  const analysis::MemoryComparison ref = analysis::CompareMemory(t, t, compat, {});
  EXPECT_EQ(AllocatedDetailsLine(g.p, ref.base_tree(), ref.base_memory, 0, ref.policy),
            "aten::add, (88437691101.718994140625, 88437691101.9380035400390625), "
            "[duration: 0.2190093994140625], [size: 1.0]\n");
  ASSERT_EQ(ref.stats.size(), 1u);
  EXPECT_EQ(ref.stats[0].base.duration.Ms(compat), 0.2190093994140625 / 1000);
  EXPECT_EQ(exact.stats[0].base.duration.Ms(exact.policy), 0.000219);
  EXPECT_EQ(ExactDecimalOfDouble(1000.0), "1000");
  EXPECT_EQ(ExactDecimalOfDouble(0.5), "0.5");
  EXPECT_EQ(ExactDecimalOfDouble(88437691101.719), "88437691101.718994140625");
  EXPECT_EQ(ExactDecimalOfDouble(-0.1), "-0.1000000000000000055511151231257827021181583404541015625");
  EXPECT_EQ(ExactDecimalOfDouble(0.0), "0");
  // The fast path equals glibc's exact printing on many doubles of every magnitude.
  uint64_t seed = 42;
  for (int i = 0; i < 20000; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const double v = std::ldexp(static_cast<double>(seed >> 11), static_cast<int>(seed % 100) - 60);
    std::vector<char> buf(1500);
    const int n = std::snprintf(buf.data(), buf.size(), "%.1100f", v);
    std::string want(buf.data(), static_cast<size_t>(n));
    const size_t end = want.find_last_not_of('0');
    want.erase(want[end] == '.' ? end : end + 1);
    ASSERT_EQ(ExactDecimalOfDouble(v), want) << v;
  }
}

}  // namespace
}  // namespace profdiff::report
