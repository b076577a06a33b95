#include "profdiff/base/phase_clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace profdiff {
namespace {

// Each lap is the stretch since the last one: its wall time covers a sleep inside it only.
TEST(PhaseClock, LapsAreConsecutiveStretches) {
  PhaseClock clock;
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const PhaseCost first = clock.Lap();
  const PhaseCost second = clock.Lap();
  EXPECT_GE(first.wall_ms, 30.0);
  EXPECT_LT(second.wall_ms, first.wall_ms);
  EXPECT_GE(first.cpu_ms, 0.0);
  EXPECT_GE(second.cpu_ms, 0.0);
  EXPECT_GT(first.peak_rss_kib, 0);
}

// The peak RSS at a lap's end includes memory touched during it.
TEST(PhaseClock, PeakRssSeesMemoryTouchedInTheLap) {
  PhaseClock clock;
  const PhaseCost before = clock.Lap();
  constexpr size_t kBytes = size_t{256} << 20;
  std::vector<char> touched(kBytes);
  std::memset(touched.data(), 1, touched.size());
  const PhaseCost after = clock.Lap();
  EXPECT_EQ(touched[kBytes / 2], 1);
  EXPECT_GE(after.peak_rss_kib, before.peak_rss_kib + 200 * 1024) << before.peak_rss_kib;
}

// A thread's short busy stretch is counted whole: the clock reads the thread's time up to now, not
// the time the scheduler has booked, which lags up to a tick (4 ms) behind a running thread.
TEST(PhaseClock, AThreadsShortBusyStretchIsCountedWhole) {
  std::vector<double> shares;  // CPU / wall of each stretch
  for (int round = 0; round < 21; ++round) {
    double cpu = 0, wall = 0;
    std::thread t([&] {
      PhaseClock clock(PhaseClock::Cpu::kThisThread);
      const auto start = std::chrono::steady_clock::now();
      volatile uint64_t x = 0;
      while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(3)) x = x + 1;
      const PhaseCost c = clock.Lap();
      cpu = c.cpu_ms;
      wall = c.wall_ms;
    });
    t.join();
    shares.push_back(cpu / wall);
  }
  // Busy the whole time: its CPU time is its wall time, less what other processes took from it (a
  // busy machine preempts some stretches; the median stays near 1). Booked time reads 0 to 1.
  std::sort(shares.begin(), shares.end());
  EXPECT_GT(shares[shares.size() / 2], 0.75) << "lowest " << shares.front() << ", highest " << shares.back();
}

TEST(PhaseClock, FormatCostAsVerbosePrintsIt) {
  EXPECT_EQ(FormatCost({12.34, 20.06, 46694}), "12.3 ms wall, 20.1 ms CPU, peak RSS 45.6 MiB");
}

}  // namespace
}  // namespace profdiff
