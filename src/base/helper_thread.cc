#include "profdiff/base/helper_thread.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#endif

namespace profdiff {

void RunAsHelperThread() {
#if defined(__linux__)
  constexpr int kHelperNice = 10, kMaxNice = 19;
  // On Linux a nice value is a thread's own: PRIO_PROCESS with a thread id sets that thread's. It
  // starts as its creator's; relative to that (a run already niced is niced further, never less).
  const auto tid = static_cast<id_t>(::gettid());
  errno = 0;
  const int nice = ::getpriority(PRIO_PROCESS, tid);
  if (errno != 0) return;
  (void)::setpriority(PRIO_PROCESS, tid, std::min(kMaxNice, nice + kHelperNice));
#endif
}

}  // namespace profdiff
