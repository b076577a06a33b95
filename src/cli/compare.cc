// `profdiff compare`: runs the pipeline (pipeline/compare_run.h), then prints what it produced and
// maps the outcome to the exit code.
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "profdiff/base/phase_clock.h"
#include "profdiff/base/terminal_text.h"
#include "profdiff/base/utf8.h"
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

// The width of the terminal standard output is, when `out` is standard output on a terminal.
std::optional<size_t> TerminalColumns(const std::ostream& out) {
  if (&out != &std::cout || ::isatty(STDOUT_FILENO) == 0) return std::nullopt;
  winsize ws{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return std::nullopt;
  return ws.ws_col;
}


// The screen table (with --enable_profiling_compare or by default), the summary (default mode, not
// with -q) and the gate's verdict. In the default mode on a terminal narrower than the table (it
// is 190-260 columns wide) the table's lines would wrap into noise: the summary's layout is printed
// instead, with a line saying so (the table stays under --reference-compat and when piped).
void PrintScreen(const CompareOptions& options, const pipeline::CompareRunResult& result,
                 std::ostream& out, StderrMessages& messages) {
  const bool color = UseColor(options.color, out);
  const std::optional<size_t> columns = TerminalColumns(out);
  const size_t table_width = LongestLineCodePoints(report::RenderScreenTable(result.overall, false));  // no colour codes
  const bool narrow = !options.reference_line && columns && *columns < table_width;
  if (options.enabled.profiling) {
    if (narrow) {
      out << fmt::format("The reference's screen table is {} columns wide, wider than this terminal ({}): its\n"
                         "numbers are in the summary below. --reference-compat, or a pipe, prints the table.\n",
                         table_width, *columns);
    } else {
      out << report::RenderScreenTable(result.overall, color);
    }
    out << EscapeForTerminal(report::RenderCommunicationSplitLines(result.overall));
    out << report::RenderStepCoverageLine(result.overall);
    if (result.overall.rows.empty())
      messages.Warning(
          "no OverallMetrics sheet: a side has no end-to-end time (no kernels or device tasks were "
          "found)");
  }
  if ((!options.quiet || (narrow && options.enabled.profiling)) && !options.reference_line)
    out << "\n" << EscapeForTerminal(report::RenderSummaryText(SummaryFor(options, result, messages.warnings())));
  out << report::RenderVerdict(result.gate, color);
}

}  // namespace

int RunCompare(const CompareOptions& options, std::ostream& out, std::ostream& err) {
  StderrMessages messages = StderrMessages::ForRun(err, options.quiet, options.verbose);
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
