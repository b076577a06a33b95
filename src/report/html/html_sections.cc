#include "html_sections.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "profdiff/report/html/html_escape.h"
#include "profdiff/report/html/svg_charts.h"
#include "profdiff/report/overall/screen.h"

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

// Every segment the step chart can draw, with its legend text and colour: one colour per entry, no
// two alike (the legend would otherwise let "transmit" pass for "other computing").
struct SegmentKind {
  const char* key;    // computing_split category, or the chart's own part
  const char* label;  // legend text
  const char* color;
};
constexpr SegmentKind kSegmentKinds[] = {
    {"flash_attention_fwd", "flash attention (fwd)", "#4e79a7"},
    {"flash_attention_bwd", "flash attention (bwd)", "#a0cbe8"},
    {"conv_fwd", "conv (fwd)", "#f28e2b"},
    {"conv_bwd", "conv (bwd)", "#ffbe7d"},
    {"matmul", "matmul", "#59a14f"},
    {"page_attention", "page attention", "#8cd17d"},
    {"vector", "vector", "#b6992d"},
    {"cube", "cube", "#499894"},
    {"sdma_tensor_move", "SDMA (tensor move)", "#86bcb6"},
    {"other", "other computing", "#bab0ac"},
    {"computing_not_split", "computing (not split)", "#79706e"},
    {"transmit", "uncovered comm: transmit", "#e15759"},
    {"wait", "uncovered comm: wait", "#ff9d9a"},
    {"idle", "uncovered comm: idle", "#d37295"},
    {"comm_rest", "uncovered comm: not in a group's split", "#9d7660"},
    {"comm", "uncovered communication", "#b07aa1"},
    {"free", "free", "#f1ce63"},
};
constexpr const char* kUnknownCategoryColor = "#d4a6c8";

BarSegment Segment(std::string_view key, int64_t ns, const std::string& unknown_label = "") {
  for (const SegmentKind& k : kSegmentKinds)
    if (key == k.key) return {k.label, ns, k.color};
  return {unknown_label.empty() ? std::string(key) : unknown_label, ns, kUnknownCategoryColor};
}

// The uncovered communication split over the groups' transmit, wait and idle, and what the groups'
// split leaves of the side's total (a remainder segment, so the bar still adds up to E2E). Groups
// adding up to more than the total (overlapping groups) are cut from idle, then wait, then transmit.
void AppendCommunication(const OrderedJson& side, std::vector<BarSegment>& out) {
  const int64_t comm = Int(side, "uncovered_communication_ns");
  int64_t parts[3] = {0, 0, 0};  // transmit, wait, idle
  const OrderedJson& groups = Member(side, "communication_groups");
  for (const OrderedJson& g : groups) {
    parts[0] += Int(g, "transmit_ns");
    parts[1] += Int(g, "wait_ns");
    parts[2] += Int(g, "idle_ns");
  }
  if (!groups.is_array() || groups.empty()) {
    out.push_back(Segment("comm", comm));
    return;
  }
  int64_t over = parts[0] + parts[1] + parts[2] - comm;
  for (int i = 2; i >= 0 && over > 0; --i) {
    const int64_t cut = std::min(over, parts[i]);
    parts[i] -= cut;
    over -= cut;
  }
  out.push_back(Segment("transmit", parts[0]));
  out.push_back(Segment("wait", parts[1]));
  out.push_back(Segment("idle", parts[2]));
  out.push_back(Segment("comm_rest", comm - parts[0] - parts[1] - parts[2]));
}

// Colours by legend entry: a label keeps its colour in both bars; a label whose colour another label
// already has (two categories profdiff does not know) gets the next free one.
void GiveEveryLabelItsOwnColor(std::vector<StackedBar>& bars) {
  static constexpr const char* kSpare[] = {"#9467bd", "#c5b0d5", "#17becf", "#bcbd22", "#8c564b", "#e377c2"};
  std::map<std::string, std::string> by_label;
  std::set<std::string> used;
  size_t spare = 0;
  for (StackedBar& b : bars) {
    for (BarSegment& s : b.segments) {
      if (s.ns <= 0) continue;
      auto it = by_label.find(s.label);
      if (it != by_label.end()) {
        s.color = it->second;
        continue;
      }
      while (used.count(s.color) != 0 && spare < std::size(kSpare)) s.color = kSpare[spare++];
      used.insert(s.color);
      by_label[s.label] = s.color;
    }
  }
}

// One side's bar: its computing split, its uncovered communication (split into transmit, wait and
// idle whenever the groups are known, with what they leave as its own segment) and free time. The
// segments always add up to E2E.
StackedBar SideBar(const std::string& which, const OrderedJson& side) {
  StackedBar bar;
  bar.label = which + ": " + Str(side, "device");
  bar.total_ns = Int(side, "e2e_ns");
  const int64_t computing = Int(side, "computing_ns");
  int64_t split_sum = 0;
  for (const OrderedJson& c : Member(side, "computing_split")) {
    bar.segments.push_back(Segment(Str(c, "category"), Int(c, "ns")));
    split_sum += Int(c, "ns");
  }
  if (split_sum != computing) bar.segments.push_back(Segment("computing_not_split", computing - split_sum));
  AppendCommunication(side, bar.segments);
  bar.segments.push_back(Segment("free", Int(side, "free_ns")));
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

// A memory size given in KB as a sortable cell: the KB in data-v, the text in the unit that reads
// ("1.931 GiB", "512.0 KiB"; the profilers' KB are KiB).
std::string SizeCell(const OrderedJson& kb) {
  if (!kb.is_number()) return MsCell(kb);
  const double v = kb.get<double>(), a = std::fabs(v);
  const std::string text = a >= 1024.0 * 1024.0 ? Number(v / (1024.0 * 1024.0), 3) + " GiB"
                           : a >= 1024.0        ? Number(v / 1024.0, 3) + " MiB"
                                                : Number(v, 1) + " KiB";
  return fmt::format("<td class=\"n\" data-v=\"{}\">{}</td>", v, text);
}

std::string SideTotalsRow(const char* which, const OrderedJson& side, const char* unit_key) {
  const bool has = Member(side, "has_data").is_boolean() && Member(side, "has_data").get<bool>();
  const OrderedJson& v = Member(side, unit_key);
  return Td(which) + Td(has ? "yes" : "no") + (std::string_view(unit_key) == "size_kb" ? SizeCell(v) : MsCell(v));
}

}  // namespace

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
  out += VerdictHtml(verdict);
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
  GiveEveryLabelItsOwnColor(bars);
  // What each bar covers: a side without ProfilerStep markers is its whole capture, not a step.
  std::string coverage;
  for (const char* which : {"base", "comparison"}) {
    const OrderedJson& steps = Member(Member(sides, which), "steps");
    const size_t n = steps.is_array() ? steps.size() : 0;
    coverage += "<li>" + std::string(which) + ": " +
                (n == 0 ? "<span class=\"warn\">no step markers: the bar is the whole capture, not a step</span>"
                        : std::to_string(n) + " step" + (n == 1 ? "" : "s")) +
                "</li>";
  }
  const int64_t lo = std::min(bars[0].total_ns, bars[1].total_ns), hi = std::max(bars[0].total_ns, bars[1].total_ns);
  const bool own_scales = lo > 0 && hi > 10 * lo;  // one bar would be a sliver on a common scale
  return "<section id=\"step-time\"><h2>E2E time</h2><p>Each side's E2E time: computing by category, "
         "uncovered communication (split into transmit, wait and idle where the communication groups "
         "are known; what their split leaves is its own segment) and free time" +
         std::string(own_scales ? ". <b>Each bar on its own scale</b>: one side is more than ten times "
                                  "longer than the other, so their lengths are not comparable."
                                : ", on one scale.") +
         "</p><ul>" + coverage + "</ul>" + StackedBarsSvg(bars, own_scales) + "</section>";
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
           SimpleTable({"side", "group", "uncovered (ms)", "transmit (ms)", "wait (ms)", "idle (ms)"}, rows) +
           "<p class=\"note\">" + EscapeText(kCommunicationWordsNote) + "</p>";
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
    const OrderedJson& d = Member(r, "diff_size_kb");
    if (d.is_number() && d.get<double>() == 0) continue;  // unchanged: not a change to list
    const OrderedJson& b = Member(r, "base");
    const OrderedJson& c = Member(r, "comparison");
    rows.push_back(Td(Text(Member(b.is_object() ? b : c, "name"))) + SizeCell(Member(b, "size_kb")) +
                   SizeCell(Member(c, "size_kb")) + SizeCell(d));
  }
  return "<section id=\"memory\"><h2>Memory</h2>" + SimpleTable({"side", "has memory records", "size"}, totals) +
         "<h3>Operators with the largest memory change</h3>" +
         (rows.empty() ? "<p>No operator's allocated memory changed.</p>"
                       : SimpleTable({"operator", "base", "comparison", "diff"}, rows)) +
         "</section>";
}

namespace {

// A name cell: a name longer than 80 characters (a templated CUDA kernel, a Tensile GEMM) is cut in
// the middle, where its start and end still tell it apart, with the whole name on hover.
std::string NameTd(const OrderedJson& name) {
  if (!name.is_string()) return Td(Text(name));
  const std::string& full = name.get_ref<const std::string&>();
  const std::string shown = ShortenMiddle(full, 80);
  if (shown == full) return Td(EscapeText(full));
  return "<td title=\"" + EscapeAttribute(full) + "\">" + EscapeText(shown) + "</td>";
}

}  // namespace

std::string KernelSection(const OrderedJson& kernels) {
  if (!kernels.is_object()) return "";
  std::vector<std::string> totals = {SideTotalsRow("base", Member(kernels, "base"), "total_us"),
                                     SideTotalsRow("comparison", Member(kernels, "comparison"), "total_us")};
  std::vector<std::string> rows;
  const bool by_type = Str(kernels, "kind") == "type";
  for (const OrderedJson& r : Member(kernels, "top_by_diff")) {
    rows.push_back(NameTd(Member(r, by_type ? "kernel_type" : "kernel")) +
                   Td(Text(Member(r, by_type ? "core_type" : "input_shape"))) +
                   MsCell(Member(Member(r, "base"), "total_us")) +
                   MsCell(Member(Member(r, "comparison"), "total_us")) + MsCell(Member(r, "diff_total_us")));
  }
  std::string out = "<section id=\"kernels\"><h2>Kernels</h2>" +
                    SimpleTable({"side", "has kernels", "total (us)"}, totals);
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
