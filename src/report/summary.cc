#include "profdiff/report/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace profdiff::report {
namespace {

constexpr size_t kWidth = 100;

// Characters (UTF-8 code points) of `s`.
size_t Width(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// `s` cut to `max` characters with a leading "…" (the end of a path or name says most).
std::string FitLeft(std::string_view s, size_t max) {
  if (Width(s) <= max) return std::string(s);
  size_t keep = max - 1, i = s.size();
  while (keep > 0 && i > 0) {
    --i;
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) --keep;
  }
  while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
  return "…" + std::string(s.substr(i));
}

// A path cut to `max` characters by leaving out whole leading directories: "…/<last directories>/<file>"
// (the end says most); a last component longer than that alone is cut with FitLeft.
std::string FitPath(std::string_view s, size_t max) {
  if (Width(s) <= max) return std::string(s);
  for (size_t slash = s.find('/', 1); slash != std::string_view::npos; slash = s.find('/', slash + 1))
    if (Width(s.substr(slash)) + 1 <= max) return "…" + std::string(s.substr(slash));
  return FitLeft(s, max);
}

// A duration in the unit that shows it (a small model's step is µs, an LLM's seconds): s, ms or µs
// with three decimals, or whole ns.
std::string Ms(int64_t ns) {
  const double a = std::abs(static_cast<double>(ns));
  if (a >= 1e9) return fmt::format("{:.3f} s", static_cast<double>(ns) / 1e9);
  if (a >= 1e6) return fmt::format("{:.3f} ms", static_cast<double>(ns) / 1e6);
  if (a >= 1e3) return fmt::format("{:.3f} µs", static_cast<double>(ns) / 1e3);
  return fmt::format("{} ns", ns);
}
std::string SignedMs(int64_t ns) {
  const std::string magnitude = Ms(ns < 0 ? -ns : ns);
  return (ns > 0 ? "+" : ns < 0 ? "-" : "±") + magnitude;
}
std::string Pct(int64_t delta, int64_t base) {
  if (base == 0) return "n/a";
  return fmt::format("{:+.1f} %", 100.0 * static_cast<double>(delta) / static_cast<double>(base));
}
std::string Rate(const std::optional<double>& r) { return r ? fmt::format("{:.1f} %", 100.0 * *r) : "n/a"; }

struct Category {
  const char* name;
  int64_t base_ns, comparison_ns;
};

std::vector<Category> Categories(const analysis::OverallComparison& o) {
  return {{"computing", o.base.computing_ns, o.comparison.computing_ns},
          {"uncovered communication", o.base.uncovered_communication_ns, o.comparison.uncovered_communication_ns},
          {"free", o.base.free_ns, o.comparison.free_ns}};
}

std::vector<analysis::StepSplit> Selected(const std::vector<analysis::StepSplit>& steps, std::optional<int64_t> id) {
  std::vector<analysis::StepSplit> out;
  for (const analysis::StepSplit& s : steps)
    if (!id || s.id == *id) out.push_back(s);
  return out;
}

// The mean step window of each side (of the selected step only, with one), when both sides have
// step splits.
std::optional<std::pair<analysis::StepMean, analysis::StepMean>> MeanSteps(const SummaryInput& in) {
  const analysis::OverallComparison& o = *in.overall;
  const std::optional<analysis::StepMean> b = analysis::MeanStep(Selected(o.base.steps, in.base_selected_step));
  const std::optional<analysis::StepMean> c =
      analysis::MeanStep(Selected(o.comparison.steps, in.comparison_selected_step));
  if (!b || !c) return std::nullopt;
  return std::make_pair(*b, *c);
}

std::vector<Category> StepCategories(const analysis::StepMean& b, const analysis::StepMean& c) {
  return {{"computing", b.computing_ns, c.computing_ns},
          {"uncovered communication", b.communication_ns, c.communication_ns},
          {"free", b.free_ns, c.free_ns}};
}

std::string StepsNote(const SummaryInput& in) {
  if (in.base_steps == 0 && in.comparison_steps == 0) return "whole captures, no step markers";
  std::string note = fmt::format("captures of {} and {} step(s)", in.base_steps, in.comparison_steps);
  if (in.base_selected_step && in.comparison_selected_step)
    note += fmt::format("; step {} vs step {} selected", *in.base_selected_step, *in.comparison_selected_step);
  return note;
}

// "median of 6 vs 6 device steps" / "step 17 vs step 50 on the device": what a step line measures.
std::string WindowsOf(const analysis::SideSummary& s) {
  switch (s.step_source) {
    case analysis::StepWindowSource::kHostMarkers: return "host";
    case analysis::StepWindowSource::kNone: return "host";
    default: return "device";
  }
}

std::string MedianLabel(const SummaryInput& in) {
  const analysis::OverallComparison& o = *in.overall;
  std::string windows = WindowsOf(o.base) == WindowsOf(o.comparison)
                            ? WindowsOf(o.base) + " windows"
                            : fmt::format("{} vs {} windows", WindowsOf(o.base), WindowsOf(o.comparison));
  for (const analysis::SideSummary* s : {&o.base, &o.comparison})
    if (s->device == DeviceKind::kNpu && WindowsOf(*s) == "device") {
      windows += ", NPU without Preparing";  // the host time before a step's first task
      break;
    }
  if (in.base_selected_step && in.comparison_selected_step)
    return fmt::format("step {} vs step {}, {}", *in.base_selected_step, *in.comparison_selected_step, windows);
  return fmt::format("median of {} vs {}, {}", in.base_median_of, in.comparison_median_of, windows);
}

// `first` then `text`, cut at spaces into lines of at most kWidth columns, the rest indented under it.
std::string Wrapped(std::string_view first, std::string_view text) {
  std::string out, line(first);
  const std::string indent(first.size(), ' ');
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(pos, end - pos);
    if (line.size() > indent.size() && line.size() + 1 + word.size() > kWidth) {
      out += line + "\n";
      line = indent;
    } else if (line.size() > indent.size() && line.back() != ' ') {
      line += ' ';
    }
    line += word;
    pos = end + 1;
  }
  return out + line + "\n";
}

// Markdown text outside a code span: the characters that would start one or emphasis escaped.
std::string CodeSpanFree(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '`' || c == '*' || c == '_' || c == '|') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

void ItemLines(const char* title, const std::vector<SummaryItem>& items, std::string& out) {
  if (items.empty()) return;
  out += fmt::format("  {}:\n", title);
  for (const SummaryItem& i : items) {
    const std::string diff = SignedMs(i.diff_ns);
    out += fmt::format("    {:>14}  {}\n", diff, FitLeft(i.name, kWidth - 4 - 14 - 2));
  }
}

// Text inside a Markdown code span: no backtick (it would end the span) and no line break.
std::string CodeSpan(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c == '`') c = '\'';
    else if (c == '\n' || c == '\r') c = ' ';
  return out;
}

}  // namespace

void PickLargestMoves(std::vector<SummaryItem> items, SummaryPart& part) {
  std::stable_sort(items.begin(), items.end(),
                   [](const SummaryItem& a, const SummaryItem& b) { return a.diff_ns > b.diff_ns; });
  for (const SummaryItem& i : items)
    if (i.diff_ns > 0 && part.regressed.size() < kSummaryItems) part.regressed.push_back(i);
  for (auto it = items.rbegin(); it != items.rend(); ++it)
    if (it->diff_ns < 0 && part.improved.size() < kSummaryItems) part.improved.push_back(*it);
}

std::string RenderSummaryText(const SummaryInput& in) {
  std::string out = "Summary\n";
  out += "  base:       " + FitPath(in.base_path, kWidth - 14) + "\n";
  out += "  comparison: " + FitPath(in.comparison_path, kWidth - 14) + "\n";
  if (Width(in.base_path) > kWidth - 14 || Width(in.comparison_path) > kWidth - 14)
    out += "  (\"…\" stands for the leading directories left out to fit 100 columns; --json has the full paths)\n";
  const analysis::OverallComparison& o = *in.overall;
  if (!o.base.has_overall || !o.comparison.has_overall) {
    out += "  E2E: not comparable (a side has no kernels or device tasks)\n";
  } else {
    const int64_t d = o.comparison.e2e_ns - o.base.e2e_ns;
    out += fmt::format("  E2E: {} -> {}: {} ({}); {}\n", Ms(o.base.e2e_ns), Ms(o.comparison.e2e_ns), SignedMs(d),
                       Pct(d, o.base.e2e_ns), StepsNote(in));
    for (const Category& c : Categories(o))
      out += fmt::format("    {:<24}{:>14}  ({} -> {})\n", c.name, SignedMs(c.comparison_ns - c.base_ns),
                         Ms(c.base_ns), Ms(c.comparison_ns));
  }
  // A side without device data has no step time either (its host markers say nothing of the device).
  const bool both_known = o.base.has_overall && o.comparison.has_overall;
  if (both_known && in.base_median_step_ns && in.comparison_median_step_ns) {
    const int64_t b = *in.base_median_step_ns, c = *in.comparison_median_step_ns;
    out += fmt::format("  step ({}): {} -> {}: {} ({})\n", MedianLabel(in), Ms(b), Ms(c), SignedMs(c - b),
                       Pct(c - b, b));
  }
  if (const auto means = MeanSteps(in)) {
    const auto& [b, c] = *means;
    out += fmt::format("  step (mean of {} vs {}): {} -> {}: {} ({})\n", b.count, c.count, Ms(b.e2e_ns),
                       Ms(c.e2e_ns), SignedMs(c.e2e_ns - b.e2e_ns), Pct(c.e2e_ns - b.e2e_ns, b.e2e_ns));
    for (const Category& k : StepCategories(b, c))
      out += fmt::format("    {:<24}{:>14}  ({} -> {})\n", k.name, SignedMs(k.comparison_ns - k.base_ns),
                         Ms(k.base_ns), Ms(k.comparison_ns));
  }
  for (const SummaryPart& p : in.parts) {
    const std::string note = p.note.empty() ? std::string() : " (" + p.note + ")";
    ItemLines(fmt::format("most regressed {}{}", p.what, note).c_str(), p.regressed, out);
    ItemLines(fmt::format("most improved {}{}", p.what, note).c_str(), p.improved, out);
    out += fmt::format("  {} matched: {} of base, {} of comparison\n", p.what, Rate(p.base_match),
                       Rate(p.comparison_match));
  }
  for (const std::string& why : in.incomparable) out += Wrapped("  NOT COMPARABLE: ", why);
  if (in.warnings > 0) out += fmt::format("  {} warning(s) above on stderr\n", in.warnings);
  return out;
}

std::string RenderSummaryMarkdown(const SummaryInput& in) {
  std::string out = "### profdiff: comparison vs base\n\n";
  out += fmt::format("- base: `{}`\n- comparison: `{}`\n", CodeSpan(in.base_path), CodeSpan(in.comparison_path));
  const analysis::OverallComparison& o = *in.overall;
  if (!o.base.has_overall || !o.comparison.has_overall) {
    out += "\n**E2E: not comparable** (a side has no kernels or device tasks)\n";
  } else {
    const int64_t d = o.comparison.e2e_ns - o.base.e2e_ns;
    out += fmt::format("\n**E2E {} ({})**: {} → {}; {}\n\n", SignedMs(d), Pct(d, o.base.e2e_ns), Ms(o.base.e2e_ns),
                       Ms(o.comparison.e2e_ns), StepsNote(in));
    out += "| | base | comparison | change |\n|---|---:|---:|---:|\n";
    for (const Category& c : Categories(o))
      out += fmt::format("| {} | {} | {} | {} |\n", c.name, Ms(c.base_ns), Ms(c.comparison_ns),
                         SignedMs(c.comparison_ns - c.base_ns));
    out += fmt::format("| **E2E** | {} | {} | {} |\n", Ms(o.base.e2e_ns), Ms(o.comparison.e2e_ns), SignedMs(d));
    if (in.base_median_step_ns && in.comparison_median_step_ns) {
      const int64_t b = *in.base_median_step_ns, c = *in.comparison_median_step_ns;
      out += fmt::format("| step ({}) | {} | {} | {} ({}) |\n", MedianLabel(in), Ms(b), Ms(c), SignedMs(c - b),
                         Pct(c - b, b));
    }
    if (const auto means = MeanSteps(in)) {
      const auto& [b, c] = *means;
      for (const Category& k : StepCategories(b, c))
        out += fmt::format("| {} per step (mean) | {} | {} | {} |\n", k.name, Ms(k.base_ns), Ms(k.comparison_ns),
                           SignedMs(k.comparison_ns - k.base_ns));
      out += fmt::format("| **step (mean of {} vs {})** | {} | {} | {} ({}) |\n", b.count, c.count, Ms(b.e2e_ns),
                         Ms(c.e2e_ns), SignedMs(c.e2e_ns - b.e2e_ns), Pct(c.e2e_ns - b.e2e_ns, b.e2e_ns));
    }
  }
  auto list = [&](const std::string& title, const std::vector<SummaryItem>& items) {
    if (items.empty()) return;
    out += "\n" + title + ":\n\n";
    for (const SummaryItem& i : items) out += fmt::format("- {} `{}`\n", SignedMs(i.diff_ns), CodeSpan(i.name));
  };
  for (const SummaryPart& p : in.parts) {
    const std::string note = p.note.empty() ? std::string() : " (" + p.note + ")";
    list("Most regressed " + p.what + note, p.regressed);
    list("Most improved " + p.what + note, p.improved);
    out += fmt::format("\n{} matched: {} of base, {} of comparison\n", p.what, Rate(p.base_match),
                       Rate(p.comparison_match));
  }
  for (const std::string& why : in.incomparable) out += "\n**Not comparable:** " + CodeSpanFree(why) + "\n";
  if (in.warnings > 0) out += fmt::format("\n{} warning(s) on stderr.\n", in.warnings);
  return out;
}

}  // namespace profdiff::report
