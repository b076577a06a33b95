// The HTML page's building blocks (src/report/html): escaping for each context, the waterfalls'
// sums, the charts and the CSP hash.
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <set>
#include <string>

#include "../../../src/report/html/html_sections.h"
#include "../../../src/report/html/csp_hash.h"
#include "profdiff/report/html/html_escape.h"
#include "profdiff/report/html/html_report.h"
#include "profdiff/report/html/svg_charts.h"
#include "profdiff/report/html/waterfall.h"

namespace profdiff::report::html {
namespace {

int64_t Sum(const Waterfall& w) {
  return std::accumulate(w.parts.begin(), w.parts.end(), int64_t{0},
                         [](int64_t a, const WaterfallPart& p) { return a + p.delta_ns; });
}

TEST(HtmlEscape, TextAndAttributes) {
  EXPECT_EQ(EscapeText("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(EscapeAttribute("\"><img src=x onerror=alert(1)>"),
            "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(EscapeText("a&b 'c'"), "a&amp;b &#39;c&#39;");
  EXPECT_EQ(EscapeText("caf\xC3\xA9 \xE2\x88\x91"), "caf\xC3\xA9 \xE2\x88\x91");  // valid UTF-8 kept
}

TEST(HtmlEscape, InvalidUtf8AndControlsBecomeReplacementCharacters) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(EscapeText("a\xFF" "b"), "a" + fffd + "b");
  EXPECT_EQ(EscapeText("\xC0\xBC"), fffd + fffd);          // overlong '<' is not a '<'
  EXPECT_EQ(EscapeText("\xED\xA0\x80"), fffd + fffd + fffd);  // a surrogate
  EXPECT_EQ(EscapeText(std::string("x\0y", 3)), "x" + fffd + "y");
  EXPECT_EQ(EscapeText("\xE2\x82"), fffd + fffd);  // cut sequence
}

TEST(HtmlEscape, ScriptJsonCannotCloseTheBlock) {
  OrderedJson j = {{"name", "</script><script>alert(1)</script><!-- & \xE2\x80\xA8\xE2\x80\xA9"}};
  const std::string out = EscapeScriptJson(j);
  EXPECT_EQ(out.find('<'), std::string::npos);
  EXPECT_EQ(out.find('>'), std::string::npos);
  EXPECT_EQ(out.find('&'), std::string::npos);
  EXPECT_EQ(out.find("\xE2\x80\xA8"), std::string::npos);
  EXPECT_NE(out.find("\\u003c/script\\u003e"), std::string::npos);
  EXPECT_NE(out.find("\\u2028\\u2029"), std::string::npos);
  // Still the same JSON value.
  EXPECT_EQ(OrderedJson::parse(out), j);
}

TEST(HtmlWaterfall, CategoriesSumToTheE2eDelta) {
  OrderedJson deltas = OrderedJson::parse(R"({"e2e_delta_ns": -100, "categories": [
      {"category": "computing", "delta_ns": 30}, {"category": "uncovered_communication", "delta_ns": -150},
      {"category": "free", "delta_ns": 20}, {"category": "unattributed", "delta_ns": 0}]})");
  Waterfall w = CategoryWaterfall(deltas);
  EXPECT_EQ(w.total_ns, -100);
  EXPECT_EQ(Sum(w), -100);
  ASSERT_EQ(w.parts.size(), 3u);  // a zero "unattributed" is left out
  EXPECT_EQ(w.parts[1].label, "uncovered communication");
  // Categories that do not add up get an explicit remainder.
  deltas["e2e_delta_ns"] = -90;
  w = CategoryWaterfall(deltas);
  EXPECT_EQ(Sum(w), -90);
  EXPECT_EQ(w.parts.back().label, "unattributed");
  EXPECT_EQ(w.parts.back().delta_ns, 10);
}

TEST(HtmlWaterfall, TopOperatorsAndOtherSumToTheTotal) {
  OrderedJson ops = {{"kind", "operator"}, {"operator_statistic", OrderedJson::array()}};
  // The parts are the exact ns of the JSON (never its ms through a double): they add up exactly. The
  // ms fields disagree on purpose (rounded, as --reference-compat writes them) and must not be read.
  for (int i = 0; i < 25; ++i)
    ops["operator_statistic"].push_back({{"name", "op" + std::to_string(i)}, {"base_ms", 0.01 * i},
                                         {"base_ns", 100000 * i}, {"comparison_ms", 0.0},
                                         {"comparison_ns", 100000 * (24 - i) + 3}});
  auto w = ItemWaterfall(ops, 10);
  ASSERT_TRUE(w.has_value());
  ASSERT_EQ(w->parts.size(), 11u);
  EXPECT_EQ(w->parts.back().label, "other (15 operators)");
  EXPECT_EQ(Sum(*w), w->total_ns);
  int64_t total = 0;
  for (int i = 0; i < 25; ++i) total += (100000 * (24 - i) + 3) - 100000 * i;
  EXPECT_EQ(w->total_ns, total);
  // The largest |Δ| first: op0 and op24 (±2.4 ms), in row order.
  EXPECT_EQ(w->parts[0].label, "op0");
  EXPECT_EQ(w->parts[1].label, "op24");
}

TEST(HtmlWaterfall, ModulesBySelfTimeAndNoOtherWhenAllShown) {
  OrderedJson ops = OrderedJson::parse(R"({"kind": "module", "module_statistic": [
      {"module_name": "/a", "base_self_ns": 1000000, "comparison_self_ns": 1500000, "base_total_ns": 9, "comparison_total_ns": 1},
      {"module_name": "/a/b", "base_self_ns": 2000000, "comparison_self_ns": 1000000}]})");
  auto w = ItemWaterfall(ops, 10);
  ASSERT_TRUE(w.has_value());
  ASSERT_EQ(w->parts.size(), 2u);
  EXPECT_EQ(w->parts[0].label, "/a/b");
  EXPECT_EQ(w->parts[0].delta_ns, -1000000);
  EXPECT_EQ(w->total_ns, -500000);
  EXPECT_FALSE(ItemWaterfall(OrderedJson(), 10).has_value());
  EXPECT_FALSE(ItemWaterfall(OrderedJson::parse(R"({"kind":"operator","operator_statistic":[]})"), 10));
}

TEST(HtmlCharts, WaterfallSvgEscapesAndShowsEveryPart) {
  Waterfall w{"t", "total", {{"<b>x</b>", 5}, {"y", -2}}, 3};
  const std::string svg = WaterfallSvg(w);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;b&gt;x&lt;/b&gt;"), std::string::npos);
  size_t bars = 0;
  for (size_t p = svg.find("class=\"wf\""); p != std::string::npos; p = svg.find("class=\"wf\"", p + 1)) ++bars;
  EXPECT_EQ(bars, 3u);
  EXPECT_NE(svg.find("data-delta-ns=\"-2\""), std::string::npos);
}

// The heat map: a cell per row and column, the largest the darkest red, a zero cell white, the values
// written in when the cells are wide enough, every label escaped.
TEST(HtmlCharts, HeatMapShadesByValueAndEscapes) {
  HeatMap m{"waiter", "waits on", "waits on", {"r<0>", "r1"}, {"c0", "c1"}, {{4'000'000, 0}, {1'000'000, 2'000'000}}};
  const std::string svg = HeatMapSvg(m);
  size_t cells = 0;
  for (size_t p = svg.find("class=\"hm\""); p != std::string::npos; p = svg.find("class=\"hm\"", p + 1)) ++cells;
  EXPECT_EQ(cells, 4u);
  EXPECT_EQ(svg.find("r<0>"), std::string::npos);
  EXPECT_NE(svg.find("<title>r&lt;0&gt; waits on c0: 4.000 ms</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("data-ns=\"4000000\" x=\"110\" y=\"44\" width=\"110\" height=\"24\" fill=\"#d9534f\""),
            std::string::npos) << svg;  // the largest: the full red
  EXPECT_NE(svg.find("data-ns=\"0\" x=\"220\" y=\"44\" width=\"110\" height=\"24\" fill=\"#ffffff\""),
            std::string::npos) << svg;
  EXPECT_NE(svg.find(">2.000</text>"), std::string::npos);  // 110 px cells: values written in
}

// The columns: one per item on the scale of the tallest, a legend entry per colour, zero columns flat.
TEST(HtmlCharts, ColumnsOnOneScaleWithALegend) {
  const std::string svg = ColumnsSvg({{"a", 2'000'000, "last: rank 1", "#111111"}, {"b", 1'000'000, "last: rank 1", "#111111"},
                                      {"c", 0, "last: rank 0", "#222222"}, {"<d>", 4'000'000, "last: rank 2", "#333333"}},
                                     "4 collectives");
  size_t cols = 0;
  for (size_t p = svg.find("class=\"col\""); p != std::string::npos; p = svg.find("class=\"col\"", p + 1)) ++cols;
  EXPECT_EQ(cols, 4u);
  EXPECT_NE(svg.find("height=\"180.0\" fill=\"#333333\""), std::string::npos) << svg;  // the tallest
  EXPECT_NE(svg.find("height=\"90.0\" fill=\"#111111\""), std::string::npos) << svg;   // half of it
  EXPECT_NE(svg.find("height=\"0.0\" fill=\"#222222\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("&lt;d&gt;: 4.000 ms"), std::string::npos);
  EXPECT_NE(svg.find(">last: rank 2<"), std::string::npos);
  EXPECT_EQ(svg.find(">last: rank 0<"), std::string::npos);  // only a zero column: not in the legend
  EXPECT_NE(svg.find(">4.000 ms</text>"), std::string::npos);  // the axis
}

TEST(HtmlCharts, ShortenAndFormat) {
  EXPECT_EQ(Shorten("abcdef", 3), "abc\xE2\x80\xA6");
  EXPECT_EQ(Shorten("\xC3\xA9\xC3\xA9\xC3\xA9", 2), "\xC3\xA9\xC3\xA9\xE2\x80\xA6");
  EXPECT_EQ(ShortenLabel("/root/mid/leaf", 6), "\xE2\x80\xA6/leaf");
  EXPECT_EQ(FormatMs(-4668393), "-4.668");
  EXPECT_EQ(FormatMs(1500), "0.002");
  EXPECT_EQ(FormatMs(-400), "0.000");
}

// The CSP hash sources come from CMake's hex digests (FIPS 180-4 examples "abc" and ""); the page
// carries the style and script it names. tests/oracle/test_html_csp.py recomputes the digests of
// the page's own <style> and <script> with Python's hashlib.
TEST(HtmlPage, CspHashSourcesFromBuildTimeDigests) {
  EXPECT_EQ(CspHashSource("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='");
  EXPECT_EQ(CspHashSource("E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"),
            "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
  EXPECT_EQ(CspHashSource("abc"), "");  // not a digest
  EXPECT_EQ(CspHashSource(std::string(64, 'g')), "");
  OrderedJson doc = {{"schema", "profdiff.compare/1"}};
  HtmlPageContext ctx;
  ctx.document = &doc;
  const std::string page = RenderHtmlPage(ctx);
  EXPECT_NE(page.find("style-src 'sha256-"), std::string::npos);
  EXPECT_NE(page.find("script-src 'sha256-"), std::string::npos);
  EXPECT_NE(page.find("<style>" + PageStyle() + "</style>"), std::string::npos);
  EXPECT_NE(page.find("<script>" + PageScript() + "</script>"), std::string::npos);
  EXPECT_NE(PageScript().find("items-table"), std::string::npos);
}

// The comparisons without rows are listed with their reason (escaped); none: no section.
// A kernel name over 80 characters is cut in the middle, the whole name on hover; a short one is
// shown whole.
TEST(HtmlItems, LongKernelNamesAreCutInTheMiddle) {
  const std::string long_name = "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT64x32x128_" + std::string(60, 'x') +
                                "_WS64_WG32_8_1";
  OrderedJson k = {{"kind", "shape"},
                   {"base", {{"has_data", true}, {"total_us", 1.0}}},
                   {"comparison", {{"has_data", true}, {"total_us", 2.0}}},
                   {"top_by_diff",
                    {{{"kernel", long_name}, {"input_shape", "[[768]]"}, {"base", {{"total_us", 1.0}}},
                      {"comparison", {{"total_us", 2.0}}}, {"diff_total_us", 1.0}},
                     {{"kernel", "attn_fwd"}, {"input_shape", "N/A"}, {"base", {{"total_us", 1.0}}},
                      {"comparison", {{"total_us", 2.0}}}, {"diff_total_us", 1.0}}}},
                   {"warnings", OrderedJson::array()}};
  const std::string html = KernelSection(k);
  EXPECT_NE(html.find("<td title=\"" + long_name + "\">Cijk_Alik_Bljk"), std::string::npos) << html;
  EXPECT_NE(html.find("_WS64_WG32_8_1</td>"), std::string::npos) << html;
  EXPECT_EQ(html.find(">" + long_name + "<"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>attn_fwd</td>"), std::string::npos) << html;
}

TEST(HtmlItems, EmptyComparisonsSayWhy) {
  const OrderedJson empty = OrderedJson::parse(
      R"([{"comparison": "api", "sheets": ["ApiCompare"], "reason": "neither side has torch operators <x>"}])");
  const std::string html = EmptyComparisonsSection(empty);
  EXPECT_NE(html.find("<h2>Comparisons without rows</h2>"), std::string::npos) << html;
  EXPECT_NE(html.find("ApiCompare"), std::string::npos) << html;
  EXPECT_NE(html.find("neither side has torch operators &lt;x&gt;"), std::string::npos) << html;
  EXPECT_EQ(EmptyComparisonsSection(OrderedJson::array()), "");
}

}  // namespace
}  // namespace profdiff::report::html

namespace profdiff::report::html {
namespace {

// The sortable table's cells: a duration with 3 decimals, a count or a module level without any.
TEST(HtmlItems, CountsAndLevelsHaveNoDecimals) {
  OrderedJson ops = {{"kind", "module"},
                     {"module_statistic",
                      {{{"module_name", "/ A_0"}, {"module_class", "nn.Module: A"}, {"module_level", 2},
                        {"base_total_ms", 1.5}, {"comparison_total_ms", 2.25}, {"total_diff_ms", 0.75},
                        {"base_self_ms", 0.5}, {"comparison_self_ms", 0.5}, {"self_diff_ms", 0.0},
                        {"diff_total_ratio", "INF"}}}}};
  const std::string html = ItemsTableSection(ops);
  EXPECT_NE(html.find("<td class=\"n\" data-v=\"2\">2</td>"), std::string::npos) << html;
  EXPECT_NE(html.find(">1.500</td>"), std::string::npos) << html;
  EXPECT_EQ(html.find(">2.000</td>"), std::string::npos) << html;
}

// The step chart's legend: every entry its own colour (the issue's page drew "other computing",
// "uncovered communication" and "transmit" in one brown), and each label the same colour in both bars.
std::map<std::string, std::set<std::string>> LegendColours(const std::string& svg) {
  std::map<std::string, std::set<std::string>> by_label;  // label -> fills of its segments
  for (size_t at = svg.find("<rect class=\"seg\""); at != std::string::npos;
       at = svg.find("<rect class=\"seg\"", at + 1)) {
    const size_t fill = svg.find("fill=\"", at) + 6;
    const size_t title = svg.find("<title>", at) + 7;
    const size_t colon = svg.rfind(": ", svg.find("</title>", title));  // "<label>: <ms> ms</title>"
    by_label[svg.substr(title, colon - title)].insert(svg.substr(fill, 7));
  }
  return by_label;
}

OrderedJson NpuSide(int64_t groups_sum_delta) {
  // E2E 100 = computing 30 (matmul 10, other 20) + uncovered communication 60 + free 10.
  OrderedJson side = OrderedJson::parse(R"({"device": "NPU", "e2e_ns": 100000000, "computing_ns": 30000000,
      "uncovered_communication_ns": 60000000, "free_ns": 10000000, "steps": [{"id": 1}],
      "computing_split": [{"category": "matmul", "ns": 10000000}, {"category": "other", "ns": 20000000}],
      "communication_groups": [{"group": "g", "uncovered_ns": 60000000, "transmit_ns": 6000000,
                                "wait_ns": 50000000, "idle_ns": 4000000}]})");
  side["communication_groups"][0]["wait_ns"] = 50000000 + groups_sum_delta;
  return side;
}

TEST(HtmlStepChart, SplitsCommunicationWithARemainderAndGivesEveryEntryItsColour) {
  // The base's groups leave 1 ns of its uncovered communication out of their split: still split
  // (transmit, wait, idle and a 1 ns remainder), never drawn as one "uncovered communication" bar.
  OrderedJson doc = {{"sides", {{"base", NpuSide(-1)}, {"comparison", NpuSide(0)}}}};
  doc["sides"]["comparison"]["computing_split"].push_back({{"category", "vector"}, {"ns", 0}});
  const std::string html = StepTimeSection(doc);
  EXPECT_EQ(html.find("<title>uncovered communication:"), std::string::npos) << html;
  EXPECT_NE(html.find("data-ns=\"49999999\""), std::string::npos);  // the base's wait
  EXPECT_NE(html.find("<title>uncovered comm: not in a group&#39;s split: 0.000 ms</title>"), std::string::npos)
      << html;
  const auto colours = LegendColours(html);
  std::set<std::string> fills;
  for (const auto& [label, set] : colours) {
    EXPECT_EQ(set.size(), 1u) << label << " has " << set.size() << " colours";
    EXPECT_TRUE(fills.insert(*set.begin()).second) << label << " shares its colour " << *set.begin();
  }
  EXPECT_GE(colours.size(), 7u);  // matmul, other, transmit, wait, idle, remainder, free
  // Two categories profdiff does not know still get two colours.
  doc["sides"]["base"]["computing_split"].push_back({{"category", "new_a"}, {"ns", 1}});
  doc["sides"]["base"]["computing_split"].push_back({{"category", "new_b"}, {"ns", 1}});
  const auto more = LegendColours(StepTimeSection(doc));
  EXPECT_NE(*more.at("new_a").begin(), *more.at("new_b").begin());
}

TEST(HtmlStepChart, ASideWithoutStepMarkersIsSaidAndNotASliver) {
  OrderedJson doc = {{"sides", {{"base", NpuSide(0)}, {"comparison", NpuSide(0)}}}};
  doc["sides"]["comparison"]["e2e_ns"] = 12900000000;  // a 12.9 s capture
  doc["sides"]["comparison"]["free_ns"] = 12810000000;
  doc["sides"]["comparison"]["steps"] = OrderedJson::array();
  const std::string html = StepTimeSection(doc);
  EXPECT_NE(html.find("comparison: <span class=\"warn\">no step markers: the bar is the whole capture"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("Each bar on its own scale"), std::string::npos);
  EXPECT_EQ(html.find("<h2>Step time</h2>"), std::string::npos);
  // Both bars end where the plot ends (their own scales): the 100 ms bar is no sliver.
  const size_t first = html.find("class=\"bv\""), second = html.find("class=\"bv\"", first + 1);
  ASSERT_NE(second, std::string::npos);
  EXPECT_EQ(html.substr(html.rfind("x=\"", first), 10), html.substr(html.rfind("x=\"", second), 10));
}

TEST(HtmlCharts, WaterfallKeepsValueLabelsInsideAndNamesWhole) {
  Waterfall w;
  w.title = "t";
  w.total_label = "total";
  const std::string name = "autograd::engine::evaluate_function: ConvolutionBackward0";
  w.parts = {{name, -12902345000}, {"x", 1}};
  w.total_ns = -12902344999;
  const std::string svg = WaterfallSvg(w);
  // Every value label starts far enough left for "-12902.345 ms" (13 characters, ~8 px each).
  for (size_t at = svg.find("class=\"wv\""); at != std::string::npos; at = svg.find("class=\"wv\"", at + 1)) {
    const size_t x = svg.rfind("x=\"", at) + 3;
    EXPECT_LE(std::stod(svg.substr(x)) + 8 * 13, 900.0) << svg.substr(x, 80);
  }
  // The name is cut in the middle (its end names the operator) and given whole on hover.
  EXPECT_NE(svg.find("<title>" + name + "</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("ConvolutionBackward0</text>"), std::string::npos) << svg;
  EXPECT_EQ(ShortenMiddle("abcdefghij", 6), "ab\xE2\x80\xA6" "hij");
}

TEST(HtmlMemory, NoChangeIsSaidAndSizesReadable) {
  OrderedJson memory = OrderedJson::parse(R"({"base": {"has_data": true, "size_kb": 2024302.0},
      "comparison": {"has_data": true, "size_kb": 2024302.0}, "top_by_diff": [
      {"base": {"name": "aten::empty", "size_kb": 512.0}, "comparison": {"name": "aten::empty", "size_kb": 512.0},
       "diff_size_kb": 0.0}]})");
  std::string html = MemorySection(memory);
  EXPECT_NE(html.find("No operator's allocated memory changed."), std::string::npos) << html;
  EXPECT_EQ(html.find("aten::empty"), std::string::npos);
  EXPECT_NE(html.find(">1.931 GiB</td>"), std::string::npos) << html;
  EXPECT_EQ(html.find("2024302.000"), std::string::npos);
  memory["top_by_diff"][0]["comparison"]["size_kb"] = 2560.0;
  memory["top_by_diff"][0]["diff_size_kb"] = 2048.0;
  html = MemorySection(memory);
  EXPECT_NE(html.find("data-v=\"512\">512.0 KiB</td><td class=\"n\" data-v=\"2560\">2.500 MiB</td>"),
            std::string::npos)
      << html;
}

}  // namespace
}  // namespace profdiff::report::html
