#include "profdiff/base/phase_clock.h"

#include <gtest/gtest.h>

#include <chrono>
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

TEST(PhaseClock, FormatCostAsVerbosePrintsIt) {
  EXPECT_EQ(FormatCost({12.34, 20.06, 46694}), "12.3 ms wall, 20.1 ms CPU, peak RSS 45.6 MiB");
}

}  // namespace
}  // namespace profdiff
