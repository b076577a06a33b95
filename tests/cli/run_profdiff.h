// Runs the real `profdiff` executable (PROFDIFF_BIN, set by tests/CMakeLists.txt) as a child process
// and captures its exit code, stdout and stderr. Used by the CLI tests that check what a user sees.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace profdiff::testing {

struct CliResult {
  int exit_code = -1;  // the exit status, or 128 + signal when the child was killed
  std::string out;
  std::string err;
};

// PROFDIFF_BIN (set by ctest), else the binary of this build tree (running a test binary by hand).
inline std::string ProfdiffBin() {
  const char* bin = std::getenv("PROFDIFF_BIN");
  if (bin != nullptr && *bin != '\0') return bin;
  return PROFDIFF_BINARY_DIR "/src/cli/profdiff";
}

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Starts `profdiff args...` (argv[0] excluded) with stdin from /dev/null and stdout and stderr to
// the given files (created or truncated); returns its pid, or -1 when it could not be started.
inline pid_t SpawnProfdiff(const std::vector<std::string>& args, const std::string& out_path,
                           const std::string& err_path) {
  const std::string bin = ProfdiffBin();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);

  std::vector<std::string> argv_s;
  argv_s.push_back(bin);
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_t pid = 0;
  const int rc = posix_spawn(&pid, bin.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

// Waits for `pid`: its exit status, or 128 + signal when it was killed (as a shell shows it), -1 on
// an error.
inline int WaitProfdiff(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// `args` excludes argv[0]. Output goes through temporary files (no pipe deadlock on large output);
// with `stdout_path`, standard output goes there instead (e.g. /dev/full) and `out` stays empty.
inline CliResult RunProfdiff(const std::vector<std::string>& args, const std::string& stdout_path = "") {
  CliResult r;
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path();
  const std::string stem = "profdiff_cli_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  const std::string out_path = stdout_path.empty() ? (dir / (stem + ".out")).string() : stdout_path;
  const std::string err_path = (dir / (stem + ".err")).string();
  const pid_t pid = SpawnProfdiff(args, out_path, err_path);
  if (pid < 0) {
    r.err = "posix_spawn failed for " + ProfdiffBin();
    return r;
  }
  r.exit_code = WaitProfdiff(pid);
  if (r.exit_code < 0) r.err = "waitpid failed";
  if (stdout_path.empty()) r.out = ReadAll(out_path);
  r.err += ReadAll(err_path);
  std::error_code ec;
  if (stdout_path.empty()) fs::remove(out_path, ec);
  fs::remove(err_path, ec);
  return r;
}

}  // namespace profdiff::testing
