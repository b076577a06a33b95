// Progress and timings on stderr (issue 11): --verbose prints each phase's cost in any run; the
// progress line appears only when stderr is a terminal, never in a pipe, a file or a CI log, and
// never with -q.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <string>
#include <vector>

#include "../common/gzip_util.h"
#include "../report/report_test_util.h"
#include "run_cli.h"
#include "run_profdiff.h"

namespace profdiff::cli {
namespace {

const std::string kBase = PROFDIFF_SOURCE_DIR "/tests/data/kineto_h100_tiny/before_fix_trace.json";
const std::string kComp = PROFDIFF_SOURCE_DIR "/tests/data/kineto_h100_tiny/after_fix_trace.json";

TEST(ProgressCli, VerboseListsEveryPhaseWithItsCost) {
  const testing::Result r =
      testing::RunCli({"compare", "-bp", kBase, "-d", kComp, "--no-xlsx", "--verbose", "-q"});
  ASSERT_EQ(r.rc, 0) << r.err;
  for (const char* phase : {"check inputs and outputs", "load inputs", "build timelines", "overall", "gate",
                            "operators", "write outputs"})
    EXPECT_NE(r.err.find(std::string("profdiff: phase ") + phase + ": "), std::string::npos) << phase << "\n" << r.err;
  EXPECT_NE(r.err.find(" ms CPU, peak RSS "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos);  // not a terminal: no progress line
  const testing::Result quiet = testing::RunCli({"compare", "-bp", kBase, "-d", kComp, "--no-xlsx", "-q"});
  EXPECT_EQ(quiet.err.find("phase"), std::string::npos) << quiet.err;
}

TEST(ProgressCli, NoProgressWhenStderrIsAFile) {
  const profdiff::testing::CliResult r =
      profdiff::testing::RunProfdiff({"compare", "-bp", kBase, "-d", kComp, "--no-xlsx"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\x1b[K"), std::string::npos) << r.err;
}

// Runs the real binary with stdout and stderr on a pseudo-terminal; returns what it printed.
std::string RunOnTerminal(const std::vector<std::string>& args, int* exit_code) {
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) return "forkpty failed";
  if (pid == 0) {
    std::vector<char*> argv;
    std::string bin = profdiff::testing::ProfdiffBin();
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(master, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child has closed the terminal
    }
  }
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

TEST(ProgressCli, ProgressLineOnATerminalClearedAtTheEnd) {
  int rc = -1;
  const std::string shown = RunOnTerminal({"compare", "-bp", kBase, "-d", kComp, "--no-xlsx"}, &rc);
  ASSERT_EQ(rc, 0) << shown;
  EXPECT_NE(shown.find("\rprofdiff: load inputs..."), std::string::npos) << shown;
  EXPECT_NE(shown.find("\r\x1b[K"), std::string::npos) << shown;  // cleared before the table
  const size_t last_progress = shown.rfind("...\x1b[K");
  const size_t table = shown.find("Model Profiling Time Distribution");
  ASSERT_NE(table, std::string::npos) << shown;
  EXPECT_LT(last_progress, table);  // the table is never printed over a progress line
  const std::string quiet = RunOnTerminal({"compare", "-bp", kBase, "-d", kComp, "--no-xlsx", "-q"}, &rc);
  EXPECT_EQ(rc, 0) << quiet;
  EXPECT_EQ(quiet.find("..."), std::string::npos) << quiet;
}

// A small gzip that inflates to hundreds of megabytes (here 640 MiB of white space between two
// events, 40 gzip members of 16 MiB, 0.7 MB on disk): its compressed bytes are read in the first
// moments, so the line also says what it has inflated to (issue 32: stuck at "25 %" for a minute).
TEST(ProgressCli, AGzipShowsWhatItHasInflatedTo) {
  report::testing::TempDir d;
  const std::string member = profdiff::testing::Gzip(std::string(size_t{16} << 20, ' '));
  for (const char* name : {"a.json.gz", "b.json.gz"}) {
    std::ofstream out(d / name, std::ios::binary);
    out << profdiff::testing::Gzip(R"([{"ph":"X","cat":"kernel","name":"k","pid":1,"tid":7,"ts":1,"dur":5},)");
    for (int i = 0; i < 40; ++i) out << member;
    out << profdiff::testing::Gzip(R"({"ph":"X","cat":"kernel","name":"k","pid":1,"tid":7,"ts":9,"dur":5}])");
  }
  int rc = -1;
  const std::string shown = RunOnTerminal({"compare", "-bp", d / "a.json.gz", "-d", d / "b.json.gz", "--no-xlsx"}, &rc);
  EXPECT_EQ(rc, 0) << shown;
  EXPECT_NE(shown.find(" MB decompressed..."), std::string::npos) << shown;
}

}  // namespace
}  // namespace profdiff::cli
