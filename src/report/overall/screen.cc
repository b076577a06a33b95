#include "profdiff/report/overall/screen.h"

#include <vector>

#include <fmt/format.h>

#include "profdiff/report/screen.h"

namespace profdiff::report {

std::string RenderScreenTable(const analysis::OverallComparison& cmp, bool color) {
  if (cmp.screen.empty()) return {};
  std::vector<std::string> header{""};
  std::vector<std::string> base{cmp.base.label};
  std::vector<std::string> comparison{cmp.comparison.label};
  for (const analysis::ScreenColumn& c : cmp.screen) {
    header.push_back(c.header);
    base.push_back(c.base_cell);
    comparison.push_back(c.comparison_cell);
  }
  return RenderPrettyTable(cmp.screen_title, header, {base, comparison}, color);
}

namespace {

std::string SplitLine(const analysis::SideSummary& side, const char* role) {
  analysis::CommunicationGroupSplit total;
  for (const analysis::CommunicationGroupSplit& g : side.communication_groups) {
    total.uncovered_ns += g.uncovered_ns;
    total.transmit_ns += g.transmit_ns;
    total.wait_ns += g.wait_ns;
    total.idle_ns += g.idle_ns;
  }
  if (total.uncovered_ns <= 0) return {};
  auto ms = [](int64_t ns) { return static_cast<double>(ns) / 1e6; };
  std::string line = fmt::format("{} ({}): uncovered communication {:.1f} ms: {:.1f} ms waiting for peers, {:.1f} ms "
                                 "transfer, {:.1f} ms idle",
                                 side.label, role, ms(total.uncovered_ns), ms(total.wait_ns), ms(total.transmit_ns),
                                 ms(total.idle_ns));
  if (side.communication_groups.size() > 1)
    line += fmt::format(" (over {} communication groups)", side.communication_groups.size());
  return line + "\n";
}

}  // namespace

std::string RenderCommunicationSplitLines(const analysis::OverallComparison& cmp) {
  if (cmp.policy.comm_wait_least_wait_plane || cmp.screen.empty()) return {};
  const std::string lines = SplitLine(cmp.base, "base") + SplitLine(cmp.comparison, "comparison");
  return lines.empty() ? lines : lines + kCommunicationWordsNote;
}

std::string StepCoverageText(const analysis::SideSummary& side) {
  if (side.steps.empty()) return "no step markers";
  // SideSummary::steps is ordered by step id.
  const int64_t first = side.steps.front().id;
  const int64_t last = side.steps.back().id;
  if (side.steps.size() == 1) return fmt::format("1 step (ProfilerStep#{})", first);
  return fmt::format("{} steps (ProfilerStep#{}..#{})", side.steps.size(), first, last);
}

std::string RenderStepCoverageLine(const analysis::OverallComparison& cmp) {
  if (cmp.policy.overall_hides_step_coverage || cmp.screen.empty()) return {};
  return fmt::format("base: {}; comparison: {}\n", StepCoverageText(cmp.base), StepCoverageText(cmp.comparison));
}

}  // namespace profdiff::report
