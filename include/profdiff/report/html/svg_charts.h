// The page's charts as inline SVG, written here (docs/html-report.md#charts): no library, no
// network, the same bytes for the same data. Every label is escaped; long names are shortened on
// screen and given whole in the bar's <title>.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profdiff/report/html/waterfall.h"

namespace profdiff::report::html {

struct BarSegment {
  std::string label;  // legend text (a category or a group name: untrusted)
  int64_t ns = 0;
  std::string color;  // fill, "#rrggbb": one per legend entry (html_sections.cc kSegmentKinds)
};

struct StackedBar {
  std::string label;  // "base: NPU", ...
  std::vector<BarSegment> segments;
  int64_t total_ns = 0;  // the bar's full length (E2E)
};

// Horizontal stacked bars on one scale (the longest total), or each on its own (`own_scales`: every
// bar as long as the plot), with a legend of the segments' labels. Segments of zero length are left
// out of the bar and the legend.
std::string StackedBarsSvg(const std::vector<StackedBar>& bars, bool own_scales = false);

// A horizontal waterfall: one floating bar per part from the running sum to the running sum plus its
// Δ (increase red, decrease green), then the total from zero, each labelled with its Δ in ms.
std::string WaterfallSvg(const Waterfall& waterfall);

// A heat map: a row per `rows` label, a column per `columns` label, each cell shaded from white to
// red by its ns over the largest (a cell of 0 is left white), with its ms written in when the cell
// is wide enough; each cell's <title> says "<row> <verb> <column>: <ms> ms".
struct HeatMap {
  std::string row_title;                 // over the row labels ("waiter")
  std::string column_title;              // over the column labels ("waits on")
  std::string verb;                      // in the cells' titles ("waits on")
  std::vector<std::string> rows, columns;  // labels (untrusted)
  std::vector<std::vector<int64_t>> ns;    // [row][column]
};
std::string HeatMapSvg(const HeatMap& map);

// Vertical columns in their order on one scale (the tallest), each coloured by its legend entry
// (one colour per entry), with the tallest value on the axis, `axis_label` under the plot and the
// legend below it. Each column's <title> is its `title` and its ms.
struct Column {
  std::string title;   // untrusted
  int64_t ns = 0;
  std::string legend;  // its legend entry (untrusted)
  std::string color;   // "#rrggbb"
};
std::string ColumnsSvg(const std::vector<Column>& columns, const std::string& axis_label);

// `text` cut to at most `max_chars` code points (with "…" when cut), never inside a UTF-8 sequence.
std::string Shorten(const std::string& text, size_t max_chars);

// `text` cut in the middle to at most `max_chars` code points ("autograd::en…n: ConvolutionBackward0"):
// its start and, longer, its end, where the distinguishing part of an operator name is.
std::string ShortenMiddle(const std::string& text, size_t max_chars);

// ShortenMiddle, except that a path ("a/b/c", a module name) keeps its end: "…b/c".
std::string ShortenLabel(const std::string& text, size_t max_chars);

// ns as milliseconds with three decimals ("-4.668").
std::string FormatMs(int64_t ns);

}  // namespace profdiff::report::html
