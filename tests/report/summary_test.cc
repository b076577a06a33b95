// The summary after the screen table: inputs named, the E2E change and its exact split, the largest
// moves, the match rate; at most 100 columns; Markdown for --format md.
#include "profdiff/report/summary.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace profdiff::report {
namespace {

analysis::OverallComparison Overall() {
  analysis::OverallComparison o;
  o.base.has_overall = o.comparison.has_overall = true;
  o.base.e2e_ns = 100'000'000;
  o.base.computing_ns = 60'000'000;
  o.base.uncovered_communication_ns = 30'000'000;
  o.base.free_ns = 10'000'000;
  o.comparison.e2e_ns = 112'500'000;
  o.comparison.computing_ns = 70'000'000;
  o.comparison.uncovered_communication_ns = 32'000'000;
  o.comparison.free_ns = 10'500'000;
  return o;
}

size_t Columns(const std::string& line) {
  size_t n = 0;
  for (unsigned char c : line) n += (c & 0xC0) != 0x80;
  return n;
}

TEST(Summary, TextNamesTheRunsAndSplitsTheE2eChange) {
  const analysis::OverallComparison o = Overall();
  SummaryInput in;
  in.base_path = "/data/" + std::string(150, 'b') + "/gpu.pt.trace.json";
  in.comparison_path = "npu_ascend_pt";
  in.overall = &o;
  in.base_steps = in.comparison_steps = 3;
  SummaryPart part;
  part.what = "operators";
  PickLargestMoves({{"aten::mm", 9'000'000}, {"aten::add", -250'000}, {"aten::relu", 0}, {std::string(200, 'x'), 1500}},
                   part);
  part.base_match = 0.75;
  part.comparison_match = 0.5;
  in.parts.push_back(part);
  in.warnings = 2;
  const std::string text = RenderSummaryText(in);
  EXPECT_NE(text.find("  comparison: npu_ascend_pt\n"), std::string::npos) << text;
  // The path's end is kept, whole directories are left out, and the summary says so.
  EXPECT_NE(text.find("  base:       …/gpu.pt.trace.json\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  (\"…\" stands for the leading directories left out to fit 100 columns; --json has the full "
                      "paths)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("E2E: 100.000 ms -> 112.500 ms: +12.500 ms (+12.5 %); captures of 3 and 3 step(s)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    computing                   +10.000 ms  (60.000 ms -> 70.000 ms)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    uncovered communication      +2.000 ms  (30.000 ms -> 32.000 ms)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    free                       +500.000 µs  (10.000 ms -> 10.500 ms)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("most regressed operators:\n         +9.000 ms  aten::mm\n         +1.500 µs  …xxx"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("most improved operators:\n       -250.000 µs  aten::add\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("aten::relu"), std::string::npos);  // no move, not listed
  EXPECT_NE(text.find("operators matched: 75.0 % of base, 50.0 % of comparison"), std::string::npos) << text;
  EXPECT_NE(text.find("2 warning(s) above on stderr"), std::string::npos) << text;
  EXPECT_EQ(text.find("step (median"), std::string::npos);  // no step line without both medians
  // A deep checkout: "…/" then the last directories that fit, never a directory cut in its middle.
  in.base_path = "/home/user/src/github.com/some-org/profdiff-bars/golden-clone/p/tests/golden/compare/"
                 "gpu_small_default/inputs/base.json";
  const std::string deep = RenderSummaryText(in);
  EXPECT_NE(deep.find("  base:       …/profdiff-bars/golden-clone/p/tests/golden/compare/gpu_small_default/"
                      "inputs/base.json\n"),
            std::string::npos)
      << deep;
  in.base_median_step_ns = 146'000'000;
  in.comparison_median_step_ns = 176'000'000;
  in.base_median_of = 3;
  in.comparison_median_of = 3;
  const std::string with_steps = RenderSummaryText(in);
  EXPECT_NE(with_steps.find("  step (median of 3 vs 3, host windows): 146.000 ms -> 176.000 ms: +30.000 ms (+20.5 %)\n"),
            std::string::npos)
      << with_steps;
  EXPECT_NE(RenderSummaryMarkdown(in).find(
                "| step (median of 3 vs 3, host windows) | 146.000 ms | 176.000 ms | +30.000 ms (+20.5 %) |"),
            std::string::npos);
  // One step of each side selected: the line says which, and the device windows.
  analysis::OverallComparison device = *in.overall;
  device.base.step_source = analysis::StepWindowSource::kDeviceMarkers;
  device.comparison.step_source = analysis::StepWindowSource::kLaunchedWork;
  in.overall = &device;
  in.base_selected_step = 17;
  in.comparison_selected_step = 50;
  const std::string selected = RenderSummaryText(in);
  EXPECT_NE(selected.find("  step (step 17 vs step 50, device windows): 146.000 ms -> 176.000 ms"), std::string::npos)
      << selected;
  EXPECT_NE(selected.find("captures of 3 and 3 step(s); step 17 vs step 50 selected"), std::string::npos) << selected;
  // Captures of different step counts: the operator moves are per step, and the titles say so.
  in.parts[0].note = "per step: base totals / 6, comparison totals / 3";
  const std::string per_step = RenderSummaryText(in);
  EXPECT_NE(per_step.find("most regressed operators (per step: base totals / 6, comparison totals / 3):\n"),
            std::string::npos)
      << per_step;
  EXPECT_NE(RenderSummaryMarkdown(in).find("Most regressed operators (per step: base totals / 6"), std::string::npos);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(Columns(line), 100u) << line;
}

TEST(Summary, NotComparableAndMarkdown) {
  analysis::OverallComparison o = Overall();
  o.comparison.has_overall = false;
  SummaryInput in;
  in.base_path = "a";
  in.comparison_path = "b`c";
  in.overall = &o;
  EXPECT_NE(RenderSummaryText(in).find("E2E: not comparable"), std::string::npos);
  o.comparison.has_overall = true;
  SummaryPart part;
  part.what = "modules";
  PickLargestMoves({{"/a`b", 2'000'000}}, part);
  in.parts.push_back(part);
  const std::string md = RenderSummaryMarkdown(in);
  EXPECT_NE(md.find("- comparison: `b'c`"), std::string::npos) << md;  // a backtick cannot end the span
  EXPECT_NE(md.find("**E2E +12.500 ms (+12.5 %)**: 100.000 ms → 112.500 ms; whole captures, no step markers"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| computing | 60.000 ms | 70.000 ms | +10.000 ms |"), std::string::npos) << md;
  EXPECT_NE(md.find("| **E2E** | 100.000 ms | 112.500 ms | +12.500 ms |"), std::string::npos) << md;
  EXPECT_NE(md.find("Most regressed modules:\n\n- +2.000 ms `/a'b`"), std::string::npos) << md;
  EXPECT_NE(md.find("modules matched: n/a of base, n/a of comparison"), std::string::npos) << md;
}

}  // namespace
}  // namespace profdiff::report
