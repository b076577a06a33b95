// `-q` hides notes (the files written, what is not available) but never a warning.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "profdiff/cli/app.h"

namespace profdiff::cli {
namespace {

const std::string kData = PROFDIFF_SOURCE_DIR "/tests/data";

std::string ErrOf(std::vector<std::string> args) {
  args.insert(args.begin(), "profdiff");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  EXPECT_EQ(Run(static_cast<int>(argv.size()), argv.data(), out, err), 0) << err.str();
  return err.str();
}

TEST(QuietCli, KeepsWarnings) {
  const std::string before = kData + "/kineto_h100_tiny/before_fix_trace.json";
  const std::string after = kData + "/kineto_h100_tiny/after_fix_trace.json";
  // A step id on GPU data is ignored: a warning, shown with -q.
  const std::string err = ErrOf({"compare", "-bp", before, "-d", after, "--no-xlsx", "-q", "--base_step", "1",
                                 "--comparison_step", "1"});
  EXPECT_NE(err.find("profdiff: warning: step id is invalid in GPU data"), std::string::npos) << err;
  // Nothing else: notes are hidden.
  EXPECT_EQ(err.find("profdiff: note"), std::string::npos) << err;
  EXPECT_EQ(ErrOf({"compare", "-bp", before, "-d", after, "--no-xlsx", "-q"}), "");
}

}  // namespace
}  // namespace profdiff::cli
