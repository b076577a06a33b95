// The operator comparison's match quality: a low match is said, with the heaviest unmatched names,
// the likely causes and confident --op_name_map pairs.
#include "profdiff/analysis/operators/match_quality.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace profdiff::analysis {
namespace {

OperatorSide Side(std::string_view name, int64_t ns) {
  OperatorSide s;
  s.present = true;
  s.name = name;
  s.device.AddNs(ns);
  return s;
}

void AddRow(OperatorComparison& oc, const OperatorSide& b, const OperatorSide& c) {
  OperatorRow r;
  r.base = b;
  r.comparison = c;
  oc.base_items += b.present;
  oc.comparison_items += c.present;
  oc.matched += b.present && c.present;
  oc.operator_rows.push_back(r);
}

// A trial as the operator comparison runs it, in miniature: each mapped base name adds its gain to
// the match (a negative gain lowers it) and each name in `whole` stops the drill-down into one wrapper.
struct FakeTrial {
  FakeTrial(uint64_t m, uint64_t w, std::vector<std::pair<std::string, int64_t>> g, std::vector<std::string> wh = {})
      : matched(m), wrappers(w), gains(std::move(g)), whole(std::move(wh)) {}
  uint64_t matched = 0;
  uint64_t wrappers = 0;
  std::vector<std::pair<std::string, int64_t>> gains;
  std::vector<std::string> whole;
  std::vector<std::vector<NameMapSuggestion>> calls;
  NameMapTrial Fn() {
    return [this](const std::vector<NameMapSuggestion>& maps) {
      calls.push_back(maps);
      PairingOutcome o{.matched = matched, .wrappers_drilled = wrappers};
      for (const NameMapSuggestion& m : maps) {
        for (const auto& [name, gain] : gains)
          if (m.base == name) o.matched = static_cast<uint64_t>(static_cast<int64_t>(o.matched) + gain);
        if (std::find(whole.begin(), whole.end(), m.base) != whole.end()) --o.wrappers_drilled;
      }
      return o;
    };
  }
};

TEST(MatchQuality, AHighMatchSaysNothing) {
  OperatorComparison oc;
  oc.kind = OperatorCompareKind::kOperator;
  AddRow(oc, Side("aten::mm", 10), Side("aten::mm", 12));
  AddRow(oc, Side("aten::add", 1), {});
  const MatchQuality q = AssessMatchQuality(oc, {});
  EXPECT_FALSE(q.low);  // 1 of 2 base: exactly half is not "fewer than half"
  EXPECT_EQ(MatchQualityWarning(q), "");
}

TEST(MatchQuality, NamingDriftAndAutogradWrappers) {
  OperatorComparison oc;
  oc.kind = OperatorCompareKind::kOperator;
  AddRow(oc, Side("aten::mm", 10), Side("aten::mm", 10));
  AddRow(oc, Side("CudnnConvolutionBackward", 3000), {});
  AddRow(oc, Side("CudnnConvolutionBackward", 2000), {});
  AddRow(oc, Side("ReluBackward1", 500), {});
  AddRow(oc, Side("aten::dropout", 100), {});
  AddRow(oc, {}, Side("autograd::engine::evaluate_function: ConvolutionBackward0", 4000));
  AddRow(oc, {}, Side("autograd::engine::evaluate_function: ReluBackward0", 400));
  AddRow(oc, {}, Side("npu::npu_fused_op", 50));
  FakeTrial trial(1, 0, {{"CudnnConvolutionBackward", 2}, {"ReluBackward1", 1}});
  const MatchQuality q = AssessMatchQuality(oc, trial.Fn());
  ASSERT_TRUE(q.low);
  ASSERT_EQ(q.base_unmatched.size(), 3u);
  EXPECT_EQ(q.base_unmatched[0].name, "CudnnConvolutionBackward");  // heaviest first, per name
  EXPECT_EQ(q.base_unmatched[0].count, 2);
  EXPECT_EQ(q.base_unmatched[0].device_ns, 5000);
  ASSERT_EQ(q.suggestions.size(), 2u);
  EXPECT_EQ(q.suggestions[0].base, "CudnnConvolutionBackward");
  EXPECT_EQ(q.suggestions[0].comparison, "autograd::engine::evaluate_function: ConvolutionBackward0");
  EXPECT_EQ(q.suggestions[1].base, "ReluBackward1");
  EXPECT_EQ(q.suggestions[0].matched_gain, 2u);
  EXPECT_EQ(q.suggestions[1].matched_gain, 1u);
  // Each candidate is tried on top of those kept before it.
  ASSERT_EQ(trial.calls.size(), 2u);
  EXPECT_EQ(trial.calls[1].size(), 2u);
  EXPECT_NE(q.reason.find("autograd wrappers: the comparison side"), std::string::npos) << q.reason;
  EXPECT_NE(q.reason.find("naming drift"), std::string::npos) << q.reason;
  const std::string w = MatchQualityWarning(q);
  EXPECT_NE(w.find("only 1 of 5 base and 1 of 4 comparison operators matched (20.0 %, 25.0 %)"), std::string::npos)
      << w;
  EXPECT_NE(w.find("Try --op_name_map \"{'CudnnConvolutionBackward':'autograd::engine::evaluate_function: "
                   "ConvolutionBackward0','ReluBackward1':'autograd::engine::evaluate_function: ReluBackward0'}\": tried, "
                   "it matches 3 more operator(s)"),
            std::string::npos)
      << w;
}

TEST(MatchQuality, NoSuggestionWhenAmbiguousAndOtherOperators) {
  OperatorComparison oc;
  oc.kind = OperatorCompareKind::kOperator;
  AddRow(oc, Side("aten::add_", 10), {});
  AddRow(oc, Side("aten::add", 10), {});  // both "add": ambiguous, no suggestion
  AddRow(oc, {}, Side("npu::add", 10));
  AddRow(oc, {}, Side("aten::softmax", 10));
  FakeTrial trial(0, 0, {{"aten::add_", 1}, {"aten::add", 1}});
  const MatchQuality q = AssessMatchQuality(oc, trial.Fn());
  ASSERT_TRUE(q.low);
  EXPECT_TRUE(q.suggestions.empty());
  EXPECT_EQ(q.reason, "the two sides run different operators (another model, framework version or step?)");
  EXPECT_EQ(MatchQualityWarning(q).find("--op_name_map"), std::string::npos);
}

TEST(MatchQuality, OnlyForTheOperatorComparisonWithDetails) {
  OperatorComparison oc;
  oc.kind = OperatorCompareKind::kModule;
  AddRow(oc, Side("a", 1), {});
  EXPECT_FALSE(AssessMatchQuality(oc, {}).low);
  oc.kind = OperatorCompareKind::kOperator;
  oc.details = false;
  EXPECT_FALSE(AssessMatchQuality(oc, {}).low);
}

// Only pairs with device time on both sides, and never an in-place twin ("detach" -> "detach_").
TEST(MatchQuality, NoSuggestionWithoutDeviceTimeOrForAnInPlaceTwin) {
  OperatorComparison oc;
  oc.kind = OperatorCompareKind::kOperator;
  AddRow(oc, Side("aten::detach", 0), {});
  AddRow(oc, {}, Side("aten::detach_", 0));
  AddRow(oc, Side("aten::relu", 10), {});
  AddRow(oc, {}, Side("aten::relu_", 10));
  AddRow(oc, Side("aten::gelu", 10), {});
  AddRow(oc, {}, Side("npu::gelu", 0));
  AddRow(oc, Side("aten::silu", 10), {});
  AddRow(oc, {}, Side("npu::silu", 10));
  FakeTrial trial(0, 0, {{"aten::detach", 1}, {"aten::relu", 1}, {"aten::gelu", 1}, {"aten::silu", 1}});
  const MatchQuality q = AssessMatchQuality(oc, trial.Fn());
  ASSERT_TRUE(q.low);
  ASSERT_EQ(q.suggestions.size(), 1u);
  EXPECT_EQ(q.suggestions[0].base, "aten::silu");
  EXPECT_EQ(q.suggestions[0].comparison, "npu::silu");
  EXPECT_EQ(trial.calls.size(), 1u);  // the others were never candidates
}

// A candidate that does not raise the match is left out, and the warning says one was; without a
// trial nothing is suggested.
TEST(MatchQuality, ACandidateThatMatchesNoMoreIsLeftOut) {
  OperatorComparison oc;
  oc.kind = OperatorCompareKind::kOperator;
  AddRow(oc, Side("AccumulateGrad", 500), {});
  AddRow(oc, {}, Side("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", 500));
  AddRow(oc, Side("TBackward", 100), {});
  AddRow(oc, {}, Side("autograd::engine::evaluate_function: TBackward0", 100));
  FakeTrial trial(5, 0, {{"AccumulateGrad", -3}, {"TBackward", 1}});
  oc.matched = 5;
  oc.base_items = oc.comparison_items = 20;
  const MatchQuality q = AssessMatchQuality(oc, trial.Fn());
  ASSERT_EQ(q.suggestions.size(), 1u);
  EXPECT_EQ(q.suggestions[0].base, "TBackward");
  EXPECT_EQ(q.suggestions_refused, 1u);
  ASSERT_EQ(trial.calls.size(), 2u);
  ASSERT_EQ(trial.calls[1].size(), 1u);  // tried without the refused one
  EXPECT_NE(MatchQualityWarning(q).find("1 other similar name pair(s) were tried and left out"), std::string::npos);
  EXPECT_TRUE(AssessMatchQuality(oc, {}).suggestions.empty());
}

// A mapping that matches a wrapper whole (the pairing had drilled into it) says so.
TEST(MatchQuality, AMappingThatStopsTheDrillDownSaysSo) {
  OperatorComparison oc;
  oc.kind = OperatorCompareKind::kOperator;
  oc.base_items = oc.comparison_items = 10;
  oc.matched = 2;
  oc.wrappers_drilled = {0, 3};
  AddRow(oc, Side("CudnnConvolutionBackward", 3000), {});
  AddRow(oc, {}, Side("autograd::engine::evaluate_function: ConvolutionBackward0", 4000));
  FakeTrial trial(2, 3, {{"CudnnConvolutionBackward", 1}}, {"CudnnConvolutionBackward"});
  const MatchQuality q = AssessMatchQuality(oc, trial.Fn());
  ASSERT_EQ(q.suggestions.size(), 1u);
  EXPECT_EQ(q.suggestions[0].wrappers_no_longer_drilled, 1u);
  const std::string w = MatchQualityWarning(q);
  EXPECT_NE(w.find("the pairing then drills into fewer wrappers (1 with 'CudnnConvolutionBackward'): their "
                   "operators are compared as one row each, no longer one by one"),
            std::string::npos)
      << w;
}

}  // namespace
}  // namespace profdiff::analysis
