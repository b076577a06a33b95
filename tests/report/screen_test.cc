#include "profdiff/report/screen.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "profdiff/report/overall/overall_sheet.h"
#include "profdiff/report/overall/screen.h"
#include "report_test_util.h"

namespace profdiff::report {
namespace {

using testing::ReadFile;
using testing::SharedDir;

analysis::OverallComparison WithScreen(
    std::string label, const std::vector<std::vector<std::string>>& columns) {
  analysis::OverallComparison cmp;
  cmp.base.label = label;
  cmp.comparison.label = label;
  for (const auto& c : columns) cmp.screen.push_back({c[0], c[1], c[2]});
  return cmp;
}

// The cells the reference printed for npu_text_r0_r1 (oracle stdout.txt), as analysis formats them.
analysis::OverallComparison NpuTextR0R1() {
  return WithScreen("NPU", {
                               {"Cube Time(Num)", "0.001s(14)", "0.001s(14)"},
                               {"Vector Time(Num)", "0.004s(94)", "0.004s(94)"},
                               {"Conv Time(Forward)(Num)", "0.001s(20)", "0.001s(20)"},
                               {"Conv Time(Backward)(Num)", "0.002s(46)", "0.002s(46)"},
                               {"Other Time", "0.000s", "0.000s"},
                               {"Computing Time", "0.009s", "0.009s"},
                               {"Mem Usage", "2.06G", "2.06G"},
                               {"Uncovered Communication Time(Wait Time)", " 0.102s( / )",
                                " 0.096s(0.000s)"},
                               {"SDMA Bandwidth", "15.654GB/s", "15.502GB/s"},
                               {"SDMA Time(Num)", "0.001s(11)", "0.001s(11)"},
                               {"Free Time", "0.026s", "0.027s"},
                               {"E2E Time(Not minimal profiling)", "0.137s", "0.132s"},
                           });
}

analysis::OverallComparison GpuVsGpuH100() {
  return WithScreen("GPU", {
                               {"Cube Time(Num)", "0.000s(0)", "0.000s(0)"},
                               {"Vector Time(Num)", "0.000s(1)", "0.000s(1)"},
                               {"Computing Time", "0.000s", "0.000s"},
                               {"Uncovered Communication Time(Wait Time)", " 0.000s( / )",
                                " 0.000s(0.000s)"},
                               {"Free Time", "0.000s", "0.000s"},
                               {"E2E Time", "0.000s", "0.000s"},
                           });
}

void ExpectMatchesOracle(const std::string& oracle_case, const analysis::OverallComparison& cmp) {
  std::string expected;
  const std::string path = SharedDir() + "/oracle/" + oracle_case + "/stdout.txt";
  if (!ReadFile(path, &expected)) {
    GTEST_SKIP() << "oracle " << path << " not found (needs /work/shared next to the source tree)";
  }
  EXPECT_EQ(RenderScreenTable(cmp), expected);
}

TEST(ScreenTable, MatchesOracleNpuTextR0R1ByteForByte) { ExpectMatchesOracle("npu_text_r0_r1", NpuTextR0R1()); }

TEST(ScreenTable, MatchesOracleGpuVsGpuH100ByteForByte) {
  ExpectMatchesOracle("gpu_vs_gpu_h100", GpuVsGpuH100());
}

TEST(ScreenTable, CommunicationSplitLineInTheExactModeOnly) {
  analysis::OverallComparison cmp = NpuTextR0R1();
  cmp.policy = analysis::ExactPolicy();
  cmp.base.communication_groups.push_back({"Group 0 Communication", 101963201, 3935910, 97977005, 50286});
  cmp.comparison.communication_groups.push_back({"Group 0 Communication", 2000000, 1000000, 500000, 500000});
  cmp.comparison.communication_groups.push_back({"Group 1 Communication", 1000000, 250000, 0, 750000});
  EXPECT_EQ(RenderCommunicationSplitLines(cmp),
            "NPU (base): uncovered communication 102.0 ms: 98.0 ms waiting for peers, 3.9 ms transfer, 0.1 ms idle\n"
            "NPU (comparison): uncovered communication 3.0 ms: 0.5 ms waiting for peers, 1.2 ms transfer, 1.2 ms "
            "idle (over 2 communication groups)\n"
            "(\"waiting for peers\": a Notify_Wait task runs; the profiler's communication.json and MindStudio\n"
            " Insight count that time, over whole ops, as Wait and most of Idle; \"transfer\" is their Transit)\n");
  // A side without uncovered communication gets no line.
  cmp.comparison.communication_groups.clear();
  EXPECT_EQ(RenderCommunicationSplitLines(cmp).find("comparison"), std::string::npos);
  // Under --reference-compat (both lines) the screen is the reference's: no line.
  for (analysis::ReferenceLine line : {analysis::ReferenceLine::k8_2, analysis::ReferenceLine::k26_1}) {
    cmp.policy = analysis::ReferenceCompatPolicy(line);
    EXPECT_EQ(RenderCommunicationSplitLines(cmp), "");
  }
}

TEST(ScreenTable, StepCoverageInTheDefaultModeOnly) {
  analysis::OverallComparison cmp = GpuVsGpuH100();
  cmp.policy = analysis::ExactPolicy();
  for (int64_t id : {5, 6, 7}) cmp.base.steps.push_back({id, 0, 100, 0, 0, 100});
  cmp.comparison.steps.push_back({17, 0, 100, 0, 0, 100});
  EXPECT_EQ(StepCoverageText(cmp.base), "3 steps (ProfilerStep#5..#7)");
  EXPECT_EQ(RenderStepCoverageLine(cmp), "base: 3 steps (ProfilerStep#5..#7); comparison: 1 step (ProfilerStep#17)\n");
  const SheetSpec sheet = BuildOverallMetricsSheet(cmp, "b.json", "c.json");
  EXPECT_EQ(sheet.base_banner.text, "Base Profiling: b.json [3 steps (ProfilerStep#5..#7)]");
  EXPECT_EQ(sheet.comparison_banner.text, "Comparison Profiling: c.json [1 step (ProfilerStep#17)]");
  cmp.comparison.steps.clear();
  EXPECT_EQ(RenderStepCoverageLine(cmp), "base: 3 steps (ProfilerStep#5..#7); comparison: no step markers\n");
  // The reference's screen and banners (both lines) carry nothing added.
  for (analysis::ReferenceLine line : {analysis::ReferenceLine::k8_2, analysis::ReferenceLine::k26_1}) {
    cmp.policy = analysis::ReferenceCompatPolicy(line);
    EXPECT_EQ(RenderStepCoverageLine(cmp), "");
    EXPECT_EQ(BuildOverallMetricsSheet(cmp, "b.json", "c.json").base_banner.text, "Base Profiling: b.json");
  }
}

TEST(PrettyTable, CentresOddPaddingLikePrettyTable) {
  // Column width 5 ("abcde"): "ab" (even) gets the extra space on the left, "abc" (odd) on the right.
  std::string t = RenderPrettyTable("", {"abcde"}, {{"ab"}, {"abc"}, {"a"}});
  EXPECT_EQ(t,
            "+-------+\n"
            "| abcde |\n"
            "+-------+\n"
            "|   ab  |\n"
            "|  abc  |\n"
            "|   a   |\n"
            "+-------+\n");
}

TEST(PrettyTable, TitleRowAndWideCells) {
  std::string t = RenderPrettyTable("T", {"", "h"}, {{"NPU", "wide cell"}});
  EXPECT_EQ(t,
            "+-----------------+\n"
            "|        T        |\n"
            "+-----+-----------+\n"
            "|     |     h     |\n"
            "+-----+-----------+\n"
            "| NPU | wide cell |\n"
            "+-----+-----------+\n");
}

TEST(PrettyTable, TitleWiderThanColumnsWidensTheTable) {
  std::string t = RenderPrettyTable("A long title", {"a", "b"}, {{"1", "2"}});
  // Output of Python PrettyTable 3.6 (the reference's version) for the same table: title width
  // 12 + 2 padding + 2 frame = 16; minus 3 borders and 4 padding -> 9 content characters, scaled from
  // 2 (int(1*4.5)=4 each) with the remainder on the last column.
  EXPECT_EQ(t,
            "+--------------+\n"
            "| A long title |\n"
            "+------+-------+\n"
            "|  a   |   b   |\n"
            "+------+-------+\n"
            "|  1   |   2   |\n"
            "+------+-------+\n");
}

TEST(PrettyTable, UnicodeWidthCountsCodePoints) {
  std::string t = RenderPrettyTable("", {"µs"}, {{"ab"}});
  EXPECT_EQ(t, "+----+\n| µs |\n+----+\n| ab |\n+----+\n");
}

TEST(PrettyTable, ColourDoesNotChangeLayout) {
  const analysis::OverallComparison cmp = NpuTextR0R1();
  std::string plain = RenderScreenTable(cmp, false);
  std::string colored = RenderScreenTable(cmp, true);
  EXPECT_NE(plain, colored);
  EXPECT_EQ(plain.find('\x1b'), std::string::npos);
  // Removing the escape sequences gives back the plain table.
  std::string stripped;
  for (size_t i = 0; i < colored.size(); ++i) {
    if (colored[i] == '\x1b') {
      while (i < colored.size() && colored[i] != 'm') ++i;
      continue;
    }
    stripped += colored[i];
  }
  EXPECT_EQ(stripped, plain);
}

TEST(ScreenTable, EmptyWithoutColumns) {
  analysis::OverallComparison cmp;
  EXPECT_EQ(RenderScreenTable(cmp), "");
}

TEST(Color, ResolveHonoursModeTtyAndNoColor) {
  EXPECT_TRUE(ResolveColor(ColorMode::kAlways, false, "1"));
  EXPECT_FALSE(ResolveColor(ColorMode::kNever, true, nullptr));
  EXPECT_TRUE(ResolveColor(ColorMode::kAuto, true, nullptr));
  EXPECT_TRUE(ResolveColor(ColorMode::kAuto, true, ""));
  EXPECT_FALSE(ResolveColor(ColorMode::kAuto, true, "1"));
  EXPECT_FALSE(ResolveColor(ColorMode::kAuto, false, nullptr));
  ASSERT_TRUE(ParseColorMode("always").ok());
  EXPECT_EQ(*ParseColorMode("never"), ColorMode::kNever);
  EXPECT_EQ(ParseColorMode("sometimes").status().code(), StatusCode::kInvalidArgument);
}

TEST(Verdict, LineNamesVerdictChecksAndWarnings) {
  analysis::GateResult g;
  EXPECT_EQ(RenderVerdict(g), "");  // no gate ran
  g.ran = true;
  g.verdict = analysis::Verdict::kRegression;
  analysis::GateCheck c;
  c.verdict = analysis::Verdict::kRegression;
  c.reason = "e2e +4.671 ms (+3.42%) exceeds 2.00% and the 0.050 ms noise floor";
  g.checks.push_back(c);
  g.warnings.push_back("different step counts: base has 2 step(s), comparison has 3");
  EXPECT_EQ(RenderVerdict(g),
            "gate: REGRESSION\n"
            "  regression: e2e +4.671 ms (+3.42%) exceeds 2.00% and the 0.050 ms noise floor\n"
            "  warning: different step counts: base has 2 step(s), comparison has 3\n");
  std::string colored = RenderVerdict(g, true);
  EXPECT_NE(colored.find("\x1b[31mREGRESSION\x1b[0m"), std::string::npos);
}

}  // namespace
}  // namespace profdiff::report
