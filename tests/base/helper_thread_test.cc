#include "profdiff/base/helper_thread.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <thread>

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace profdiff {
namespace {

#if defined(__linux__)
int ThreadNice() {
  errno = 0;
  const int n = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()));
  EXPECT_EQ(errno, 0);
  return n;
}

// A helper thread's nice value is its creator's plus 10 (at most 19); the creator's is unchanged,
// and a thread made helper twice is niced twice, up to 19.
TEST(HelperThread, NicesTheCallingThreadOnly) {
  const int before = ThreadNice();
  int helper = 0, twice = 0;
  std::thread t([&] {
    RunAsHelperThread();
    helper = ThreadNice();
    RunAsHelperThread();
    twice = ThreadNice();
  });
  t.join();
  EXPECT_EQ(helper, std::min(19, before + 10));
  EXPECT_EQ(twice, std::min(19, before + 20));
  EXPECT_EQ(ThreadNice(), before);
}
#endif

}  // namespace
}  // namespace profdiff
