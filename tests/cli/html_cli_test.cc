// `profdiff compare --html FILE` end to end (cli::Run, in-process): the page is written through the
// safe output rules, is self-contained, carries its charts, its waterfalls add up to the JSON
// result's numbers, and names from a trace come out as text (docs/html-report.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../report/report_test_util.h"
#include "profdiff/cli/app.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using report::testing::TempDir;

const std::string kData = PROFDIFF_SOURCE_DIR "/tests/data";
const std::string kH100Before = kData + "/kineto_h100_tiny/before_fix_trace.json";
const std::string kH100After = kData + "/kineto_h100_tiny/after_fix_trace.json";
const std::string kTraceView = kData + "/ascend_trace_view/trace_view.json";
const std::string kCorpus = PROFDIFF_SOURCE_DIR "/../shared/corpus";

const char* kScriptName = "<script>alert(1)</script>";
const char* kImgName = "\"><img src=x onerror=alert(1)>";

int RunCli(std::vector<std::string> args, std::string* err = nullptr) {
  args.insert(args.begin(), "profdiff");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, errs;
  const int rc = Run(static_cast<int>(argv.size()), argv.data(), out, errs);
  if (err) *err = errs.str();
  return rc;
}

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// The page's embedded data block, parsed.
json PageData(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"profdiff-data\">";
  const size_t a = page.find(open);
  EXPECT_NE(a, std::string::npos);
  if (a == std::string::npos) return json();
  const size_t b = page.find("</script>", a);
  return json::parse(page.substr(a + open.size(), b - a - open.size()));
}

// Self-contained: nothing refers to the network or to another file, a CSP forbids loads.
void ExpectSelfContained(const std::string& page) {
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  // No tag has a src or href attribute (a name's "src=" is escaped text, never inside a tag).
  for (size_t p = page.find('<'); p != std::string::npos; p = page.find('<', p + 1)) {
    const std::string tag = page.substr(p, page.find('>', p) - p);
    for (const char* attr : {" src=", " href=", ":href=", " srcset="})
      EXPECT_EQ(tag.find(attr), std::string::npos) << tag;
  }
  EXPECT_NE(page.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"),
            std::string::npos);
  EXPECT_EQ(Count(page, "<script"), 2u);  // the data block and the page's own script
  EXPECT_EQ(Count(page, "<style"), 1u);
}

// Each drawn waterfall's bars (data-delta-ns, the last one the total) add up, and so do the parts
// of the embedded data; the first waterfall's total is the JSON result's ΔE2E.
void ExpectWaterfallsSum(const std::string& page, const json& result) {
  const std::string open = "<svg class=\"chart waterfall\"", bar = "class=\"wf\" data-delta-ns=\"";
  int charts = 0;
  for (size_t a = page.find(open); a != std::string::npos; a = page.find(open, a + 1)) {
    const std::string svg = page.substr(a, page.find("</svg>", a) - a);
    std::vector<int64_t> bars;
    for (size_t b = svg.find(bar); b != std::string::npos; b = svg.find(bar, b + 1))
      bars.push_back(std::stoll(svg.substr(b + bar.size())));
    EXPECT_GE(bars.size(), 2u);
    int64_t sum = 0;
    for (size_t i = 0; i + 1 < bars.size(); ++i) sum += bars[i];
    if (!bars.empty()) {
      EXPECT_EQ(sum, bars.back()) << "waterfall " << charts;
    }
    ++charts;
  }
  EXPECT_GE(charts, 1);
  const json data = PageData(page);
  ASSERT_TRUE(data["waterfalls"].is_array());
  EXPECT_EQ(static_cast<int>(data["waterfalls"].size()), charts);
  for (const json& w : data["waterfalls"]) {
    int64_t sum = 0;
    for (const json& p : w["parts"]) sum += p["delta_ns"].get<int64_t>();
    EXPECT_EQ(sum, w["total_ns"].get<int64_t>()) << w["title"];
  }
  EXPECT_EQ(data["waterfalls"][0]["total_ns"], result["deltas"]["e2e_delta_ns"]);
  EXPECT_EQ(data["deltas"], result["deltas"]);
}

// Each side's stacked bar: its segments (data-ns) add up to its E2E (data-total-ns), and the two
// totals are the JSON result's sides' e2e_ns.
void ExpectStackedBarsSum(const std::string& page, const json& result) {
  const std::string open = "<g class=\"bar\" data-total-ns=\"", seg = "class=\"seg\" data-ns=\"";
  std::vector<int64_t> totals;
  for (size_t a = page.find(open); a != std::string::npos; a = page.find(open, a + 1)) {
    const std::string g = page.substr(a, page.find("</g>", a) - a);
    int64_t sum = 0;
    for (size_t b = g.find(seg); b != std::string::npos; b = g.find(seg, b + 1))
      sum += std::stoll(g.substr(b + seg.size()));
    totals.push_back(std::stoll(g.substr(open.size())));
    EXPECT_EQ(sum, totals.back()) << "bar " << totals.size();
  }
  ASSERT_EQ(totals.size(), 2u);
  EXPECT_EQ(totals[0], result["sides"]["base"]["e2e_ns"].get<int64_t>());
  EXPECT_EQ(totals[1], result["sides"]["comparison"]["e2e_ns"].get<int64_t>());
}

TEST(HtmlCli, BundledGpuVsNpuPageIsSelfContainedWithChartsThatSum) {
  TempDir dir;
  const std::string html = dir / "report.html", js = dir / "result.json";
  ASSERT_EQ(RunCli({"compare", "-bp", kH100Before, "-d", kTraceView, "--no-xlsx", "-q", "--html",
                    html, "--json", js}), 0);
  const std::string page = ReadAll(html);
  const json result = json::parse(ReadAll(js));
  ExpectSelfContained(page);
  ExpectWaterfallsSum(page, result);
  ExpectStackedBarsSum(page, result);
  EXPECT_GE(Count(page, "<svg class=\"chart"), 2u);  // the step-time bars and a waterfall
  for (const char* id : {"summary", "step-time", "waterfall", "match", "items"})
    EXPECT_NE(page.find(std::string("<section id=\"") + id + "\""), std::string::npos) << id;
  EXPECT_NE(page.find("<table id=\"items-table\" class=\"sortable\">"), std::string::npos);
  EXPECT_NE(page.find("<input id=\"positive\" type=\"checkbox\"> DIFF &gt; 0"), std::string::npos);
  // The JSON result lists the page among its outputs; the page is 0644.
  EXPECT_EQ(result["outputs"].back(), fs::absolute(html).string());
  EXPECT_EQ(fs::status(html).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
}

TEST(HtmlCli, HostileNamesInATraceComeOutAsText) {
  TempDir dir;
  // One operator named like a script, one like an attribute breakout; the second trace's file name
  // is hostile too (it is shown as the input's path).
  auto trace = [](int kernel_us) {
    json ev = json::array();
    ev.push_back({{"ph", "X"}, {"cat", "cpu_op"}, {"name", kScriptName}, {"pid", 1}, {"tid", 1},
                  {"ts", 1000}, {"dur", 50}, {"args", {{"External id", 1}}}});
    ev.push_back({{"ph", "X"}, {"cat", "cpu_op"}, {"name", kImgName}, {"pid", 1}, {"tid", 1},
                  {"ts", 1100}, {"dur", 50}, {"args", {{"External id", 2}}}});
    ev.push_back({{"ph", "X"}, {"cat", "cuda_runtime"}, {"name", "cudaLaunchKernel"}, {"pid", 1},
                  {"tid", 1}, {"ts", 1010}, {"dur", 5}, {"args", {{"correlation", 11}, {"External id", 1}}}});
    ev.push_back({{"ph", "X"}, {"cat", "kernel"}, {"name", "k</script><b>"}, {"pid", 0}, {"tid", 7},
                  {"ts", 1020}, {"dur", kernel_us},
                  {"args", {{"stream", 7}, {"device", 0}, {"correlation", 11}, {"External id", 1}}}});
    ev.push_back({{"ph", "s"}, {"cat", "ac2g"}, {"id", 11}, {"pid", 1}, {"tid", 1}, {"ts", 1010}, {"name", "ac2g"}});
    ev.push_back({{"ph", "f"}, {"cat", "ac2g"}, {"id", 11}, {"pid", 0}, {"tid", 7}, {"ts", 1020},
                  {"bp", "e"}, {"name", "ac2g"}});
    return json{{"schemaVersion", 1}, {"traceEvents", ev}}.dump();
  };
  const std::string base = dir / "base.json", comp = dir / (std::string(kImgName) + ".json");
  std::ofstream(base) << trace(30);
  std::ofstream(comp) << trace(80);
  const std::string html = dir / "page.html", js = dir / "result.json";
  ASSERT_EQ(RunCli({"compare", "-bp", base, "-d", comp, "--no-xlsx", "-q", "--html", html, "--json", js}), 0);
  const std::string page = ReadAll(html);
  const json result = json::parse(ReadAll(js));
  // The names reached the result (so the page had them to show) ...
  ASSERT_EQ(result["operators"]["operator_statistic"][0]["name"], kScriptName);
  // ... and came out as text: no tag from a name, each name escaped in the table.
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_EQ(page.find("k</script>"), std::string::npos);  // the kernel name
  EXPECT_NE(page.find("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</td>"), std::string::npos);
  EXPECT_NE(page.find("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;.json</code>"), std::string::npos);
  ExpectSelfContained(page);
  ExpectWaterfallsSum(page, result);
  // In the data block the names are \u003c-escaped and still decode to themselves.
  const json data = PageData(page);
  bool found = false;
  for (const json& p : data["waterfalls"][1]["parts"]) found = found || p["label"] == kScriptName;
  EXPECT_TRUE(found);
}

TEST(HtmlCli, NeverOverwritesWithoutForceAndChecksBeforeWork) {
  TempDir dir;
  const std::string html = dir / "page.html";
  std::ofstream(html) << "keep";
  std::string err;
  EXPECT_EQ(RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--no-xlsx", "-q", "--html", html}, &err), 2);
  EXPECT_NE(err.find("--force"), std::string::npos) << err;
  EXPECT_EQ(ReadAll(html), "keep");
  EXPECT_EQ(RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--no-xlsx", "-q", "--html", html,
                    "--force"}), 0);
  EXPECT_NE(ReadAll(html).find("<!DOCTYPE html>"), std::string::npos);
  // A missing directory fails before loading and leaves nothing.
  EXPECT_EQ(RunCli({"compare", "-bp", kH100Before, "-d", kH100After, "--no-xlsx", "-q", "--html",
                    dir / "no/such/dir/page.html"}), 3);
  // A run that fails after the checks (an unknown NPU step) writes no page.
  const std::string late = dir / "late.html";
  EXPECT_NE(RunCli({"compare", "-bp", kTraceView, "-d", kTraceView, "--no-xlsx", "-q", "--html", late,
                    "--base_step", "999", "--comparison_step", "999"}), 0);
  EXPECT_FALSE(fs::exists(late));
}

TEST(HtmlCli, CorpusPairsStayUnderFiveMegabytes) {
  const fs::path gpu = fs::path(kCorpus) /
      "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
  const fs::path gpu2 = fs::path(kCorpus) /
      "kineto_resnet50_v100_2021jun_devprops/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz";
  const fs::path npu0 = fs::path(kCorpus) / "msinsight_pt_text_2025_level1/rank0_ascend_pt";
  const fs::path npu1 = fs::path(kCorpus) / "msinsight_pt_text_2025_level1/rank1_ascend_pt";
  for (const fs::path& p : {gpu, gpu2, npu0, npu1})
    if (!fs::exists(p)) GTEST_SKIP() << "shared corpus not found: " << p;
  const std::pair<fs::path, fs::path> pairs[] = {{gpu, npu0}, {npu0, npu1}, {gpu, gpu2}};
  TempDir dir;
  int i = 0;
  for (const auto& [b, c] : pairs) {
    const std::string html = dir / ("p" + std::to_string(i) + ".html"), js = dir / ("p" + std::to_string(i) + ".json");
    ++i;
    ASSERT_EQ(RunCli({"compare", "-bp", b.string(), "-d", c.string(), "--no-xlsx", "-q", "--html", html,
                      "--json", js}), 0) << b << " vs " << c;
    const std::string page = ReadAll(html);
    EXPECT_LT(page.size(), 5u * 1024 * 1024) << html;
    ExpectSelfContained(page);
    const json result = json::parse(ReadAll(js));
    ExpectWaterfallsSum(page, result);
    ExpectStackedBarsSum(page, result);
    EXPECT_GE(Count(page, "<svg class=\"chart"), 3u);  // bars, ΔE2E waterfall, operator/module waterfall
  }
}

}  // namespace
}  // namespace profdiff::cli
