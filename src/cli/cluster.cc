// `profdiff cluster`: runs the cluster pipeline (pipeline/cluster_run.h), prints the screen summary
// or the JSON result, and maps the outcome to the exit code.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <iostream>
#include <ostream>
#include <string>
#include <string_view>

#include "profdiff/base/terminal_text.h"
#include "profdiff/cli/app.h"
#include "profdiff/cli/commands.h"
#include "profdiff/pipeline/cluster_run.h"
#include "profdiff/report/cluster/cluster_report.h"
#include "stderr_messages.h"

namespace profdiff::cli {

StatusOr<std::vector<int64_t>> ParseRankList(std::string_view text) {
  std::vector<int64_t> ranks;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(start, comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    int64_t v = 0;
    auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || p != item.data() + item.size() || v < 0)
      return InvalidArgument("--rank_list: expected rank ids separated by commas (e.g. 0,1,3), got '" +
                             std::string(text) + "'");
    if (std::find(ranks.begin(), ranks.end(), v) == ranks.end()) ranks.push_back(v);
    start = comma + 1;
  }
  return ranks;
}

int RunClusterCommand(const ClusterOptions& options, std::ostream& out, std::ostream& err) {
  StderrMessages messages = StderrMessages::ForRun(err, options.quiet, options.verbose);
  StatusOr<report::ClusterResult> run = pipeline::RunCluster(options, messages);
  messages.ClearProgress();
  if (!run.ok()) {
    err << "profdiff: error: " << EscapeForTerminal(run.status().message()) << "\n";
    return ExitCodeFor(run.status());
  }
  if (options.json) {
    out << report::ClusterJson(*run, PROFDIFF_VERSION).dump(2) << "\n";
  } else {
    out << EscapeForTerminal(report::RenderClusterScreen(*run));
  }
  out.flush();
  for (const std::string& f : run->outputs) messages.Note("The cluster result file has been generated: " + f);
  return run->gate.ran ? analysis::GateExitCode(run->gate.verdict) : kExitOk;
}

}  // namespace profdiff::cli
