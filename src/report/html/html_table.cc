#include "profdiff/report/html/html_table.h"

#include <fmt/format.h>

#include "profdiff/report/html/html_escape.h"

namespace profdiff::report::html {

// A number with at most `digits` decimals, trailing zeros kept as the JSON has them.
std::string Number(double v, int digits) { return fmt::format("{:.{}f}", v, digits); }

std::string Th(std::string_view text) { return "<th>" + EscapeText(text) + "</th>"; }
std::string Td(const std::string& escaped) { return "<td>" + escaped + "</td>"; }

std::string NumCell(double v, int digits) {
  return fmt::format("<td class=\"n\" data-v=\"{}\">{}</td>", v, Number(v, digits));
}

std::string SimpleTable(const std::vector<std::string>& headers, const std::vector<std::string>& rows) {
  std::string out = "<table><thead><tr>";
  for (const std::string& h : headers) out += Th(h);
  out += "</tr></thead><tbody>";
  for (const std::string& r : rows) out += "<tr>" + r + "</tr>";
  return out + "</tbody></table>";
}

const OrderedJson& Member(const OrderedJson& j, const char* key) {
  static const OrderedJson kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

std::string Text(const OrderedJson& j) {
  if (j.is_null()) return "";
  if (j.is_string()) return EscapeText(j.get<std::string>());
  if (j.is_number_float()) return Number(j.get<double>(), 3);
  return EscapeText(j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace));
}

std::string MsCell(const OrderedJson& v) {
  if (v.is_number_integer()) return NumCell(v.get<double>(), 0);  // a count or a level: no decimals
  if (v.is_number()) return NumCell(v.get<double>(), 3);
  // "INF" sorts above every number; null below.
  const char* key = v.is_string() && v.get<std::string>() == "INF" ? "1e308" : "-1e308";
  return fmt::format("<td class=\"n\" data-v=\"{}\">{}</td>", key, Text(v));
}

std::string VerdictHtml(const OrderedJson& verdict) {
  if (!verdict.is_object()) return "<p>Verdict: no gate was requested (no <code>--gate-*</code> option).</p>";
  std::string out = "<p>Verdict: <b class=\"verdict\">" + Text(Member(verdict, "result")) + "</b></p><ul>";
  for (const OrderedJson& r : Member(verdict, "unsafe_reasons")) out += "<li>cannot pass: " + Text(r) + "</li>";
  for (const OrderedJson& c : Member(verdict, "checks")) out += "<li>" + Text(Member(c, "reason")) + "</li>";
  return out + "</ul>";
}

}  // namespace profdiff::report::html
