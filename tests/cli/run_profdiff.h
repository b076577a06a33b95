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

// `args` excludes argv[0]. Output goes through temporary files (no pipe deadlock on large output).
inline CliResult RunProfdiff(const std::vector<std::string>& args) {
  CliResult r;
  const std::string bin = ProfdiffBin();
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path();
  const std::string stem = "profdiff_cli_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  const std::string out_path = (dir / (stem + ".out")).string();
  const std::string err_path = (dir / (stem + ".err")).string();

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
  if (rc != 0) {
    r.err = "posix_spawn failed for " + bin;
    return r;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      r.err = "waitpid failed";
      return r;
    }
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.exit_code = 128 + WTERMSIG(status);
  r.out = ReadAll(out_path);
  r.err = ReadAll(err_path);
  std::error_code ec;
  fs::remove(out_path, ec);
  fs::remove(err_path, ec);
  return r;
}

}  // namespace profdiff::testing
