// A read-only reader of the table b-trees of an SQLite database file, straight from its pages (the
// file format: https://www.sqlite.org/fileformat2.html, "B-tree Pages" and "Record Format").
//
// Why: stepping a big table through SQLite's statement engine costs 0.25-0.55 µs a row (the Ascend
// DB loader reads tens of millions); decoding the records from the pages costs a fraction of that,
// on a thread of its own ahead of the caller. The reader opens the file read-only and reads it with
// pread (no lock, no journal, no write, no mapping that would count the file in the RSS), as
// SQLite's `immutable=1` does. It reads whole rowid tables, in rowid order (the order of SQLite's
// full-table scan); everything else - the schema, query plans, a WITHOUT ROWID table, a UTF-16
// database - stays with SQLite, and a join is the caller's (src/loaders/ascend_db.cc). Every page
// is checked before it is read: a corrupt or truncated file gives an error naming the file, the
// table and the page, never a read out of bounds or an endless loop.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "profdiff/base/status.h"

namespace profdiff::io {

// One value of a record, in SQLite's storage classes, in 16 bytes (a scan hands out millions of
// rows decoded on another core: half the bytes of a value with a string_view). Text and blobs view
// the scan's buffers, valid until the scan's next row: SqliteTableScan::bytes().
struct SqlValue {
  enum class Type : uint8_t { kNull, kInt, kReal, kText, kBlob };
  union {
    int64_t i = 0;       // kInt, and kText when `decimal`
    double d;            // kReal
    const char* bytes;   // kText (not `decimal`), kBlob: the first byte
  };
  // kText, kBlob: the bytes; a `decimal` kText: its place among its batch's decimal texts.
  uint32_t size = 0;
  Type type = Type::kNull;
  // kText: the text is a decimal integer ([+-]digits, within int64), parsed into `i` by the reader
  // (Ascend's PYTORCH_API stores its times as text). False for every other type.
  bool decimal = false;
};
static_assert(sizeof(SqlValue) == 16);

// `t` as a decimal integer: an optional sign and digits only, within int64; nullopt otherwise.
std::optional<int64_t> ParseDecimalInt(std::string_view t);

// A real as an integer when it has no fraction and lies within +-9.2e18; nullopt otherwise.
inline std::optional<int64_t> ExactIntOfReal(double d) {
  const auto i = static_cast<int64_t>(d);
  if (d >= -9.2e18 && d <= 9.2e18 && static_cast<double>(i) == d) return i;
  return std::nullopt;
}
// A value as an exact integer: an integer, a real without a fraction, a text the reader parsed as a
// decimal integer; nullopt for NULL, blobs, other texts and reals.
inline std::optional<int64_t> ExactInt(const SqlValue& v) {
  switch (v.type) {
    case SqlValue::Type::kInt: return v.i;
    case SqlValue::Type::kReal: return ExactIntOfReal(v.d);
    case SqlValue::Type::kText: return v.decimal ? std::optional<int64_t>(v.i) : std::nullopt;
    default: return std::nullopt;
  }
}

class SqlitePages {
 public:
  // Opens `path` read-only and reads its 100-byte header. Unsupported (the caller reads through
  // SQLite) when the text encoding is not UTF-8; ParseError when the file is not an SQLite 3 file.
  // Errors name `name` (default: `path`), e.g. the input a private copy was made of.
  static StatusOr<std::shared_ptr<const SqlitePages>> Open(const std::string& path, const std::string& name = "");
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
  // The b-tree page type byte of page `no` (0x0D a table leaf, 0x05 a table interior page).
  StatusOr<uint8_t> PageType(uint32_t no, std::string_view table) const;
  // The cell count of leaf page `no`.
  StatusOr<uint32_t> LeafCells(uint32_t no, std::string_view table) const;
  // Reads `count` consecutive pages from page `first` (1-based) into `out` (count * page_bytes()).
  Status ReadPages(uint32_t first, uint32_t count, char* out, std::string_view table) const;

 private:
  SqlitePages() = default;
  Status ReadHeaderBytes(uint32_t no, unsigned char* out, size_t n, std::string_view table) const;
  Status OutsideFile(uint32_t no, std::string_view table) const;
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
//
// The leaves are read a run at a time (consecutive pages, one pread of up to 256 KiB) and each
// run's rows decoded at once into a batch. With `readers` threads (and a table of more than a few
// leaves) the scan's threads read and decode the next runs, each its own, while the caller uses
// the current batch; the batches are handed out in run order, so the rows, their order and any
// error (after the rows before it) are the same at any count. Decoding is most of a big scan's
// work: more readers than the caller's one thread pays when the caller does little per row (a
// filtered scan), and a reader waits when the batches ahead are all full.
// A scan's rows can be narrowed as they are decoded (RowFilter): a row whose value of requested
// column `requested` is not exactly one of the integers `ints` (ExactInt) is not handed out, only
// counted (filtered_rows()), as a caller that skips such rows itself would see the same rows. Its
// record is not decoded past that column (as SQLite reads a record only as far as the columns
// asked for).
struct RowFilter {
  int requested = -1;         // -1: every row
  std::vector<int64_t> ints;  // sorted
  bool Keeps(const SqlValue& v) const {
    const std::optional<int64_t> i = ExactInt(v);
    return i && std::binary_search(ints.begin(), ints.end(), *i);
  }
};

class SqliteTableScan {
 public:
  SqliteTableScan(std::shared_ptr<const SqlitePages> pages, std::string table,
                  std::vector<uint32_t> leaves, std::vector<int> columns, std::vector<bool> real,
                  int rowid_column, int readers = 0, RowFilter filter = {});
  SqliteTableScan(const SqliteTableScan&) = delete;
  SqliteTableScan& operator=(const SqliteTableScan&) = delete;
  ~SqliteTableScan();
  // Moves to the next row: true when there is one, false at the end; an error on a corrupt page.
  StatusOr<bool> Next();
  const SqlValue& value(size_t requested) const { return row_values_[requested]; }
  // The text or blob of value(requested) (a kText or kBlob): valid until the next row.
  std::string_view bytes(size_t requested) const {
    const SqlValue& v = row_values_[requested];
    if (v.type == SqlValue::Type::kText && v.decimal) return cur_->decimal_texts[v.size];
    return {v.bytes, v.size};
  }
  bool reads_ahead() const { return !readers_.empty(); }
  int readers() const { return static_cast<int>(readers_.size()); }
  // The rows the filter kept back in the batches handed out so far (all of them after the last row).
  int64_t filtered_rows() const { return filtered_rows_; }

 private:
  // One run of leaf pages and its rows: the values (rows x columns, at the front of `values`, which
  // keeps the size of the biggest batch yet) view the batch's pages or its payloads gathered from
  // overflow pages, so a batch lives until the caller has passed its rows. Cache-line aligned: the
  // caller reads its batch's members every row while a reader writes another's every record.
  struct alignas(64) Batch {
    std::vector<char> pages;
    std::vector<SqlValue> values;
    std::vector<std::string_view> decimal_texts;  // the texts of the decimal kText values
    size_t rows = 0;
    size_t filtered = 0;  // rows the filter kept back
    std::vector<std::vector<unsigned char>> spilled;
    std::vector<char> overflow_page;  // scratch of GatherOverflow
    Status error;       // met after the rows above
    bool last = false;  // no batch follows
    uint64_t seq = 0;   // the run's place in the scan
  };
  // The next run of leaves (consecutive pages, up to kRunBytes): its first page and page count, and
  // whether it is the table's last. Under the mutex when readers run.
  struct Run {
    uint32_t first = 0, count = 0;
    bool last = true;  // also: no run was left
  };
  Run ClaimRun();
  // The decoder (a reader thread's when they run): fills `b` with the rows of `run`.
  void Fill(Batch& b, const Run& run);
  // The decoding of a page, a cell, a record: false when it is corrupt, the error then in b.error
  // (a bool, not a Status, to return: a record is decoded in tens of nanoseconds).
  bool DecodePage(Batch& b, const unsigned char* page, uint32_t page_no);
  bool DecodeCell(Batch& b, const unsigned char* page, uint32_t page_no, uint32_t cell_offset);
  bool DecodeRecord(Batch& b, const unsigned char* payload, size_t bytes, uint32_t page_no, int64_t rowid);
  bool Fail(Batch& b, uint32_t page_no, std::string_view what) const;  // Corrupt(...) into b.error
  Status GatherOverflow(Batch& b, std::vector<unsigned char>& out, const unsigned char* local,
                        size_t local_bytes, uint64_t payload_bytes, uint32_t first_overflow,
                        uint32_t page_no) const;
  Status Corrupt(uint32_t page_no, std::string_view what) const;
  // The next batch for the caller (the one it has passed goes back to be filled again).
  Batch* NextBatch();
  void ReadAhead();

  std::shared_ptr<const SqlitePages> pages_;
  uint32_t usable_bytes_ = 0;  // pages_->usable_bytes(), read per cell
  std::string table_;
  std::vector<uint32_t> leaves_;
  std::vector<int> columns_;
  std::vector<bool> real_;
  int rowid_column_ = -1;
  RowFilter filter_;
  int filter_column_ = -1;     // the table column of filter_.requested (-1: no filter)
  // filter_.ints as bits from filter_lo_ when they span a few thousand values (STRING_IDS ids of a
  // few names): an integer cell is then tested with one bit, not a search.
  std::vector<uint64_t> filter_bits_;
  int64_t filter_lo_ = 0;
  bool Keeps(const SqlValue& v) const {
    if (v.type == SqlValue::Type::kInt && !filter_bits_.empty()) {
      const uint64_t at = static_cast<uint64_t>(v.i) - static_cast<uint64_t>(filter_lo_);  // wraps below
      return at < filter_bits_.size() * 64 && ((filter_bits_[at / 64] >> (at % 64)) & 1) != 0;
    }
    return filter_.Keeps(v);
  }
  int max_column_ = -1;
  // Per table column up to max_column_: its requested index (-1: not requested) and REAL affinity.
  struct Slot {
    int index = -1;
    bool real = false;
  };
  std::vector<Slot> slot_;
  size_t next_leaf_ = 0;   // the first leaf not yet claimed
  // The caller's side: the batch being read and the row in it, written every row, on a cache line
  // of its own (the members above are read by the reader threads every record: sharing a line with
  // these, each of those reads would wait for the line to come back from the caller's core).
  alignas(64) Batch* cur_ = nullptr;
  size_t row_ = 0;
  const SqlValue* row_values_ = nullptr;
  int64_t filtered_rows_ = 0;
  // Batches and their hand-over between the reader threads and the caller: free batches, filled
  // ones by run (the caller takes them in run order), the next run to claim and to hand out.
  alignas(64) std::vector<std::unique_ptr<Batch>> batches_;
  std::deque<Batch*> free_;
  std::map<uint64_t, Batch*> ready_;
  uint64_t next_seq_ = 0, want_seq_ = 0;
  bool claimed_all_ = false;  // the last run (or one that failed) is claimed: the readers stop
  std::mutex mutex_;
  // Each side waits on its own condition (a notify wakes only a thread that can go on): the readers
  // for a free batch (or the end), the caller for the batch it wants next.
  std::condition_variable free_or_end_;
  std::condition_variable ready_changed_;
  bool stop_ = false;
  std::vector<std::thread> readers_;
};

}  // namespace profdiff::io
