#include "profdiff/base/phase_clock.h"

#include <fmt/format.h>
#include <sys/resource.h>

namespace profdiff {
namespace {

double CpuMs(PhaseClock::Cpu cpu) {
  rusage u{};
#ifdef RUSAGE_THREAD
  const int who = cpu == PhaseClock::Cpu::kThisThread ? RUSAGE_THREAD : RUSAGE_SELF;
#else
  const int who = RUSAGE_SELF;  // no per-thread usage here: the process's
  (void)cpu;
#endif
  if (getrusage(who, &u) != 0) return 0;
  auto ms = [](const timeval& v) { return static_cast<double>(v.tv_sec) * 1e3 + static_cast<double>(v.tv_usec) / 1e3; };
  return ms(u.ru_utime) + ms(u.ru_stime);
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
