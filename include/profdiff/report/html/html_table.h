// Cells and tables of profdiff's HTML pages, from a JSON result's values: every page (compare's
// `--html`, cluster's profdiff_cluster.html) builds its tables with these, so numbers read and sort
// the same way everywhere. Every text goes through html_escape.h.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "profdiff/report/json_values.h"

namespace profdiff::report::html {

const OrderedJson& Member(const OrderedJson& j, const char* key);  // null when absent
std::string Text(const OrderedJson& j);  // a JSON value as escaped display text ("" for null)
std::string MsCell(const OrderedJson& v);  // a number as a sortable <td> (an integer without decimals), else its text

// `v` with `digits` decimals ("1.500").
std::string Number(double v, int digits);
// A sortable number cell: the exact value in data-v, the value shown with `digits` decimals.
std::string NumCell(double v, int digits);
std::string Th(std::string_view text);         // a header cell of `text` (escaped here)
std::string Td(const std::string& escaped);    // a cell of already escaped HTML
// A table of `headers` (escaped here) and `rows` (each the already built cells of one row).
std::string SimpleTable(const std::vector<std::string>& headers, const std::vector<std::string>& rows);
// The gate's verdict of a JSON result (its "verdict" member: null when no --gate-* ran): the result,
// then why it cannot pass and each check's reason.
std::string VerdictHtml(const OrderedJson& verdict);

}  // namespace profdiff::report::html
