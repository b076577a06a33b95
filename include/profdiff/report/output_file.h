// Safe output files (docs/deviations.md): never replace an existing file unless asked, never replace
// anything but a regular file, never write over or into an input, write to a temporary file in the
// same directory and rename it into place, leave nothing behind on error or on a signal.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/status.h"

namespace profdiff::report {

// The outputs of one run on the calling thread (the thread's current scope while it lives). Every
// file the functions below create in its scope (a reserved name, a file renamed into place, a
// directory made) is registered for the clean-up on a signal (base/cleanup.h) and, unless the run
// commits, removed when the scope ends (newest first; a directory only when empty). The inputs it
// protects are refused as outputs: an output that is one of them, or lies inside one that is a
// directory (compared by device and inode, links resolved), is kInvalidArgument naming both.
class OutputScope {
 public:
  OutputScope();
  ~OutputScope();
  OutputScope(const OutputScope&) = delete;
  OutputScope& operator=(const OutputScope&) = delete;

  // `path` (a file or a directory) is an input of the run; a path that does not exist is ignored
  // (the input checks report it).
  void ProtectInput(const std::string& path);
  // The run succeeded: its outputs stay (a signal no longer removes them).
  void Commit();

  // The calling thread's scope, or nullptr.
  static OutputScope* Current();
  // kInvalidArgument when `path` (which may not exist yet) is an input or lies inside one.
  Status CheckNotInput(const std::string& path) const;
  // Records a path this run created (the caller holds cleanup::Locked when it matters).
  void Created(const std::string& path, bool directory);

 private:
  struct Input {
    dev_t dev = 0;
    ino_t ino = 0;
    bool directory = false;
    std::string path;
  };
  std::vector<Input> inputs_;
  std::vector<uint64_t> created_;  // cleanup ids, in creation order
  OutputScope* previous_ = nullptr;
  bool committed_ = false;
};

// Checks that `path` may be created: its directory exists and is a directory (kNotFound otherwise),
// `path` does not exist unless `force` (kAlreadyExists; a directory at `path` is always refused),
// an existing `path` is a regular file (anything else, a device, a FIFO, a symbolic link, is
// kInvalidArgument naming it, even with `force`), and it is no input of the current OutputScope.
Status CheckOutputPath(const std::string& path, bool force);

// `mkdir -p dir`, `dir` itself then given `mode` when this made it; each directory made is recorded
// in the current OutputScope. An existing `dir` that is not a directory is kInvalidArgument, as is a
// `dir` that is or lies inside an input.
Status MakeOutputDirs(const std::string& dir, unsigned mode);

// Calls `write(tmp_path)` with a fresh temporary path in the directory of `path`, then renames the
// temporary file to `path` (atomically refusing to replace an existing file unless `force`). When
// `write` fails or the rename fails, the temporary file is removed and the error returned. The final
// file gets mode 0644.
Status WriteViaTempFile(const std::string& path, bool force,
                        const std::function<Status(const std::string& tmp_path)>& write);

// Creates `path` empty and exclusively or, when it is taken, "<stem>_2<ext>", "<stem>_3<ext>", ... (the
// first free one), and returns the path created: runs started in the same second in one directory
// never collide on a timestamped default name. The caller owns the file: it writes it with force and
// removes it if the run fails. Errors (directory missing or not writable) name the path.
StatusOr<std::string> ReserveUniquePath(const std::string& path);

// Checks that this process may create files in the directory of `path` (kIoError naming it if not),
// so a run fails before any work rather than after writing its other outputs.
Status CheckDirectoryWritable(const std::string& path);

// Writes `content` to `path` through WriteViaTempFile.
Status WriteFileAtomically(const std::string& path, std::string_view content, bool force);

}  // namespace profdiff::report
