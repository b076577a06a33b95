// The command line of `profdiff cluster summarize` (cli only): its options and their validation.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "profdiff/cli/commands.h"
#include "reference_compat_option.h"

namespace profdiff::cli {

// Everything CLI11 binds to for `cluster summarize`, before validation.
struct RawSummarize {
  SummarizeOptions opts;
  int64_t shard_index = 0;
  int64_t shard_count = 0;
  std::string input_format = "auto";
  CLI::Option* index_opt = nullptr;
  CLI::Option* count_opt = nullptr;
  ReferenceCompatOption reference_compat;
};

void AddSummarizeOptions(CLI::App& c, RawSummarize& r);

// The validated options; the shard from the flags or the environment (ResolveShard).
Status FinishSummarize(RawSummarize& r, const EnvLookup& env, SummarizeOptions& out);

}  // namespace profdiff::cli
