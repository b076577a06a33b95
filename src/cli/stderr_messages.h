// The messages of a run (compare, cluster) on stderr (cli only).
#pragma once

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <ostream>
#include <string>
#include <string_view>

#include "profdiff/base/phase_clock.h"
#include "profdiff/base/terminal_text.h"
#include "profdiff/pipeline/compare_run.h"

namespace profdiff::cli {

inline std::string Megabytes(uint64_t bytes) {
  const double v = static_cast<double>(bytes) / 1e6;
  return v < 10 ? fmt::format("{:.1f} MB", v) : v < 10000 ? fmt::format("{:.0f} MB", v) : fmt::format("{:.1f} GB", v / 1e3);
}

// "profdiff: load inputs: 2.1 MB of 8.3 MB (25 %), 3.2 GB decompressed...": the file bytes read
// (of their total when known) and, for gzip'd traces, what they inflated to, which moves while a
// small file inflates to gigabytes.
inline std::string FormatLoadProgress(uint64_t read, uint64_t total, uint64_t inflated) {
  std::string line = total > 0 ? fmt::format("profdiff: load inputs: {} of {} ({} %)", Megabytes(std::min(read, total)),
                                             Megabytes(total), std::min<uint64_t>(100, read * 100 / total))
                               : fmt::format("profdiff: load inputs: {} read", Megabytes(read));
  if (inflated > 0) line += fmt::format(", {} decompressed", Megabytes(inflated));
  return line + "...";
}

// The run's messages, printed on stderr as they come; notes are hidden by --quiet, warnings never.
// On a terminal (and not --quiet) one line, rewritten in place, names the phase running; it is
// cleared before anything else is printed. --verbose prints each phase's cost when it ends.
class StderrMessages : public pipeline::RunMessages {
 public:
  StderrMessages(std::ostream& err, bool quiet, bool verbose, bool progress)
      : err_(err), quiet_(quiet), verbose_(verbose), progress_(progress) {}
  // Progress only on the real stderr of a terminal (never in CI logs, pipes or tests' streams),
  // never with --quiet.
  static StderrMessages ForRun(std::ostream& err, bool quiet, bool verbose) {
    return StderrMessages(err, quiet, verbose, !quiet && &err == &std::cerr && ::isatty(STDERR_FILENO) != 0);
  }
  void Warning(std::string_view text) override {
    ClearProgress();
    err_ << "profdiff: warning: " << EscapeForTerminal(text) << "\n";
    ++warnings_;
  }
  int64_t warnings() const { return warnings_; }
  void Note(std::string_view text) override {
    if (quiet_) return;
    ClearProgress();
    err_ << "profdiff: " << EscapeForTerminal(text) << "\n";
  }
  void PhaseStarted(std::string_view name) override {
    if (!progress_) return;
    err_ << "\rprofdiff: " << name << "...\x1b[K" << std::flush;
    shown_ = true;
  }
  void LoadProgress(uint64_t read, uint64_t total, uint64_t inflated) override {
    if (!progress_) return;
    err_ << "\r" << FormatLoadProgress(read, total, inflated) << "\x1b[K" << std::flush;
    shown_ = true;
  }
  void PhaseDone(const PhaseTiming& t) override {
    if (!verbose_) return;
    ClearProgress();
    err_ << "profdiff: phase " << t.name << ": " << FormatCost(t.cost) << "\n";
  }
  void ClearProgress() {
    if (!shown_) return;
    err_ << "\r\x1b[K" << std::flush;
    shown_ = false;
  }

 private:
  std::ostream& err_;
  bool quiet_;
  bool verbose_;
  bool progress_;
  bool shown_ = false;
  int64_t warnings_ = 0;
};

}  // namespace profdiff::cli
