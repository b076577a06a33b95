// One `profdiff compare` run as a library call: resolve and check both inputs and the outputs, load
// both sides, build the reference policy and one Timeline per side, run the enabled comparisons of
// the table (comparisons.h), evaluate the gate and write every requested output. The CLI parses the
// arguments before and maps the result to an exit code and the screen after.
#pragma once

#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "profdiff/analysis/overall/gate.h"
#include "profdiff/analysis/overall/overall.h"
#include "profdiff/base/phase_clock.h"
#include "profdiff/base/status.h"
#include "profdiff/pipeline/compare_request.h"
#include "profdiff/report/summary.h"

namespace profdiff::pipeline {

// Messages a run gives while it goes, in order (the CLI prints them to stderr at once, so they keep
// their place before an error that ends the run).
class RunMessages {
 public:
  virtual ~RunMessages() = default;
  virtual void Warning(std::string_view text) = 0;  // always shown
  virtual void Note(std::string_view text) = 0;     // informational (hidden by --quiet)
  // A phase begins (progress on a terminal) and ends (its timing, for --verbose). Default: nothing.
  virtual void PhaseStarted(std::string_view /*name*/) {}
  // The phases: "load inputs", "build timelines", "overall and gate", "operators", ...; after load
  // inputs, a DB side's load steps ("load base: PYTORCH_API").
  virtual void PhaseDone(const PhaseTiming& /*timing*/) {}
  // While the inputs load, ten times a second: the trace bytes read from disk so far (compressed
  // bytes for .gz) of `total` (0: unknown), and the bytes gzip'd traces inflated to so far (0: none
  // is gzip'd). Default: nothing.
  virtual void LoadProgress(uint64_t /*read*/, uint64_t /*total*/, uint64_t /*inflated*/) {}
};

// Times one phase of a run (compare or cluster): tells `messages` when it starts and, when the scope ends, what it cost.
class PhaseScope {
 public:
  // `cpu`: kThisThread for a phase that runs on this thread while other work runs on another.
  PhaseScope(RunMessages& messages, std::string name, PhaseClock::Cpu cpu = PhaseClock::Cpu::kProcess)
      : messages_(messages), name_(std::move(name)), clock_(cpu) {
    messages_.PhaseStarted(name_);
  }
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;
  ~PhaseScope() { messages_.PhaseDone({std::move(name_), clock_.Lap()}); }

 private:
  RunMessages& messages_;
  std::string name_;
  PhaseClock clock_;
};

struct CompareRunResult {
  analysis::OverallComparison overall;
  analysis::GateResult gate;         // gate.ran: a --gate-* was given
  std::vector<std::string> written;  // absolute paths of the workbook and the CSV files
  std::string json_file;             // absolute path of --json FILE, when given
  std::string json_text;             // the JSON result text, when --format json (--json FILE is written
                                     // straight from the document)
  std::string html_file;             // absolute path of --html FILE, when given
  std::vector<report::SummaryPart> summary_parts;  // for the summary after the table
  int64_t base_steps = 0;            // ProfilerStep markers per side
  int64_t comparison_steps = 0;
};

// Every failure is a Status whose code says what kind it is: kInvalidArgument (a usage error: an
// invalid -o or output directory) and kAlreadyExists (an output
// exists without --force) are the user's command line; any other code (kNotFound, kParseError,
// kUnsupported, kIoError) is an input or processing error. An input that cannot be used is never
// kInvalidArgument (an empty input path and an unknown step id are kNotFound).
StatusOr<CompareRunResult> RunComparison(const CompareRequest& request, RunMessages& messages);

}  // namespace profdiff::pipeline
