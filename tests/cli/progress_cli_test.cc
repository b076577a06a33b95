// Progress and timings on stderr (issue 11): --verbose prints each phase's cost in any run; the
// progress line appears only when stderr is a terminal, never in a pipe, a file or a CI log, and
// never with -q.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace profdiff::cli
