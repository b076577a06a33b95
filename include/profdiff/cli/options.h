// Command-line options of `profdiff compare` and `profdiff inspect`, and their validation.
//
// Flags, defaults and the order of validation follow the reference (reference-behaviour.md §1.2–§1.4),
// except that every validation failure is a usage error (exit 2) instead of the reference's exit 0.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/status.h"

namespace profdiff::cli {

enum class OutputFormat { kText, kJson };
enum class ColorMode { kAuto, kAlways, kNever };

// The comparisons of the reference (§1.3). When none is requested explicitly, all run.
struct EnabledComparisons {
  bool profiling = false;
  bool operators = false;
  bool memory = false;
  bool communication = false;
  bool api = false;
  bool kernel = false;
  bool any() const { return profiling || operators || memory || communication || api || kernel; }
};

inline constexpr int64_t kVoidStep = -1;  // the reference's "no step given"

struct CompareOptions {
  // Paths as given (a leading run of '=' stripped, '~' expanded; not made absolute).
  std::string comparison_path;  // -d / --profiling_path
  std::string base_path;        // -bp / --benchmark_profiling_path
  std::string output_path;      // -o / --output_path; empty: the current directory

  EnabledComparisons requested;  // the --enable_* flags as given
  EnabledComparisons enabled;    // after defaulting: all six when none was given
  bool disable_details = false;
  bool disable_module = false;
  std::optional<int64_t> max_kernel_num;
  std::string op_name_map_text;                     // as given
  std::map<std::string, std::string> op_name_map;   // parsed
  bool use_input_shape = false;
  std::string gpu_flow_cat;
  bool use_kernel_type = false;
  int64_t base_step = kVoidStep;
  int64_t comparison_step = kVoidStep;
  bool force = false;

  // profdiff additions (spec §3, §5).
  OutputFormat format = OutputFormat::kText;
  std::string json_path;  // --json FILE
  bool no_xlsx = false;
  std::string csv_dir;    // --csv DIR
  bool reference_compat = false;
  bool strict = false;
  bool quiet = false;
  ColorMode color = ColorMode::kAuto;
  std::optional<double> gate_e2e_pct;
  std::optional<double> gate_compute_pct;
  std::optional<double> gate_comm_pct;
  std::optional<double> gate_free_pct;
  double noise_floor_ms = 0.05;
  // --config FILE: kernel-categorisation masks ([OP_MASK] INI, like the reference's
  // compare_config.ini); empty: the reference's shipped defaults.
  std::string config_path;

  // Non-fatal remarks from validation (e.g. the reference's --use_kernel_type warning, §1.4 rule 6).
  std::vector<std::string> warnings;

  bool any_gate() const {
    return gate_e2e_pct || gate_compute_pct || gate_comm_pct || gate_free_pct;
  }
};

struct InspectOptions {
  std::string path;
  bool json = false;
  bool strict = false;
};

// Parses the arguments that follow `compare` (e.g. {"-d", "a", "-bp", "b", "--force"}) and runs the
// reference's argument validation (§1.4 rules 1–7, in order). Paths are not touched. Every failure is
// kInvalidArgument with the reference's message (or a CLI11 parse message). `--help` is not handled
// here (it is kInvalidArgument "help requested"); use Run() for that.
StatusOr<CompareOptions> ParseCompareArgs(const std::vector<std::string>& args);

// Validation rules 1–7 on already-parsed raw values; fills `opts.op_name_map`, the steps, `enabled`
// and `warnings`. Exposed for tests.
Status ValidateCompareOptions(CompareOptions& opts, const std::string& base_step_text,
                              const std::string& comparison_step_text);

// Parses a Python literal or JSON text of `--op_name_map` into a string->string map, with the
// reference's messages: not a literal -> "Invalid value for '--op_name_map': TEXT"; not a dict ->
// "Invalid param, --op_name_map must be dict, ..."; non-string key/value -> "... must be string";
// longer than 200 characters -> "... exceeded the maximum value 200".
StatusOr<std::map<std::string, std::string>> ParseOpNameMap(std::string_view text);

// The reference's path pre-processing: strips a leading run of '=' and expands a leading '~'.
std::string PreprocessPathArg(std::string_view path);

}  // namespace profdiff::cli
