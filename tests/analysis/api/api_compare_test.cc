// The API grouping core on hand-made op lists (docs/reference/api.md).
#include "profdiff/analysis/api/api_compare.h"

#include <gtest/gtest.h>

#include <vector>

namespace profdiff::analysis {
namespace {

TEST(ApiCompare, GroupsByNameBaseOrderThenComparisonOnly) {
  std::vector<ApiOp> base = {{"aten::add", 1000, 400}, {"aten::mm", 5000, 5000}, {"aten::add", 3000, 3000}};
  std::vector<ApiOp> comparison = {{"aten::relu", 700, 700}, {"aten::add", 2000, 1500}};
  std::vector<ApiRow> rows = CompareApis(base, comparison);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, "aten::add");
  EXPECT_EQ(rows[0].base.total_ns, 4000);
  EXPECT_EQ(rows[0].base.self_ns, 3400);
  EXPECT_EQ(rows[0].base.calls, 2);
  EXPECT_EQ(rows[0].comparison.total_ns, 2000);
  EXPECT_EQ(rows[0].comparison.self_ns, 1500);
  EXPECT_EQ(rows[0].comparison.calls, 1);
  EXPECT_EQ(rows[1].name, "aten::mm");
  EXPECT_EQ(rows[1].comparison.calls, 0);
  EXPECT_EQ(rows[2].name, "aten::relu");
  EXPECT_EQ(rows[2].base.calls, 0);
  EXPECT_EQ(rows[2].comparison.total_ns, 700);
}

TEST(ApiCompare, NoRowsWhenEitherSideIsEmpty) {
  std::vector<ApiOp> some = {{"aten::add", 1000, 1000}};
  EXPECT_TRUE(CompareApis(some, {}).empty());
  EXPECT_TRUE(CompareApis({}, some).empty());
}

}  // namespace
}  // namespace profdiff::analysis
