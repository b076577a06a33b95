#include "profdiff/report/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace profdiff::report {
namespace {

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

}  // namespace

Status CheckOutputPath(const std::string& path, bool force) {
  if (path.empty()) return InvalidArgument("empty output path");
  std::string dir = DirOf(path);
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) {
    return NotFound(path + ": output directory " + dir + " does not exist");
  }
  if (!S_ISDIR(st.st_mode)) return NotFound(path + ": " + dir + " is not a directory");
  if (lstat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return AlreadyExists(path + ": is a directory");
    if (!force) return AlreadyExists(path + ": already exists (use --force to overwrite)");
  }
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
  int fd = mkstemp(buf.data());
  if (fd < 0) return IoError(path + ": cannot create a temporary file in " + dir + ": " + Errno(errno));
  close(fd);
  std::string tmp(buf.data());
  Status st = write(tmp);
  if (st.ok() && chmod(tmp.c_str(), 0644) != 0) {
    st = IoError(tmp + ": cannot set permissions: " + Errno(errno));
  }
  if (st.ok()) st = RenameIntoPlace(tmp, path, force);
  if (!st.ok()) unlink(tmp.c_str());
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
    const int fd = open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
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
