// The communication groups of a run's communication files, as the reference's communication_group.json
// lists them (communication_groups.h).
#include "profdiff/analysis/cluster/communication_groups.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace profdiff::analysis {
namespace {

CommunicationOpRecords Ops(const std::vector<std::pair<std::string, std::string>>& type_and_name) {
  CommunicationOpRecords r;
  r.present = true;
  for (const auto& [type, name] : type_and_name) r.ops.push_back({"step1", type, name, "{}"});
  return r;
}

RankSummary Rank(int64_t rank, CommunicationOpRecords time, CommunicationOpRecords matrix = {}) {
  RankSummary r;
  r.rank = rank;
  r.communication_ops = std::move(time);
  r.matrix_ops = std::move(matrix);
  return r;
}

std::vector<std::string> Names(const std::vector<CommunicationGroup>& groups) {
  std::vector<std::string> out;
  for (const CommunicationGroup& g : groups) out.push_back(g.name);
  return out;
}

TEST(CommunicationGroups, GroupNameHashIsTheReferencesDoubleHash) {
  // Values of the reference's double_hash (two 32-bit hashes, factors 29 and 131, over code points).
  EXPECT_EQ(GroupNameHash(""), 0u);
  EXPECT_EQ(GroupNameHash("a"), 416611827809u);
  EXPECT_EQ(GroupNameHash("10.0.0.1%enp_60000_0_1741080127155567"), 11152275590357375865u);
  EXPECT_EQ(GroupNameHash("group_\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80"), 9156369577604292992u);  // é中😀
}

TEST(CommunicationGroups, OperatorGroupIsAfterTheLastAt) {
  EXPECT_EQ(OperatorGroup("hcom_allReduce__586_0_1@17522688603477080586"), "17522688603477080586");
  EXPECT_EQ(OperatorGroup("a@b@c"), "c");
  EXPECT_EQ(OperatorGroup("no_group"), "no_group");
}

TEST(CommunicationGroups, InOrderOfFirstAppearanceRanksAscending) {
  std::vector<RankSummary> ranks;
  ranks.push_back(Rank(0, Ops({{"p2p", "send@9"}, {"collective", "ar@7"}, {"collective", "ag@5"}}),
                       Ops({{"collective", "ar-top1@3"}})));
  ranks.push_back(Rank(1, Ops({{"collective", "ag@5"}, {"collective", "ar@8"}, {"custom", "x@4"}}),
                       Ops({{"p2p", "recv@9"}})));
  const CommunicationGroups all = FindCommunicationGroups(ranks, ClusterMode::kAll);
  EXPECT_EQ(Names(all.collective), (std::vector<std::string>{"7", "5", "3", "8"}));  // rank 0's files first
  EXPECT_EQ(Names(all.p2p), (std::vector<std::string>{"9"}));
  ASSERT_NE(all.CollectiveRanks("5"), nullptr);
  EXPECT_EQ(*all.CollectiveRanks("5"), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(*all.P2pRanks("9"), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(all.CollectiveRanks("4"), nullptr);  // a type that is neither collective nor p2p
  ASSERT_EQ(all.parallel_info.size(), 5u);
  EXPECT_EQ(all.parallel_info[4].type, "p2p");
  EXPECT_EQ(all.parallel_info[4].group_id, "");

  const CommunicationGroups time = FindCommunicationGroups(ranks, ClusterMode::kCommunicationTime);
  EXPECT_EQ(Names(time.collective), (std::vector<std::string>{"7", "5", "8"}));
  EXPECT_EQ(*time.P2pRanks("9"), (std::vector<int64_t>{0}));
  const CommunicationGroups matrix = FindCommunicationGroups(ranks, ClusterMode::kCommunicationMatrix);
  EXPECT_EQ(Names(matrix.collective), (std::vector<std::string>{"3"}));
  EXPECT_EQ(*matrix.P2pRanks("9"), (std::vector<int64_t>{1}));
}

TEST(CommunicationGroups, MetadataGivesGroupIdNameAndGlobalRanks) {
  const std::string id = "10.0.0.1%enp_60000_0_1741080127155567";
  const std::string name = std::to_string(GroupNameHash(id));
  std::vector<RankSummary> ranks;
  ranks.push_back(Rank(0, Ops({{"collective", "ar@" + name}, {"collective", "ag@1"}})));
  ranks.push_back(Rank(1, Ops({{"collective", "ar@" + name}})));
  ranks[0].parallel_group_ranks[id] = {0, 1, 2, 3};
  ranks[0].parallel_group_names[id] = "dp";
  ranks[1].parallel_group_ranks[id] = {9};  // the first rank that lists a group gives it
  ranks[1].parallel_group_names[id] = "other";
  const CommunicationGroups g = FindCommunicationGroups(ranks, ClusterMode::kAll);
  ASSERT_EQ(g.parallel_info.size(), 2u);
  EXPECT_EQ(g.parallel_info[0].group_id, id);
  EXPECT_EQ(g.parallel_info[0].pg_name, "dp");
  EXPECT_EQ(g.parallel_info[0].rank_set, (std::vector<int64_t>{0, 1, 2, 3}));  // the metadata's global ranks
  EXPECT_EQ(*g.CollectiveRanks(name), (std::vector<int64_t>{0, 1}));           // the "collective" list: found
  EXPECT_EQ(g.parallel_info[1].group_id, "");
  EXPECT_EQ(g.parallel_info[1].rank_set, (std::vector<int64_t>{0}));
}

GroupParallelInfo Row(std::string type, std::vector<int64_t> ranks, std::string name, std::string pg) {
  return GroupParallelInfo{std::move(type), std::move(ranks), std::move(name), "", std::move(pg)};
}

TEST(CommunicationGroups, StagesFromThePipelineGroups) {
  CommunicationGroups g;
  EXPECT_TRUE(StageGroups(g).empty());
  g.parallel_info = {Row("collective", {0, 1}, "dpa", "dp"), Row("collective", {2, 3}, "dpb", "dp"),
                     Row("collective", {0, 2}, "all", "world"),  // two ranks of one pipeline: not a stage
                     Row("collective", {1, 4}, "x", "x"),        // shares rank 1 with the first stage: joins it
                     Row("p2p", {0, 2}, "ppa", "PP"), Row("p2p", {1, 3}, "ppb", "pp_1"), Row("p2p", {5, 6}, "q", "tp")};
  EXPECT_EQ(StageGroups(g), (std::vector<std::vector<int64_t>>{{0, 1, 4}, {2, 3}}));
  g.parallel_info.pop_back();
  g.parallel_info.pop_back();
  g.parallel_info.pop_back();  // no "pp" group left: no stages
  EXPECT_TRUE(StageGroups(g).empty());
}

}  // namespace
}  // namespace profdiff::analysis
