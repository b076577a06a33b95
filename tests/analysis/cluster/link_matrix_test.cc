// LinksFromMatrixJson, LinksFromMatrixTable (link_matrix.h).
#include "profdiff/analysis/cluster/link_matrix.h"

#include <gtest/gtest.h>

namespace profdiff::analysis {
namespace {

TEST(LinkMatrix, TheTotalOpInfoLinksOfTheReferencesMatrixFile) {
  // Two steps of one group; step 2's 1->0 link moves at a quarter of the HCCS links' median.
  const LinkMatrix m = LinksFromMatrixJson(R"js({"(0, 1)": {
    "step1": {"allreduce-top1@77": {"0-1": {"Transport Type": "HCCS", "Bandwidth(GB/s)": 1.0}},
              "Total Op Info@77": {"0-0": {"Transport Type": "LOCAL", "Transit Size(MB)": 2.0, "Transit Time(ms)": 0.01,
                                           "Bandwidth(GB/s)": 200.0},
                                   "0-1": {"Transport Type": "HCCS", "Transit Size(MB)": 30.0, "Transit Time(ms)": 2.0,
                                           "Bandwidth(GB/s)": 15.0},
                                   "1-0": {"Transport Type": "HCCS", "Transit Size(MB)": 30.0, "Transit Time(ms)": 2.1,
                                           "Bandwidth(GB/s)": 14.0}}},
    "step2": {"Total Op Info@77": {"0-1": {"Transport Type": "HCCS", "Transit Size(MB)": 30.0, "Transit Time(ms)": 2.0,
                                           "Bandwidth(GB/s)": 15.5},
                                   "1-0": {"Transport Type": "HCCS", "Transit Size(MB)": 30.0, "Transit Time(ms)": 8.0,
                                           "Bandwidth(GB/s)": 3.75},
                                   "x-0": {"Transport Type": "HCCS"}}}}})js");
  EXPECT_EQ(m.source, "cluster_communication_matrix.json");
  ASSERT_EQ(m.links.size(), 5u);  // the Total Op Info entries only; "x-0" is not a link
  EXPECT_EQ(m.links[0].step, "step1");
  EXPECT_EQ(m.links[0].group, "77");
  EXPECT_EQ(m.links[0].transport, "LOCAL");
  EXPECT_EQ(m.links[2].src, 1);
  EXPECT_EQ(m.links[2].dst, 0);
  EXPECT_DOUBLE_EQ(m.links[2].time_ms, 2.1);
  ASSERT_EQ(m.notes.size(), 1u);
  ASSERT_EQ(m.slow.size(), 1u);  // HCCS median (lower middle of 3.75, 14, 15, 15.5): 14
  EXPECT_EQ(m.slow[0].link.step, "step2");
  EXPECT_EQ(m.slow[0].link.src, 1);
  EXPECT_DOUBLE_EQ(m.slow[0].transport_median_gbps, 14.0);
  EXPECT_TRUE(LinksFromMatrixJson("[1]").links.empty());
}

TEST(LinkMatrix, TheTotalOpInfoRowsOfTheDbTable) {
  ResultTable t;
  for (const char* c : {"step", "hccl_op_name", "group_name", "src_rank", "dst_rank", "transport_type", "op_name",
                        "transit_size", "transit_time", "bandwidth"})
    t.columns.push_back({c, SqlType::kText});
  auto row = [](const char* op, double src, double dst, double bw) {
    return std::vector<SqlValue>{SqlValue::Text("step50"), SqlValue::Text(op), SqlValue::Text("g"), SqlValue::Real(src),
                                 SqlValue::Real(dst), SqlValue::Text("HCCS"), SqlValue::Text(""), SqlValue::Real(61.2),
                                 SqlValue::Real(4.1), SqlValue::Real(bw)};
  };
  t.rows = {row("allreduce-total", 0, 1, 14.8), row("Total Op Info", 0, 1, 14.8), row("Total Op Info", 1, 0, 15.2)};
  const LinkMatrix m = LinksFromMatrixTable(t);
  EXPECT_EQ(m.source, "ClusterCommunicationMatrix");
  ASSERT_EQ(m.links.size(), 2u);
  EXPECT_EQ(m.links[1].src, 1);
  EXPECT_DOUBLE_EQ(m.links[1].bandwidth_gbps, 15.2);
  EXPECT_TRUE(m.slow.empty());
  t.columns.pop_back();
  EXPECT_FALSE(LinksFromMatrixTable(t).notes.empty());  // a column missing
}

}  // namespace
}  // namespace profdiff::analysis
