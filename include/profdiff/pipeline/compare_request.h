// What one `profdiff compare` run is asked to do, after the command line was parsed and validated
// (cli/options.h). The pipeline (compare_run.h) reads only this.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/loaders/loader.h"

namespace profdiff::pipeline {

// Which result goes to stdout: the screen table (and summary), the JSON result, or the summary as
// Markdown (for a pull-request comment).
enum class OutputFormat { kText, kJson, kMarkdown };

// The comparisons of the reference (docs/reference/command-line.md#default-comparison-set), one
// member per row of the table of comparisons (comparisons.h). When none is requested explicitly,
// all run.
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

struct CompareRequest {
  // Paths as given (a leading run of '=' stripped, '~' expanded; not made absolute).
  std::string comparison_path;  // -d / --profiling_path
  std::string base_path;        // -bp / --benchmark_profiling_path
  std::string output_path;      // -o / --output_path; empty: the current directory

  EnabledComparisons requested;  // the --enable_* flags as given
  EnabledComparisons enabled;    // after defaulting: all six when none was given
  bool disable_details = false;
  bool disable_module = false;
  std::optional<int64_t> max_kernel_num;
  std::string op_name_map_text;                    // as given
  std::map<std::string, std::string> op_name_map;  // parsed
  bool use_input_shape = false;
  std::string gpu_flow_cat;
  bool use_kernel_type = false;
  int64_t base_step = kVoidStep;
  int64_t comparison_step = kVoidStep;
  bool force = false;

  // profdiff additions (README.md#profdiff-compare).
  OutputFormat format = OutputFormat::kText;
  std::string json_path;  // --json FILE
  std::string html_path;  // --html FILE: the HTML page, built from the JSON result's document
  bool no_xlsx = false;
  std::string csv_dir;  // --csv DIR
  // --reference-compat[=LINE]: the reference's release line to imitate; nullopt = exact (default).
  std::optional<analysis::ReferenceLine> reference_line;
  bool strict = false;
  // --input-format: the text or the DB export of an Ascend directory holding both (auto: the DB).
  InputFormat input_format = InputFormat::kAuto;
  int threads = 0;  // --threads: threads that parse each trace file (0: one per core)
  std::optional<double> gate_e2e_pct;
  std::optional<double> gate_compute_pct;
  std::optional<double> gate_comm_pct;
  std::optional<double> gate_free_pct;
  double noise_floor_ms = 0.05;
  bool whole_capture = false;  // --whole-capture (analysis::GateOptions::whole_capture)
  bool allow_cross_device = false;  // --allow-cross-device (analysis::GateOptions::allow_cross_device)
  double min_match_pct = 50.0;      // --min-match PCT (analysis::GateOptions::min_match_pct)
  // --config FILE: kernel-categorisation masks ([OP_MASK] INI, like the reference's
  // compare_config.ini); empty: the reference's shipped defaults.
  std::string config_path;

  // Non-fatal remarks from validation (e.g. the reference's --use_kernel_type warning,
  // docs/reference/command-line.md#argument-validation rule 6).
  std::vector<std::string> warnings;

  bool any_gate() const {
    return gate_e2e_pct || gate_compute_pct || gate_comm_pct || gate_free_pct;
  }
  // A JSON result is rendered (--json FILE, --format json, or --html FILE, whose page is built from
  // it); otherwise no JSON section is built.
  bool wants_json() const {
    return !json_path.empty() || !html_path.empty() || format == OutputFormat::kJson;
  }
};

}  // namespace profdiff::pipeline
