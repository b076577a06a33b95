// Interval measures: unions, exact intersections and the reference's single-cursor walk
// (docs/reference/overall.md#communication-wait-transmit).
#include "profdiff/analysis/common/intervals.h"

#include <gtest/gtest.h>

namespace profdiff::analysis {
namespace {

TEST(Intervals, MergeIntersectAndReferenceOverlap) {
  auto m = MergeIntervals({{5, 10}, {0, 3}, {2, 4}, {10, 12}, {20, 20}});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].start_ns, 0);
  EXPECT_EQ(m[0].end_ns, 4);
  EXPECT_EQ(m[1].end_ns, 12);
  EXPECT_EQ(TotalLength(m), 11);
  EXPECT_EQ(IntersectionLength({{0, 10}, {20, 30}}, {{5, 25}}), 10);
  EXPECT_EQ(ReferenceOverlap({{0, 10}, {20, 30}}, {{5, 15}, {25, 35}}), 10);
  // The reference cursor assumes non-overlapping E; exact intersection does not.
  EXPECT_EQ(ReferenceOverlap({{0, 10}}, {{0, 10}, {2, 8}}), 10);
  EXPECT_EQ(IntersectionLength({{0, 10}}, {{0, 10}, {2, 8}}), 10);
}

TEST(Intervals, IntersectMergedKeepsTheCommonPiecesInOrder) {
  auto pieces = IntersectMerged({{0, 10}, {20, 30}}, {{5, 25}, {28, 40}});
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0].start_ns, 5);
  EXPECT_EQ(pieces[0].end_ns, 10);
  EXPECT_EQ(pieces[1].start_ns, 20);
  EXPECT_EQ(pieces[1].end_ns, 25);
  EXPECT_EQ(pieces[2].start_ns, 28);
  EXPECT_EQ(pieces[2].end_ns, 30);
  EXPECT_TRUE(IntersectMerged({{0, 5}}, {{5, 9}}).empty());  // touching is not overlapping
}

TEST(Intervals, SortByStartIsStable) {
  std::vector<Interval> v = {{5, 6}, {1, 9}, {1, 2}};
  SortByStart(v);
  EXPECT_EQ(v[0].end_ns, 9);
  EXPECT_EQ(v[1].end_ns, 2);
  EXPECT_EQ(v[2].start_ns, 5);
}

}  // namespace
}  // namespace profdiff::analysis
