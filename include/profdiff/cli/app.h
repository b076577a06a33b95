#pragma once

#include <iosfwd>

namespace profdiff::cli {

// Exit codes (documented in README and --help).
enum ExitCode : int {
  kExitOk = 0,            // success; with a gate: pass
  kExitRegression = 1,    // a gate found a regression
  kExitUsage = 2,         // bad command line
  kExitInputError = 3,    // input or processing error
  kExitIncomparable = 4,  // a gate was asked but a side lacks what it needs
};

int Main(int argc, char** argv);
// For tests: run with explicit streams.
int Run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace profdiff::cli
