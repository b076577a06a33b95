// Runs `profdiff` in-process (cli::Run) with captured stdout and stderr: the CLI tests that need
// no child process (tests/cli/run_profdiff.h runs the real executable).
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "profdiff/cli/app.h"

namespace profdiff::cli::testing {

struct Result {
  int rc = -1;
  std::string out;
  std::string err;
};

// `args` excludes argv[0].
inline Result RunCli(std::vector<std::string> args) {
  args.insert(args.begin(), "profdiff");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  Result r;
  r.rc = Run(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

}  // namespace profdiff::cli::testing
