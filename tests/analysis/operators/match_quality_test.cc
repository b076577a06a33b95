// The operator comparison's match quality: a low match is said, with the heaviest unmatched names,
// the likely causes and confident --op_name_map pairs.
#include "profdiff/analysis/operators/match_quality.h"

#include <gtest/gtest.h>

#include <string>

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

TEST(MatchQuality, AHighMatchSaysNothing) {
  OperatorComparison oc;
  oc.kind = OperatorCompareKind::kOperator;
  AddRow(oc, Side("aten::mm", 10), Side("aten::mm", 12));
  AddRow(oc, Side("aten::add", 1), {});
  const MatchQuality q = AssessMatchQuality(oc);
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
  const MatchQuality q = AssessMatchQuality(oc);
  ASSERT_TRUE(q.low);
  ASSERT_EQ(q.base_unmatched.size(), 3u);
  EXPECT_EQ(q.base_unmatched[0].name, "CudnnConvolutionBackward");  // heaviest first, per name
  EXPECT_EQ(q.base_unmatched[0].count, 2);
  EXPECT_EQ(q.base_unmatched[0].device_ns, 5000);
  ASSERT_EQ(q.suggestions.size(), 2u);
  EXPECT_EQ(q.suggestions[0].base, "CudnnConvolutionBackward");
  EXPECT_EQ(q.suggestions[0].comparison, "autograd::engine::evaluate_function: ConvolutionBackward0");
  EXPECT_EQ(q.suggestions[1].base, "ReluBackward1");
  EXPECT_NE(q.reason.find("autograd wrappers: the comparison side"), std::string::npos) << q.reason;
  EXPECT_NE(q.reason.find("naming drift"), std::string::npos) << q.reason;
  const std::string w = MatchQualityWarning(q);
  EXPECT_NE(w.find("only 1 of 5 base and 1 of 4 comparison operators matched (20.0 %, 25.0 %)"), std::string::npos)
      << w;
  EXPECT_NE(w.find("Try --op_name_map \"{'CudnnConvolutionBackward':'autograd::engine::evaluate_function: "
                   "ConvolutionBackward0','ReluBackward1':'autograd::engine::evaluate_function: ReluBackward0'}\""),
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
  const MatchQuality q = AssessMatchQuality(oc);
  ASSERT_TRUE(q.low);
  EXPECT_TRUE(q.suggestions.empty());
  EXPECT_EQ(q.reason, "the two sides run different operators (another model, framework version or step?)");
  EXPECT_EQ(MatchQualityWarning(q).find("--op_name_map"), std::string::npos);
}

TEST(MatchQuality, OnlyForTheOperatorComparisonWithDetails) {
  OperatorComparison oc;
  oc.kind = OperatorCompareKind::kModule;
  AddRow(oc, Side("a", 1), {});
  EXPECT_FALSE(AssessMatchQuality(oc).low);
  oc.kind = OperatorCompareKind::kOperator;
  oc.details = false;
  EXPECT_FALSE(AssessMatchQuality(oc).low);
}

}  // namespace
}  // namespace profdiff::analysis
