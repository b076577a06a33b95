// Streaming, header-driven CSV reader for the Ascend side files (kernel_details.csv, ...).
//
// The file is read through one fixed-size buffer that is refilled as parsing goes (the idea of
// ninja's fixed-buffer line reader): memory stays bounded whatever the file size, and a record that
// spans two refills is assembled in a per-record scratch buffer.
//
// Dialect (what the Ascend profiler and pandas agree on):
//  * optional UTF-8 BOM; records end in LF, CRLF or a lone CR; blank lines are skipped;
//  * fields are comma-separated; a field that starts with '"' is quoted: `""` inside it is one literal
//    quote, and commas, CR and LF inside it are data. So the cell `"""32,3,224,224"""` has the value
//    `"32,3,224,224"` (the literal quotes are kept, as the reference keeps them);
//  * text after a closing quote and a quote inside an unquoted field are kept literally (Python csv);
//  * nothing is trimmed: `1736408883704643.212\t` keeps its TAB (the time parser tolerates it).
//
// The first non-blank record is the header. A record whose field count differs from the header's is
// reported as a `csv_row_width` diagnostic and skipped. A file that cannot be opened, is empty, has
// no header or contains binary data (a NUL byte) is an error Status naming the file and line.
#pragma once

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/diagnostics.h"
#include "profdiff/base/status.h"

namespace profdiff {

// One record. Views stay valid until the next call to CsvReader::Next().
class CsvRecord {
 public:
  size_t size() const { return ends_.size(); }
  std::string_view operator[](size_t i) const {
    const size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(data_).substr(begin, ends_[i] - begin);
  }
  // Field `i`, or "" when `i` is out of range or negative (absent column).
  std::string_view Get(int i) const {
    return i < 0 || static_cast<size_t>(i) >= size() ? std::string_view() : (*this)[static_cast<size_t>(i)];
  }
  int64_t line() const { return line_; }  // 1-based line where the record starts

 private:
  friend class CsvReader;
  std::string data_;
  std::vector<size_t> ends_;
  int64_t line_ = 0;
};

class CsvReader {
 public:
  static constexpr size_t kDefaultBufferSize = 64 * 1024;

  // Opens `path` and reads its header. Row-level problems go to `diagnostics` (may be null: then they
  // are only counted in rows_skipped()).
  static StatusOr<std::unique_ptr<CsvReader>> Open(const std::string& path, Diagnostics* diagnostics,
                                                   size_t buffer_size = kDefaultBufferSize);
  // Same, over in-memory text; `name` is used in messages (for tests and small embedded inputs).
  static StatusOr<std::unique_ptr<CsvReader>> FromString(std::string name, std::string text,
                                                         Diagnostics* diagnostics,
                                                         size_t buffer_size = kDefaultBufferSize);

  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;
  ~CsvReader();

  const std::string& file() const { return name_; }
  const std::vector<std::string>& header() const { return header_; }
  int64_t header_line() const { return header_line_; }
  // Index of the header column named exactly `name`, or -1.
  int ColumnIndex(std::string_view name) const;
  // First of `names` that exists, or -1 (for columns renamed across versions: "Step Id"/"Step ID").
  int ColumnIndexAny(std::initializer_list<std::string_view> names) const;

  // Reads the next well-formed record into `record`. Returns false at the end of the file. Fails on
  // an I/O error or binary data. Rows of the wrong width are reported and skipped.
  StatusOr<bool> Next(CsvRecord& record);

  uint64_t rows_read() const { return rows_read_; }
  uint64_t rows_skipped() const { return rows_skipped_; }

 private:
  CsvReader(std::string name, Diagnostics* diagnostics, size_t buffer_size);
  Status ReadHeader();
  // Parses one raw record (any width). Returns false at end of input.
  StatusOr<bool> ParseRecord(CsvRecord& record);
  // Makes at least one byte available in the buffer; false at end of input.
  StatusOr<bool> Fill();

  std::string name_;
  Diagnostics* diagnostics_ = nullptr;
  std::FILE* file_ = nullptr;
  std::string text_;  // FromString input
  size_t text_pos_ = 0;
  std::unique_ptr<char[]> buf_;
  size_t buf_cap_ = 0;
  size_t buf_len_ = 0;
  size_t buf_pos_ = 0;
  bool eof_ = false;
  bool at_start_ = true;     // BOM check pending
  bool pending_cr_ = false;  // last byte consumed was a CR ending a record
  int64_t line_ = 1;         // line of the next unread byte
  std::vector<std::string> header_;
  int64_t header_line_ = 0;
  uint64_t rows_read_ = 0;
  uint64_t rows_skipped_ = 0;
};

// A cell without surrounding spaces, TABs, CR and LF.
std::string_view TrimCell(std::string_view cell);
// True for an empty (after trimming) cell or "N/A" (the profiler's "no value").
bool IsAbsentCell(std::string_view cell);

}  // namespace profdiff
