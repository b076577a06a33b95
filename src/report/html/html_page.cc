#include <fmt/format.h>

#include "html_sections.h"
#include "profdiff/report/html/html_escape.h"
#include "profdiff/report/html/html_report.h"
#include "csp_hash.h"
#include "page_assets.h"  // generated from page.css and page.js (src/report/CMakeLists.txt)

namespace profdiff::report::html {
namespace {

// The machine-readable part of the page: what the charts draw, for readers and tests.
OrderedJson PageData(const OrderedJson& doc, const std::vector<Waterfall>& waterfalls) {
  OrderedJson data;
  data["schema"] = Member(doc, "schema");
  data["inputs"] = Member(doc, "inputs");
  data["deltas"] = Member(doc, "deltas");
  OrderedJson list = OrderedJson::array();
  for (const Waterfall& w : waterfalls) {
    OrderedJson parts = OrderedJson::array();
    for (const WaterfallPart& p : w.parts) parts.push_back({{"label", p.label}, {"delta_ns", p.delta_ns}});
    list.push_back({{"title", w.title}, {"total_label", w.total_label}, {"total_ns", w.total_ns},
                    {"parts", std::move(parts)}});
  }
  data["waterfalls"] = std::move(list);
  return data;
}

std::string Title(const OrderedJson& doc) {
  const OrderedJson& in = Member(doc, "inputs");
  return "profdiff: " + Text(Member(Member(in, "base"), "device")) + " vs " +
         Text(Member(Member(in, "comparison"), "device"));
}

}  // namespace

// The stylesheet and the script are constants (page.css, page.js): the page's CSP allows exactly
// these two, by the SHA-256 CMake computed when it embedded them, so no injected <style> or
// <script> could run even if escaping failed somewhere. The script sorts the operator/module table
// by a clicked column and filters it by name and by "DIFF > 0"; it only moves and hides existing
// rows: no HTML is ever built from data (no innerHTML).
const std::string& PageStyle() {
  static const std::string style = kPageStyle;
  return style;
}

const std::string& PageScript() {
  static const std::string script = kPageScript;
  return script;
}

std::string RenderPageFrame(const PageFrame& frame) {
  const std::string csp = fmt::format(
      "default-src 'none'; style-src {}; script-src {}; img-src 'none'; base-uri 'none'; "
      "form-action 'none'",
      CspHashSource(kPageStyleSha256), CspHashSource(kPageScriptSha256));
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n"
      "<meta name=\"referrer\" content=\"no-referrer\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"profdiff {}\">\n<title>{}</title>\n<style>{}</style>\n"
      "</head>\n<body>\n<h1>{}</h1>\n{}\n"
      "<script type=\"application/json\" id=\"profdiff-data\">{}</script>\n<script>{}</script>\n"
      "</body>\n</html>\n",
      csp, frame.escaped_version, frame.escaped_title, PageStyle(), frame.escaped_title, frame.body,
      EscapeScriptJson(frame.data), PageScript());
}

std::string RenderHtmlPage(const HtmlPageContext& context) {
  static const OrderedJson kEmpty = OrderedJson::object();
  const OrderedJson& doc = context.document ? *context.document : kEmpty;
  std::vector<Waterfall> waterfalls;
  std::string body = SummarySection(doc, context.base_step, context.comparison_step);
  body += StepTimeSection(doc);
  body += WaterfallSection(doc, waterfalls);
  body += MatchSection(Member(doc, "operators"));
  body += ItemsTableSection(Member(doc, "operators"));
  body += CommunicationSection(doc);
  body += MemorySection(Member(doc, "memory"));
  body += KernelSection(Member(doc, "kernels"));
  body += EmptyComparisonsSection(Member(doc, "empty_comparisons"));
  return RenderPageFrame({Title(doc), Text(Member(Member(doc, "tool"), "version")), std::move(body),
                          PageData(doc, waterfalls)});
}

}  // namespace profdiff::report::html
