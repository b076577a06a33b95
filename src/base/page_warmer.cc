#include "profdiff/base/page_warmer.h"

#include <algorithm>
#include <cerrno>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace profdiff {
namespace {

#if defined(__linux__)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14 (uapi/asm-generic/mman-common.h)
#endif
constexpr bool kCanPopulate = true;
#else
constexpr bool kCanPopulate = false;
#endif

uintptr_t PageBytes() {
#if defined(__linux__)
  static const auto bytes = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  return bytes;
#else
  return 4096;
#endif
}

enum class Populated { kYes, kNo, kUnsupported };

// Maps [from, to) (page-aligned) writable.
Populated Populate(uintptr_t from, uintptr_t to) {
#if defined(__linux__)
  if (::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE) == 0) return Populated::kYes;
  // EINVAL: an older kernel. Anything else (ENOMEM: a stale request's pages were unmapped, EFAULT,
  // EINTR) only means these pages stay as they were.
  return errno == EINVAL ? Populated::kUnsupported : Populated::kNo;
#else
  (void)from;
  (void)to;
  return Populated::kUnsupported;
#endif
}

}  // namespace

PageWarmer::PageWarmer(size_t arrays, size_t ahead_bytes) : ahead_bytes_(ahead_bytes), asked_(arrays) {
  if (kCanPopulate && ahead_bytes_ >= 2 * PageBytes()) thread_ = std::thread([this] { Run(); });
}

PageWarmer::~PageWarmer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void PageWarmer::Ask(size_t id, uintptr_t data, size_t used_bytes, size_t capacity_bytes) {
  Asked& a = asked_[id];
  const size_t end = std::min(capacity_bytes, used_bytes + ahead_bytes_);
  const size_t from = data == a.data ? std::max(a.end, used_bytes) : used_bytes;
  a.data = data;
  a.end = std::max(end, used_bytes);
  if (!thread_.joinable() || data == 0) return;
  // Whole pages inside the array only (a page it shares with another allocation is left alone).
  const uintptr_t page = PageBytes();
  const uintptr_t first = (data + from) & ~(page - 1), last = (data + end) & ~(page - 1);
  if (first >= last) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (unsupported_) return;
    pending_.push_back({first, last});
  }
  work_.notify_one();
}

// At the writer's priority (not RunAsHelperThread): a page mapped after the writer reached it is
// no help.
void PageWarmer::Run() {
  std::vector<Region> todo;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_.wait(lock, [&] { return stop_ || !pending_.empty(); });
      if (stop_) return;
      todo.swap(pending_);
    }
    bool supported = true;
    size_t bytes = 0;
    for (size_t i = 0; supported && i < todo.size(); ++i) {
      const Populated done = Populate(todo[i].from, todo[i].to);
      supported = done != Populated::kUnsupported;
      if (done == Populated::kYes) bytes += todo[i].to - todo[i].from;
    }
    todo.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    if (!supported) {
      unsupported_ = true;
      pending_.clear();
      return;
    }
    populated_ += bytes;
  }
}

bool PageWarmer::Supported() {
#if defined(__linux__)
  const uintptr_t page = PageBytes();
  void* p = ::mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
  const bool ok = Populate(reinterpret_cast<uintptr_t>(p), reinterpret_cast<uintptr_t>(p) + page) == Populated::kYes;
  ::munmap(p, page);
  return ok;
#else
  return false;
#endif
}

size_t PageWarmer::populated_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return populated_;
}

}  // namespace profdiff
