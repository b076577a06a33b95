// db::StringIds: STRING_IDS looked up by id, in runs of nearby ids or through a hash map.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <vector>

#include "../../src/loaders/ascend_db_string_ids.h"

namespace profdiff::db {
namespace {

// Every id of `rows` (and ids around them) finds what a map of the rows, the later one winning,
// holds.
void ExpectLikeAMap(const std::vector<std::pair<int64_t, StringId>>& rows) {
  StringIds ids;
  std::map<int64_t, StringId> want;
  for (const auto& [id, text] : rows) {
    ids.Set(id, text);
    want[id] = text;
  }
  ids.Index();
  for (const auto& [id, text] : rows) {
    std::vector<int64_t> probes = {id};
    if (id > std::numeric_limits<int64_t>::min()) probes.push_back(id - 1);
    if (id < std::numeric_limits<int64_t>::max()) probes.push_back(id + 1);
    for (int64_t probe : probes) {
      const StringId* got = ids.Find(probe);
      auto it = want.find(probe);
      if (it == want.end()) {
        EXPECT_EQ(got, nullptr) << probe;
      } else {
        ASSERT_NE(got, nullptr) << probe;
        EXPECT_EQ(*got, it->second) << probe;
      }
    }
  }
}

TEST(StringIds, TaggedRunsAsExportsWriteThem) {
  // As the corpus's exports: 0..N, then API names from 0x10000000, memory components from
  // 0x20000000.
  std::vector<std::pair<int64_t, StringId>> rows;
  StringId text = 1;
  for (int64_t base : {int64_t{0}, int64_t{0x10000000}, int64_t{0x20000000}})
    for (int64_t i = 0; i < 500; ++i) rows.emplace_back(base + i, text++);
  ExpectLikeAMap(rows);
  StringIds ids;
  for (const auto& [id, t] : rows) ids.Set(id, t);
  ids.Index();
  EXPECT_EQ(ids.Find(0x10000000 + 500), nullptr);
  EXPECT_EQ(ids.Find(0x18000000), nullptr);
  EXPECT_EQ(ids.Find(-1), nullptr);
  EXPECT_EQ(ids.Find(std::numeric_limits<int64_t>::max()), nullptr);
  EXPECT_EQ(ids.Find(std::numeric_limits<int64_t>::min()), nullptr);
  ASSERT_NE(ids.Find(0x20000000 + 499), nullptr);
  EXPECT_EQ(*ids.Find(0x20000000 + 499), 1500u);
}

TEST(StringIds, ALaterRowOfAnIdWinsAndGapsAreMissing) {
  ExpectLikeAMap({{5, 1}, {7, 2}, {5, 3}, {4000, 4}, {9000, 5}, {7, 6}});
  StringIds ids;
  for (auto [id, t] : std::vector<std::pair<int64_t, StringId>>{{5, 1}, {7, 2}, {5, 3}})
    ids.Set(id, t);
  ids.Index();
  EXPECT_EQ(*ids.Find(5), 3u);
  EXPECT_EQ(ids.Find(6), nullptr);
}

TEST(StringIds, ScatteredIdsNegativeIdsAndExtremesGoThroughAMap) {
  std::mt19937_64 rng(11);
  std::vector<std::pair<int64_t, StringId>> rows;
  for (StringId t = 1; t <= 3000; ++t)
    rows.emplace_back(static_cast<int64_t>(rng()), t);  // 3000 runs
  rows.emplace_back(std::numeric_limits<int64_t>::min(), 9001);
  rows.emplace_back(std::numeric_limits<int64_t>::max(), 9002);
  ExpectLikeAMap(rows);
  ExpectLikeAMap({{-10, 1}, {-3, 2}, {0, 3}, {std::numeric_limits<int64_t>::max(), 4}});
  ExpectLikeAMap({});
}

}  // namespace
}  // namespace profdiff::db
