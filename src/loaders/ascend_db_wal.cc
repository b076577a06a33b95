#include "ascend_db_wal.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sqlite3.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "profdiff/base/cleanup.h"

namespace profdiff::db {
namespace {

constexpr size_t kWalHeaderBytes = 32;

uint32_t BigEndian32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

// Reads `n` bytes at offset 0 of `path`; false when the file is shorter or unreadable.
bool ReadHead(const std::string& path, unsigned char* out, size_t n) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t got = ::pread(fd, out, n, 0);
  ::close(fd);
  return got == static_cast<ssize_t>(n);
}

// The -wal's header: a write-ahead log (its magic) of pages of the database's size.
Status CheckWalHeader(const std::string& db_file, const std::string& wal) {
  unsigned char h[kWalHeaderBytes];
  unsigned char d[18];
  if (!ReadHead(wal, h, sizeof h))
    return ParseError(fmt::format("{}: not a write-ahead log (shorter than its {}-byte header): it cannot be "
                                  "applied to {}", wal, kWalHeaderBytes, db_file));
  const uint32_t magic = BigEndian32(h);
  if (magic != 0x377f0682 && magic != 0x377f0683)
    return ParseError(fmt::format("{}@byte 0: not a write-ahead log (magic {:#010x}): it cannot be applied to {}",
                                  wal, magic, db_file));
  if (!ReadHead(db_file, d, sizeof d)) return Status::Ok();  // not a database: the open says so
  const uint32_t db_page = d[16] == 0 && d[17] == 1 ? 65536 : (uint32_t{d[16]} << 8) | d[17];
  if (BigEndian32(h + 8) != db_page)
    return ParseError(fmt::format("{}@byte 8: page size {} differs from the database's {}: it cannot be applied "
                                  "to {}", wal, BigEndian32(h + 8), db_page, db_file));
  return Status::Ok();
}

// Copies the rest of `in` to `out` by reading and writing; an errno, 0 on success.
int ReadAndWrite(int in, int out) {
  std::vector<char> buffer(size_t{1} << 20);
  for (;;) {
    const ssize_t r = ::read(in, buffer.data(), buffer.size());
    if (r == 0) return 0;
    if (r < 0) return errno;
    for (ssize_t done = 0; done < r;) {
      const ssize_t w = ::write(out, buffer.data() + done, static_cast<size_t>(r - done));
      if (w <= 0) return w < 0 ? errno : EIO;
      done += w;
    }
  }
}

// Copies `from` to the new file `to`: a reflink where the file system can (no bytes copied), else
// copy_file_range, else read and write.
Status CopyFile(const std::string& from, const std::string& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return IoError(fmt::format("{}: cannot open: {}", from, std::strerror(errno)));
  const int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (out < 0) {
    const int e = errno;
    ::close(in);
    return IoError(fmt::format("{}: cannot create: {}", to, std::strerror(e)));
  }
  int error = 0;
  if (::ioctl(out, FICLONE, in) != 0) {
    ssize_t n = 0;
    while ((n = ::copy_file_range(in, nullptr, out, nullptr, size_t{1} << 30, 0)) > 0) {
    }
    if (n < 0) {
      error = errno;
      if (error == EXDEV || error == ENOSYS || error == EINVAL || error == EOPNOTSUPP)
        error = ReadAndWrite(in, out);  // from where copy_file_range stopped
    }
  }
  if (::close(out) != 0 && error == 0) error = errno;
  ::close(in);
  if (error != 0) return IoError(fmt::format("{}: cannot copy {} there: {}", to, from, std::strerror(error)));
  return Status::Ok();
}

// Checkpoints the copy's -wal into it with SQLite (it reads the committed frames only).
Status Checkpoint(const std::string& copy, const std::string& wal, const std::string& db_file) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(copy.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  int log_frames = -1, done_frames = -1;
  // A first read opens the -wal (the connection is then in WAL mode), then its frames are copied.
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_TRUNCATE, &log_frames, &done_frames);
  std::string message = rc == SQLITE_OK ? std::string() : (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  if (rc == SQLITE_OK && (log_frames < 0 || log_frames != done_frames))
    message = log_frames < 0 ? std::string("SQLite did not open it")
                             : fmt::format("{} of its {} frames applied", done_frames, log_frames);
  if (sqlite3_close(db) != SQLITE_OK && message.empty()) message = "cannot close the copy";
  if (message.empty()) return Status::Ok();
  return ParseError(fmt::format("{}: the write-ahead log cannot be applied to {}: {}", wal, db_file, message));
}

}  // namespace

WalAppliedCopy::WalAppliedCopy(std::string dir) : dir_(std::move(dir)) {}

WalAppliedCopy::~WalAppliedCopy() {
  if (cleanup_id_ != 0) cleanup::Remove(cleanup_id_);
}

StatusOr<std::shared_ptr<const WalAppliedCopy>> ApplyWal(const std::string& db_file) {
  const std::string wal = db_file + "-wal";
  struct stat st {};
  if (::stat(wal.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
    return std::shared_ptr<const WalAppliedCopy>();
  PD_RETURN_IF_ERROR(CheckWalHeader(db_file, wal));
  std::error_code ec;
  const std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  std::string tmpl = (ec ? std::string("/tmp") : tmp.string()) + "/profdiff-wal-XXXXXX";
  auto copy = std::make_shared<WalAppliedCopy>(std::string());
  bool made = false;
  cleanup::Locked([&] {  // registered before a signal can find it unregistered
    made = ::mkdtemp(tmpl.data()) != nullptr;
    if (made) copy->cleanup_id_ = cleanup::Register(tmpl, cleanup::Kind::kTree);
  });
  if (!made)
    return IoError(fmt::format("{}: cannot make a private directory to apply {} in: {}", tmpl, wal,
                               std::strerror(errno)));
  copy->dir_ = tmpl;
  copy->db_ = tmpl + "/export.db";
  PD_RETURN_IF_ERROR(CopyFile(db_file, copy->db_));
  PD_RETURN_IF_ERROR(CopyFile(wal, copy->db_ + "-wal"));
  PD_RETURN_IF_ERROR(Checkpoint(copy->db_, wal, db_file));
  return std::shared_ptr<const WalAppliedCopy>(std::move(copy));
}

}  // namespace profdiff::db
