#include "profdiff/report/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "profdiff/base/cleanup.h"
#include "profdiff/base/file_kind.h"

namespace profdiff::report {
namespace {

thread_local OutputScope* current_scope = nullptr;

std::string DirOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string Errno(int e) { return std::strerror(e); }

// Renames tmp -> path without replacing an existing `path` (unless force).
Status RenameIntoPlace(const std::string& tmp, const std::string& path, bool force) {
  if (force) {
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      return IoError(path + ": cannot rename the temporary file into place: " + Errno(errno));
    }
    return Status::Ok();
  }
  if (renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) {
    return Status::Ok();
  }
  int e = errno;
  if (e == EEXIST) return AlreadyExists(path + ": already exists (use --force to overwrite)");
  if (e != EINVAL && e != ENOSYS && e != ENOTSUP) {
    return IoError(path + ": cannot rename the temporary file into place: " + Errno(e));
  }
  // File system without RENAME_NOREPLACE: link() also refuses an existing target.
  if (link(tmp.c_str(), path.c_str()) != 0) {
    e = errno;
    if (e == EEXIST) return AlreadyExists(path + ": already exists (use --force to overwrite)");
    return IoError(path + ": cannot move the temporary file into place: " + Errno(e));
  }
  unlink(tmp.c_str());
  return Status::Ok();
}

// The deepest existing directory of `path`'s ancestors, links resolved ("" when none resolves).
std::string ExistingAncestor(const std::string& path) {
  std::string probe = DirOf(path);
  for (;;) {
    std::unique_ptr<char, decltype(&std::free)> real(realpath(probe.c_str(), nullptr), &std::free);
    if (real != nullptr) return real.get();
    const std::string up = DirOf(probe);
    if (up == probe) return std::string();
    probe = up;
  }
}

}  // namespace

OutputScope::OutputScope() : previous_(current_scope) { current_scope = this; }

OutputScope::~OutputScope() {
  if (committed_) {
    for (uint64_t id : created_) cleanup::Unregister(id);
  } else {
    for (auto it = created_.rbegin(); it != created_.rend(); ++it) cleanup::Remove(*it);
  }
  current_scope = previous_;
}

void OutputScope::ProtectInput(const std::string& path) {
  struct stat st {};
  if (path.empty() || stat(path.c_str(), &st) != 0) return;
  inputs_.push_back({st.st_dev, st.st_ino, S_ISDIR(st.st_mode), path});
}

void OutputScope::Commit() { committed_ = true; }

OutputScope* OutputScope::Current() { return current_scope; }

Status OutputScope::CheckNotInput(const std::string& path) const {
  if (inputs_.empty()) return Status::Ok();
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    for (const Input& in : inputs_) {
      if (in.dev != st.st_dev || in.ino != st.st_ino) continue;
      if (in.directory)
        return InvalidArgument(path + ": is the input directory " + in.path +
                               " (outputs are never written into an input)");
      return InvalidArgument(path + ": is the input " + in.path + " (an output never replaces an input)");
    }
  }
  std::string dir = ExistingAncestor(path);
  while (!dir.empty()) {
    if (stat(dir.c_str(), &st) == 0) {
      for (const Input& in : inputs_)
        if (in.directory && in.dev == st.st_dev && in.ino == st.st_ino)
          return InvalidArgument(path + ": lies inside the input directory " + in.path +
                                 " (outputs are never written into an input)");
    }
    if (dir == "/") break;
    dir = DirOf(dir);
  }
  return Status::Ok();
}

void OutputScope::Created(const std::string& path, bool directory) {
  created_.push_back(cleanup::Register(path, directory ? cleanup::Kind::kEmptyDir : cleanup::Kind::kFile));
}

Status CheckOutputPath(const std::string& path, bool force) {
  if (path.empty()) return InvalidArgument("empty output path");
  std::string dir = DirOf(path);
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) {
    return NotFound(path + ": output directory " + dir + " does not exist");
  }
  if (!S_ISDIR(st.st_mode)) return NotFound(path + ": " + dir + " is not a directory");
  if (const OutputScope* scope = OutputScope::Current(); scope != nullptr)
    PD_RETURN_IF_ERROR(scope->CheckNotInput(path));
  if (lstat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return AlreadyExists(path + ": is a directory");
    if (!S_ISREG(st.st_mode))
      return InvalidArgument(path + ": is a " + FileKindName(st.st_mode) +
                             ", not a regular file (only a regular file is replaced, and only with --force)");
    if (!force) return AlreadyExists(path + ": already exists (use --force to overwrite)");
  }
  return Status::Ok();
}

Status MakeOutputDirs(const std::string& dir_arg, unsigned mode) {
  std::string dir = dir_arg;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  OutputScope* scope = OutputScope::Current();
  if (scope != nullptr) PD_RETURN_IF_ERROR(scope->CheckNotInput(dir));
  struct stat st {};
  std::vector<std::string> missing;  // deepest first
  for (std::string p = dir; stat(p.c_str(), &st) != 0; p = DirOf(p)) {
    if (errno != ENOENT) return IoError("Failed to make directory: " + dir + ": " + Errno(errno));
    missing.push_back(p);
    if (DirOf(p) == p) break;
  }
  if (missing.empty() && !S_ISDIR(st.st_mode)) {
    return InvalidArgument("Invalid output directory, it is a file: " + dir);
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    Status made = Status::Ok();
    cleanup::Locked([&] {
      if (mkdir(it->c_str(), 0777) == 0) {
        if (scope != nullptr) scope->Created(*it, true);
      } else if (errno != EEXIST) {
        made = IoError("Failed to make directory: " + dir + ": " + Errno(errno));
      }
    });
    PD_RETURN_IF_ERROR(made);
  }
  if (!missing.empty()) ::chmod(dir.c_str(), static_cast<mode_t>(mode));
  return Status::Ok();
}

Status WriteViaTempFile(const std::string& path, bool force,
                        const std::function<Status(const std::string& tmp_path)>& write) {
  PD_RETURN_IF_ERROR(CheckOutputPath(path, force));
  std::string dir = DirOf(path);
  std::string base = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  std::string tmpl = (dir == "/" ? std::string("/") : dir + "/") + "." + base + ".tmp-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = -1;
  uint64_t tmp_id = 0;
  cleanup::Locked([&] {  // registered before a signal can see it unregistered
    fd = mkstemp(buf.data());
    if (fd >= 0) tmp_id = cleanup::Register(buf.data(), cleanup::Kind::kFile);
  });
  if (fd < 0) return IoError(path + ": cannot create a temporary file in " + dir + ": " + Errno(errno));
  close(fd);
  std::string tmp(buf.data());
  Status st = write(tmp);
  if (st.ok() && chmod(tmp.c_str(), 0644) != 0) {
    st = IoError(tmp + ": cannot set permissions: " + Errno(errno));
  }
  if (st.ok()) {
    // Checked again just before the rename (the write may have taken a while); the rename and the
    // record of its result are one step for a signal's clean-up.
    cleanup::Locked([&] {
      st = CheckOutputPath(path, force);
      if (st.ok()) st = RenameIntoPlace(tmp, path, force);
      if (!st.ok()) return;
      cleanup::Unregister(tmp_id);
      if (OutputScope* scope = OutputScope::Current(); scope != nullptr) scope->Created(path, false);
    });
  }
  if (!st.ok()) cleanup::Remove(tmp_id);
  return st;
}

StatusOr<std::string> ReserveUniquePath(const std::string& path) {
  PD_RETURN_IF_ERROR(CheckDirectoryWritable(path));
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  const std::string stem = has_ext ? path.substr(0, dot) : path;
  const std::string ext = has_ext ? path.substr(dot) : std::string();
  constexpr int kMaxTries = 10000;
  for (int n = 1; n <= kMaxTries; ++n) {
    const std::string candidate = n == 1 ? path : stem + "_" + std::to_string(n) + ext;
    int fd = -1;
    cleanup::Locked([&] {
      fd = open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd >= 0 && OutputScope::Current() != nullptr) OutputScope::Current()->Created(candidate, false);
    });
    if (fd >= 0) {
      close(fd);
      return candidate;
    }
    if (errno != EEXIST) return IoError(candidate + ": cannot create the output file: " + Errno(errno));
  }
  return IoError(path + ": no free name among " + std::to_string(kMaxTries) + " numbered variants");
}

Status CheckDirectoryWritable(const std::string& path) {
  const std::string dir = DirOf(path);
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) return NotFound(path + ": output directory " + dir + " does not exist");
  if (!S_ISDIR(st.st_mode)) return NotFound(path + ": " + dir + " is not a directory");
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return IoError(path + ": cannot create files in " + dir + ": " + Errno(errno));
  return Status::Ok();
}

Status WriteFileAtomically(const std::string& path, std::string_view content, bool force) {
  return WriteViaTempFile(path, force, [&](const std::string& tmp) -> Status {
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr) return IoError(tmp + ": cannot open for writing: " + Errno(errno));
    size_t n = content.empty() ? 0 : std::fwrite(content.data(), 1, content.size(), f);
    int write_errno = errno;
    bool ok = n == content.size();
    if (std::fclose(f) != 0 && ok) {
      return IoError(path + ": write failed: " + Errno(errno));
    }
    if (!ok) return IoError(path + ": write failed at byte " + std::to_string(n) + ": " + Errno(write_errno));
    return Status::Ok();
  });
}

}  // namespace profdiff::report
