// Machine-readable result (`--json FILE`, `--format json`), schema "profdiff.compare/1", documented in
// docs/json-schema.md.
#pragma once

#include <string>
#include <vector>

#include "profdiff/analysis/overall/gate.h"
#include "profdiff/analysis/operators/operator_compare.h"
#include "profdiff/analysis/overall/overall.h"
#include "profdiff/base/diagnostics.h"
#include "profdiff/model/profile.h"

namespace profdiff::report {

inline constexpr const char* kJsonSchema = "profdiff.compare/1";

struct JsonInput {
  std::string path;    // the path argument as given
  std::string format;  // SourceFormat name ("kineto-json", ...)
  std::string device;  // DeviceKind name ("GPU", "NPU", "unknown")
};
// Fills a JsonInput from a loaded profile.
JsonInput JsonInputFromProfile(const Profile& profile);

struct JsonReportContext {
  std::string tool_version;  // e.g. "0.1.0"
  JsonInput base;
  JsonInput comparison;
  const analysis::GateResult* gate = nullptr;  // nullptr or !ran: "verdict" is null
  std::vector<std::string> warnings;           // run-level warnings (loader messages, ...)
  const Diagnostics* base_diagnostics = nullptr;
  const Diagnostics* comparison_diagnostics = nullptr;
  std::vector<std::string> outputs;  // files written (workbook, CSVs), for the record
  // The operator/module comparison, when it ran ("operators" key; null otherwise).
  const analysis::OperatorComparison* operators = nullptr;
};

// The JSON document (pretty-printed with 2-space indent, ending in "\n"). Non-finite numbers (the
// +inf of a ratio) are written as the string "INF".
std::string RenderJsonReport(const analysis::OverallComparison& cmp, const JsonReportContext& ctx);

}  // namespace profdiff::report
