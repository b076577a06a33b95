#include "profdiff/report/screen.h"

#include <algorithm>
#include <set>
#include <string>

namespace profdiff::report {
namespace {

constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kRed = "\x1b[31m";
constexpr std::string_view kGreen = "\x1b[32m";
constexpr std::string_view kYellow = "\x1b[33m";
constexpr std::string_view kReset = "\x1b[0m";

// Display width: UTF-8 code points (continuation bytes do not count).
size_t Width(std::string_view s) {
  size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

// PrettyTable's centring: equal padding when the excess is even; otherwise the extra space goes to
// the right for odd-width text and to the left for even-width text (like str.center()).
std::string Centre(std::string_view text, size_t width, std::string_view pre = {},
                   std::string_view post = {}) {
  const size_t w = Width(text);
  const size_t excess = width > w ? width - w : 0;
  size_t left = excess / 2;
  size_t right = excess / 2;
  if (excess % 2 != 0) {
    if (w % 2 != 0) {
      ++right;
    } else {
      ++left;
    }
  }
  std::string out(left, ' ');
  out += pre;
  out += text;
  out += post;
  out.append(right, ' ');
  return out;
}

std::string Rule(const std::vector<size_t>& widths) {
  std::string s = "+";
  for (size_t w : widths) {
    s.append(w + 2, '-');
    s += '+';
  }
  return s;
}

}  // namespace

StatusOr<ColorMode> ParseColorMode(std::string_view text) {
  if (text == "auto") return ColorMode::kAuto;
  if (text == "always") return ColorMode::kAlways;
  if (text == "never") return ColorMode::kNever;
  return InvalidArgument("--color: expected auto, always or never, got '" + std::string(text) + "'");
}

bool ResolveColor(ColorMode mode, bool is_tty, const char* no_color_env) {
  switch (mode) {
    case ColorMode::kAlways: return true;
    case ColorMode::kNever: return false;
    case ColorMode::kAuto: return is_tty && (no_color_env == nullptr || *no_color_env == '\0');
  }
  return false;
}

std::string RenderPrettyTable(std::string_view title, const std::vector<std::string>& header,
                              const std::vector<std::vector<std::string>>& rows, bool color) {
  size_t ncols = header.size();
  for (const auto& r : rows) ncols = std::max(ncols, r.size());
  if (ncols == 0) return {};
  std::vector<size_t> widths(ncols, 0);
  auto cell = [](const std::vector<std::string>& r, size_t i) -> std::string_view {
    return i < r.size() ? std::string_view(r[i]) : std::string_view();
  };
  for (size_t i = 0; i < ncols; ++i) {
    widths[i] = Width(cell(header, i));
    for (const auto& r : rows) widths[i] = std::max(widths[i], Width(cell(r, i)));
  }
  // A title wider than the table widens the columns (PrettyTable scales them, the rest goes to the
  // last column).
  if (!title.empty()) {
    const size_t min_content = Width(title) + 2 + 2;  // padding + frame
    const size_t borders = ncols + 1;
    const size_t padding = 2 * ncols;
    const size_t need = min_content > borders + padding ? min_content - borders - padding : 0;
    size_t content = 0;
    for (size_t w : widths) content += w;
    if (content == 0) content = 1;
    if (content < need) {
      const double scale = static_cast<double>(need) / static_cast<double>(content);
      size_t sum = 0;
      for (size_t& w : widths) {
        w = static_cast<size_t>(static_cast<double>(w) * scale);
        sum += w;
      }
      if (sum < need) widths.back() += need - sum;
    }
  }
  const std::string rule = Rule(widths);
  std::string out;
  if (!title.empty()) {
    out += '+';
    out.append(rule.size() - 2, '-');
    out += "+\n|";
    std::string padded = " " + std::string(title) + " ";
    out += color ? Centre(padded, rule.size() - 2, kBold, kReset) : Centre(padded, rule.size() - 2);
    out += "|\n";
  }
  out += rule + "\n";
  auto emit = [&](const std::vector<std::string>& r, bool bold) {
    out += '|';
    for (size_t i = 0; i < ncols; ++i) {
      out += ' ';
      out += bold ? Centre(cell(r, i), widths[i], kBold, kReset) : Centre(cell(r, i), widths[i]);
      out += " |";
    }
    out += '\n';
  };
  emit(header, color);
  out += rule + "\n";
  for (const auto& r : rows) emit(r, false);
  out += rule + "\n";
  return out;
}

std::string RenderVerdict(const analysis::GateResult& gate, bool color) {
  if (!gate.ran) return {};
  std::string_view word = gate.verdict == analysis::Verdict::kPass         ? "PASS"
                          : gate.verdict == analysis::Verdict::kRegression ? "REGRESSION"
                                                                           : "INCOMPARABLE";
  std::string_view c = gate.verdict == analysis::Verdict::kPass         ? kGreen
                       : gate.verdict == analysis::Verdict::kRegression ? kRed
                                                                        : kYellow;
  std::string out = "gate: ";
  if (color) out += c;
  out += word;
  if (color) out += kReset;
  out += '\n';
  // Why the pair cannot be judged, then why it cannot pass, before the checks.
  std::set<std::string_view> said;
  for (const std::string& r : gate.incomparable_reasons) {
    out += "  incomparable: " + r + "\n";
    said.insert(r);
  }
  if (gate.basis == analysis::GateBasis::kPerStep)
    for (const std::string& r : gate.unsafe_reasons) out += "  cannot pass: " + r + "\n";
  for (const analysis::GateCheck& g : gate.checks) {
    out += "  ";
    out += analysis::Name(g.verdict);
    out += ": ";
    out += g.reason;
    out += '\n';
  }
  for (const std::string& w : gate.warnings) {
    if (said.count(w) != 0) continue;
    bool reason_prefix = false;  // an incomparable reason is the warning with advice after it
    for (std::string_view r : said) reason_prefix = reason_prefix || r.starts_with(w);
    if (!reason_prefix) out += "  warning: " + w + "\n";
  }
  return out;
}

}  // namespace profdiff::report
