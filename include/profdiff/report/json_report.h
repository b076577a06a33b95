// Machine-readable result (`--json FILE`, `--format json`), schema "profdiff.compare/1", documented
// in docs/json-schema.md. This is the envelope (schema, tool, mode, inputs, gate, warnings,
// diagnostics, outputs); each comparison renders its own section
// (report/<comparison>/<comparison>_json.h) and the pipeline hands the sections in, in the order of
// its table of comparisons.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/overall/gate.h"
#include "profdiff/base/diagnostics.h"
#include "profdiff/model/profile.h"
#include "profdiff/base/status.h"
#include "profdiff/report/json_values.h"
#include "profdiff/report/sheet.h"

namespace profdiff::report {

inline constexpr const char* kJsonSchema = "profdiff.compare/1";

struct JsonInput {
  std::string path;    // the path argument as given
  std::string format;  // SourceFormat name ("kineto-json", ...)
  std::string device;  // DeviceKind name ("GPU", "NPU", "unknown")
  std::string vendor;       // "NVIDIA" | "AMD" | "Huawei" | "" (unknown: null)
  std::string model;        // device model (Kineto deviceProperties, an Ascend DB's NPU_INFO); "": null
  std::string export_kind;  // "trace" (Kineto) | "text" | "db" | "trace-only" (Ascend); "": null
  int64_t rank = kNoNumber;        // kNoNumber: null
  int64_t world_size = kNoNumber;  // kNoNumber: null
};

// A gate's "verdict" object (result, exit_code, noise floor, basis, steps, thresholds, checks,
// incomparable and unsafe reasons); compare's and cluster's JSON alike.
OrderedJson GateVerdictJson(const analysis::GateResult& gate);

// Fills a JsonInput from a loaded profile.
JsonInput JsonInputFromProfile(const Profile& profile);

// One comparison's section.
struct JsonSection {
  std::string key;
  JsonBody body;
};

struct JsonReportContext {
  std::string tool_version;  // e.g. "0.1.0"
  std::string mode;          // "exact" or "reference-compat" (analysis::PolicyModeName)
  std::optional<std::string> reference_line;  // "26.1" / "8.2" with reference-compat; else null
  JsonInput base;
  JsonInput comparison;
  // The overall comparison's keys (OverallJsonSection), copied to the top level after "inputs".
  OrderedJson overall = OrderedJson::object();
  std::vector<std::string> warnings;  // run-level warnings (option warnings, ...)
  const Diagnostics* base_diagnostics = nullptr;
  const Diagnostics* comparison_diagnostics = nullptr;
  std::vector<std::string> outputs;   // files written (workbook, CSVs, this JSON), for the record
  std::vector<EmptyComparison> empty_comparisons;  // the comparisons that ran without rows, and why
  std::vector<JsonSection> sections;  // after "outputs", in this order
};

// The JSON document (pretty-printed with 2-space indent, ending in "\n"). `gate` gives "verdict"
// (null when no gate ran) and "comparability_warnings". The text is exactly what nlohmann's
// dump(2) prints for the whole document as one tree, but the sections' rows are made one at a time
// as they are written: the document is never held whole in memory, as a tree or as text.
std::string RenderJsonReport(const JsonReportContext& ctx, const analysis::GateResult& gate);
void WriteJsonReport(const JsonReportContext& ctx, const analysis::GateResult& gate, std::ostream& out);
// The same text written to `path` (through a temporary file, never replacing an existing file unless
// `force`).
Status WriteJsonReport(const JsonReportContext& ctx, const analysis::GateResult& gate,
                       const std::string& path, bool force);

// The document as a value, each section's rows left null (what the HTML page is built from: it shows
// the statistics and the largest diffs, never the rows, so the two never disagree).
OrderedJson BuildJsonSummaryDocument(const JsonReportContext& ctx, const analysis::GateResult& gate);
// The whole document as a value, rows made (tests).
OrderedJson BuildJsonReport(const JsonReportContext& ctx, const analysis::GateResult& gate);
std::string DumpJsonReport(const OrderedJson& document);

}  // namespace profdiff::report
