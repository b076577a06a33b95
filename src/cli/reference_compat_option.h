// `--reference-compat[=LINE]` as compare, cluster and cluster summarize take it (cli only): an
// optional value ("--reference-compat" alone or "--reference-compat=8.2"; a flag after it is never
// taken as its value), the last one counting when given twice.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/base/status.h"
#include "profdiff/cli/options.h"

namespace profdiff::cli {

struct ReferenceCompatOption {
  std::string line;  // its LINE ("" when given without one)
  CLI::Option* option = nullptr;

  void Add(CLI::App& c, const std::string& help) {
    option = c.add_option("--reference-compat", line, help)
                 ->expected(0, 1)
                 ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
                 ->type_name("[=LINE]");
  }
  // Sets `out` to the line when the option was given (an unknown line is kInvalidArgument).
  Status Apply(std::optional<analysis::ReferenceLine>& out) const {
    if (option == nullptr || option->count() == 0) return Status::Ok();
    PD_ASSIGN_OR_RETURN(analysis::ReferenceLine l, ParseReferenceCompatLine(line));
    out = l;
    return Status::Ok();
  }
};

}  // namespace profdiff::cli
