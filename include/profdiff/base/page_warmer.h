// Maps the pages just past the end of growing arrays on a thread of its own, so that the thread
// writing them does not fault them in one by one.
//
// The first write to each 4 KiB page of a freshly reserved array is a page fault: a trap into the
// kernel, a zeroed page, its accounting. A DB load writes about a GiB of model that way, a fault a
// page on the one thread that builds it. A PageWarmer is told, now and then, how far the writer has
// come in each array, and maps the next `ahead_bytes` past that point with
// madvise(MADV_POPULATE_WRITE) on another core: the writer then writes into mapped pages.
//
// The populate changes no byte of memory (a page mapped this way reads as zero, as it would on the
// first touch), so the array's owner and the warmer need no synchronisation beyond the request:
// a stale request (the array moved, was freed or reused) maps pages nobody needs, no more. At most
// `ahead_bytes` per array are mapped before they are written (the peak RSS grows by that at most).
// Where the kernel lacks MADV_POPULATE_WRITE (before Linux 5.14) or the platform has no madvise,
// the warmer does nothing and the writer faults as before.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace profdiff {

class PageWarmer {
 public:
  // `arrays`: how many arrays are tracked (ids 0 .. arrays - 1).
  PageWarmer(size_t arrays, size_t ahead_bytes);
  ~PageWarmer();
  PageWarmer(const PageWarmer&) = delete;
  PageWarmer& operator=(const PageWarmer&) = delete;

  // The writer's position in array `id`: `used` elements of `capacity`, from `data`. Cheap unless
  // the writer came within half a window of the pages already asked for (then one request).
  template <typename T>
  void Used(size_t id, const std::vector<T>& v) {
    Used(id, reinterpret_cast<uintptr_t>(v.data()), v.size() * sizeof(T), v.capacity() * sizeof(T));
  }
  void Used(size_t id, uintptr_t data, size_t used_bytes, size_t capacity_bytes) {
    Asked& a = asked_[id];
    if (data == a.data && used_bytes + ahead_bytes_ / 2 <= a.end) return;
    Ask(id, data, used_bytes, capacity_bytes);
  }

  // Bytes mapped ahead so far (tests).
  size_t populated_bytes() const;
  // Whether this kernel maps pages on request (MADV_POPULATE_WRITE, Linux 5.14): without it a
  // warmer does nothing.
  static bool Supported();

 private:
  struct Asked {  // the writer's last request per array (read by the writer only)
    uintptr_t data = 0;
    size_t end = 0;  // bytes from data
  };
  struct Region {  // a request the warmer thread has yet to serve
    uintptr_t from = 0, to = 0;
  };
  void Ask(size_t id, uintptr_t data, size_t used_bytes, size_t capacity_bytes);
  void Run();

  const size_t ahead_bytes_;
  std::vector<Asked> asked_;
  mutable std::mutex mutex_;
  std::condition_variable work_;
  std::vector<Region> pending_;  // under mutex_
  bool stop_ = false;            // under mutex_
  bool unsupported_ = false;     // under mutex_: the kernel refused MADV_POPULATE_WRITE
  size_t populated_ = 0;         // under mutex_
  std::thread thread_;
};

}  // namespace profdiff
