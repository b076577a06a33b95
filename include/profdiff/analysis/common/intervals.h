// Half-open time intervals in ns and the measures the comparisons take of them: unions, exact
// intersections, and the reference's single-cursor overlap walk
// (docs/reference/overall.md#communication-wait-transmit).
#pragma once

#include <cstdint>
#include <vector>

namespace profdiff::analysis {

struct Interval {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// Stable sort by start.
void SortByStart(std::vector<Interval>& v);
// Sorts and merges overlapping/touching intervals (empty ones dropped).
std::vector<Interval> MergeIntervals(std::vector<Interval> v);
// Total length of a merged list.
int64_t TotalLength(const std::vector<Interval>& merged);
// The pieces common to two merged lists (merged, in order).
std::vector<Interval> IntersectMerged(const std::vector<Interval>& a, const std::vector<Interval>& b);
// Exact measure of union(a) ∩ union(b).
int64_t IntersectionLength(std::vector<Interval> a, std::vector<Interval> b);
// The reference's single-cursor overlap measure
// (docs/reference/overall.md#communication-wait-transmit): both lists sorted by start, `e` assumed
// non-overlapping; one cursor over `e` is shared across all of `u`. Overlapping intervals in `e`
// are counted more than once.
int64_t ReferenceOverlap(const std::vector<Interval>& u, const std::vector<Interval>& e);

}  // namespace profdiff::analysis
