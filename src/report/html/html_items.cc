// The operator/module part of the page: the sortable, filterable table and the match rate.
#include <fmt/format.h>

#include "html_sections.h"
#include "profdiff/report/html/html_escape.h"

namespace profdiff::report::html {
namespace {

std::string Th(const char* text, bool numeric) {
  return fmt::format("<th{} tabindex=\"0\">{}</th>", numeric ? " class=\"n\"" : "", EscapeText(text));
}

// data-diff drives the "DIFF > 0" toggle: the row's main diff as a number (null counts 0).
std::string RowStart(const OrderedJson& diff) {
  return fmt::format("<tr data-diff=\"{}\">", diff.is_number() ? diff.get<double>() : 0.0);
}

std::string OperatorRow(const OrderedJson& r) {
  return RowStart(Member(r, "diff_ms")) + "<td>" + Text(Member(r, "name")) + "</td>" +
         MsCell(Member(r, "base_ms")) + MsCell(Member(r, "base_count")) +
         MsCell(Member(r, "comparison_ms")) + MsCell(Member(r, "comparison_count")) +
         MsCell(Member(r, "diff_ms")) + MsCell(Member(r, "diff_ratio")) + "</tr>";
}

std::string ModuleRow(const OrderedJson& r) {
  return RowStart(Member(r, "total_diff_ms")) + "<td>" + Text(Member(r, "module_name")) + "</td><td>" +
         Text(Member(r, "module_class")) + "</td>" + MsCell(Member(r, "module_level")) +
         MsCell(Member(r, "base_total_ms")) + MsCell(Member(r, "comparison_total_ms")) +
         MsCell(Member(r, "total_diff_ms")) + MsCell(Member(r, "base_self_ms")) +
         MsCell(Member(r, "comparison_self_ms")) + MsCell(Member(r, "self_diff_ms")) +
         MsCell(Member(r, "diff_total_ratio")) + "</tr>";
}

std::string UnmatchedList(const char* which, const OrderedJson& names) {
  if (!names.is_array() || names.empty()) return "";
  std::string out = fmt::format("<h3>Heaviest unmatched on the {} side</h3><ol>", which);
  for (const OrderedJson& n : names) {
    const OrderedJson& ns = Member(n, "device_ns");
    out += fmt::format("<li><code>{}</code> &times;{}, {} ms</li>", Text(Member(n, "name")),
                       Text(Member(n, "count")),
                       ns.is_number() ? fmt::format("{:.3f}", ns.get<double>() / 1e6) : std::string("?"));
  }
  return out + "</ol>";
}

}  // namespace

std::string ItemsTableSection(const OrderedJson& operators) {
  if (!operators.is_object()) return "";
  const bool modules = Member(operators, "kind") == "module";
  const OrderedJson& rows = Member(operators, modules ? "module_statistic" : "operator_statistic");
  if (!rows.is_array() || rows.empty()) return "";
  std::string head;
  if (modules) {
    head = Th("module", false) + Th("class", false) + Th("level", true) + Th("base total (ms)", true) +
           Th("comparison total (ms)", true) + Th("total diff (ms)", true) + Th("base self (ms)", true) +
           Th("comparison self (ms)", true) + Th("self diff (ms)", true) + Th("total ratio", true);
  } else {
    head = Th("operator", false) + Th("base (ms)", true) + Th("base count", true) +
           Th("comparison (ms)", true) + Th("comparison count", true) + Th("diff (ms)", true) +
           Th("ratio", true);
  }
  std::string body;
  for (const OrderedJson& r : rows) body += modules ? ModuleRow(r) : OperatorRow(r);
  return fmt::format(
      "<section id=\"items\"><h2>{}</h2><p class=\"controls\"><label>Filter <input id=\"filter\" "
      "type=\"search\" placeholder=\"name contains\"></label> <label><input id=\"positive\" "
      "type=\"checkbox\"> DIFF &gt; 0 only</label> <span id=\"shown\"></span></p>"
      "<p class=\"note\">Click a column header to sort.</p><table id=\"items-table\" class=\"sortable\">"
      "<thead><tr>{}</tr></thead><tbody>{}</tbody></table></section>",
      modules ? "Modules" : "Operators", head, body);
}

std::string MatchSection(const OrderedJson& operators) {
  if (!operators.is_object()) return "";
  const OrderedJson& rate = Member(operators, "match_rate");
  auto pct = [](const OrderedJson& v) {
    return v.is_number() ? fmt::format("{:.1f} %", v.get<double>() * 100) : std::string("n/a");
  };
  std::string out = fmt::format(
      "<section id=\"match\"><h2>Matching</h2><p>Matched {} of {} base and {} comparison {} "
      "(<b>{}</b> of the base, <b>{}</b> of the comparison); matching: {}.</p>",
      Text(Member(rate, "matched")), Text(Member(rate, "base_items")),
      Text(Member(rate, "comparison_items")), Member(operators, "kind") == "module" ? "modules" : "operators",
      pct(Member(rate, "base")), pct(Member(rate, "comparison")), Text(Member(operators, "matching")));
  const OrderedJson& quality = Member(operators, "match_quality");
  if (Member(quality, "low") == true)
    out += "<p class=\"warn\">Low match. Likely causes: " + Text(Member(quality, "reason")) + "</p>";
  out += UnmatchedList("base", Member(quality, "base_unmatched"));
  out += UnmatchedList("comparison", Member(quality, "comparison_unmatched"));
  const OrderedJson& suggestions = Member(quality, "op_name_map_suggestions");
  if (suggestions.is_array() && !suggestions.empty()) {
    out += "<h3>Suggested <code>--op_name_map</code> pairs</h3><p>Each was tried: with it, the pairing "
           "matches more operators.</p><ul>";
    for (const OrderedJson& s : suggestions) {
      out += "<li><code>" + Text(Member(s, "base")) + "</code> &rarr; <code>" + Text(Member(s, "comparison")) +
             "</code>: " + Text(Member(s, "matched_gain")) + " more matched";
      const OrderedJson& whole = Member(s, "wrappers_no_longer_drilled");
      if (whole.is_number() && whole.get<uint64_t>() > 0)
        out += "; the pairing then drills into " + Text(whole) +
               " fewer wrapper(s): their operators are compared as one row each, no longer one by one";
      out += "</li>";
    }
    out += "</ul>";
  }
  return out + "</section>";
}

}  // namespace profdiff::report::html
