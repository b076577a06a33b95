// `--html FILE`: one self-contained page (docs/html-report.md) built from the JSON result's document
// (BuildJsonSummaryDocument: the document without the sections' rows), so the page shows exactly the
// numbers of the JSON: the inputs, devices, steps,
// mode and verdict; stacked bars of each side's step time; a waterfall from ΔE2E to its categories
// and one from the operator/module change to its largest items; a sortable, filterable table of
// operators or modules; the match rate with the heaviest unmatched names; and the communication,
// memory and kernel comparisons where they ran. CSS, script and charts are inline; a
// Content-Security-Policy forbids every network load.
#pragma once

#include <cstdint>
#include <string>

#include "profdiff/report/json_values.h"

namespace profdiff::report::html {

struct HtmlPageContext {
  const OrderedJson* document = nullptr;  // the JSON result (schema profdiff.compare/1), rows left null
  int64_t base_step = -1;                 // --base_step; -1: every step
  int64_t comparison_step = -1;           // --comparison_step
};

// The page. Every text from the document goes through html_escape.h for its context.
std::string RenderHtmlPage(const HtmlPageContext& context);

// The frame every page of profdiff shares (compare's page, the cluster page): the head with a
// Content-Security-Policy that allows exactly PageStyle() and PageScript() and no network load, the
// title as <h1>, the sections, the page's data as an inline JSON block (id "profdiff-data", escaped
// by EscapeScriptJson) and the script.
struct PageFrame {
  std::string escaped_title;    // <title> and <h1>, already escaped
  std::string escaped_version;  // the profdiff version of the generator meta, already escaped
  std::string body;             // the sections (HTML)
  OrderedJson data;             // what the charts draw, for readers and tests
};
std::string RenderPageFrame(const PageFrame& frame);

// The inline stylesheet and script exactly as the page carries them, and their CSP source
// expressions ('sha256-<base64>', computed by CMake at build time); tests/oracle/test_html_csp.py
// recomputes the hashes from the page.
const std::string& PageStyle();
const std::string& PageScript();

}  // namespace profdiff::report::html
