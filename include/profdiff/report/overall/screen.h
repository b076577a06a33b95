// The overall comparison's screen table (docs/reference/overall.md#screen-table): "Model Profiling
// Time Distribution" in PrettyTable's default style (report/screen.h), byte for byte.
#pragma once

#include <string>

#include "profdiff/analysis/overall/overall.h"

namespace profdiff::report {

// Header "" + the column headers, then the base row and the comparison row, each starting with the
// side's label ("GPU"/"NPU"). Empty when there are no screen columns. `color` makes the title and the
// header bold.
std::string RenderScreenTable(const analysis::OverallComparison& cmp, bool color = false);

// The line printed under the table for each NPU side with uncovered communication, in the exact
// mode only (empty under the reference's wait/transmit rule, so --reference-compat prints exactly
// the reference's screen): "NPU (base): uncovered communication 102.0 ms: 98.0 ms waiting for
// peers, 3.9 ms transfer, 0.1 ms idle", the sums of its groups' exact split
// (docs/deviations.md row 12).
// Under the lines, one sentence (kCommunicationWordsNote) says what the Ascend profiler's
// communication.json and MindStudio Insight call the same times.
std::string RenderCommunicationSplitLines(const analysis::OverallComparison& cmp);

// The split's words in the profiler's: its "Idle" is mostly what profdiff calls waiting for peers.
inline constexpr const char* kCommunicationWordsNote =
    "(\"waiting for peers\": a Notify_Wait task runs; the profiler's communication.json and MindStudio\n"
    " Insight count that time, over whole ops, as Wait and most of Idle; \"transfer\" is their Transit)\n";

// How many ProfilerStep windows a side covers, for the default mode's screen and OverallMetrics
// banner: "6 steps (ProfilerStep#5..#10)", "1 step (ProfilerStep#6)", or "no step markers" when
// the side has none.
std::string StepCoverageText(const analysis::SideSummary& side);
// The line printed under the screen table in the default mode ("base: 6 steps
// (ProfilerStep#5..#10); comparison: ..."); empty in --reference-compat or without a table. The
// OverallMetrics sheet's banners carry the same text in brackets (default mode).
std::string RenderStepCoverageLine(const analysis::OverallComparison& cmp);

}  // namespace profdiff::report
