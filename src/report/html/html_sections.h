// Internal to the html room: the sections of the page (html_sections.cc), each rendered from the
// JSON result's document. Not a public header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profdiff/report/html/html_table.h"  // the cells and tables the sections are built of
#include "profdiff/report/html/waterfall.h"
#include "profdiff/report/json_values.h"

namespace profdiff::report::html {

std::string SummarySection(const OrderedJson& doc, int64_t base_step, int64_t comparison_step);
std::string StepTimeSection(const OrderedJson& doc);
// Appends the waterfalls it draws to `drawn` (the page also embeds them as data).
std::string WaterfallSection(const OrderedJson& doc, std::vector<Waterfall>& drawn);
std::string ItemsTableSection(const OrderedJson& operators);
std::string MatchSection(const OrderedJson& operators);
std::string CommunicationSection(const OrderedJson& doc);
std::string MemorySection(const OrderedJson& memory);
std::string KernelSection(const OrderedJson& kernels);
// The comparisons that ran without rows, and why (the document's "empty_comparisons"); "" when none.
std::string EmptyComparisonsSection(const OrderedJson& empty);

}  // namespace profdiff::report::html
