// What a stretch of work cost: wall time, the process's CPU time (every thread) and its peak RSS.
// `compare --verbose` prints it per phase of the run, `inspect --verbose` per table of a DB load.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace profdiff {

struct PhaseCost {
  double wall_ms = 0;
  double cpu_ms = 0;         // user + system time of the whole process (all threads), or of one thread
  int64_t peak_rss_kib = 0;  // the process's peak RSS so far, when the stretch ended
};

// A named stretch and its cost: a phase of a run, a step of a load.
struct PhaseTiming {
  std::string name;
  PhaseCost cost;
};

// "12.3 ms wall, 20.1 ms CPU, peak RSS 45.6 MiB": how `--verbose` prints a cost.
std::string FormatCost(const PhaseCost& c);

// Measures consecutive stretches: each Lap() is the cost since the clock was made or the last Lap().
class PhaseClock {
 public:
  // Whose CPU time a lap counts: the whole process's, or the calling thread's (a stretch that runs
  // beside others, such as a comparison on a worker; the clock is then made and read on that thread).
  enum class Cpu { kProcess, kThisThread };
  explicit PhaseClock(Cpu cpu = Cpu::kProcess);
  PhaseCost Lap();

 private:
  Cpu cpu_;
  std::chrono::steady_clock::time_point wall_;
  double cpu_ms_;
};

}  // namespace profdiff
