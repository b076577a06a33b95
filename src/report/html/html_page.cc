#include <fmt/format.h>

#include "html_sections.h"
#include "profdiff/report/html/html_escape.h"
#include "profdiff/report/html/html_report.h"
#include "sha256.h"

namespace profdiff::report::html {
namespace {

// The stylesheet and the script are constants: the page's CSP allows exactly these two (by their
// SHA-256), so no injected <style> or <script> could run even if escaping failed somewhere.
constexpr const char* kStyle = R"CSS(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}
th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f2f2f2}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
table.sortable th{cursor:pointer}table.sortable th[aria-sort]{background:#dde6f3}
code{font-size:.95em;word-break:break-all}.warn{color:#8a4b00}.note{color:#555;font-size:.9em}
.verdict{text-transform:uppercase}svg.chart{max-width:100%;height:auto;display:block;margin:.5em 0}
svg text{font-size:12px;fill:#222}svg text.wl{text-anchor:end}svg text.bl{font-weight:bold}
tr[hidden]{display:none}.controls input[type=search]{width:20em}
)CSS";

// Sorts the operator/module table by a clicked column (numbers by their data-v value, text by
// its content) and filters it by name and by "DIFF > 0". It only moves and hides existing rows:
// no HTML is ever built from data (no innerHTML).
constexpr const char* kScript = R"JS(
(function () {
  'use strict';
  var table = document.getElementById('items-table');
  if (!table) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var filter = document.getElementById('filter');
  var positive = document.getElementById('positive');
  var shown = document.getElementById('shown');
  function apply() {
    var q = filter.value.toLowerCase();
    var count = 0;
    rows.forEach(function (r) {
      var ok = (!q || r.textContent.toLowerCase().indexOf(q) >= 0) &&
               (!positive.checked || parseFloat(r.getAttribute('data-diff')) > 0);
      r.hidden = !ok;
      if (ok) count++;
    });
    shown.textContent = count + ' of ' + rows.length + ' rows';
  }
  function key(r, i) {
    var c = r.cells[i];
    var v = c.getAttribute('data-v');
    return v === null ? c.textContent.toLowerCase() : parseFloat(v);
  }
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, i) {
    function sort() {
      var dir = th.getAttribute('aria-sort') === 'descending' ? 1 : -1;
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
      rows.sort(function (a, b) {
        var x = key(a, i), y = key(b, i);
        return x < y ? -dir : x > y ? dir : 0;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    }
    th.addEventListener('click', sort);
    th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sort(); });
  });
  filter.addEventListener('input', apply);
  positive.addEventListener('change', apply);
  apply();
})();
)JS";

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

const std::string& PageStyle() {
  static const std::string style = kStyle;
  return style;
}

const std::string& PageScript() {
  static const std::string script = kScript;
  return script;
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
  const std::string csp = fmt::format(
      "default-src 'none'; style-src {}; script-src {}; img-src 'none'; base-uri 'none'; "
      "form-action 'none'",
      CspHashSource(PageStyle()), CspHashSource(PageScript()));
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n"
      "<meta name=\"referrer\" content=\"no-referrer\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"profdiff {}\">\n<title>{}</title>\n<style>{}</style>\n"
      "</head>\n<body>\n<h1>{}</h1>\n{}\n"
      "<script type=\"application/json\" id=\"profdiff-data\">{}</script>\n<script>{}</script>\n"
      "</body>\n</html>\n",
      csp, Text(Member(Member(doc, "tool"), "version")), Title(doc), PageStyle(), Title(doc), body,
      EscapeScriptJson(PageData(doc, waterfalls)), PageScript());
}

}  // namespace profdiff::report::html
