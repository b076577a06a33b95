// `profdiff --version`: the project version and, from a git checkout, the commit it was built from.
// Only this file includes the generated header, so a new commit recompiles one small file.
#include <string>

#include "profdiff/cli/commands.h"
#include "profdiff/git_commit.h"  // generated at build time by cmake/GitCommit.cmake

namespace profdiff::cli {

std::string VersionText() {
  std::string text = std::string("profdiff ") + PROFDIFF_VERSION;
  const std::string commit = PROFDIFF_GIT_COMMIT;
  if (!commit.empty()) text += " (git " + commit + ")";
  return text + "\n";
}

}  // namespace profdiff::cli
