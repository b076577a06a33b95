// The table of comparisons (pipeline/comparisons.h): one row per member of EnabledComparisons, each
// with its own flag, sheets, workbook position and JSON key.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "profdiff/loaders/loader.h"
#include "profdiff/pipeline/comparisons.h"

namespace profdiff::pipeline {
namespace {

TEST(ComparisonTable, OneRowPerComparisonWithDistinctNamesFlagsSheetsAndKeys) {
  std::set<std::string_view> names, flags, sheets, keys;
  std::set<int> orders;
  EnabledComparisons seen;  // each member named by exactly one row
  for (const ComparisonEntry& e : Comparisons()) {
    EXPECT_TRUE(names.insert(e.name).second) << e.name;
    EXPECT_TRUE(flags.insert(e.flag).second) << e.flag;
    EXPECT_FALSE(seen.*e.enabled) << e.name;
    seen.*e.enabled = true;
    EXPECT_TRUE(orders.insert(e.sheet_order).second) << e.name;
    EXPECT_FALSE(e.sheets.empty()) << e.name;
    for (std::string_view s : e.sheets) {
      EXPECT_TRUE(sheets.insert(s).second) << s;
      EXPECT_LE(s.size(), 31u) << s;  // an Excel sheet name
    }
    if (!e.json_key.empty()) {
      EXPECT_TRUE(keys.insert(e.json_key).second) << e.json_key;
    }
    EXPECT_TRUE(e.flag.starts_with("--enable_")) << e.flag;
    // Every comparison says why its sheets can be empty (the explanatory sheet).
    EXPECT_FALSE(e.empty_reason.empty()) << e.name;
  }
  // Every member of EnabledComparisons has a row.
  EXPECT_TRUE(seen.profiling && seen.operators && seen.memory && seen.communication && seen.api &&
              seen.kernel);
}

TEST(ComparisonTable, EveryRowRuns) {
  std::string rows;
  for (const ComparisonEntry& e : Comparisons()) {
    EXPECT_NE(e.run, nullptr) << e.name;
    rows += std::string(e.name) + " ";
  }
  EXPECT_EQ(rows, "overall operators memory communication api kernel ");
}

TEST(ComparisonTable, SheetNamesJoinWithSlash) {
  for (const ComparisonEntry& e : Comparisons()) {
    if (e.name == "memory") {
      EXPECT_EQ(SheetNames(e), "MemoryCompare/MemoryCompareStatistic");
    }
    if (e.name == "overall") {
      EXPECT_EQ(SheetNames(e), "OverallMetrics");
    }
  }
}

TEST(ComparisonTable, AllComparisonsEnablesEveryRow) {
  const EnabledComparisons all = AllComparisons();
  for (const ComparisonEntry& e : Comparisons()) EXPECT_TRUE(all.*e.enabled) << e.name;
  EXPECT_FALSE(EnabledComparisons{}.any());
}

// The operators row renders its JSON section only when the run writes a JSON result: nothing else
// reads it, and on large inputs it costs time and memory (docs/performance.md).
TEST(ComparisonTable, OperatorsRowBuildsItsJsonSectionOnlyForAJsonResult) {
  const std::string data = PROFDIFF_SOURCE_DIR "/tests/data/kineto_h100_tiny/";
  auto base = LoadProfile(data + "before_fix_trace.json", LoadOptions{});
  auto comparison = LoadProfile(data + "after_fix_trace.json", LoadOptions{});
  ASSERT_TRUE(base.ok() && comparison.ok());
  const analysis::Timeline base_timeline = analysis::BuildTimeline(**base, {});
  const analysis::Timeline comparison_timeline = analysis::BuildTimeline(**comparison, {});
  const analysis::ReferencePolicy policy = analysis::MakeReferencePolicy(std::nullopt);
  const analysis::OverallComparison overall =
      RunOverallComparison(base_timeline, comparison_timeline, policy, std::nullopt);
  CompareRequest request;
  request.enabled.operators = true;
  analysis::SharedOperatorPairing pairing(base_timeline, comparison_timeline, policy, OperatorOptionsFor(request));
  const analysis::GateResult gate;
  const ComparisonInputs inputs{base_timeline, comparison_timeline, policy, request, overall, pairing, gate};
  const ComparisonEntry* operators = nullptr;
  for (const ComparisonEntry& e : Comparisons())
    if (e.name == "operators") operators = &e;
  ASSERT_NE(operators, nullptr);

  EXPECT_FALSE(pairing.built());
  ComparisonOutput out = operators->run(inputs);  // screen and workbook only
  EXPECT_TRUE(pairing.built());  // built once, then read by the memory and API rows too
  EXPECT_FALSE(out.sheets.empty());
  EXPECT_TRUE(out.json.value.is_null());
  EXPECT_TRUE(out.json.rows.empty());
  request.json_path = "result.json";  // --json FILE
  out = operators->run(inputs);
  EXPECT_TRUE(out.json.value.is_object());
  // The rows are made while the document is written, from the comparison the body keeps alive.
  ASSERT_EQ(out.json.rows.size(), 1u);
  EXPECT_TRUE(out.json.value.at(out.json.rows[0].first).is_null());
  EXPECT_GT(out.json.rows[0].second.count, 0u);
  EXPECT_TRUE(out.json.rows[0].second.row(0).is_object());
  request.json_path.clear();
  request.format = OutputFormat::kJson;  // --format json
  out = operators->run(inputs);
  EXPECT_TRUE(out.json.value.is_object());
}

}  // namespace
}  // namespace profdiff::pipeline
