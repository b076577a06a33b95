// Usage errors a person can act on: an unknown command or option is named as such, with the closest
// real one when it looks like a typo, and the help of the command in use; -v prints the version.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "profdiff/cli/app.h"
#include "run_cli.h"
#include "profdiff/cli/commands.h"
#include "profdiff/cli/suggest.h"

namespace profdiff::cli {
namespace {

using testing::Result;
using testing::RunCli;

TEST(Suggest, ClosestNameOnlyForTypos) {
  EXPECT_EQ(ClosestName("comapre", {"inspect", "compare"}), "compare");     // a swap
  EXPECT_EQ(ClosestName("inspcet", {"inspect", "compare"}), "inspect");
  EXPECT_EQ(ClosestName("fooo", {"inspect", "compare"}), "");
  EXPECT_EQ(ClosestName("--enable-kernel-compare", {"--enable_kernel_compare", "--json"}),
            "--enable_kernel_compare");  // '-' for '_'
  EXPECT_EQ(ClosestName("--jsno", {"--json", "--csv"}), "--json");
  EXPECT_EQ(ClosestName("--x", {"--json", "--csv"}), "");
}

TEST(UsageCli, UnknownWordsAreNamedWithASuggestion) {
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"comapre"}, "profdiff: error: unknown command 'comapre'; did you mean 'compare'?\n"
                    "Run 'profdiff --help' for usage.\n"},
      {{"fooo"}, "profdiff: error: unknown command 'fooo'; the commands are inspect, compare and cluster\n"
                 "Run 'profdiff --help' for usage.\n"},
      {{"compare", "-bp", "a", "-d", "b", "--enable_kernal_compare"},
       "profdiff: error: unknown option '--enable_kernal_compare'; did you mean '--enable_kernel_compare'?\n"
       "Run 'profdiff compare --help' for usage.\n"},
      {{"compare", "--enable-kernel-compare"},  // before "-d is required"
       "profdiff: error: unknown option '--enable-kernel-compare'; did you mean '--enable_kernel_compare'?\n"
       "Run 'profdiff compare --help' for usage.\n"},
      {{"inspect", "--jsno", "x"}, "profdiff: error: unknown option '--jsno'; did you mean '--json'?\n"
                                   "Run 'profdiff inspect --help' for usage.\n"},
      {{"inspect"}, "profdiff: error: PATH is required\nRun 'profdiff inspect --help' for usage.\n"},
      {{"--verison"}, "profdiff: error: unknown option '--verison'; did you mean '--version'?\n"
                      "Run 'profdiff --help' for usage.\n"},
  };
  for (const auto& [args, expect] : cases) {
    const Result r = RunCli(args);
    EXPECT_EQ(r.rc, 2) << args.front();
    EXPECT_EQ(r.err, expect);
    EXPECT_EQ(r.out, "");
  }
}

TEST(UsageCli, ShortVPrintsTheVersion) {
  for (const char* flag : {"-v", "-V", "--version"}) {
    const Result r = RunCli({flag});
    EXPECT_EQ(r.rc, 0);
    EXPECT_EQ(r.out.rfind("profdiff ", 0), 0u) << r.out;
    EXPECT_EQ(r.out, VersionText());
  }
}

}  // namespace
}  // namespace profdiff::cli
