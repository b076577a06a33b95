// The `profdiff` command line: CLI11 set-up, argument validation and dispatch to the sub-commands.
#include "profdiff/cli/app.h"

#include <fmt/format.h>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <streambuf>
#include <memory>
#include <string>
#include <vector>

#include "profdiff/base/cleanup.h"
#include "profdiff/base/terminal_text.h"
#include "profdiff/cli/commands.h"
#include "profdiff/cli/options.h"
#include "profdiff/cli/suggest.h"
#include "profdiff/pipeline/comparisons.h"
#include "reference_compat_option.h"
#include "summarize_args.h"

namespace profdiff::cli {
namespace {

constexpr const char* kExitCodeHelp =
    "Exit codes:\n"
    "  0  success (with a --gate-*: pass)\n"
    "  1  a --gate-* found a regression\n"
    "  2  usage error: bad command line or option value (also the reference's\n"
    "     parameter checks: --max_kernel_num <= 3, --op_name_map, --gpu_flow_cat,\n"
    "     step arguments), an output that exists without --force, is not a\n"
    "     regular file, or is an input or lies inside an input directory\n"
    "  3  input or processing error (missing/unreadable/malformed input or DB,\n"
    "     output or standard output not writable); the message names the file and\n"
    "     line/offset (table)\n"
    "  4  incomparable: a --gate-* was given but a side lacks the data it needs, the pair is not a fair\n"
    "     comparison (different devices, a low operator match, a side without device data), or device work\n"
    "     outside every step window makes a per-step pass unsafe\n"
    "     (e.g. no kernels or device tasks); never reported as a pass\n"
    "  130, 143  killed by SIGINT, SIGTERM: temporary files and the outputs this\n"
    "     run created are removed first\n";

// `inspect` never gates: its exit codes are these four.
constexpr const char* kInspectExitCodeHelp =
    "Exit codes:\n"
    "  0  success\n"
    "  2  usage error: bad command line or option value\n"
    "  3  input error: missing, unreadable or malformed input (with --strict also a\n"
    "     malformed record); the message names the file and line/offset\n"
    "  130, 143  killed by SIGINT, SIGTERM\n";

constexpr const char* kInspectExamples =
    "Examples:\n"
    "  profdiff inspect run/rank0_ascend_pt\n"
    "  profdiff inspect trace.pt.trace.json.gz --json > loaded.json\n"
    "  profdiff inspect rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv\n\n";

constexpr const char* kCompareExamples =
    "Examples:\n"
    "  profdiff compare -bp before.pt.trace.json -d after.pt.trace.json\n"
    "      screen table and summary; the workbook in the current directory\n"
    "  profdiff compare -bp gpu_run/trace.json -d npu_run/rank0_ascend_pt -o out/ --html out/report.html\n"
    "      GPU -> NPU migration: workbook in out/, an HTML page beside it\n"
    "  profdiff compare -bp main.json -d pr.json --no-xlsx --gate-e2e 5 --format md\n"
    "      CI: exit 1 when E2E grew by more than 5 %, a Markdown summary on stdout\n"
    "  profdiff compare -bp a.json -d b.json --format json > result.json\n"
    "      the JSON result on stdout (no workbook unless -o)\n"
    "  profdiff compare -bp a.json -d b.json --reference-compat\n"
    "      the reference's (msprof-analyze compare) numbers and screen\n\n";

constexpr const char* kClusterExamples =
    "Examples:\n"
    "  profdiff cluster -d run/ -o out/\n"
    "      each rank's steps, the rank that holds each step back and why; out/cluster_analysis_output/\n"
    "  profdiff cluster -d pr_run/ -bp main_run/ -o out/ --gate-e2e 5\n"
    "      two runs: the job's step, the mean rank, new and resolved slow ranks; exit 1 when the job's\n"
    "      step grew by more than 5 %\n"
    "  profdiff cluster summarize -d run/ -o sums/ --shard-index 0 --shard-count 8   (one per machine)\n"
    "  profdiff cluster --summaries sums/ -o out/\n"
    "      the same run in shards: each shard summarises its ranks to sums/, then the reduce reads the\n"
    "      summaries alone (scripts/slurm/ runs the shards as a Slurm job array)\n\n";

constexpr const char* kSummarizeExamples =
    "Examples:\n"
    "  profdiff cluster summarize -d run/ --list-ranks\n"
    "      the ranks of the run, one line each (rank, export kind, path), in the order shards split them\n"
    "  profdiff cluster summarize -d run/ -o sums/ --shard-index 3 --shard-count 8\n"
    "      the summaries of shard 3 of 8 (the ranks at list positions 3, 11, 19, ...) as\n"
    "      sums/rank_<R>.summary.json; in a Slurm array task the shard comes from SLURM_ARRAY_TASK_ID\n"
    "      and SLURM_ARRAY_TASK_COUNT, in a Kubernetes Indexed Job from JOB_COMPLETION_INDEX\n"
    "  profdiff cluster --summaries sums/ -o out/\n"
    "      the reduce: the outputs of `profdiff cluster -d run/ -o out/`\n\n";

constexpr const char* kInputFormatHelp =
    "Which export of an Ascend directory holding both to read: auto (the DB export "
    "ascend_pytorch_profiler_<rank>.db when present, as the reference), text (trace_view.json and "
    "its CSV/JSON files) or db; text or db refuses an input without that export";

constexpr const char* kReferenceCompatHelp =
    "Reproduce the reference's numbers and quirks (integer-us grid for GPU computing and "
    "communication, float us sums, kernels attached to every op with the same start, stream 0 "
    "ignored, its operator/module pairing). LINE is the reference's release line: 26.1 (the "
    "default, the current line: pairing by SequenceMatcher matching blocks with base-only items "
    "first in each gap; FusedInferAttention op types count as flash attention in text input) or "
    "8.2 (the 2025 line: its LCS-like recurrence; no FusedInferAttention rule). Without the flag: "
    "exact int64 ns, each kernel once, a true LCS (docs/deviations.md)";

constexpr int kMaxThreads = 1024;
constexpr const char* kThreadsHelp =
    "Threads that parse each trace file (default: one per core; 1: one). A JSON trace of 64 MiB or "
    "more is cut into blocks parsed in parallel, and an Ascend DB export's big tables are read and "
    "decoded ahead on N threads (at most 4); the result is the same at any count";
constexpr const char* kCompareThreadsHelp =
    "Threads that parse each trace file (default: one per core; 1: one), run the comparisons side by "
    "side and render and deflate the workbook's sheets. A JSON trace of 64 MiB or more is cut into "
    "blocks parsed in parallel, and an Ascend DB export's big tables are read and decoded ahead on N "
    "threads (at most 4); every output is the same at any count";

// The gate flags, shared by compare and cluster (two runs): --gate-e2e/compute/comm/free PCT and
// --noise-floor-ms MS.
struct RawGates {
  double values[4] = {0, 0, 0, 0};
  CLI::Option* opts[4] = {nullptr, nullptr, nullptr, nullptr};

  void Add(CLI::App& c, double& noise_floor_ms, std::string_view e2e_words) {
    opts[0] = c.add_option("--gate-e2e", values[0],
                           fmt::format("Exit 1 when {} grew by more than PCT % (and the noise floor)", e2e_words));
    opts[1] = c.add_option("--gate-compute", values[1],
                           "Exit 1 when computing time grew by more than PCT % (and the noise floor)");
    opts[2] = c.add_option("--gate-comm", values[2],
                           "Exit 1 when uncovered communication grew by more than PCT % (and the noise floor)");
    opts[3] = c.add_option("--gate-free", values[3], "Exit 1 when free time grew by more than PCT % (and the noise floor)");
    for (CLI::Option* g : opts) g->type_name("PCT");
    c.add_option("--noise-floor-ms", noise_floor_ms, "A gate also needs the growth to exceed this many ms (default 0.05)");
  }
  // The thresholds given, in the order e2e, computing, communication, free.
  void Apply(std::optional<double>& e2e, std::optional<double>& compute, std::optional<double>& comm,
             std::optional<double>& free) const {
    std::optional<double>* out[4] = {&e2e, &compute, &comm, &free};
    for (int i = 0; i < 4; ++i)
      if (opts[i]->count() > 0) *out[i] = values[i];
  }
};

// Everything CLI11 binds to for `compare`, before validation.
struct RawCompare {
  CompareOptions opts;
  std::string base_step;
  std::string comparison_step;
  int64_t max_kernel_num = 0;
  RawGates gates;
  std::string format = "text";
  std::string input_format = "auto";
  std::string color = "auto";
  ReferenceCompatOption reference_compat;
  CLI::Option* max_kernel_opt = nullptr;
  CLI::Option* output_opt = nullptr;
};

void AddCompareOptions(CLI::App& c, RawCompare& r) {
  CompareOptions& o = r.opts;
  c.add_option("-d,--profiling_path", o.comparison_path, "Path of the profiling data (comparison side)")
      ->required();
  c.add_option("--benchmark_profiling_path", o.base_path,
               "(also -bp) Path of the benchmark data (base side)")
      ->required();
  // One --enable_* flag per row of the table of comparisons.
  for (const pipeline::ComparisonEntry& e : pipeline::Comparisons()) {
    std::string help(e.help);
    c.add_flag(std::string(e.flag), o.requested.*e.enabled, help);
  }
  c.add_flag("--disable_details", o.disable_details, "Hide detailed comparison");
  c.add_flag("--disable_module", o.disable_module, "Hide module comparison");
  r.output_opt = c.add_option("-o,--output_path", o.output_path,
                              "Output directory (workbook performance_comparison_result_<UTC time>.xlsx), or "
                              "exactly FILE.xlsx; default: the current directory (with --format json: no "
                              "workbook unless -o is given)");
  r.max_kernel_opt = c.add_option("--max_kernel_num", r.max_kernel_num,
                                  "The number of kernels per torch op is limited (must be > 3)");
  c.add_option("--op_name_map", o.op_name_map_text,
               "Equivalent operator names, JSON {\"a\":\"b\"} or Python dict {'a':'b'}");
  c.add_flag("--use_input_shape", o.use_input_shape, "Enable precise matching of operators");
  c.add_option("--gpu_flow_cat", o.gpu_flow_cat, "Identifier of the GPU connection (flow category)");
  c.add_option("--base_step", r.base_step, "Step id of the base (benchmark) data (NPU only)");
  c.add_option("--comparison_step", r.comparison_step, "Step id of the comparison data (NPU only)");
  c.add_flag("--force", o.force, "Overwrite an existing output file");
  c.add_flag("--use_kernel_type", o.use_kernel_type,
             "Kernel comparison by (op type, core type) from op_statistic.csv");
  // profdiff additions.
  c.add_option("--format", r.format,
               "stdout format: text (the screen table, then a summary in the default mode), json (the JSON "
               "result) or md (the summary as Markdown, for a pull-request comment)")
      ->check(CLI::IsMember({"text", "json", "md"}));
  c.add_option("--json", o.json_path,
               "Also write the machine-readable result (JSON, schema profdiff.compare/1) to FILE")
      ->type_name("FILE");
  c.add_option("--html", o.html_path,
               "Also write a self-contained HTML page to FILE (charts, sortable table; opens offline "
               "in a browser, loads nothing from the network)")
      ->type_name("FILE");
  c.add_flag("--no-xlsx", o.no_xlsx, "Do not write the workbook");
  c.add_option("--csv", o.csv_dir, "Write one CSV file per sheet into DIR (created if missing)")
      ->type_name("DIR");
  r.reference_compat.Add(c, kReferenceCompatHelp);
  c.add_flag("--strict", o.strict, "Fail on any malformed record in the inputs");
  c.add_option("--input-format", r.input_format, kInputFormatHelp)->check(CLI::IsMember({"auto", "text", "db"}));
  c.add_option("--threads", o.threads, kCompareThreadsHelp)->check(CLI::Range(1, kMaxThreads))->type_name("N");
  c.add_flag("-q,--quiet", o.quiet, "No informational messages on stderr (nor the progress line)");
  c.add_flag("--verbose", o.verbose, "Print each phase's wall time, CPU time and peak memory on stderr");
  c.add_option("--color", r.color, "Colour on stdout: auto, always or never (NO_COLOR is honoured)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  r.gates.Add(c, o.noise_floor_ms, "E2E time");
  c.add_flag("--whole-capture", o.whole_capture,
             "Gate on the whole captures when a side has no ProfilerStep markers (else such a gate is "
             "incomparable, exit 4); with steps on both sides the gate compares per step (median step)");
  c.add_flag("--allow-cross-device", o.allow_cross_device,
             "Different device models, vendors or kinds (GPU vs NPU) are intended (a migration): gate them "
             "(else such a gate is incomparable, exit 4)");
  c.add_option("--min-match", o.min_match_pct,
               "A gate is incomparable (exit 4) when fewer than PCT % of either side's top-level operators "
               "matched: the runs are not the same workload (default 50; 0 turns the check off)")
      ->type_name("PCT");
  c.add_option("--config", o.config_path,
               "Kernel-categorisation masks: an INI file with section [OP_MASK] and the keys FA_MASK, "
               "CONV_MASK, MATMUL_MASK, CUBE_MASK, TRANS_MASK, MC2_KERNEL (comma-separated lists), "
               "like the reference's compare_config.ini; default: the reference's shipped masks. An optional "
               "section [DEVICE_KERNELS] (COMMUNICATION, STREAM_WORDS, GEMM: kernel-name substrings) extends "
               "profdiff's table of communication and GEMM kernels")
      ->type_name("FILE");
}

// Everything CLI11 binds to for `cluster`, before validation.
struct RawCluster {
  ClusterOptions opts;
  std::string rank_list;
  std::string step_id;
  std::string base_path;  // -bp: the base run
  RawGates gates;
  std::string format = "text";
  std::string input_format = "auto";
  std::string mode = "all";
  std::string drill_down;
  CLI::Option* drill_down_opt = nullptr;
  CLI::Option* rank_list_opt = nullptr;
  CLI::Option* step_opt = nullptr;
  CLI::Option* base_opt = nullptr;
  ReferenceCompatOption reference_compat;
  CLI::Option* summaries_opt = nullptr;
  CLI::Option* base_summaries_opt = nullptr;
};

void AddClusterOptions(CLI::App& c, RawCluster& r) {
  ClusterOptions& o = r.opts;
  c.add_option("-d,--profiling_path", o.run_path,
               "The directory holding the ranks of one run: *_ascend_pt / *_ascend_ms rank folders (text, DB "
               "or side files only) or Kineto traces, up to 5 levels below it");
  r.summaries_opt = c.add_option("--summaries", o.summaries_dir,
                                 "Instead of -d: the run's rank summaries written by `profdiff cluster summarize` "
                                 "(DIR/rank_<R>.summary.json, every rank of the run): only the reduce runs here")
                        ->type_name("DIR");
  r.base_summaries_opt = c.add_option("--base-summaries", o.base_summaries_dir,
                                      "Instead of -bp: the base run's rank summaries")
                             ->type_name("DIR");
  r.base_opt = c.add_option("--benchmark_profiling_path", r.base_path,
                            "(also -bp) A base run to compare with: the job's step, each rank and each step's slow "
                            "rank, each collective kind, pipeline stage and rank percentile (runs of different rank "
                            "counts too), and a gate with --gate-*");
  c.add_option("-o,--output_path", o.output_path,
               "Output directory: DIR/cluster_analysis_output/ (cluster_step_trace_time.csv; for Ascend text "
               "exports also communication_group.json, cluster_communication.json, "
               "cluster_communication_matrix.json; for Ascend DB exports also cluster_analysis.db and "
               "cluster_time_summary.csv), DIR/profdiff_cluster.json, its workbook "
               "DIR/profdiff_cluster.xlsx and its page DIR/profdiff_cluster.html (default: the current "
               "directory; never inside the run)");
  r.rank_list_opt = c.add_option("--rank_list,--ranks", r.rank_list, "Only these ranks, e.g. 0,1,3")->type_name("LIST");
  r.step_opt = c.add_option("--step_id", r.step_id, "Only this step's rows (the step id, e.g. 50)")->type_name("ID");
  c.add_option("-m,--mode", r.mode,
               "The reference's analysis mode: all (default), communication_time (no "
               "cluster_communication_matrix.json) or communication_matrix (no cluster_communication.json)")
      ->check(CLI::IsMember({"all", "communication_time", "communication_matrix"}));
  r.drill_down_opt = c.add_option("--drill-down", r.drill_down,
                                   "With -bp: compare one rank of the two runs as `compare` does and write its "
                                   "workbook as DIR/drill_down_rank<R>.xlsx; worst: the new straggler, else the "
                                   "rank whose step grew most")
                          ->type_name("worst|RANK");
  c.add_flag("--force", o.force, "Overwrite existing output files");
  r.reference_compat.Add(c, "Write cluster_step_trace_time.csv as the reference (msprof-analyze cluster) does: its "
                            "float values; LINE 26.1 (default) or 8.2");
  c.add_option("--input-format", r.input_format, kInputFormatHelp)->check(CLI::IsMember({"auto", "text", "db"}));
  c.add_option("-j,--threads", o.threads, "Ranks loaded at once (default: one per core)")
      ->check(CLI::Range(1, kMaxThreads))
      ->type_name("N");
  c.add_option("--format", r.format, "stdout format: text (the summary) or json (the JSON result)")
      ->check(CLI::IsMember({"text", "json"}));
  c.add_flag("--strict", o.strict, "Fail on any malformed record in the inputs");
  c.add_flag("-q,--quiet", o.quiet, "No informational messages on stderr");
  c.add_flag("--verbose", o.verbose, "Print each phase's wall time, CPU time and peak memory on stderr");
  r.gates.Add(c, o.gate.noise_floor_ms, "the job's step time (the slowest rank's, median step)");
}

// Exactly one source per run: -d or --summaries; at most one for the base run: -bp or --base-summaries.
Status CheckClusterSources(const RawCluster& r) {
  const bool run = !r.opts.run_path.empty(), sums = r.summaries_opt->count() > 0;
  if (run == sums)
    return InvalidArgument(run ? "cluster: give the run with -d or its summaries with --summaries, not both"
                               : "cluster: give the run with -d (or its summaries with --summaries)");
  if (r.base_opt->count() > 0 && r.base_summaries_opt->count() > 0)
    return InvalidArgument("cluster: give the base run with -bp or its summaries with --base-summaries, not both");
  return Status::Ok();
}

Status FinishCluster(RawCluster& r, ClusterOptions& out) {
  ClusterOptions& o = r.opts;
  PD_RETURN_IF_ERROR(CheckClusterSources(r));
  o.run_path = PreprocessPathArg(o.run_path);
  if (r.summaries_opt->count() > 0) o.summaries_dir = PreprocessPathArg(o.summaries_dir);
  if (r.base_summaries_opt->count() > 0) o.base_summaries_dir = PreprocessPathArg(o.base_summaries_dir);
  if (r.base_opt->count() > 0) o.base_run_path = PreprocessPathArg(r.base_path);
  const bool two_runs = !o.base_run_path.empty() || !o.base_summaries_dir.empty();
  r.gates.Apply(o.gate.e2e_pct, o.gate.compute_pct, o.gate.comm_pct, o.gate.free_pct);
  PD_RETURN_IF_ERROR(ValidateGateValues(o.gate));
  if (o.gate.any() && !two_runs)
    return InvalidArgument("cluster: a --gate-* compares two runs: give the base run with -bp");
  o.output_path = PreprocessPathArg(o.output_path);
  if (r.rank_list_opt->count() > 0) {
    PD_ASSIGN_OR_RETURN(std::vector<int64_t> ranks, ParseRankList(r.rank_list));
    o.rank_list = std::move(ranks);
  }
  if (r.step_opt->count() > 0) o.step_id = r.step_id;
  if (r.drill_down_opt->count() > 0) {
    if (!two_runs) return InvalidArgument("cluster: --drill-down compares two runs: give the base run with -bp");
    const std::string& d = r.drill_down;
    const bool rank = !d.empty() && d.size() < 12 && std::all_of(d.begin(), d.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    if (d != "worst" && !rank)
      return InvalidArgument("cluster: --drill-down takes 'worst' or a rank id, got '" + d + "'");
    o.drill_down = d;
  }
  o.input_format = InputFormatFromName(r.input_format).value_or(InputFormat::kAuto);
  o.json = r.format == "json";
  o.mode = r.mode == "communication_time"     ? analysis::ClusterMode::kCommunicationTime
           : r.mode == "communication_matrix" ? analysis::ClusterMode::kCommunicationMatrix
                                              : analysis::ClusterMode::kAll;
  PD_RETURN_IF_ERROR(r.reference_compat.Apply(o.reference_line));
  out = o;
  return Status::Ok();
}

// Turns the bound values into CompareOptions and runs the reference's validation
// (docs/reference/command-line.md#argument-validation rules 1-7).
Status Finish(RawCompare& r, CompareOptions& out) {
  CompareOptions& o = r.opts;
  o.comparison_path = PreprocessPathArg(o.comparison_path);
  o.base_path = PreprocessPathArg(o.base_path);
  o.output_path = PreprocessPathArg(o.output_path);
  o.config_path = PreprocessPathArg(o.config_path);
  if (r.max_kernel_opt->count() > 0) o.max_kernel_num = r.max_kernel_num;
  o.format = r.format == "json" ? OutputFormat::kJson : r.format == "md" ? OutputFormat::kMarkdown : OutputFormat::kText;
  // JSON on stdout is the whole answer: a workbook only when asked for with -o.
  if (o.format == OutputFormat::kJson && r.output_opt->count() == 0) o.no_xlsx = true;
  o.input_format = InputFormatFromName(r.input_format).value_or(InputFormat::kAuto);
  o.color = r.color == "always" ? ColorMode::kAlways : r.color == "never" ? ColorMode::kNever : ColorMode::kAuto;
  r.gates.Apply(o.gate_e2e_pct, o.gate_compute_pct, o.gate_comm_pct, o.gate_free_pct);
  PD_RETURN_IF_ERROR(ValidateCompareOptions(o, r.base_step, r.comparison_step));
  PD_RETURN_IF_ERROR(r.reference_compat.Apply(o.reference_line));
  out = o;
  return Status::Ok();
}

// CLI11 takes single-character short options only: map the reference's "-bp" (and "-H") first.
std::vector<std::string> NormalizeArgs(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  out.reserve(args.size());
  for (const std::string& a : args) {
    if (a == "-bp")
      out.emplace_back("--benchmark_profiling_path");
    else if (a.rfind("-bp=", 0) == 0)
      out.push_back("--benchmark_profiling_path=" + a.substr(4));
    else if (a == "-H")
      out.emplace_back("--help");
    else
      out.push_back(a);
  }
  return out;
}

// CLI11's parse() wants the arguments in reverse order.
void Parse(CLI::App& app, std::vector<std::string> args) {
  std::reverse(args.begin(), args.end());
  app.parse(args);
}

// The spellings of `cmd`'s options ("--json", "-d", ...).
std::vector<std::string> OptionNames(const CLI::App& cmd) {
  std::vector<std::string> names;
  for (const CLI::Option* o : cmd.get_options()) {
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

// A usage error as the user reads it: what was wrong (an unknown command or option named as such,
// with the closest real one when it looks like a typo), then which help to read.
std::string UsageErrorText(const CLI::ParseError& e, CLI::App& app, const CLI::App* sub) {
  std::string what = e.what();
  const std::vector<std::string> extras = app.remaining(true);
  // An unknown word explains the error best even when CLI11 first found a required option missing.
  if (!extras.empty()) {
    const std::string& word = extras.front();
    if (word.size() > 1 && word[0] == '-') {
      const std::string typed = word.substr(0, word.find('='));
      const std::string near = ClosestName(typed, OptionNames(sub != nullptr ? *sub : app));
      what = "unknown option '" + typed + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?");
    } else if (sub == nullptr && dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
      const std::string near = ClosestName(word, {"inspect", "compare", "cluster"});
      what = "unknown command '" + word + "'" +
             (near.empty() ? "; the commands are inspect, compare and cluster" : "; did you mean '" + near + "'?");
    }
  }
  const std::string help = sub != nullptr ? "profdiff " + sub->get_name() + " --help" : "profdiff --help";
  return "profdiff: error: " + what + "\nRun '" + help + "' for usage.\n";
}

// Standard output as the executable writes it: every write(2) checked, the first error kept (a full
// disk, /dev/full, a closed pipe's EPIPE), so a run never reports success after losing its output.
class StdoutBuffer : public std::streambuf {
 public:
  StdoutBuffer() { setp(buffer_, buffer_ + sizeof buffer_); }
  // Flushes and closes standard output; the first error of any write, the flush or the close.
  Status Close() {
    sync();
    if (::close(STDOUT_FILENO) != 0 && error_ == 0 && errno != EBADF) error_ = errno;
    if (error_ == 0) return Status::Ok();
    return IoError(std::string("cannot write standard output: ") + std::strerror(error_));
  }

 protected:
  int_type overflow(int_type c) override {
    if (!Drain()) return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
  }
  int sync() override { return Drain() ? 0 : -1; }

 private:
  bool Drain() {
    const char* p = pbase();
    while (p < pptr() && error_ == 0) {
      const ssize_t n = ::write(STDOUT_FILENO, p, static_cast<size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) error_ = n < 0 ? errno : EIO;
      else p += n;
    }
    setp(buffer_, buffer_ + sizeof buffer_);  // what could not be written is dropped
    return error_ == 0;
  }
  char buffer_[1 << 16];
  int error_ = 0;
};

}  // namespace

// The one mapping from an outcome to the exit code (README "Exit codes").
int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return kExitOk;
    case StatusCode::kInvalidArgument:
    case StatusCode::kAlreadyExists: return kExitUsage;
    default: return kExitInputError;
  }
}

int ExitCodeFor(const analysis::GateResult& gate) {
  return gate.ran ? analysis::GateExitCode(gate.verdict) : kExitOk;
}

StatusOr<CompareOptions> ParseCompareArgs(const std::vector<std::string>& args) {
  CLI::App app("profdiff compare", "compare");
  RawCompare raw;
  AddCompareOptions(app, raw);
  try {
    Parse(app, NormalizeArgs(args));
  } catch (const CLI::CallForHelp&) {
    return InvalidArgument("help requested");
  } catch (const CLI::ParseError& e) {
    return InvalidArgument(e.what());
  }
  CompareOptions out;
  PD_RETURN_IF_ERROR(Finish(raw, out));
  return out;
}

namespace {

// A command's --help, its usage line naming the whole command ("profdiff cluster summarize [OPTIONS]").
std::string HelpOf(const CLI::App& command) {
  std::string prefix;
  for (const CLI::App* a = command.get_parent(); a != nullptr; a = a->get_parent())
    prefix = a->get_name() + (prefix.empty() ? "" : " ") + prefix;
  return command.help(prefix);
}

// Validates a command's bound options with `finish` and runs it with `run`; a validation error is said
// and mapped to its exit code.
template <class Options, class FinishFn, class RunFn>
int FinishAndRun(FinishFn finish, RunFn run, std::ostream& out, std::ostream& err) {
  Options options;
  if (Status s = finish(options); !s.ok()) {
    err << "profdiff: error: " << EscapeForTerminal(s.message()) << "\n";
    return ExitCodeFor(s);
  }
  return run(options, out, err);
}

}  // namespace

int Run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app(
      "profdiff: compare two ML training profiles (PyTorch Kineto GPU traces, Ascend NPU profiler "
      "output) and explain why one run is slower.",
      "profdiff");
  app.footer(kExitCodeHelp);
  app.set_help_flag("-h,--help", "Print this help message and exit");
  bool version = false;
  app.add_flag("-V,-v,--version", version, "Print the version and exit");
  app.require_subcommand(0, 1);

  InspectOptions inspect;
  CLI::App* inspect_cmd = app.add_subcommand(
      "inspect", "Show what was detected and loaded from PATH (format, processes/streams, event counts, "
                 "steps, time span, side tables, diagnostics)");
  inspect_cmd->add_option("PATH", inspect.path,
                          "Kineto JSON (.json/.json.gz), trace_view.json, *_ascend_pt or "
                          "ASCEND_PROFILER_OUTPUT directory, ascend_pytorch_profiler_<rank>.db, or one Ascend "
                          "side file (kernel_details.csv, op_statistic.csv, communication.json, ...)")
      ->required();
  inspect_cmd->add_flag("--json", inspect.json, "Print a JSON object (schema profdiff.inspect/1)");
  inspect_cmd->add_flag("--strict", inspect.strict, "Fail on any malformed record");
  inspect_cmd->add_flag("--verbose", inspect.verbose,
                        "Print what each step of a DB export's load cost (wall and CPU time, peak memory) on stderr");
  std::string inspect_format = "auto";
  inspect_cmd->add_option("--input-format", inspect_format, kInputFormatHelp)
      ->check(CLI::IsMember({"auto", "text", "db"}));
  inspect_cmd->add_option("--threads", inspect.threads, kThreadsHelp)
      ->check(CLI::Range(1, kMaxThreads))
      ->type_name("N");
  inspect_cmd->footer(std::string(kInspectExamples) + kInspectExitCodeHelp);

  RawCompare raw;
  CLI::App* compare_cmd = app.add_subcommand(
      "compare", "Compare COMPARISON (-d) against BASE (-bp): screen table, workbook, JSON result, gates");
  AddCompareOptions(*compare_cmd, raw);
  compare_cmd->footer(std::string(kCompareExamples) + kExitCodeHelp);

  RawCluster raw_cluster;
  CLI::App* cluster_cmd = app.add_subcommand(
      "cluster", "Analyse the ranks of one distributed run (-d RUN): each rank's step breakdown, the "
                 "rank that holds each step back and why; writes the reference's cluster_step_trace_time.csv");
  AddClusterOptions(*cluster_cmd, raw_cluster);
  cluster_cmd->footer(std::string(kClusterExamples) + kExitCodeHelp);
  RawSummarize raw_summarize;
  CLI::App* summarize_cmd = cluster_cmd->add_subcommand(
      "summarize", "The map step of `cluster` for one shard of a run's ranks: each rank's summary as a file, for a "
                   "reduce on another machine (`cluster --summaries DIR`); or the run's ranks (--list-ranks)");
  AddSummarizeOptions(*summarize_cmd, raw_summarize);
  summarize_cmd->footer(std::string(kSummarizeExamples) + kExitCodeHelp);

  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i] != nullptr ? argv[i] : "");
  try {
    Parse(app, NormalizeArgs(args));
  } catch (const CLI::CallForHelp&) {
    // Help of the sub-command that was named, else the top-level help.
    const CLI::App* target = &app;
    if (inspect_cmd->parsed()) target = inspect_cmd;
    if (compare_cmd->parsed()) target = compare_cmd;
    if (cluster_cmd->parsed()) target = cluster_cmd;
    if (summarize_cmd->parsed()) target = summarize_cmd;
    out << HelpOf(*target);
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (version) {
      out << VersionText();
      return kExitOk;
    }
    const CLI::App* sub = compare_cmd->parsed()     ? compare_cmd
                          : inspect_cmd->parsed()   ? inspect_cmd
                          : summarize_cmd->parsed() ? summarize_cmd
                          : cluster_cmd->parsed()   ? cluster_cmd
                                                    : nullptr;
    err << EscapeForTerminal(UsageErrorText(e, app, sub));
    return kExitUsage;
  }
  if (version) {
    out << VersionText();
    return kExitOk;
  }
  if (inspect_cmd->parsed()) {
    inspect.path = PreprocessPathArg(inspect.path);
    inspect.input_format = InputFormatFromName(inspect_format).value_or(InputFormat::kAuto);
    return RunInspect(inspect, out, err);
  }
  if (compare_cmd->parsed())
    return FinishAndRun<CompareOptions>([&](CompareOptions& o) { return Finish(raw, o); }, RunCompare, out, err);
  if (summarize_cmd->parsed()) {
    auto finish = [&](SummarizeOptions& o) {
      return FinishSummarize(raw_summarize, [](const char* name) { return std::getenv(name); }, o);
    };
    return FinishAndRun<SummarizeOptions>(finish, RunSummarizeCommand, out, err);
  }
  if (cluster_cmd->parsed())
    return FinishAndRun<ClusterOptions>([&](ClusterOptions& o) { return FinishCluster(raw_cluster, o); },
                                        RunClusterCommand, out, err);
  err << "profdiff: error: a command is required: inspect, compare or cluster\n" << app.help();
  return kExitUsage;
}

int Main(int argc, char** argv) {
  cleanup::HandleSignalsWithCleanup();  // before any thread: a signal removes what the run created
  StdoutBuffer stdout_buffer;
  std::streambuf* previous = std::cout.rdbuf(&stdout_buffer);
  const int rc = Run(argc, argv, std::cout, std::cerr);
  std::cout.rdbuf(previous);
  const Status written = stdout_buffer.Close();
  if (written.ok()) return rc;
  std::cerr << "profdiff: error: " << written.message() << "\n";
  return ExitCodeFor(written);
}

}  // namespace profdiff::cli
