// `profdiff cluster summarize`: its options (summarize_args.h), the shard from the flags or the job
// scheduler's environment, and the command (pipeline/cluster_summaries.h).
#include <fmt/format.h>

#include <charconv>
#include <ostream>
#include <string_view>

#include "profdiff/base/terminal_text.h"
#include "profdiff/cli/app.h"
#include "profdiff/cli/options.h"
#include "profdiff/report/cluster/cluster_report.h"
#include "stderr_messages.h"
#include "summarize_args.h"

namespace profdiff::cli {
namespace {

constexpr int kMaxSummarizeThreads = 1024;

// A whole non-negative number from the environment; nullopt when unset, an error when not a number.
StatusOr<std::optional<int64_t>> EnvNumber(const EnvLookup& env, const char* name) {
  const char* v = env(name);
  if (v == nullptr || *v == '\0') return std::optional<int64_t>();
  const std::string_view text(v);
  int64_t n = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0)
    return InvalidArgument(fmt::format("cluster summarize: the environment's {}='{}' is not a shard number", name, text));
  return std::optional<int64_t>(n);
}

}  // namespace

StatusOr<std::pair<size_t, size_t>> ResolveShard(std::optional<int64_t> index, std::optional<int64_t> count,
                                                 const EnvLookup& env) {
  std::string from = "--shard-index / --shard-count";
  if (!index || !count) {
    PD_ASSIGN_OR_RETURN(std::optional<int64_t> task, EnvNumber(env, "SLURM_ARRAY_TASK_ID"));
    PD_ASSIGN_OR_RETURN(std::optional<int64_t> job_index, EnvNumber(env, "JOB_COMPLETION_INDEX"));
    if (task) {
      PD_ASSIGN_OR_RETURN(std::optional<int64_t> min, EnvNumber(env, "SLURM_ARRAY_TASK_MIN"));
      PD_ASSIGN_OR_RETURN(std::optional<int64_t> tasks, EnvNumber(env, "SLURM_ARRAY_TASK_COUNT"));
      if (!index) index = *task - min.value_or(0);
      if (!count) count = tasks;
      from = "the Slurm array task (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of SLURM_ARRAY_TASK_COUNT)";
    } else if (job_index) {
      if (!index) index = job_index;
      from = "the Indexed Job's JOB_COMPLETION_INDEX and --shard-count";
    }
  }
  if (index && !count)
    return InvalidArgument(fmt::format("cluster summarize: shard {} of how many? give --shard-count (from {})",
                                       *index, from));
  if (!index && count) index = 0;
  if (!index) return std::pair<size_t, size_t>(0, 1);
  if (*count < 1 || *index < 0 || *index >= *count)
    return InvalidArgument(fmt::format("cluster summarize: shard index {} is not below the shard count {} (from {}); "
                                       "an array's task ids must run from its minimum, one by one",
                                       *index, *count, from));
  return std::pair<size_t, size_t>(static_cast<size_t>(*index), static_cast<size_t>(*count));
}

void AddSummarizeOptions(CLI::App& c, RawSummarize& r) {
  SummarizeOptions& o = r.opts;
  c.add_option("-d,--profiling_path", o.run_path, "The directory holding the ranks of one run (as `cluster -d`)")
      ->required();
  c.add_option("-o,--output_path", o.output_dir,
               "The summaries' directory: DIR/rank_<R>.summary.json, one per rank (made when missing; shared by "
               "every shard; never inside the run)")
      ->type_name("DIR");
  c.add_flag("--list-ranks", o.list_ranks,
             "Print the run's ranks, one line each (rank, export kind, path), in the order shards split them, and "
             "write nothing");
  r.index_opt = c.add_option("--shard-index", r.shard_index,
                             "This shard: the ranks at list positions p with p % COUNT == INDEX (default: "
                             "SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN, else JOB_COMPLETION_INDEX, else 0)")
                    ->check(CLI::NonNegativeNumber)
                    ->type_name("INDEX");
  r.count_opt = c.add_option("--shard-count", r.shard_count,
                             "How many shards split the run (default: SLURM_ARRAY_TASK_COUNT, else 1)")
                    ->check(CLI::PositiveNumber)
                    ->type_name("COUNT");
  c.add_flag("--force", o.force, "Replace a summary of another run, input or options (an identical one is kept)");
  r.reference_compat.Add(c, "As `cluster --reference-compat`: give the reduce the same");
  c.add_option("--input-format", r.input_format, "As `cluster --input-format`")
      ->check(CLI::IsMember({"auto", "text", "db"}));
  c.add_option("-j,--threads", o.threads, "Ranks loaded at once (default: one per core)")
      ->check(CLI::Range(1, kMaxSummarizeThreads))
      ->type_name("N");
  c.add_flag("--strict", o.strict, "Fail on any malformed record in the inputs");
  c.add_flag("-q,--quiet", o.quiet, "No informational messages on stderr");
  c.add_flag("--verbose", o.verbose, "Print each phase's wall time, CPU time and peak memory on stderr");
}

Status FinishSummarize(RawSummarize& r, const EnvLookup& env, SummarizeOptions& out) {
  SummarizeOptions& o = r.opts;
  o.run_path = PreprocessPathArg(o.run_path);
  o.output_dir = PreprocessPathArg(o.output_dir);
  if (!o.list_ranks && o.output_dir.empty())
    return InvalidArgument("cluster summarize: give the summaries' directory with -o (or --list-ranks)");
  auto given = [](const CLI::Option* opt, int64_t v) { return opt->count() > 0 ? std::optional<int64_t>(v) : std::nullopt; };
  PD_ASSIGN_OR_RETURN(auto shard, ResolveShard(given(r.index_opt, r.shard_index), given(r.count_opt, r.shard_count), env));
  o.shard_index = shard.first;
  o.shard_count = shard.second;
  o.input_format = InputFormatFromName(r.input_format).value_or(InputFormat::kAuto);
  PD_RETURN_IF_ERROR(r.reference_compat.Apply(o.reference_line));
  out = o;
  return Status::Ok();
}

int RunSummarizeCommand(const SummarizeOptions& options, std::ostream& out, std::ostream& err) {
  StderrMessages messages = StderrMessages::ForRun(err, options.quiet, options.verbose);
  StatusOr<pipeline::SummarizeResult> run = pipeline::RunSummarize(options, messages);
  messages.ClearProgress();
  if (!run.ok()) {
    err << "profdiff: error: " << EscapeForTerminal(run.status().message()) << "\n";
    return ExitCodeFor(run.status());
  }
  if (options.list_ranks) {
    for (const pipeline::ListedRank& r : run->run_ranks)
      out << r.rank << '\t' << r.kind << '\t' << EscapeForTerminal(r.path) << '\n';
  } else {
    out << EscapeForTerminal(fmt::format(
        "shard {} of {}: {} of the run's {} ranks ({}): {} summar{} written, {} kept (identical) in {}\n",
        options.shard_index, options.shard_count, run->shard_ranks.size(), run->run_ranks.size(),
        run->shard_ranks.empty() ? "none" : report::RankRangesText(run->shard_ranks), run->written.size(),
        run->written.size() == 1 ? "y" : "ies", run->kept.size(), options.output_dir));
  }
  out.flush();
  return kExitOk;
}

}  // namespace profdiff::cli
