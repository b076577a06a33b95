// SortedCursor: lookups in a sorted array by keys that mostly come in ascending order (a DB table's
// connection ids, task ids, ... read in table order). Each lookup starts where the last one ended
// and gallops (1, 2, 4, ... elements) to bracket the key before a binary search inside the bracket:
// O(log distance) instead of O(log n), and the probes stay in the cache lines just read, where a
// binary search over the whole array misses the cache at every level (tens of millions of lookups
// into arrays of millions). A key out of order gallops backwards; the result is always the same as
// std::lower_bound / std::equal_range over the whole array.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <utility>

namespace profdiff {

template <typename T, typename KeyOf>
class SortedCursor {
 public:
  // `sorted` is sorted by `key_of(element)` (ascending, operator<); it must outlive the cursor.
  SortedCursor(std::span<const T> sorted, KeyOf key_of) : v_(sorted), key_of_(key_of) {}

  // The index of the first element whose key is not less than `k` (v.size() when none).
  template <typename K>
  size_t LowerBound(const K& k) {
    const size_t n = v_.size();
    size_t lo = 0, hi = n;
    if (hint_ < n && key_of_(v_[hint_]) < k) {  // the answer lies after the hint
      lo = hint_ + 1;
      for (size_t step = 1;; step *= 2) {
        const size_t probe = hint_ + step;
        if (probe >= n) break;
        if (!(key_of_(v_[probe]) < k)) {
          hi = probe;
          break;
        }
        lo = probe + 1;
      }
    } else {  // at or before the hint
      hi = hint_;
      for (size_t step = 1;; step *= 2) {
        if (step > hint_) break;
        const size_t probe = hint_ - step;
        if (key_of_(v_[probe]) < k) {
          lo = probe + 1;
          break;
        }
        hi = probe;
      }
    }
    auto it = std::partition_point(v_.begin() + static_cast<std::ptrdiff_t>(lo),
                                   v_.begin() + static_cast<std::ptrdiff_t>(hi),
                                   [&](const T& e) { return key_of_(e) < k; });
    hint_ = static_cast<size_t>(it - v_.begin());
    return hint_;
  }

  // The elements whose key equals `k`.
  template <typename K>
  std::span<const T> EqualRange(const K& k) {
    const size_t lo = LowerBound(k);
    size_t hi = lo;
    while (hi < v_.size() && !(k < key_of_(v_[hi]))) ++hi;
    return v_.subspan(lo, hi - lo);
  }

  template <typename K>
  bool Contains(const K& k) {
    const size_t at = LowerBound(k);
    return at < v_.size() && !(k < key_of_(v_[at]));
  }

 private:
  std::span<const T> v_;
  KeyOf key_of_;
  size_t hint_ = 0;
};

}  // namespace profdiff
