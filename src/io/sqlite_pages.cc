// The SQLite page reader (sqlite_pages.h).
#include "profdiff/io/sqlite_pages.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include "profdiff/base/helper_thread.h"

namespace profdiff::io {
namespace {

constexpr unsigned char kInteriorTable = 0x05;
constexpr unsigned char kLeafTable = 0x0D;
constexpr uint32_t kFileHeaderBytes = 100;
constexpr int kMaxDepth = 40;                    // a b-tree of 2^32 pages is at most ~20 deep
constexpr size_t kRunBytes = size_t{256} << 10;  // leaf pages read with one pread (a batch)
constexpr size_t kReadAheadLeaves = 16;  // fewer leaves: no reader thread (not worth starting one)

uint32_t Get16(const unsigned char* p) { return (uint32_t{p[0]} << 8) | p[1]; }
uint32_t Get32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// SQLite's varint at [p, end): 1-9 bytes, big-endian, 7 bits a byte with the high bit saying
// "more"; the ninth byte gives all 8 bits. 0 bytes read when it runs past `end`.
size_t GetVarintSlow(const unsigned char* p, const unsigned char* end, uint64_t& v);

// Most varints of a record (serial types, small sizes) are one byte.
inline size_t GetVarint(const unsigned char* p, const unsigned char* end, uint64_t& v) {
  if (p < end && *p < 0x80) {
    v = *p;
    return 1;
  }
  return GetVarintSlow(p, end, v);
}

// A cell's payload size and rowid (mostly 2-4 bytes: a table of millions of rows), inline up to 4
// bytes.
[[gnu::always_inline]] inline size_t GetCellVarint(const unsigned char* p, const unsigned char* end,
                                                   uint64_t& v) {
  if (end - p >= 4) {
    uint64_t r = p[0] & 0x7F;
    for (size_t i = 0; i < 4; ++i) {  // unrolled by the compiler
      if (i > 0) r = (r << 7) | (p[i] & 0x7F);
      if (p[i] < 0x80) {
        v = r;
        return i + 1;
      }
    }
  }
  return GetVarintSlow(p, end, v);
}

size_t GetVarintSlow(const unsigned char* p, const unsigned char* end, uint64_t& v) {
  v = 0;
  if (end - p >= 9) {  // the longest varint fits: no bound check per byte (cells, rowids, sizes)
    // The first four bytes unrolled: rowids and payload sizes are mostly 2-4 bytes.
    uint64_t r = p[0] & 0x7F;
    const auto done = [&](size_t bytes) {
      v = r;
      return bytes;
    };
    if (p[0] < 0x80) return done(1);
    r = (r << 7) | (p[1] & 0x7F);
    if (p[1] < 0x80) return done(2);
    r = (r << 7) | (p[2] & 0x7F);
    if (p[2] < 0x80) return done(3);
    r = (r << 7) | (p[3] & 0x7F);
    if (p[3] < 0x80) return done(4);
    for (size_t i = 4; i < 8; ++i) {
      r = (r << 7) | (p[i] & 0x7F);
      if ((p[i] & 0x80) == 0) {
        v = r;
        return i + 1;
      }
    }
    v = (r << 8) | p[8];
    return 9;
  }
  for (size_t i = 0; i < 8; ++i) {
    if (p + i >= end) return 0;
    v = (v << 7) | (p[i] & 0x7F);
    if ((p[i] & 0x80) == 0) return i + 1;
  }
  if (p + 8 >= end) return 0;
  v = (v << 8) | p[8];
  return 9;
}

// Bytes of a value of serial type `t` (record format); -1 for the reserved types 10 and 11.
constexpr int8_t kFixedSerialBytes[12] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0, -1, -1};
constexpr int64_t SerialBytes(uint64_t t) {
  if (t < 12) return kFixedSerialBytes[t];
  return static_cast<int64_t>((t - 12) / 2);
}

// SerialBytes of the one-byte serial types (t < 128, most of a record's), as a table.
constexpr std::array<int64_t, 128> kOneByteSerialBytes = [] {
  std::array<int64_t, 128> bytes{};
  for (uint64_t t = 0; t < bytes.size(); ++t) bytes[t] = SerialBytes(t);
  return bytes;
}();

// The bytes a record's buffer has readable past its end (a batch's pages, a record gathered from
// overflow pages): an integer is read with one 8-byte load whatever its size.
constexpr size_t kRecordPadding = 8;

// A big-endian two's-complement integer of `n` bytes (1, 2, 3, 4, 6 or 8: serial types 1-7), read
// as the top bytes of an 8-byte big-endian load (kRecordPadding) and shifted down with its sign:
// no branch on the size, which varies from column to column.
int64_t GetInt(const unsigned char* p, int64_t n) {
  uint64_t w = 0;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
  return static_cast<int64_t>(w) >> (64 - 8 * n);  // arithmetic shift (C++20)
}

// A value of serial type `t` whose `size` bytes start at `body` (file format, "Record Format"); the
// text of a decimal one kept in `decimal_texts`. A text or blob is less than 2^31 bytes: its record
// is (DecodeCell, GatherOverflow).
void SetValue(SqlValue& v, uint64_t t, const unsigned char* body, int64_t size, bool real,
              std::vector<std::string_view>& decimal_texts) {
  v.decimal = false;  // the batch's values are written over row after row
  if (t == 0) {
    v.type = SqlValue::Type::kNull;
  } else if (t <= 6 || t == 8 || t == 9) {
    v.type = SqlValue::Type::kInt;
    v.i = t <= 6 ? GetInt(body, size) : static_cast<int64_t>(t - 8);
    if (real) {
      v.type = SqlValue::Type::kReal;
      v.d = static_cast<double>(v.i);
    }
  } else if (t == 7) {
    v.type = SqlValue::Type::kReal;
    v.d = std::bit_cast<double>(static_cast<uint64_t>(GetInt(body, 8)));
  } else {
    v.type = (t & 1) != 0 ? SqlValue::Type::kText : SqlValue::Type::kBlob;
    const std::string_view bytes(reinterpret_cast<const char*>(body), static_cast<size_t>(size));
    const std::optional<int64_t> n =
        v.type == SqlValue::Type::kText ? ParseDecimalInt(bytes) : std::optional<int64_t>();
    v.decimal = n.has_value();
    if (n) {
      v.i = *n;
      v.size = static_cast<uint32_t>(decimal_texts.size());
      decimal_texts.push_back(bytes);
    } else {
      v.bytes = bytes.data();
      v.size = static_cast<uint32_t>(size);
    }
  }
}

// The value of an INTEGER PRIMARY KEY column, which the record stores as NULL: the rowid.
SqlValue RowidValue(int64_t rowid) {
  SqlValue v;
  v.type = SqlValue::Type::kInt;
  v.i = rowid;
  return v;
}

// The header and cell pointers of a b-tree page: its type, cell count and header size, checked.
struct PageHeader {
  unsigned char type = 0;
  uint32_t cells = 0;
  uint32_t header_at = 0;    // 100 on page 1 (the file header comes first)
  uint32_t pointers_at = 0;  // the cell pointer array
};

// Eight ASCII digits at `p` as their value, or -1 when a byte is not a digit: the bytes loaded as
// one little-endian word, checked together, then combined in pairs, fours and eights with three
// multiplications (instead of eight multiply-adds). PYTORCH_API keeps its 19-digit times as text:
// 45 M of them on a 5 M-task export.
int64_t EightDigits(const char* p) {
  uint64_t w = 0;
  std::memcpy(&w, p, 8);
  // Each byte 0x30..0x39: its high nibble is 3, and adding 6 leaves it 3 (0x3A..0x3F carry into 4).
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ULL, kSix = 0x0606060606060606ULL;
  if ((w & kHigh) != 0x3030303030303030ULL || ((w + kSix) & kHigh) != 0x3030303030303030ULL) return -1;
  w -= 0x3030303030303030ULL;  // digit values; the first digit is the lowest byte
  w = (w * 10 + (w >> 8)) & 0x00FF00FF00FF00FFULL;      // two-digit values in bytes 0, 2, 4, 6
  w = (w * 100 + (w >> 16)) & 0x0000FFFF0000FFFFULL;    // four-digit values in bytes 0-1, 4-5
  w = (w * 10000 + (w >> 32)) & 0x00000000FFFFFFFFULL;  // the eight-digit value
  return static_cast<int64_t>(w);
}

}  // namespace

std::optional<int64_t> ParseDecimalInt(std::string_view t) {
  if (t.empty()) return std::nullopt;
  size_t i = 0;
  const bool negative = t[0] == '-';
  if (negative || t[0] == '+') i = 1;
  const size_t digits = t.size() - i;
  if (digits == 0) return std::nullopt;
  uint64_t v = 0;
  if (digits <= 19) {
    // Up to 19 digits fit in a uint64 (10^19 - 1 < 2^64): one check at the end. The digits before
    // the last multiple of eight one at a time, then eight at a time (little-endian machines).
    const size_t whole = std::endian::native == std::endian::little ? digits / 8 * 8 : 0;
    for (const size_t head_end = t.size() - whole; i < head_end; ++i) {
      const auto digit = static_cast<uint64_t>(static_cast<unsigned char>(t[i]) - '0');
      if (digit > 9) return std::nullopt;
      v = v * 10 + digit;
    }
    for (; i < t.size(); i += 8) {
      const int64_t eight = EightDigits(t.data() + i);
      if (eight < 0) return std::nullopt;
      v = v * 100000000 + static_cast<uint64_t>(eight);
    }
    if (v > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  } else {
    // Leading zeros make it longer: a check on every digit.
    for (; i < t.size(); ++i) {
      const auto digit = static_cast<uint64_t>(static_cast<unsigned char>(t[i]) - '0');
      if (digit > 9) return std::nullopt;
      if (v > (static_cast<uint64_t>(INT64_MAX) - digit) / 10) return std::nullopt;
      v = v * 10 + digit;
    }
  }
  return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

SqlitePages::~SqlitePages() {
  if (fd_ >= 0) ::close(fd_);
}

StatusOr<std::shared_ptr<const SqlitePages>> SqlitePages::Open(const std::string& file, const std::string& name) {
  std::shared_ptr<SqlitePages> p(new SqlitePages());
  p->path_ = name.empty() ? file : name;
  const std::string& path = p->path_;  // in messages
  p->fd_ = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (p->fd_ < 0) return IoError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(p->fd_, &st) != 0)
    return IoError(fmt::format("{}: cannot stat: {}", path, std::strerror(errno)));
  unsigned char h[kFileHeaderBytes];
  if (st.st_size < static_cast<off_t>(kFileHeaderBytes) ||
      ::pread(p->fd_, h, kFileHeaderBytes, 0) != static_cast<ssize_t>(kFileHeaderBytes) ||
      std::memcmp(h, "SQLite format 3", 16) != 0) {
    return ParseError(fmt::format("{}: not an SQLite 3 database (no file header)", path));
  }
  const uint32_t size_field = Get16(h + 16);
  p->page_bytes_ = size_field == 1 ? 65536 : size_field;
  if (p->page_bytes_ < 512 || p->page_bytes_ > 65536 || !std::has_single_bit(p->page_bytes_))
    return ParseError(
        fmt::format("{}: byte offset 16: page size {} is not a power of two in [512, 65536]", path,
                    p->page_bytes_));
  if (h[20] > p->page_bytes_ - 480)
    return ParseError(
        fmt::format("{}: byte offset 20: {} reserved bytes per page leave too few", path, h[20]));
  p->usable_bytes_ = p->page_bytes_ - h[20];
  if (Get32(h + 56) > 1)
    return Unsupported(
        fmt::format("{}: text encoding {} (UTF-16): read through SQLite", path, Get32(h + 56)));
  const auto pages = static_cast<uint64_t>(st.st_size) / p->page_bytes_;
  p->page_count_ = static_cast<uint32_t>(std::min<uint64_t>(pages, UINT32_MAX - 1));
  return std::shared_ptr<const SqlitePages>(std::move(p));
}

Status SqlitePages::ReadPages(uint32_t first, uint32_t count, char* out,
                              std::string_view table) const {
  if (first == 0 || count == 0 || first > page_count_ || count > page_count_ - first + 1)
    return OutsideFile(first, table);
  const size_t bytes = size_t{count} * page_bytes_;
  const auto offset = static_cast<off_t>(uint64_t{first - 1} * page_bytes_);
  size_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pread(fd_, out + done, bytes - done, offset + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return IoError(fmt::format("{}: table {}: cannot read page {}: {}", path_, table,
                                 first + done / page_bytes_,
                                 n < 0 ? std::strerror(errno) : "the file ended"));
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

namespace {

// Reads the b-tree page header of page `no` (`page` holds it) and checks its cell pointer array
// fits.
StatusOr<PageHeader> ReadHeader(const SqlitePages& f, const unsigned char* page, uint32_t no,
                                std::string_view table) {
  PageHeader h;
  h.header_at = no == 1 ? kFileHeaderBytes : 0;
  h.type = page[h.header_at];
  h.cells = Get16(page + h.header_at + 3);
  h.pointers_at = h.header_at + (h.type == kInteriorTable ? 12 : 8);
  if (h.type != kInteriorTable && h.type != kLeafTable)
    return ParseError(fmt::format("{}: table {}: page {}: not a table b-tree page (type {})",
                                  f.path(), table, no, static_cast<int>(h.type)));
  if (h.pointers_at + 2 * uint64_t{h.cells} > f.usable_bytes())
    return ParseError(fmt::format("{}: table {}: page {}: {} cells do not fit the page", f.path(),
                                  table, no, h.cells));
  return h;
}

}  // namespace

StatusOr<std::vector<uint32_t>> SqlitePages::TableLeaves(uint32_t root,
                                                         std::string_view table) const {
  std::vector<uint32_t> leaves, children;
  // Depth-first over the interior pages, children left to right: (page, depth) on a stack, pushed
  // right to left. The leaves are not read: all children of a page are at one depth, so when its
  // first child is a leaf they all are (the scan checks each leaf's type as it reads it).
  std::vector<std::pair<uint32_t, int>> stack{{root, 0}};
  std::vector<char> buf(page_bytes_);
  const auto* page = reinterpret_cast<const unsigned char*>(buf.data());
  uint64_t visited = 0;
  auto loops = [&](uint32_t no) {
    return ParseError(fmt::format("{}: table {}: the b-tree loops (page {})", path_, table, no));
  };
  while (!stack.empty()) {
    const auto [no, depth] = stack.back();
    stack.pop_back();
    if (++visited > page_count_ || depth > kMaxDepth) return loops(no);
    PD_RETURN_IF_ERROR(ReadPages(no, 1, buf.data(), table));
    PD_ASSIGN_OR_RETURN(PageHeader h, ReadHeader(*this, page, no, table));
    if (h.type == kLeafTable) {
      leaves.push_back(no);
      continue;
    }
    children.clear();
    for (uint32_t i = 0; i < h.cells; ++i) {
      const uint32_t at = Get16(page + h.pointers_at + 2 * i);
      if (at < h.pointers_at || at + 4 > usable_bytes_)
        return ParseError(
            fmt::format("{}: table {}: page {}: cell {} is outside the page", path_, table, no, i));
      children.push_back(Get32(page + at));
    }
    children.push_back(Get32(page + h.header_at + 8));  // the right-most child comes last
    PD_ASSIGN_OR_RETURN(uint8_t first_type, PageType(children.front(), table));
    if (first_type == kLeafTable) {
      if (leaves.size() + children.size() > page_count_) return loops(no);
      leaves.insert(leaves.end(), children.begin(), children.end());
      continue;
    }
    for (size_t i = children.size(); i-- > 0;) stack.emplace_back(children[i], depth + 1);
  }
  return leaves;
}

StatusOr<uint8_t> SqlitePages::PageType(uint32_t no, std::string_view table) const {
  unsigned char type = 0;
  PD_RETURN_IF_ERROR(ReadHeaderBytes(no, &type, 1, table));
  return type;
}

StatusOr<uint32_t> SqlitePages::LeafCells(uint32_t no, std::string_view table) const {
  unsigned char h[8];
  PD_RETURN_IF_ERROR(ReadHeaderBytes(no, h, sizeof h, table));
  if (h[0] != kLeafTable)
    return ParseError(fmt::format("{}: table {}: page {}: not a table leaf page (type {})", path_,
                                  table, no, static_cast<int>(h[0])));
  return Get16(h + 3);
}

// The first `n` bytes of page `no`'s b-tree header (after the file header on page 1).
Status SqlitePages::ReadHeaderBytes(uint32_t no, unsigned char* out, size_t n,
                                    std::string_view table) const {
  if (no == 0 || no > page_count_) return OutsideFile(no, table);
  const uint32_t at = no == 1 ? kFileHeaderBytes : 0;
  const auto offset = static_cast<off_t>(uint64_t{no - 1} * page_bytes_ + at);
  if (::pread(fd_, out, n, offset) != static_cast<ssize_t>(n))
    return IoError(fmt::format("{}: table {}: cannot read page {}", path_, table, no));
  return Status::Ok();
}

Status SqlitePages::OutsideFile(uint32_t no, std::string_view table) const {
  return ParseError(fmt::format("{}: table {}: page {} is outside the file's {} pages", path_,
                                table, no, page_count_));
}

StatusOr<uint64_t> SqlitePages::CountCells(std::span<const uint32_t> leaves,
                                           std::string_view table) const {
  uint64_t rows = 0;
  for (uint32_t no : leaves) {
    PD_ASSIGN_OR_RETURN(uint32_t cells, LeafCells(no, table));
    rows += cells;
  }
  return rows;
}

SqliteTableScan::SqliteTableScan(std::shared_ptr<const SqlitePages> pages, std::string table,
                                 std::vector<uint32_t> leaves, std::vector<int> columns,
                                 std::vector<bool> real, int rowid_column, int readers,
                                 RowFilter filter)
    : pages_(std::move(pages)),
      usable_bytes_(pages_->usable_bytes()),
      table_(std::move(table)),
      leaves_(std::move(leaves)),
      columns_(std::move(columns)),
      real_(std::move(real)),
      rowid_column_(rowid_column),
      filter_(std::move(filter)) {
  real_.resize(columns_.size(), false);
  for (int c : columns_) max_column_ = std::max(max_column_, c);
  slot_.assign(static_cast<size_t>(max_column_ + 1), Slot{});
  for (size_t r = 0; r < columns_.size(); ++r)
    if (columns_[r] >= 0) slot_[static_cast<size_t>(columns_[r])] = {static_cast<int>(r), real_[r]};
  if (filter_.requested >= 0 && static_cast<size_t>(filter_.requested) < columns_.size())
    filter_column_ = columns_[static_cast<size_t>(filter_.requested)];
  if (!filter_.ints.empty()) {
    const auto [lo, hi] = std::minmax_element(filter_.ints.begin(), filter_.ints.end());
    constexpr uint64_t kMaxBits = uint64_t{1} << 16;
    if (static_cast<uint64_t>(*hi) - static_cast<uint64_t>(*lo) < kMaxBits) {
      filter_lo_ = *lo;
      filter_bits_.assign((static_cast<uint64_t>(*hi) - static_cast<uint64_t>(*lo)) / 64 + 1, 0);
      for (int64_t v : filter_.ints) {
        const uint64_t at = static_cast<uint64_t>(v) - static_cast<uint64_t>(*lo);
        filter_bits_[at / 64] |= uint64_t{1} << (at % 64);
      }
    }
  }
  // With readers: one batch the caller reads, and two per reader (one being filled, one ready).
  const size_t threads = readers > 0 && leaves_.size() >= kReadAheadLeaves ? static_cast<size_t>(readers) : 0;
  const size_t batches = threads > 0 ? 2 * threads + 1 : 1;
  for (size_t i = 0; i < batches; ++i) {
    batches_.push_back(std::make_unique<Batch>());
    free_.push_back(batches_.back().get());
  }
  for (size_t i = 0; i < threads; ++i) readers_.emplace_back([this] { ReadAhead(); });
}

SqliteTableScan::~SqliteTableScan() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  free_or_end_.notify_all();
  for (std::thread& t : readers_) t.join();
}

// A reader: claims the next run with a free batch, fills it, hands it over; until the last run is
// claimed (a run that failed counts as the last: the caller stops at its error).
void SqliteTableScan::ReadAhead() {
  RunAsHelperThread();  // the caller's thread turns the rows into a model: it goes first
  for (;;) {
    Batch* b = nullptr;
    Run run;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      free_or_end_.wait(lock, [&] { return stop_ || claimed_all_ || !free_.empty(); });
      if (stop_ || claimed_all_) return;
      b = free_.front();
      free_.pop_front();
      run = ClaimRun();
      claimed_all_ = run.last;
      b->seq = next_seq_++;
    }
    if (run.last) free_or_end_.notify_all();  // the other readers waiting for a batch stop
    Fill(*b, run);
    bool failed = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      failed = !b->error.ok();
      if (failed) claimed_all_ = true;
      ready_.emplace(b->seq, b);
    }
    ready_changed_.notify_one();  // the caller is the one thread waiting there
    if (failed) free_or_end_.notify_all();
  }
}

SqliteTableScan::Batch* SqliteTableScan::NextBatch() {
  if (readers_.empty()) {
    Batch* b = batches_.front().get();
    Fill(*b, ClaimRun());
    return b;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  if (cur_ != nullptr) {
    free_.push_back(cur_);
    free_or_end_.notify_one();  // one reader can take it
  }
  ready_changed_.wait(lock, [&] { return ready_.count(want_seq_) != 0; });
  const auto it = ready_.find(want_seq_++);
  Batch* b = it->second;
  ready_.erase(it);
  return b;
}

StatusOr<bool> SqliteTableScan::Next() {
  const size_t ncols = columns_.size();
  for (;;) {
    if (cur_ != nullptr && row_ + 1 < cur_->rows) {
      ++row_;
      row_values_ = cur_->values.data() + row_ * ncols;
      return true;
    }
    if (cur_ != nullptr && cur_->last) {
      if (!cur_->error.ok()) return cur_->error;
      return false;
    }
    cur_ = NextBatch();
    filtered_rows_ += static_cast<int64_t>(cur_->filtered);
    if (cur_->rows == 0) continue;
    row_ = 0;
    row_values_ = cur_->values.data();
    return true;
  }
}

Status SqliteTableScan::Corrupt(uint32_t page_no, std::string_view what) const {
  return ParseError(
      fmt::format("{}: table {}: page {}: {}", pages_->path(), table_, page_no, what));
}

void SqliteTableScan::Fill(Batch& b, const Run& run) {
  // b.values keeps its size (rows x columns of the biggest batch yet): rows are written over it.
  b.rows = 0;
  b.filtered = 0;
  b.spilled.clear();
  b.decimal_texts.clear();
  b.error = Status::Ok();
  b.last = run.last;
  if (run.count == 0) return;
  b.pages.resize(size_t{run.count} * pages_->page_bytes() + kRecordPadding);
  b.error = pages_->ReadPages(run.first, run.count, b.pages.data(), table_);
  bool ok = b.error.ok();
  for (uint32_t i = 0; ok && i < run.count; ++i) {
    const auto* page =
        reinterpret_cast<const unsigned char*>(b.pages.data()) + size_t{i} * pages_->page_bytes();
    ok = DecodePage(b, page, run.first + i);
  }
  if (!ok) b.last = true;
}

// The next leaves that follow each other in the file (a table written in one go is mostly one
// stretch), read with one pread, up to kRunBytes.
SqliteTableScan::Run SqliteTableScan::ClaimRun() {
  Run run;
  if (next_leaf_ >= leaves_.size()) return run;
  const auto max_pages = static_cast<uint32_t>(std::max<size_t>(1, kRunBytes / pages_->page_bytes()));
  uint32_t n = 1;
  while (n < max_pages && next_leaf_ + n < leaves_.size() &&
         leaves_[next_leaf_ + n] == leaves_[next_leaf_] + n)
    ++n;
  run.first = leaves_[next_leaf_];
  run.count = n;
  next_leaf_ += n;
  run.last = next_leaf_ >= leaves_.size();
  return run;
}

bool SqliteTableScan::Fail(Batch& b, uint32_t page_no, std::string_view what) const {
  b.error = Corrupt(page_no, what);
  return false;
}

bool SqliteTableScan::DecodePage(Batch& b, const unsigned char* page, uint32_t page_no) {
  StatusOr<PageHeader> header = ReadHeader(*pages_, page, page_no, table_);
  if (!header.ok()) {
    b.error = header.status();
    return false;
  }
  const PageHeader& h = *header;
  if (h.type != kLeafTable) return Fail(b, page_no, "an interior page where a leaf was read");
  for (uint32_t cell = 0; cell < h.cells; ++cell) {
    if (!DecodeCell(b, page, page_no, Get16(page + h.pointers_at + 2 * cell))) return false;
  }
  return true;
}

bool SqliteTableScan::DecodeCell(Batch& b, const unsigned char* page, uint32_t page_no, uint32_t at) {
  const uint32_t usable = usable_bytes_;
  const unsigned char* end = page + usable;
  if (at < 8 || at >= usable)
    return Fail(b, page_no, fmt::format("cell offset {} is outside the page", at));
  const unsigned char* p = page + at;
  uint64_t payload = 0, key = 0;
  size_t n = GetCellVarint(p, end, payload);
  if (n == 0) return Fail(b, page_no, "a cell runs past the page");
  p += n;
  n = GetCellVarint(p, end, key);
  if (n == 0) return Fail(b, page_no, "a cell runs past the page");
  p += n;
  const auto rowid = static_cast<int64_t>(key);
  // The part of the payload kept on the page (file format, "Cell Payload Overflow Pages").
  const uint64_t max_local = usable - 35;
  if (payload <= max_local) {
    if (p + payload > end) return Fail(b, page_no, "a record runs past the page");
    return DecodeRecord(b, p, static_cast<size_t>(payload), page_no, rowid);
  }
  const uint64_t min_local = (uint64_t{usable - 12} * 32 / 255) - 23;
  const uint64_t k = min_local + (payload - min_local) % (usable - 4);
  const uint64_t local = k <= max_local ? k : min_local;
  if (p + local + 4 > end) return Fail(b, page_no, "a record runs past the page");
  std::vector<unsigned char> whole;
  b.error = GatherOverflow(b, whole, p, static_cast<size_t>(local), payload, Get32(p + local), page_no);
  if (!b.error.ok()) return false;
  whole.resize(whole.size() + kRecordPadding);
  b.spilled.push_back(std::move(whole));  // the buffer moves, its bytes stay where they are
  return DecodeRecord(b, b.spilled.back().data(), b.spilled.back().size() - kRecordPadding, page_no, rowid);
}

// A payload bigger than a page: its local part, then each overflow page's content (a 4-byte next
// page number, then usable - 4 bytes), until the payload is whole.
Status SqliteTableScan::GatherOverflow(Batch& b, std::vector<unsigned char>& out,
                                       const unsigned char* local, size_t local_bytes,
                                       uint64_t payload_bytes, uint32_t next, uint32_t page_no) const {
  if (payload_bytes > uint64_t{pages_->page_count()} * pages_->usable_bytes())
    return Corrupt(page_no, "a record is larger than the file");
  // SQLite writes no row of 2^31 bytes or more (SQLITE_MAX_LENGTH bounds a row too): a value's size
  // fits SqlValue::size.
  if (payload_bytes > uint64_t{INT32_MAX}) return Corrupt(page_no, "a record is larger than SQLite writes");
  out.assign(local, local + local_bytes);
  std::vector<char>& overflow_page = b.overflow_page;
  overflow_page.resize(pages_->page_bytes());
  const size_t chunk = pages_->usable_bytes() - 4;
  for (uint32_t hops = 0; out.size() < payload_bytes; ++hops) {
    if (next == 0 || hops > pages_->page_count())
      return Corrupt(page_no, "an overflow chain ends early or loops");
    PD_RETURN_IF_ERROR(pages_->ReadPages(next, 1, overflow_page.data(), table_));
    const auto* op = reinterpret_cast<const unsigned char*>(overflow_page.data());
    const size_t take = std::min<uint64_t>(chunk, payload_bytes - out.size());
    out.insert(out.end(), op + 4, op + 4 + take);
    next = Get32(op);
  }
  return Status::Ok();
}

// Appends the row's requested values to the batch (nothing when the record is corrupt).
bool SqliteTableScan::DecodeRecord(Batch& b, const unsigned char* rec, size_t bytes, uint32_t page_no,
                                   int64_t rowid) {
  const unsigned char* end = rec + bytes;
  uint64_t header_bytes = 0;
  size_t n = GetVarint(rec, end, header_bytes);
  if (n == 0 || header_bytes > bytes || header_bytes < n)
    return Fail(b, page_no, "a record header runs past its record");
  // Serial types up to the last requested column; each column's value starts where the last ended.
  const unsigned char* type_at = rec + n;
  const unsigned char* header_end = rec + header_bytes;
  const unsigned char* body = header_end;
  const size_t ncols = columns_.size(), base = b.rows * ncols;
  if (b.values.size() < base + ncols) b.values.resize(std::max(2 * b.values.size(), base + ncols));
  // Every requested column is written below (a requested column the table lacks stays NULL).
  SqlValue* values = b.values.data() + base;
  const Slot* slots = slot_.data();
  const int last = max_column_;  // a local: the values written below could alias a member
  const auto body_bytes = [&] { return static_cast<uint64_t>(end - body); };
  int col = 0;
  for (; col <= last && type_at < header_end; ++col) {
    uint64_t t = *type_at;  // most serial types are one byte
    int64_t size = 0;
    if (t < 0x80) {
      ++type_at;
      size = kOneByteSerialBytes[t];
    } else {
      n = GetVarintSlow(type_at, header_end, t);
      if (n == 0) return Fail(b, page_no, "a record header runs past its record");
      type_at += n;
      size = SerialBytes(t);
    }
    // The reserved types (-1) compare as the largest unsigned size: one test for both.
    if (static_cast<uint64_t>(size) > body_bytes()) return Fail(b, page_no, "a record's value runs past its record");
    if (const Slot slot = slots[col]; slot.index >= 0)
      SetValue(values[slot.index], t, body, size, slot.real, b.decimal_texts);
    body += size;
    // The filter's column read: a row it refuses is not decoded further.
    if (col == filter_column_) {
      if (col == rowid_column_ && t == 0) values[filter_.requested] = RowidValue(rowid);
      if (!Keeps(values[filter_.requested])) {
        ++b.filtered;  // written over by the next row
        return true;
      }
    }
  }
  // A record written before ALTER TABLE added columns ends early: those columns are NULL.
  const int walked = col;
  for (; col <= last; ++col) {
    if (const Slot slot = slot_[static_cast<size_t>(col)]; slot.index >= 0) values[slot.index] = SqlValue{};
  }
  if (rowid_column_ >= 0 && rowid_column_ <= max_column_) {
    if (const int r = slot_[static_cast<size_t>(rowid_column_)].index;
        r >= 0 && values[r].type == SqlValue::Type::kNull) {
      values[r] = RowidValue(rowid);
    }
  }
  // A record that ends before the filter's column: NULL there (the rowid for an INTEGER PRIMARY KEY).
  if (filter_column_ >= walked && !Keeps(values[filter_.requested])) {
    ++b.filtered;
    return true;
  }
  ++b.rows;
  return true;
}

}  // namespace profdiff::io
