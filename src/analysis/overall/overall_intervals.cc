#include <algorithm>

#include "profdiff/analysis/overall/overall_side.h"

namespace profdiff::analysis {

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

int64_t IntersectionLength(std::vector<Interval> a, std::vector<Interval> b) {
  a = MergeIntervals(std::move(a));
  b = MergeIntervals(std::move(b));
  int64_t total = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    int64_t lo = std::max(a[i].start_ns, b[j].start_ns);
    int64_t hi = std::min(a[i].end_ns, b[j].end_ns);
    if (hi > lo) total += hi - lo;
    if (a[i].end_ns < b[j].end_ns) {
      ++i;
    } else {
      ++j;
    }
  }
  return total;
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
