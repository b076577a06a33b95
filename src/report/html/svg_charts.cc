#include "profdiff/report/html/svg_charts.h"

#include <algorithm>
#include <cmath>
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

namespace {

// White (0) to kIncrease's red (1).
std::string HeatColor(double t) {
  auto mix = [t](int to) { return static_cast<int>(std::lround(255.0 + (to - 255.0) * t)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(0xd9), mix(0x53), mix(0x4f));
}

constexpr int kHeatLabelWidth = 110;  // the row labels
constexpr int kHeatHeader = 44;       // the column title and labels
constexpr int kHeatRow = 24;

}  // namespace

std::string HeatMapSvg(const HeatMap& map) {
  int64_t largest = 1;
  for (const auto& row : map.ns)
    for (int64_t v : row) largest = std::max(largest, v);
  const size_t n = std::max<size_t>(map.columns.size(), 1);
  const int cell = std::clamp(static_cast<int>((kWidth - kHeatLabelWidth) / n), 14, 110);
  const bool values = cell >= 64;  // "-12345.678" fits
  std::string body = fmt::format("<text x=\"0\" y=\"14\" class=\"bl\">{}</text>", EscapeText(Shorten(map.row_title, 16)));
  body += fmt::format("<text x=\"{}\" y=\"14\" class=\"bl\">{}</text>", kHeatLabelWidth,
                      EscapeText(Shorten(map.column_title, 60)));
  const size_t label_chars = static_cast<size_t>(std::max(2, cell / 8));
  for (size_t c = 0; c < map.columns.size(); ++c) {
    body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"hc\"><title>{}</title>{}</text>",
                        kHeatLabelWidth + static_cast<int>(c) * cell + cell / 2, kHeatHeader - 6,
                        EscapeText(map.columns[c]), EscapeText(Shorten(map.columns[c], label_chars)));
  }
  int y = kHeatHeader;
  for (size_t r = 0; r < map.rows.size(); ++r, y += kHeatRow) {
    body += fmt::format("<text x=\"0\" y=\"{}\"><title>{}</title>{}</text>", y + 16, EscapeText(map.rows[r]),
                        EscapeText(Shorten(map.rows[r], 14)));
    for (size_t c = 0; c < map.columns.size(); ++c) {
      const int64_t v = r < map.ns.size() && c < map.ns[r].size() ? map.ns[r][c] : 0;
      const double t = v > 0 ? static_cast<double>(v) / static_cast<double>(largest) : 0.0;
      const int x = kHeatLabelWidth + static_cast<int>(c) * cell;
      body += fmt::format(
          "<rect class=\"hm\" data-ns=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
          "stroke=\"#ddd\"><title>{} {} {}: {} ms</title></rect>",
          v, x, y, cell, kHeatRow, HeatColor(t), EscapeText(map.rows[r]), EscapeText(map.verb),
          EscapeText(map.columns[c]), FormatMs(v));
      if (values && v > 0)
        body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"{}\">{}</text>", x + cell / 2, y + 16,
                            t > 0.55 ? "hv hw" : "hv", FormatMs(v));
    }
  }
  const int width = std::max(kWidth, kHeatLabelWidth + static_cast<int>(map.columns.size()) * cell);
  return fmt::format(
      "<svg class=\"chart heatmap\" role=\"img\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\">{}</svg>", width,
      y + 4, width, y + 4, body);
}

std::string ColumnsSvg(const std::vector<Column>& columns, const std::string& axis_label) {
  constexpr int kAxis = 90, kPlotHeight = 180, kTop = 8;
  int64_t tallest = 1;
  for (const Column& c : columns) tallest = std::max(tallest, c.ns);
  const double plot = kWidth - kAxis - 4;
  const double w = plot / static_cast<double>(std::max<size_t>(columns.size(), 1));
  const double gap = w >= 4 ? 1 : 0;
  std::string body;
  std::vector<BarSegment> entries;  // the legend's, in order of first use
  std::set<std::string> seen;
  for (size_t i = 0; i < columns.size(); ++i) {
    const Column& c = columns[i];
    const double h = c.ns > 0 ? std::max(1.0, kPlotHeight * static_cast<double>(c.ns) / static_cast<double>(tallest)) : 0;
    body += fmt::format(
        "<rect class=\"col\" data-ns=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {} "
        "ms</title></rect>",
        c.ns, Px(kAxis + w * static_cast<double>(i)), Px(kTop + kPlotHeight - h), Px(std::max(w - gap, 0.5)), Px(h),
        EscapeAttribute(c.color), EscapeText(c.title), FormatMs(c.ns));
    if (c.ns > 0 && seen.insert(c.legend).second) entries.push_back({c.legend, c.ns, c.color});
  }
  const int base = kTop + kPlotHeight;
  body += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#555\"/>", kAxis - 2, base, kWidth - 4, base);
  body += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#555\"/>", kAxis - 2, kTop, kAxis - 2, base);
  body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"wl\">{} ms</text>", kAxis - 6, kTop + 10, FormatMs(tallest));
  body += fmt::format("<text x=\"{}\" y=\"{}\" class=\"wl\">0</text>", kAxis - 6, base);
  body += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", kAxis, base + 18, EscapeText(axis_label));
  std::vector<const BarSegment*> legend;
  for (const BarSegment& e : entries) legend.push_back(&e);
  int height = base + 26;
  body += Legend(legend, base + 28, &height);
  return fmt::format("<svg class=\"chart columns\" role=\"img\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\">{}</svg>",
                     kWidth, height, kWidth, height, body);
}

}  // namespace profdiff::report::html
