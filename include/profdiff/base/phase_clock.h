// What a stretch of work cost: wall time, the process's CPU time (every thread) and its peak RSS.
// `compare --verbose` prints it per phase of the run, `inspect --verbose` per table of a DB load.
#pragma once

#include <chrono>
#include <cstdint>

namespace profdiff {

struct PhaseCost {
  double wall_ms = 0;
  double cpu_ms = 0;         // user + system time of the whole process (all threads)
  int64_t peak_rss_kib = 0;  // the process's peak RSS so far, when the stretch ended
};

// Measures consecutive stretches: each Lap() is the cost since the clock was made or the last Lap().
class PhaseClock {
 public:
  PhaseClock();
  PhaseCost Lap();

 private:
  std::chrono::steady_clock::time_point wall_;
  double cpu_ms_;
};

}  // namespace profdiff
