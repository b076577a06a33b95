#include "profdiff/report/json_report.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace profdiff::report {
namespace {

// A context whose sections have rows of every shape the writer lays out: many rows, one row, none,
// rows in a section whose other members are empty objects/arrays, and names a serializer must
// escape (quotes, control characters, non-ASCII, invalid UTF-8).
JsonReportContext Context() {
  JsonReportContext ctx;
  ctx.tool_version = "0.1.0";
  ctx.mode = "exact";
  ctx.base.path = "a \"quoted\" path";
  ctx.base.format = "kineto-json";
  ctx.base.device = "GPU";
  ctx.comparison.path = "b\tpath/\xc3\xa9";
  ctx.comparison.format = "ascend-text";
  ctx.comparison.device = "NPU";
  ctx.overall = {{"sides", {{"base", {{"e2e_ns", 1}}}}}, {"deltas", OrderedJson::object()}};
  ctx.warnings = {"w1"};
  ctx.outputs = {"/tmp/x.xlsx"};
  auto names = std::make_shared<std::vector<std::string>>(
      std::vector<std::string>{"aten::mm", "<script>\"x\"</script>", "bad \xff utf8", "\xe2\x9c\x93"});
  JsonBody ops;
  ops.value = {{"kind", "operator"}, {"rows", nullptr}, {"empty", OrderedJson::array()},
               {"nested", {{"a", OrderedJson::object()}}}, {"one", nullptr}, {"none", nullptr}};
  ops.rows.push_back({"rows", JsonRows{names->size(), [names](size_t i) {
                                         return OrderedJson{{"name", (*names)[i]},
                                                            {"i", i},
                                                            {"x", 0.5 * static_cast<double>(i)},
                                                            {"kids", OrderedJson::array({i, OrderedJson::object()})}};
                                       }}});
  ops.rows.push_back({"one", JsonRows{1, [](size_t) { return OrderedJson(7); }}});
  ops.rows.push_back({"none", JsonRows{0, [](size_t) { return OrderedJson(); }}});
  ctx.sections.push_back({"operators", std::move(ops)});
  ctx.sections.push_back({"memory", JsonBody{OrderedJson(), {}}});  // did not run
  JsonBody api;
  api.value = {{"rows", OrderedJson::array({1, 2})}};
  ctx.sections.push_back({"api", std::move(api)});
  // A section that is only rows, last in the document.
  JsonBody kernels;
  kernels.value = {{"rows", nullptr}};
  kernels.rows.push_back({"rows", JsonRows{2, [](size_t i) { return OrderedJson{{"k", i}}; }}});
  ctx.sections.push_back({"kernels", std::move(kernels)});
  return ctx;
}

TEST(JsonReport, StreamedTextIsTheTreeDump) {
  const JsonReportContext ctx = Context();
  const analysis::GateResult gate;
  const std::string streamed = RenderJsonReport(ctx, gate);
  EXPECT_EQ(streamed, DumpJsonReport(BuildJsonReport(ctx, gate)));
  // The rows are in the text, in order, and the text parses back.
  const OrderedJson back = OrderedJson::parse(streamed);
  ASSERT_EQ(back["operators"]["rows"].size(), 4u);
  EXPECT_EQ(back["operators"]["rows"][1]["name"], "<script>\"x\"</script>");
  EXPECT_EQ(back["operators"]["rows"][2]["name"], "bad \xef\xbf\xbd utf8");  // replaced, not fatal
  EXPECT_EQ(back["operators"]["one"], OrderedJson::array({7}));
  EXPECT_EQ(back["operators"]["none"], OrderedJson::array());
  EXPECT_TRUE(back["memory"].is_null());
  EXPECT_EQ(back["kernels"]["rows"][1]["k"], 1);
}

TEST(JsonReport, SummaryDocumentLeavesRowsNull) {
  const JsonReportContext ctx = Context();
  const OrderedJson doc = BuildJsonSummaryDocument(ctx, analysis::GateResult());
  EXPECT_TRUE(doc["operators"]["rows"].is_null());
  EXPECT_EQ(doc["operators"]["kind"], "operator");
  EXPECT_EQ(doc["api"]["rows"], OrderedJson::array({1, 2}));
  EXPECT_EQ(doc["schema"], kJsonSchema);
}

TEST(JsonReport, FileIsTheSameTextAndNeverReplacedWithoutForce) {
  const JsonReportContext ctx = Context();
  const analysis::GateResult gate;
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "json_report_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "r.json").string();
  ASSERT_TRUE(WriteJsonReport(ctx, gate, path, false).ok());
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), RenderJsonReport(ctx, gate));
  EXPECT_FALSE(WriteJsonReport(ctx, gate, path, false).ok());
  EXPECT_TRUE(WriteJsonReport(ctx, gate, path, true).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace profdiff::report
