#include "profdiff/base/page_warmer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace profdiff {
namespace {

#if defined(__linux__)
constexpr size_t kMiB = size_t{1} << 20;

// An anonymous mapping of its own (nothing else of the process shares its pages).
struct Mapping {
  explicit Mapping(size_t n) : bytes(n) {
    void* p = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    data = p == MAP_FAILED ? nullptr : static_cast<unsigned char*>(p);
  }
  ~Mapping() {
    if (data != nullptr) ::munmap(data, bytes);
  }
  // Which of the pages in [from, to) bytes are resident.
  std::vector<bool> Resident(size_t from, size_t to) const {
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> v((to - from) / page);
    if (::mincore(data + from, to - from, v.data()) != 0) return {};
    std::vector<bool> out;
    for (unsigned char c : v) out.push_back((c & 1) != 0);
    return out;
  }
  unsigned char* data = nullptr;
  size_t bytes = 0;
};

bool KernelPopulates() { return PageWarmer::Supported(); }

size_t WaitForPopulated(const PageWarmer& w, size_t at_least) {
  for (int i = 0; i < 500 && w.populated_bytes() < at_least; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return w.populated_bytes();
}

// The pages past the writer's position, up to the window, are mapped; none beyond it; the bytes
// already written are left as they were.
TEST(PageWarmer, MapsTheWindowPastTheWriterOnly) {
  if (!KernelPopulates()) GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  Mapping m(16 * kMiB);
  ASSERT_NE(m.data, nullptr);
  std::memset(m.data, 0x5A, kMiB);  // the writer's first MiB
  PageWarmer w(1, 4 * kMiB);
  w.Used(0, reinterpret_cast<uintptr_t>(m.data), kMiB, m.bytes);
  EXPECT_EQ(WaitForPopulated(w, 4 * kMiB), 4 * kMiB);
  for (bool r : m.Resident(kMiB, 5 * kMiB)) ASSERT_TRUE(r);
  for (bool r : m.Resident(5 * kMiB, 16 * kMiB)) ASSERT_FALSE(r);
  for (size_t i = 0; i < kMiB; ++i) ASSERT_EQ(m.data[i], 0x5A) << i;
  for (size_t i = kMiB; i < 5 * kMiB; ++i) ASSERT_EQ(m.data[i], 0) << i;
}

// Nothing is asked until the writer comes within half a window of the mapped end; then the window
// moves on, never past the capacity.
TEST(PageWarmer, FollowsTheWriterUpToTheCapacity) {
  if (!KernelPopulates()) GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  Mapping m(8 * kMiB);
  ASSERT_NE(m.data, nullptr);
  const auto data = reinterpret_cast<uintptr_t>(m.data);
  PageWarmer w(2, 2 * kMiB);
  w.Used(0, data, 0, 6 * kMiB);
  EXPECT_EQ(WaitForPopulated(w, 2 * kMiB), 2 * kMiB);
  w.Used(0, data, kMiB / 2, 6 * kMiB);  // within the first half: nothing new
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(w.populated_bytes(), 2 * kMiB);
  w.Used(0, data, kMiB + 4096, 6 * kMiB);  // past it: up to used + 2 MiB
  EXPECT_EQ(WaitForPopulated(w, 3 * kMiB + 4096), 3 * kMiB + 4096);
  // The writer jumped ahead, near the capacity: from its position up to the capacity, no further
  // (the pages it passed are its own to fault).
  w.Used(0, data, 5 * kMiB, 6 * kMiB);
  EXPECT_EQ(WaitForPopulated(w, 4 * kMiB + 4096), 4 * kMiB + 4096);
  for (bool r : m.Resident(0, 3 * kMiB + 4096)) ASSERT_TRUE(r);
  for (bool r : m.Resident(3 * kMiB + 4096, 5 * kMiB)) ASSERT_FALSE(r);
  for (bool r : m.Resident(5 * kMiB, 6 * kMiB)) ASSERT_TRUE(r);
  for (bool r : m.Resident(6 * kMiB, 8 * kMiB)) ASSERT_FALSE(r);
}

// An array that moved (a vector grown past its reservation) is warmed from the writer's position in
// its new place; a request for pages that are gone (the old place unmapped) is harmless.
TEST(PageWarmer, AnArrayThatMovedIsWarmedWhereItIs) {
  if (!KernelPopulates()) GTEST_SKIP() << "this kernel has no MADV_POPULATE_WRITE (Linux < 5.14)";
  auto old_place = std::make_unique<Mapping>(4 * kMiB);
  Mapping new_place(4 * kMiB);
  PageWarmer w(1, kMiB);
  const auto old_data = reinterpret_cast<uintptr_t>(old_place->data);
  old_place.reset();  // unmapped: the request fails quietly
  w.Used(0, old_data, 0, 4 * kMiB);
  w.Used(0, reinterpret_cast<uintptr_t>(new_place.data), 2 * kMiB, 4 * kMiB);
  EXPECT_EQ(WaitForPopulated(w, kMiB), kMiB);
  for (bool r : new_place.Resident(0, 2 * kMiB)) ASSERT_FALSE(r);
  for (bool r : new_place.Resident(2 * kMiB, 3 * kMiB)) ASSERT_TRUE(r);
}
#endif

// A warmer with a window under two pages starts no thread and maps nothing; a vector's position is
// read from its size and capacity.
TEST(PageWarmer, ATinyWindowDoesNothing) {
  PageWarmer w(1, 4096);
  std::vector<int> v(1000);
  w.Used(0, v);
  EXPECT_EQ(w.populated_bytes(), 0u);
}

}  // namespace
}  // namespace profdiff
