// A WAL-mode export read as SQLite reads it (docs/architecture.md "Reading an Ascend DB export from
// its pages"). Ascend exports are WAL-mode files: while `<db>-wal` holds committed frames, SQLite
// reads those pages from the -wal, not from the main file. Neither the page reader nor SQLite opened
// with immutable=1 does, and a plain read-only open would write a -shm (and may checkpoint) beside
// the input. So a non-empty -wal is applied to a private copy: the file and its -wal are copied
// (reflinked where the file system can) into a temporary directory of our own, checkpointed there,
// and that copy is read. Nothing is written beside the input.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "profdiff/base/status.h"

namespace profdiff::db {

// The private copy of a DB export with its -wal applied; removed with this object (and on a signal).
class WalAppliedCopy {
 public:
  explicit WalAppliedCopy(std::string dir);
  ~WalAppliedCopy();
  WalAppliedCopy(const WalAppliedCopy&) = delete;
  WalAppliedCopy& operator=(const WalAppliedCopy&) = delete;
  const std::string& db() const { return db_; }

 private:
  friend StatusOr<std::shared_ptr<const WalAppliedCopy>> ApplyWal(const std::string& db_file);
  std::string dir_;
  std::string db_;
  uint64_t cleanup_id_ = 0;
};

// nullptr when `db_file` has no -wal or an empty one (the file is read as it is); else the copy with
// the -wal's committed frames in the file. A -wal that is not a write-ahead log of this file (bad
// magic, another page size), or that SQLite cannot apply, is an error naming it; so is a copy that
// cannot be made (no space in the temporary directory), naming it and the directory.
StatusOr<std::shared_ptr<const WalAppliedCopy>> ApplyWal(const std::string& db_file);

}  // namespace profdiff::db
