#include "profdiff/cli/app.h"

#include <iostream>

namespace profdiff::cli {

int Run(int /*argc*/, const char* const* /*argv*/, std::ostream& /*out*/, std::ostream& err) {
  err << "profdiff: not implemented yet\n";
  return kExitInputError;
}

int Main(int argc, char** argv) { return Run(argc, argv, std::cout, std::cerr); }

}  // namespace profdiff::cli
