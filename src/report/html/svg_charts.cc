#include "profdiff/report/html/svg_charts.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "profdiff/report/html/html_escape.h"

namespace profdiff::report::html {
namespace {

constexpr int kWidth = 900;
constexpr int kLabelWidth = 300;
constexpr int kBarsX = 150;           // where the stacked bars start (their labels are left of it)
constexpr int kValueLabelWidth = 110;  // room right of the longest bar for its value  // left column of the waterfall / the bars' labels
constexpr int kRowHeight = 26;
constexpr const char* kIncrease = "#d9534f";
constexpr const char* kDecrease = "#3c9a5f";
constexpr const char* kTotal = "#4a6fa5";

std::string Px(double v) { return fmt::format("{:.1f}", v); }

// The legend from y0 down, wrapped at the chart's width; *bottom is where its last line ends.
std::string Legend(const std::vector<const BarSegment*>& items, int y0, int* bottom) {
  std::string out;
  int x = 0;
  int y = y0;
  for (const BarSegment* s : items) {
    const std::string text = Shorten(s->label, 40);
    const int w = 24 + 7 * static_cast<int>(text.size() > 40 ? 40 : text.size());
    if (x + w > kWidth) {
      x = 0;
      y += 20;
    }
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>", x, y,
                       EscapeAttribute(s->color));
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"lg\">{}</text>", x + 16, y + 10,
                       EscapeText(text));
    x += w;
  }
  *bottom = y + 16;
  return out;
}

}  // namespace

std::string Shorten(const std::string& text, size_t max_chars) {
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // continuation byte
    if (chars == max_chars) return text.substr(0, i) + "\xE2\x80\xA6";
    ++chars;
  }
  return text;
}

std::string ShortenMiddle(const std::string& text, size_t max_chars) {
  std::vector<size_t> starts;  // byte offset of each code point
  for (size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  if (starts.size() <= max_chars || max_chars < 3) return starts.size() <= max_chars ? text : Shorten(text, max_chars);
  const size_t head = (max_chars - 1) * 2 / 5, tail = max_chars - 1 - head;  // the end says more
  return text.substr(0, starts[head]) + "\xE2\x80\xA6" + text.substr(starts[starts.size() - tail]);
}

std::string ShortenLabel(const std::string& text, size_t max_chars) {
  if (text.find('/') == std::string::npos) return ShortenMiddle(text, max_chars);
  // A module path: its end names the module, so keep the end.
  std::vector<size_t> starts;  // byte offset of each code point
  for (size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  if (starts.size() <= max_chars) return text;
  return "\xE2\x80\xA6" + text.substr(starts[starts.size() - max_chars + 1]);
}

std::string FormatMs(int64_t ns) {
  const char* sign = ns < 0 ? "-" : "";
  const uint64_t a = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  // Rounded half up to the µs, in integers (no double formatting differences between platforms).
  const uint64_t us = (a + 500) / 1000;
  return fmt::format("{}{}.{:03}", us == 0 ? "" : sign, us / 1000, us % 1000);
}

std::string StackedBarsSvg(const std::vector<StackedBar>& bars, bool own_scales) {
  int64_t longest = 1;
  for (const StackedBar& b : bars) longest = std::max(longest, b.total_ns);
  // The bars start at x = kBarsX; the longest leaves room for its value label ("12345.678 ms").
  const double plot = static_cast<double>(kWidth - kBarsX - kValueLabelWidth);
  std::string body;
  std::vector<const BarSegment*> legend;
  std::set<std::string> seen;
  int y = 0;
  for (const StackedBar& b : bars) {
    const double scale = plot / static_cast<double>(own_scales ? std::max<int64_t>(b.total_ns, 1) : longest);
    body += fmt::format("<text x=\"0\" y=\"{}\" class=\"bl\">{}</text>", y + 18,
                        EscapeText(Shorten(b.label, 18)));
    double x = kBarsX;
    body += fmt::format("<g class=\"bar\" data-total-ns=\"{}\">", b.total_ns);
    for (const BarSegment& s : b.segments) {
      if (s.ns <= 0) continue;
      const double w = static_cast<double>(s.ns) * scale;
      body += fmt::format(
          "<rect class=\"seg\" data-ns=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
          "fill=\"{}\"><title>{}: {} ms</title></rect>",
          s.ns, Px(x), y + 2, Px(w), kRowHeight + 4, EscapeAttribute(s.color), EscapeText(s.label),
          FormatMs(s.ns));
      x += w;
      if (seen.insert(s.label).second) legend.push_back(&s);
    }
    body += "</g>";
    body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"bv\">{} ms</text>", Px(x + 4), y + 20,
                        FormatMs(b.total_ns));
    y += kRowHeight + 16;
  }
  int height = y;
  const std::string legend_svg = Legend(legend, y + 4, &height);
  return fmt::format(
      "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 {} {}\" "
      "width=\"{}\" height=\"{}\">{}{}</svg>",
      kWidth, height, kWidth, height, body, legend_svg);
}

std::string WaterfallSvg(const Waterfall& w) {
  // The scale spans every running sum and zero.
  int64_t lo = 0, hi = 0, run = 0;
  for (const WaterfallPart& p : w.parts) {
    run += p.delta_ns;
    lo = std::min(lo, run);
    hi = std::max(hi, run);
  }
  lo = std::min(lo, w.total_ns);
  hi = std::max(hi, w.total_ns);
  const double span = static_cast<double>(std::max<int64_t>(hi - lo, 1));
  // Room right of the plot for the longest value label ("-12902.345 ms", ~8 px a character at 12 px).
  size_t longest_value = FormatMs(w.total_ns).size();
  for (const WaterfallPart& p : w.parts) longest_value = std::max(longest_value, FormatMs(p.delta_ns).size());
  const double plot = kWidth - kLabelWidth - 8.0 * static_cast<double>(longest_value + 3) - 8;
  auto X = [&](int64_t v) { return kLabelWidth + plot * static_cast<double>(v - lo) / span; };
  std::string body;
  int y = 0;
  auto row = [&](const std::string& label, int64_t from, int64_t to, const char* color, int64_t d) {
    const double x0 = X(std::min(from, to)), x1 = X(std::max(from, to));
    body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"wl\"><title>{}</title>{}</text>", kLabelWidth - 6,
                        y + 16, EscapeText(label), EscapeText(ShortenLabel(label, 42)));
    body += fmt::format(
        "<rect class=\"wf\" data-delta-ns=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
        "fill=\"{}\"><title>{}: {} ms</title></rect>",
        d, Px(x0), y + 3, Px(std::max(x1 - x0, 1.0)), kRowHeight - 6, color, EscapeText(label),
        FormatMs(d));
    body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"wv\">{} ms</text>", Px(x1 + 4), y + 16,
                        FormatMs(d));
    y += kRowHeight;
  };
  run = 0;
  for (const WaterfallPart& p : w.parts) {
    row(p.label, run, run + p.delta_ns, p.delta_ns > 0 ? kIncrease : kDecrease, p.delta_ns);
    run += p.delta_ns;
  }
  row(w.total_label, 0, w.total_ns, kTotal, w.total_ns);
  const double zero = X(0);
  body += fmt::format("<line x1=\"{}\" y1=\"0\" x2=\"{}\" y2=\"{}\" stroke=\"#555\"/>", Px(zero),
                      Px(zero), y);
  return fmt::format(
      "<svg class=\"chart waterfall\" role=\"img\" "
      "viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\">{}</svg>",
      kWidth, y + 4, kWidth, y + 4, body);
}

}  // namespace profdiff::report::html
