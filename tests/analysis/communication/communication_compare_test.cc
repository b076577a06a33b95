#include "profdiff/analysis/communication/communication_compare.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace profdiff::analysis {
namespace {

// Durations in µs → CommStats with the displayed values.
CommStats Stats(std::initializer_list<double> us, const ReferencePolicy& policy) {
  CommStats s;
  for (double v : us) {
    const int64_t e5 = std::llround(v * 1e8);
    s.max_e5 = s.present ? std::max(s.max_e5, e5) : e5;
    s.min_e5 = s.present ? std::min(s.min_e5, e5) : e5;
    s.present = true;
    s.total.AddE5(e5);
  }
  s.total_us = s.total.Us(policy);
  s.avg_us = s.total_us / static_cast<double>(s.total.count);
  s.max_us = E5ToUs(s.max_e5);
  s.min_us = E5ToUs(s.min_e5);
  return s;
}

struct Example {
  std::vector<CommOpStats> base, comparison;
};

Example SpecExample(const ReferencePolicy& p) {
  Example e;
  e.base.push_back({"allreduce", Stats({0.5, 7}, p), {{"Notify Wait", Stats({1, 2, 3}, p)}, {"Memcpy", Stats({5}, p)}}});
  e.base.push_back({"allgather", Stats({1, 4}, p), {}});
  e.comparison.push_back({"allreduce", Stats({4, 5}, p), {{"Notify Wait", Stats({1, 2, 3}, p)}}});
  e.comparison.push_back({"gather", Stats({1}, p), {{"Notify Wait", Stats({1, 2, 3}, p)}}});
  return e;
}

TEST(CommunicationCompare, SpecExampleRows) {
  const ReferencePolicy p = ReferenceCompatPolicy(ReferenceLine::k8_2);
  Example e = SpecExample(p);
  std::vector<CommRow> rows = BuildCommRows(e.base, e.comparison, p);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0].base_name, "allreduce");
  EXPECT_DOUBLE_EQ(rows[0].base.total_us, 7.5);
  EXPECT_DOUBLE_EQ(rows[0].base.avg_us, 3.75);
  EXPECT_DOUBLE_EQ(rows[0].comparison.total_us, 9);
  EXPECT_DOUBLE_EQ(rows[0].diff_us, 1.5);
  EXPECT_DOUBLE_EQ(rows[0].diff_ratio, 1.2);
  EXPECT_TRUE(rows[1].is_task);
  EXPECT_EQ(rows[1].comparison_name, "Notify Wait");
  EXPECT_EQ(rows[2].base_name, "Memcpy");
  EXPECT_FALSE(rows[2].comparison.present);
  EXPECT_EQ(rows[3].base_name, "allgather");
  EXPECT_DOUBLE_EQ(rows[3].diff_us, -5);
  EXPECT_DOUBLE_EQ(rows[3].diff_ratio, 0.0);
  EXPECT_FALSE(rows[4].base.present);
  EXPECT_EQ(rows[4].comparison_name, "gather");
  EXPECT_EQ(rows[4].diff_ratio, std::numeric_limits<double>::infinity());
  EXPECT_TRUE(rows[5].is_task);
  EXPECT_FALSE(rows[5].base.present);
  EXPECT_EQ(rows[5].comparison_name, "Notify Wait");
}

TEST(CommunicationCompare, TaskPairingByOrderOrByName) {
  const ReferencePolicy compat = ReferenceCompatPolicy(ReferenceLine::k8_2);
  const ReferencePolicy exact = ExactPolicy();
  std::vector<CommOpStats> b = {{"allreduce", Stats({1}, exact), {{"A", Stats({1}, exact)}}}};
  std::vector<CommOpStats> c = {{"allreduce", Stats({1}, exact), {{"B", Stats({2}, exact)}, {"A", Stats({3}, exact)}}}};
  std::vector<CommRow> by_order = BuildCommRows(b, c, compat);
  ASSERT_EQ(by_order.size(), 3u);
  EXPECT_EQ(by_order[1].base_name, "A");
  EXPECT_EQ(by_order[1].comparison_name, "B");  // the first remaining entry, whatever its name
  std::vector<CommRow> by_name = BuildCommRows(b, c, exact);
  ASSERT_EQ(by_name.size(), 3u);
  EXPECT_EQ(by_name[1].comparison_name, "A");
  EXPECT_EQ(by_name[2].comparison_name, "B");
}

TEST(CommunicationCompare, OpNameNormalisation) {
  EXPECT_EQ(NormaliseCommOpName("hcom_allReduce__586_0_1"), "allreduce");
  EXPECT_EQ(NormaliseCommOpName("hcom_allReduce_"), "allreduce");
  EXPECT_EQ(NormaliseCommOpName("ncclKernel_AllReduce_RING"), "ncclkernel");
  EXPECT_EQ(NormaliseCommOpName("ncclDevKernel_Broadcast"), "nccldevkernel");
  EXPECT_EQ(NormaliseCommOpName("allreduce"), std::nullopt);
}

}  // namespace
}  // namespace profdiff::analysis
