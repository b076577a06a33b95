// `profdiff compare`: runs the pipeline (pipeline/compare_run.h), then prints what it produced and
// maps the outcome to the exit code.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <ostream>
#include <string>
#include <string_view>

#include "profdiff/base/phase_clock.h"
#include "profdiff/base/terminal_text.h"
#include "profdiff/cli/app.h"
#include "profdiff/cli/commands.h"
#include "stderr_messages.h"
#include "profdiff/pipeline/compare_run.h"
#include "profdiff/report/overall/screen.h"
#include "profdiff/report/screen.h"
#include "profdiff/report/summary.h"

namespace profdiff::cli {
namespace {

bool UseColor(ColorMode mode, const std::ostream& out) {
  const bool tty = &out == &std::cout && ::isatty(STDOUT_FILENO) != 0;
  const report::ColorMode report_mode = mode == ColorMode::kAlways  ? report::ColorMode::kAlways
                                        : mode == ColorMode::kNever ? report::ColorMode::kNever
                                                                    : report::ColorMode::kAuto;
  return report::ResolveColor(report_mode, tty, std::getenv("NO_COLOR"));
}

report::SummaryInput SummaryFor(const CompareOptions& options, const pipeline::CompareRunResult& result,
                                int64_t warnings) {
  report::SummaryInput in;
  in.base_path = options.base_path;
  in.comparison_path = options.comparison_path;
  in.overall = &result.overall;
  in.base_steps = result.base_steps;
  in.comparison_steps = result.comparison_steps;
  if (result.gate.base_steps && result.gate.comparison_steps) {
    in.base_median_step_ns = result.gate.base_steps->median_ns;
    in.comparison_median_step_ns = result.gate.comparison_steps->median_ns;
    in.base_median_of = result.gate.base_steps->count;
    in.comparison_median_of = result.gate.comparison_steps->count;
  }
  if (options.base_step != kVoidStep && options.comparison_step != kVoidStep) {
    in.base_selected_step = options.base_step;
    in.comparison_selected_step = options.comparison_step;
  }
  in.parts = result.summary_parts;
  in.incomparable = result.gate.incomparable_reasons;
  in.warnings = warnings;
  return in;
}

// The screen table (with --enable_profiling_compare or by default), the summary (default mode, not
// with -q) and the gate's verdict.
void PrintScreen(const CompareOptions& options, const pipeline::CompareRunResult& result,
                 std::ostream& out, StderrMessages& messages) {
  const bool color = UseColor(options.color, out);
  if (options.enabled.profiling) {
    out << report::RenderScreenTable(result.overall, color);
    out << EscapeForTerminal(report::RenderCommunicationSplitLines(result.overall));
    out << report::RenderStepCoverageLine(result.overall);
    if (result.overall.rows.empty())
      messages.Warning(
          "no OverallMetrics sheet: a side has no end-to-end time (no kernels or device tasks were "
          "found)");
  }
  if (!options.quiet && !options.reference_line)
    out << "\n" << EscapeForTerminal(report::RenderSummaryText(SummaryFor(options, result, messages.warnings())));
  out << report::RenderVerdict(result.gate, color);
}

}  // namespace

int RunCompare(const CompareOptions& options, std::ostream& out, std::ostream& err) {
  // Progress only on the real stderr of a terminal (never in CI logs, pipes or tests' streams).
  const bool progress = !options.quiet && &err == &std::cerr && ::isatty(STDERR_FILENO) != 0;
  StderrMessages messages(err, options.quiet, options.verbose, progress);
  StatusOr<pipeline::CompareRunResult> run = pipeline::RunComparison(options, messages);
  messages.ClearProgress();
  if (!run.ok()) {
    err << "profdiff: error: " << EscapeForTerminal(run.status().message()) << "\n";
    return ExitCodeFor(run.status());
  }
  if (options.format == OutputFormat::kJson) {
    out << run->json_text;
  } else if (options.format == OutputFormat::kMarkdown) {
    out << EscapeForTerminal(report::RenderSummaryMarkdown(SummaryFor(options, *run, messages.warnings())));
    if (run->gate.ran) out << "\n```\n" << report::RenderVerdict(run->gate, false) << "```\n";
  } else {
    PrintScreen(options, *run, out, messages);
  }
  out.flush();
  for (const std::string& f : run->written)
    messages.Note("The comparison result file has been generated: " + f);
  if (!run->json_file.empty()) messages.Note("The JSON result has been written: " + run->json_file);
  if (!run->html_file.empty()) messages.Note("The HTML page has been written: " + run->html_file);
  return ExitCodeFor(run->gate);
}

}  // namespace profdiff::cli
