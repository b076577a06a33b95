// A read-only reader of the table b-trees of an SQLite database file, straight from its pages (the
// file format: https://www.sqlite.org/fileformat2.html, "B-tree Pages" and "Record Format").
//
// Why: stepping a big table through SQLite's statement engine costs 0.25-0.55 µs a row (the Ascend
// DB loader reads tens of millions); decoding the records from the pages costs a tenth of that, and
// a table's leaf pages can be split between threads. The reader opens the file read-only and reads
// it with pread (no lock, no journal, no write, no mapping that would count the file in the RSS),
// as SQLite's `immutable=1` does. It reads rowid tables only, in rowid order (the order of SQLite's
// full-table scan); everything else - the schema, a WITHOUT ROWID table, a UTF-16 database, a join
// - stays with SQLite. Every page is checked before it is read: a corrupt or truncated file gives
// an error naming the file, the table and the page, never a read out of bounds or an endless loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/status.h"

namespace profdiff::io {

// One value of a record, in SQLite's storage classes. Text and blobs view the scan's buffers: valid
// until the scan's next row.
struct SqlValue {
  enum class Type : uint8_t { kNull, kInt, kReal, kText, kBlob };
  Type type = Type::kNull;
  int64_t i = 0;
  double d = 0;
  std::string_view bytes;
};

class SqlitePages {
 public:
  // Opens `path` read-only and reads its 100-byte header. Unsupported (the caller reads through
  // SQLite) when the text encoding is not UTF-8; ParseError when the file is not an SQLite 3 file.
  static StatusOr<std::shared_ptr<const SqlitePages>> Open(const std::string& path);
  SqlitePages(const SqlitePages&) = delete;
  SqlitePages& operator=(const SqlitePages&) = delete;
  ~SqlitePages();

  const std::string& path() const { return path_; }
  uint32_t page_bytes() const { return page_bytes_; }
  uint32_t usable_bytes() const { return usable_bytes_; }
  uint32_t page_count() const { return page_count_; }

  // The leaf pages of the table b-tree rooted at page `root`, in key (rowid) order. `table` names
  // the table in errors.
  StatusOr<std::vector<uint32_t>> TableLeaves(uint32_t root, std::string_view table) const;
  // The rows of the table whose leaves are `leaves`: the sum of their cell counts (each leaf's
  // 8-byte header read, not its cells; a few µs a leaf).
  StatusOr<uint64_t> CountCells(std::span<const uint32_t> leaves, std::string_view table) const;
  // The cell count of leaf page `no`.
  StatusOr<uint32_t> LeafCells(uint32_t no, std::string_view table) const;
  // Reads `count` consecutive pages from page `first` (1-based) into `out` (count * page_bytes()).
  Status ReadPages(uint32_t first, uint32_t count, char* out, std::string_view table) const;

 private:
  SqlitePages() = default;
  int fd_ = -1;
  std::string path_;
  uint32_t page_bytes_ = 0;
  uint32_t usable_bytes_ = 0;
  uint32_t page_count_ = 0;
};

// The rows of some leaves of a table, in order: the requested columns of each (distinct indexes in
// the table's definition), decoded from the record. A column the record does not hold (added by
// ALTER TABLE after the row was written) is NULL; `rowid_column` (the INTEGER PRIMARY KEY, -1 for
// none) reads the row's rowid where the record stores NULL for it, as SQLite does. A requested
// column of REAL affinity (`real[i]`) reads an integer as a real: SQLite writes a whole REAL as an
// integer and converts it back when read.
class SqliteTableScan {
 public:
  SqliteTableScan(std::shared_ptr<const SqlitePages> pages, std::string table,
                  std::vector<uint32_t> leaves, std::vector<int> columns, std::vector<bool> real,
                  int rowid_column);
  // Moves to the next row: true when there is one, false at the end; an error on a corrupt page.
  StatusOr<bool> Next();
  const SqlValue& value(size_t requested) const { return values_[requested]; }
  int64_t rowid() const { return rowid_; }
  size_t columns() const { return columns_.size(); }

 private:
  Status LoadRun();
  Status DecodeCell(const unsigned char* page, uint32_t page_no, uint32_t cell_offset);
  Status DecodeRecord(const unsigned char* payload, size_t bytes, uint32_t page_no);
  Status GatherOverflow(const unsigned char* local, size_t local_bytes, uint64_t payload_bytes,
                        uint32_t first_overflow, uint32_t page_no);
  Status Corrupt(uint32_t page_no, std::string_view what) const;

  std::shared_ptr<const SqlitePages> pages_;
  std::string table_;
  std::vector<uint32_t> leaves_;
  std::vector<int> columns_;
  std::vector<bool> real_;
  int rowid_column_ = -1;
  int max_column_ = -1;
  std::vector<int> slot_;   // per table column up to max_column_: its requested index, or -1
  size_t next_leaf_ = 0;    // the first leaf not yet read into run_
  std::vector<char> run_;   // consecutive leaf pages read at once
  uint32_t run_first_ = 0;  // the page number of run_'s first page
  uint32_t run_pages_ = 0;
  uint32_t run_index_ = 0;  // the page of run_ being read
  uint32_t cell_ = 0;       // the next cell of that page
  uint32_t cells_ = 0;      // its cell count
  std::vector<SqlValue> values_;
  std::vector<unsigned char> overflow_;  // a payload that spills to overflow pages, gathered
  std::vector<char> overflow_page_;
  int64_t rowid_ = 0;
};

}  // namespace profdiff::io
