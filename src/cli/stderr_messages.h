// The messages of a run (compare, cluster) on stderr (cli only).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string_view>

#include "profdiff/base/phase_clock.h"
#include "profdiff/base/terminal_text.h"
#include "profdiff/pipeline/compare_run.h"

namespace profdiff::cli {

// The run's messages, printed on stderr as they come; notes are hidden by --quiet, warnings never.
// On a terminal (and not --quiet) one line, rewritten in place, names the phase running; it is
// cleared before anything else is printed. --verbose prints each phase's cost when it ends.
class StderrMessages : public pipeline::RunMessages {
 public:
  StderrMessages(std::ostream& err, bool quiet, bool verbose, bool progress)
      : err_(err), quiet_(quiet), verbose_(verbose), progress_(progress) {}
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
  void LoadProgress(uint64_t read, uint64_t total) override {
    if (!progress_) return;
    auto mb = [](uint64_t b) {
      const double v = static_cast<double>(b) / 1e6;
      return v < 10 ? fmt::format("{:.1f}", v) : fmt::format("{:.0f}", v);
    };
    if (total > 0) {
      err_ << fmt::format("\rprofdiff: load inputs: {} of {} MB ({} %)...\x1b[K", mb(std::min(read, total)),
                          mb(total), std::min<uint64_t>(100, read * 100 / total));
    } else {
      err_ << fmt::format("\rprofdiff: load inputs: {} MB read...\x1b[K", mb(read));
    }
    err_ << std::flush;
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
