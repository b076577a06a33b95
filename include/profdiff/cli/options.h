// Command-line options of `profdiff compare` and `profdiff inspect`, and their validation.
//
// Flags, defaults and the order of validation follow the reference
// (docs/reference/command-line.md#options to #argument-validation), except that every validation
// failure is a usage error (exit 2) instead of the reference's exit 0.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/overall/gate.h"
#include "profdiff/base/status.h"
#include "profdiff/pipeline/compare_request.h"

namespace profdiff::cli {

using pipeline::EnabledComparisons;
using pipeline::kVoidStep;
using pipeline::OutputFormat;

enum class ColorMode { kAuto, kAlways, kNever };

// What the command line of `compare` asks for: the pipeline's request plus what only the CLI uses.
struct CompareOptions : pipeline::CompareRequest {
  bool quiet = false;
  bool verbose = false;  // --verbose: per-phase timings on stderr
  ColorMode color = ColorMode::kAuto;
};

struct InspectOptions {
  std::string path;
  bool json = false;
  bool strict = false;
  InputFormat input_format = InputFormat::kAuto;  // --input-format
  int threads = 0;  // --threads (0: one per core)
  bool verbose = false;  // --verbose: a DB export's load by table on stderr
};

// Parses the arguments that follow `compare` (e.g. {"-d", "a", "-bp", "b", "--force"}) and runs the
// reference's argument validation (docs/reference/command-line.md#argument-validation rules 1–7, in
// order). Paths are not touched. Every failure is kInvalidArgument with the reference's message (or
// a CLI11 parse message). `--help` is not handled here (it is kInvalidArgument "help requested");
// use Run() for that.
StatusOr<CompareOptions> ParseCompareArgs(const std::vector<std::string>& args);

// Validation rules 1–7 on already-parsed raw values; fills `opts.op_name_map`, the steps, `enabled`
// and `warnings`. Exposed for tests.
// The gate thresholds (finite, >= 0) and the noise floor (finite, >= 0): kInvalidArgument otherwise.
Status ValidateGateValues(const analysis::GateOptions& gate);

Status ValidateCompareOptions(CompareOptions& opts, const std::string& base_step_text,
                              const std::string& comparison_step_text);

// Parses a Python literal or JSON text of `--op_name_map` into a string->string map, with the
// reference's messages: not a literal -> "Invalid value for '--op_name_map': TEXT"; not a dict ->
// "Invalid param, --op_name_map must be dict, ..."; non-string key/value -> "... must be string";
// longer than 200 characters -> "... exceeded the maximum value 200".
StatusOr<std::map<std::string, std::string>> ParseOpNameMap(std::string_view text);

// The LINE of --reference-compat[=LINE]: "" (the bare flag) is the current line (26.1); "26.1" and
// "8.2" (also "26.1.0", "8.2.0") name a line; anything else is kInvalidArgument naming the valid lines.
StatusOr<analysis::ReferenceLine> ParseReferenceCompatLine(std::string_view text);

// The reference's path pre-processing: strips a leading run of '=' and expands a leading '~'.
std::string PreprocessPathArg(std::string_view path);

}  // namespace profdiff::cli
