// The cluster page (report/cluster/cluster_html.h) from the JSON of a small result
// (cluster_fixture.h): its sections, what its charts draw, escaping, no network and the same bytes
// for the same result.
#include "profdiff/report/cluster/cluster_html.h"

#include <gtest/gtest.h>

#include <string>

#include "cluster_fixture.h"
#include "profdiff/report/cluster/cluster_report.h"

namespace profdiff::report {
namespace {

using testing::ClusterFixture;

OrderedJson PageData(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"profdiff-data\">";
  const size_t at = page.find(open);
  if (at == std::string::npos) return nullptr;
  const size_t from = at + open.size();
  return OrderedJson::parse(page.substr(from, page.find("</script>", from) - from));
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ClusterHtml, OneRunSectionsChartsAndHeadline) {
  const std::string page = RenderClusterHtmlPage(ClusterJson(ClusterFixture(false), "9.9"));
  for (const char* id : {"summary", "rank-time", "slow-ranks", "collectives", "wait-matrix"})
    EXPECT_NE(page.find(std::string("<section id=\"") + id + "\">"), std::string::npos) << id;
  EXPECT_EQ(page.find("id=\"run-compare\""), std::string::npos);
  EXPECT_NE(page.find("<b>rank 1</b> holds the step back"), std::string::npos);
  EXPECT_NE(page.find("cause <b>computing</b>"), std::string::npos);
  EXPECT_NE(page.find("<b>rank 1</b> arrives last at 2 of 2 collectives, 40.000 ms late in all"), std::string::npos);
  EXPECT_NE(page.find("rank 1 (slow)"), std::string::npos);
  // The rank bars: each rank's mean step, segments as drawn.
  const OrderedJson data = PageData(page);
  ASSERT_TRUE(data.is_object()) << page;
  EXPECT_EQ(data["schema"], "profdiff.cluster/1");
  ASSERT_EQ(data["rank_bars"].size(), 2u);
  EXPECT_EQ(data["rank_bars"][1]["computing_ns"], 30'000'000);
  EXPECT_EQ(data["rank_bars"][0]["communication_ns"], 25'000'000);
  EXPECT_EQ(Count(page, "<rect class=\"seg\""), 6u);  // 2 ranks x 3 categories
  // The skew chart: a column per collective, coloured by the last rank.
  EXPECT_EQ(Count(page, "<rect class=\"col\""), 2u);
  EXPECT_NE(page.find("last: rank 1"), std::string::npos);
  EXPECT_EQ(data["collective_skew"][0]["skew_ns"], 20'000'000);
  // The heat map: one waiter, one blocker, the largest cell the darkest red.
  EXPECT_EQ(Count(page, "<rect class=\"hm\""), 1u);
  EXPECT_NE(page.find("<title>rank 0 waits on rank 1: 40.000 ms</title>"), std::string::npos);
  EXPECT_NE(page.find("fill=\"#d9534f\""), std::string::npos);
  EXPECT_TRUE(data["verdict"].is_null());
}

TEST(ClusterHtml, TwoRunsVerdictAndPerRankDeltas) {
  const std::string page = RenderClusterHtmlPage(ClusterJson(ClusterFixture(true), "9.9"));
  EXPECT_NE(page.find("<section id=\"run-compare\">"), std::string::npos);
  EXPECT_NE(page.find("Verdict: <b class=\"verdict\">regression</b>"), std::string::npos);
  EXPECT_NE(page.find("rank 1 is a new straggler"), std::string::npos);
  EXPECT_NE(page.find("20.000 ms &rarr; 40.000 ms (<b>+20.000 ms</b>, +100.0 %)"), std::string::npos);
  EXPECT_NE(page.find("rank 1 (new slow rank)"), std::string::npos);
  // Rank 0's communication grew 20 ms (red), its free time did not change (no colour).
  EXPECT_NE(page.find("<td class=\"n up\" data-v=\"20000000\">+20.000</td>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"n\" data-v=\"0\">0.000</td>"), std::string::npos);
  EXPECT_EQ(PageData(page)["verdict"], "regression");
  EXPECT_NE(page.find("<title>profdiff cluster: runs/slow vs runs/base</title>"), std::string::npos);
  // Below: the collectives' skew grew 40 ms (red), the stage's computing, the ranks by percentile.
  const size_t detail = page.find("<section id=\"run-detail\">");
  ASSERT_NE(detail, std::string::npos);
  EXPECT_NE(page.find("<td>allreduce</td><td>2</td><td>2</td><td class=\"n\" data-v=\"0\">0.000</td><td class=\"n "
                      "up\" data-v=\"40000000\">+40.000</td>",
                      detail),
            std::string::npos);
  EXPECT_NE(page.find("Computing +20.000 ms, Communication(Not Overlapped) +20.000 ms, Free 0.000 ms", detail),
            std::string::npos);
  EXPECT_NE(page.find("<h3>Ranks by percentile</h3>", detail), std::string::npos);
  EXPECT_EQ(RenderClusterHtmlPage(ClusterJson(ClusterFixture(false), "9.9")).find("run-detail"), std::string::npos);
}

TEST(ClusterHtml, EscapedSelfContainedAndTheSameBytes) {
  ClusterResult r = ClusterFixture(false);
  r.run_path = "runs/<script>alert(1)</script>";
  r.collectives.collectives[0].name = "<img src=x onerror=alert(1)>";
  const OrderedJson doc = ClusterJson(r, "9.9");
  const std::string page = RenderClusterHtmlPage(doc);
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_NE(page.find("runs/&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
  for (const char* attr : {"src=\"", "href=\""})
    for (const char* scheme : {"//", "http://", "https://"})
      EXPECT_EQ(page.find(std::string(attr) + scheme), std::string::npos) << attr << scheme;
  EXPECT_EQ(page, RenderClusterHtmlPage(doc));
  // Nothing to show: the sections say so instead of drawing empty charts.
  ClusterResult empty;
  empty.run_path = "none";
  const std::string bare = RenderClusterHtmlPage(ClusterJson(empty, "9.9"));
  EXPECT_NE(bare.find("No collective is matched across ranks"), std::string::npos);
  EXPECT_NE(bare.find("Nobody waited"), std::string::npos);
  EXPECT_EQ(bare.find("id=\"rank-time\""), std::string::npos);
}

}  // namespace
}  // namespace profdiff::report
