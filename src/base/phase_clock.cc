#include "profdiff/base/phase_clock.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <ctime>

namespace profdiff {
namespace {

// The CPU time of the calling thread or of the process, from the clocks that include the running
// thread's time up to now. getrusage(RUSAGE_THREAD) reads the time the scheduler has booked, which
// lags up to a tick (4 ms at 250 Hz) behind while the thread runs: a 5 ms phase read anywhere from
// 0.5 to 5 ms.
double CpuMs(PhaseClock::Cpu cpu) {
  timespec t{};
  const clockid_t id = cpu == PhaseClock::Cpu::kThisThread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID;
  if (clock_gettime(id, &t) != 0) return 0;
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

int64_t PeakRssKib() {
  rusage u{};
  return getrusage(RUSAGE_SELF, &u) == 0 ? static_cast<int64_t>(u.ru_maxrss) : 0;
}

}  // namespace

std::string FormatCost(const PhaseCost& c) {
  return fmt::format("{:.1f} ms wall, {:.1f} ms CPU, peak RSS {:.1f} MiB", c.wall_ms, c.cpu_ms,
                     static_cast<double>(c.peak_rss_kib) / 1024.0);
}

PhaseClock::PhaseClock(Cpu cpu) : cpu_(cpu), wall_(std::chrono::steady_clock::now()), cpu_ms_(CpuMs(cpu)) {}

PhaseCost PhaseClock::Lap() {
  const auto now = std::chrono::steady_clock::now();
  const double cpu = CpuMs(cpu_);
  PhaseCost c;
  c.wall_ms = std::chrono::duration<double, std::milli>(now - wall_).count();
  c.cpu_ms = cpu - cpu_ms_;
  c.peak_rss_kib = PeakRssKib();
  wall_ = now;
  cpu_ms_ = cpu;
  return c;
}

}  // namespace profdiff
