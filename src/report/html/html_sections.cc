#include "html_sections.h"

#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "profdiff/report/html/html_escape.h"
#include "profdiff/report/html/svg_charts.h"

namespace profdiff::report::html {
namespace {

constexpr size_t kWaterfallItems = 10;

int64_t Int(const OrderedJson& j, const char* key) {
  const OrderedJson& v = Member(j, key);
  return v.is_number() ? v.get<int64_t>() : 0;
}

std::string Str(const OrderedJson& j, const char* key) {
  const OrderedJson& v = Member(j, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

// A number with at most `digits` decimals, trailing zeros kept as the JSON has them.
std::string Number(double v, int digits) { return fmt::format("{:.{}f}", v, digits); }

std::string Th(std::string_view text) { return "<th>" + EscapeText(text) + "</th>"; }
std::string Td(const std::string& escaped) { return "<td>" + escaped + "</td>"; }

// A sortable number cell: the exact value in data-v, the shown value with 3 decimals.
std::string NumCell(double v, int digits) {
  return fmt::format("<td class=\"n\" data-v=\"{}\">{}</td>", v, Number(v, digits));
}

std::string ComputingLabel(const std::string& category) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"flash_attention_fwd", "flash attention (fwd)"}, {"flash_attention_bwd", "flash attention (bwd)"},
      {"conv_fwd", "conv (fwd)"}, {"conv_bwd", "conv (bwd)"}, {"matmul", "matmul"},
      {"page_attention", "page attention"}, {"vector", "vector"}, {"cube", "cube"},
      {"sdma_tensor_move", "SDMA (tensor move)"}, {"other", "other computing"}};
  for (const auto& [key, name] : kNames)
    if (category == key) return name;
  return category;
}

// One side's bar: its computing split, its uncovered communication (split into transmit, wait and
// idle when the groups' uncovered times add up to the side's), and free time. The segments always
// add up to E2E: a split that does not add up leaves its remainder as its own segment.
StackedBar SideBar(const std::string& which, const OrderedJson& side) {
  StackedBar bar;
  bar.label = which + ": " + Str(side, "device");
  bar.total_ns = Int(side, "e2e_ns");
  const int64_t computing = Int(side, "computing_ns");
  int64_t split_sum = 0;
  int color = 0;
  for (const OrderedJson& c : Member(side, "computing_split")) {
    bar.segments.push_back({ComputingLabel(Str(c, "category")), Int(c, "ns"), color++});
    split_sum += Int(c, "ns");
  }
  if (split_sum != computing) bar.segments.push_back({"computing (not split)", computing - split_sum, 10});
  const int64_t comm = Int(side, "uncovered_communication_ns");
  int64_t transmit = 0, wait = 0, idle = 0, groups_sum = 0;
  const OrderedJson& groups = Member(side, "communication_groups");
  for (const OrderedJson& g : groups) {
    transmit += Int(g, "transmit_ns");
    wait += Int(g, "wait_ns");
    idle += Int(g, "idle_ns");
    groups_sum += Int(g, "uncovered_ns");
  }
  if (groups.is_array() && !groups.empty() && groups_sum == comm) {
    bar.segments.push_back({"uncovered comm: transmit", transmit, 11});
    bar.segments.push_back({"uncovered comm: wait", wait, 12});
    bar.segments.push_back({"uncovered comm: idle", idle, 13});
  } else {
    bar.segments.push_back({"uncovered communication", comm, 11});
  }
  bar.segments.push_back({"free", Int(side, "free_ns"), 14});
  return bar;
}

// "GPU (NVIDIA H100 80GB HBM3)", "NPU (Huawei)", "GPU": the kind, with the vendor and model when known.
std::string DeviceText(const OrderedJson& input) {
  std::string what = Text(Member(input, "device_model"));
  const std::string vendor = Text(Member(input, "vendor"));
  if (what.empty()) what = vendor;
  else if (!vendor.empty() && what.find(vendor) == std::string::npos) what = vendor + " " + what;
  return Text(Member(input, "device")) + (what.empty() ? "" : " (" + what + ")");
}

std::string SimpleTable(const std::vector<std::string>& headers, const std::vector<std::string>& rows) {
  std::string out = "<table><thead><tr>";
  for (const std::string& h : headers) out += Th(h);
  out += "</tr></thead><tbody>";
  for (const std::string& r : rows) out += "<tr>" + r + "</tr>";
  return out + "</tbody></table>";
}

std::string SideTotalsRow(const char* which, const OrderedJson& side, const char* unit_key) {
  return Td(which) + Td(Member(side, "has_data").is_boolean() && Member(side, "has_data").get<bool>()
                            ? "yes" : "no") +
         MsCell(Member(side, unit_key));
}

}  // namespace

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

std::string SummarySection(const OrderedJson& doc, int64_t base_step, int64_t comparison_step) {
  auto step = [](int64_t s) { return s < 0 ? std::string("all steps") : std::to_string(s); };
  std::vector<std::string> rows;
  const char* names[2] = {"base", "comparison"};
  const int64_t steps[2] = {base_step, comparison_step};
  for (int i = 0; i < 2; ++i) {
    const OrderedJson& in = Member(Member(doc, "inputs"), names[i]);
    const OrderedJson& side = Member(Member(doc, "sides"), names[i]);
    rows.push_back(Td(names[i]) + Td("<code>" + Text(Member(in, "path")) + "</code>") +
                   Td(Text(Member(in, "format"))) + Td(DeviceText(in)) +
                   Td(EscapeText(step(steps[i]))) + MsCell(Member(side, "e2e_ms")));
  }
  std::string out = "<section id=\"summary\"><h2>Inputs</h2>" +
                    SimpleTable({"side", "path", "format", "device", "step", "E2E (ms)"}, rows);
  std::string mode = Text(Member(doc, "mode"));
  if (Member(doc, "reference_line").is_string()) mode += " (line " + Text(Member(doc, "reference_line")) + ")";
  const OrderedJson& deltas = Member(doc, "deltas");
  out += fmt::format("<p>Mode: <b>{}</b>. E2E change: <b>{} ms</b>{}.</p>", mode,
                     FormatMs(Int(deltas, "e2e_delta_ns")),
                     Member(deltas, "e2e_delta_pct").is_number()
                         ? " (" + Number(Member(deltas, "e2e_delta_pct").get<double>(), 2) + " %)"
                         : std::string());
  std::string unfair;
  for (const OrderedJson& r : Member(doc, "incomparable_reasons")) unfair += "<li>" + Text(r) + "</li>";
  if (!unfair.empty()) out += "<h3>Not a fair comparison</h3><ul class=\"warn\">" + unfair + "</ul>";
  const OrderedJson& verdict = Member(doc, "verdict");
  if (verdict.is_object()) {
    out += "<p>Verdict: <b class=\"verdict\">" + Text(Member(verdict, "result")) + "</b></p><ul>";
    for (const OrderedJson& r : Member(verdict, "unsafe_reasons")) out += "<li>cannot pass: " + Text(r) + "</li>";
    for (const OrderedJson& c : Member(verdict, "checks")) out += "<li>" + Text(Member(c, "reason")) + "</li>";
    out += "</ul>";
  } else {
    out += "<p>Verdict: no gate was requested (no <code>--gate-*</code> option).</p>";
  }
  std::string warnings;
  for (const char* key : {"comparability_warnings", "warnings"})
    for (const OrderedJson& w : Member(doc, key)) warnings += "<li>" + Text(w) + "</li>";
  if (!warnings.empty()) out += "<h3>Warnings</h3><ul class=\"warn\">" + warnings + "</ul>";
  return out + "</section>";
}

std::string StepTimeSection(const OrderedJson& doc) {
  const OrderedJson& sides = Member(doc, "sides");
  std::vector<StackedBar> bars = {SideBar("base", Member(sides, "base")),
                                  SideBar("comparison", Member(sides, "comparison"))};
  return "<section id=\"step-time\"><h2>Step time</h2><p>Each side's E2E time: computing by "
         "category, uncovered communication (split into transmit, wait and idle where the "
         "communication groups are known) and free time, on one scale.</p>" +
         StackedBarsSvg(bars) + "</section>";
}

std::string WaterfallSection(const OrderedJson& doc, std::vector<Waterfall>& drawn) {
  drawn.push_back(CategoryWaterfall(Member(doc, "deltas")));
  if (auto items = ItemWaterfall(Member(doc, "operators"), kWaterfallItems)) drawn.push_back(*items);
  std::string out = "<section id=\"waterfall\"><h2>Where the time went</h2>";
  for (const Waterfall& w : drawn) out += "<h3>" + EscapeText(w.title) + "</h3>" + WaterfallSvg(w);
  if (drawn.size() > 1)
    out += "<p class=\"note\">The operator (or module) bars add up to their own total, the change "
           "of the operators' device (or the modules' self) time; it differs from the computing "
           "change above, which counts each instant of the timeline once.</p>";
  return out + "</section>";
}

std::string CommunicationSection(const OrderedJson& doc) {
  std::vector<std::string> rows;
  for (const char* which : {"base", "comparison"}) {
    for (const OrderedJson& g : Member(Member(Member(doc, "sides"), which), "communication_groups")) {
      rows.push_back(Td(which) + Td(Text(Member(g, "group"))) +
                     NumCell(static_cast<double>(Int(g, "uncovered_ns")) / 1e6, 3) +
                     NumCell(static_cast<double>(Int(g, "transmit_ns")) / 1e6, 3) +
                     NumCell(static_cast<double>(Int(g, "wait_ns")) / 1e6, 3) +
                     NumCell(static_cast<double>(Int(g, "idle_ns")) / 1e6, 3));
    }
  }
  const OrderedJson& comm = Member(doc, "communication");
  if (rows.empty() && !comm.is_object()) return "";
  std::string out = "<section id=\"communication\"><h2>Communication</h2>";
  if (!rows.empty())
    out += "<h3>Uncovered communication per group</h3>" +
           SimpleTable({"side", "group", "uncovered (ms)", "transmit (ms)", "wait (ms)", "idle (ms)"}, rows);
  if (comm.is_object()) {
    std::vector<std::string> ops;
    for (const OrderedJson& r : Member(comm, "top_by_diff")) {
      ops.push_back(Td(Text(Member(r, "base_name"))) + Td(Text(Member(r, "comparison_name"))) +
                    MsCell(Member(Member(r, "base"), "total_us")) +
                    MsCell(Member(Member(r, "comparison"), "total_us")) + MsCell(Member(r, "diff_us")));
    }
    out += "<h3>Communication ops, largest change first</h3>" +
           SimpleTable({"base op", "comparison op", "base total (us)", "comparison total (us)", "diff (us)"}, ops);
  }
  return out + "</section>";
}

std::string MemorySection(const OrderedJson& memory) {
  if (!memory.is_object()) return "";
  std::vector<std::string> totals = {SideTotalsRow("base", Member(memory, "base"), "size_kb"),
                                     SideTotalsRow("comparison", Member(memory, "comparison"), "size_kb")};
  std::vector<std::string> rows;
  for (const OrderedJson& r : Member(memory, "top_by_diff")) {
    const OrderedJson& b = Member(r, "base");
    const OrderedJson& c = Member(r, "comparison");
    rows.push_back(Td(Text(Member(b.is_object() ? b : c, "name"))) + MsCell(Member(b, "size_kb")) +
                   MsCell(Member(c, "size_kb")) + MsCell(Member(r, "diff_size_kb")));
  }
  return "<section id=\"memory\"><h2>Memory</h2>" +
         SimpleTable({"side", "has memory records", "size (KB)"}, totals) +
         "<h3>Operators with the largest memory change</h3>" +
         SimpleTable({"operator", "base (KB)", "comparison (KB)", "diff (KB)"}, rows) + "</section>";
}

std::string KernelSection(const OrderedJson& kernels) {
  if (!kernels.is_object()) return "";
  std::vector<std::string> totals = {SideTotalsRow("base", Member(kernels, "base"), "total_us"),
                                     SideTotalsRow("comparison", Member(kernels, "comparison"), "total_us")};
  std::vector<std::string> rows;
  const bool by_type = Str(kernels, "kind") == "type";
  for (const OrderedJson& r : Member(kernels, "top_by_diff")) {
    rows.push_back(Td(Text(Member(r, by_type ? "kernel_type" : "kernel"))) +
                   Td(Text(Member(r, by_type ? "core_type" : "input_shape"))) +
                   MsCell(Member(Member(r, "base"), "total_us")) +
                   MsCell(Member(Member(r, "comparison"), "total_us")) + MsCell(Member(r, "diff_total_us")));
  }
  std::string out = "<section id=\"kernels\"><h2>Kernels</h2>" +
                    SimpleTable({"side", "has kernel details", "total (us)"}, totals);
  if (!rows.empty())
    out += "<h3>Kernels with the largest change</h3>" +
           SimpleTable({by_type ? "kernel type" : "kernel", by_type ? "core type" : "input shape",
                        "base (us)", "comparison (us)", "diff (us)"}, rows);
  for (const OrderedJson& w : Member(kernels, "warnings")) out += "<p class=\"note\">" + Text(w) + "</p>";
  return out + "</section>";
}

std::string EmptyComparisonsSection(const OrderedJson& empty) {
  if (!empty.is_array() || empty.empty()) return "";
  std::vector<std::string> rows;
  for (const OrderedJson& e : empty) {
    std::string sheets;
    for (const OrderedJson& s : Member(e, "sheets")) sheets += (sheets.empty() ? "" : ", ") + Text(s);
    rows.push_back(Td(Text(Member(e, "comparison"))) + Td(sheets) + Td(Text(Member(e, "reason"))));
  }
  return "<section id=\"empty\"><h2>Comparisons without rows</h2>" +
         SimpleTable({"comparison", "sheets not written", "why"}, rows) + "</section>";
}

}  // namespace profdiff::report::html
