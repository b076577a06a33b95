#include "profdiff/analysis/common/intervals.h"

#include <algorithm>

namespace profdiff::analysis {

void SortByStart(std::vector<Interval>& v) {
  std::stable_sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.start_ns < b.start_ns; });
}

std::vector<Interval> MergeIntervals(std::vector<Interval> v) {
  std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
  });
  std::vector<Interval> out;
  for (const Interval& i : v) {
    if (i.end_ns <= i.start_ns) continue;
    if (!out.empty() && i.start_ns <= out.back().end_ns) {
      out.back().end_ns = std::max(out.back().end_ns, i.end_ns);
    } else {
      out.push_back(i);
    }
  }
  return out;
}

int64_t TotalLength(const std::vector<Interval>& merged) {
  int64_t total = 0;
  for (const Interval& i : merged) total += i.end_ns - i.start_ns;
  return total;
}

std::vector<Interval> IntersectMerged(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t lo = std::max(a[i].start_ns, b[j].start_ns);
    const int64_t hi = std::min(a[i].end_ns, b[j].end_ns);
    if (hi > lo) out.push_back({lo, hi});
    if (a[i].end_ns < b[j].end_ns) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

int64_t IntersectionLength(std::vector<Interval> a, std::vector<Interval> b) {
  return TotalLength(IntersectMerged(MergeIntervals(std::move(a)), MergeIntervals(std::move(b))));
}

int64_t ReferenceOverlap(const std::vector<Interval>& u, const std::vector<Interval>& e) {
  int64_t total = 0;
  size_t k = 0;
  for (const Interval& x : u) {
    while (k < e.size()) {
      const Interval& y = e[k];
      if (y.end_ns <= x.start_ns) {
        ++k;
        continue;
      }
      if (y.start_ns >= x.end_ns) break;
      if (y.end_ns >= x.end_ns) {
        total += x.end_ns - std::max(y.start_ns, x.start_ns);
        break;
      }
      total += y.end_ns - std::max(y.start_ns, x.start_ns);
      ++k;
    }
  }
  return total;
}

}  // namespace profdiff::analysis
