#include "profdiff/io/csv_reader.h"
#include "profdiff/io/json_reader.h"  // IsValidUtf8

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace profdiff {

std::string_view TrimCell(std::string_view cell) {
  constexpr std::string_view kSpace = " \t\r\n";
  const size_t b = cell.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  const size_t e = cell.find_last_not_of(kSpace);
  return cell.substr(b, e - b + 1);
}

bool IsAbsentCell(std::string_view cell) {
  std::string_view t = TrimCell(cell);
  return t.empty() || t == "N/A";
}

CsvReader::CsvReader(std::string name, Diagnostics* diagnostics, size_t buffer_size)
    : name_(std::move(name)),
      diagnostics_(diagnostics),
      buf_cap_(std::max<size_t>(buffer_size, 4)) {
  buf_ = std::make_unique<char[]>(buf_cap_);
}

CsvReader::~CsvReader() {
  if (file_ != nullptr) std::fclose(file_);
}

StatusOr<std::unique_ptr<CsvReader>> CsvReader::Open(const std::string& path,
                                                     Diagnostics* diagnostics,
                                                     size_t buffer_size) {
  std::unique_ptr<CsvReader> r(new CsvReader(path, diagnostics, buffer_size));
  r->file_ = std::fopen(path.c_str(), "rb");
  if (r->file_ == nullptr) {
    const int err = errno;
    if (err == ENOENT) return NotFound(fmt::format("{}: no such file", path));
    return IoError(fmt::format("{}: cannot open: {}", path, std::strerror(err)));
  }
  PD_RETURN_IF_ERROR(r->ReadHeader());
  return r;
}

StatusOr<std::unique_ptr<CsvReader>> CsvReader::FromString(std::string name, std::string text,
                                                           Diagnostics* diagnostics,
                                                           size_t buffer_size) {
  std::unique_ptr<CsvReader> r(new CsvReader(std::move(name), diagnostics, buffer_size));
  r->text_ = std::move(text);
  PD_RETURN_IF_ERROR(r->ReadHeader());
  return r;
}

int CsvReader::ColumnIndex(std::string_view name) const {
  for (size_t i = 0; i < header_.size(); ++i) {
    if (header_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

int CsvReader::ColumnIndexAny(std::initializer_list<std::string_view> names) const {
  for (std::string_view n : names) {
    int i = ColumnIndex(n);
    if (i >= 0) return i;
  }
  return -1;
}

StatusOr<bool> CsvReader::Fill() {
  if (buf_pos_ < buf_len_) return true;
  if (eof_) return false;
  buf_pos_ = 0;
  buf_len_ = 0;
  if (file_ != nullptr) {
    buf_len_ = std::fread(buf_.get(), 1, buf_cap_, file_);
    if (buf_len_ < buf_cap_) {
      if (std::ferror(file_)) {
        return IoError(fmt::format("{}:{}: read error: {}", name_, line_, std::strerror(errno)));
      }
      eof_ = true;
    }
  } else {
    buf_len_ = std::min(buf_cap_, text_.size() - text_pos_);
    std::memcpy(buf_.get(), text_.data() + text_pos_, buf_len_);
    text_pos_ += buf_len_;
    if (text_pos_ == text_.size()) eof_ = true;
  }
  if (at_start_) {
    at_start_ = false;
    // The buffer holds at least 4 bytes, so a BOM at the start is entirely in the first fill.
    if (buf_len_ >= 3 && static_cast<unsigned char>(buf_[0]) == 0xEF &&
        static_cast<unsigned char>(buf_[1]) == 0xBB && static_cast<unsigned char>(buf_[2]) == 0xBF) {
      buf_pos_ = 3;
    }
  }
  return buf_pos_ < buf_len_;
}

StatusOr<bool> CsvReader::ParseRecord(CsvRecord& record) {
  enum class State { kFieldStart, kUnquoted, kQuoted, kQuoteInQuoted };
  record.data_.clear();
  record.ends_.clear();
  record.line_ = 0;
  State state = State::kFieldStart;
  bool started = false;
  auto end_field = [&record] { record.ends_.push_back(record.data_.size()); };

  for (;;) {
    if (buf_pos_ == buf_len_) {
      PD_ASSIGN_OR_RETURN(bool more, Fill());
      if (!more) break;
    }
    const char c = buf_[buf_pos_++];
    if (pending_cr_) {
      pending_cr_ = false;
      ++line_;  // the CR (alone or as CR LF) ended a line
      if (c == '\n') continue;
    }
    if (c == '\0') {
      return ParseError(fmt::format("{}:{}: binary data (NUL byte); not a CSV text file", name_, line_));
    }
    const bool eol = (c == '\n' || c == '\r') && state != State::kQuoted;
    if (eol) {
      if (c == '\r') {
        pending_cr_ = true;
      } else {
        ++line_;
      }
      if (!started) continue;  // blank line
      end_field();
      return true;
    }
    if (!started) {
      started = true;
      record.line_ = line_;
    }
    switch (state) {
      case State::kFieldStart:
        if (c == '"') {
          state = State::kQuoted;
        } else if (c == ',') {
          end_field();
        } else {
          record.data_.push_back(c);
          state = State::kUnquoted;
        }
        break;
      case State::kUnquoted:
        if (c == ',') {
          end_field();
          state = State::kFieldStart;
        } else {
          record.data_.push_back(c);
        }
        break;
      case State::kQuoted:
        if (c == '"') {
          state = State::kQuoteInQuoted;
        } else {
          if (c == '\n') ++line_;
          record.data_.push_back(c);
        }
        break;
      case State::kQuoteInQuoted:
        if (c == '"') {
          record.data_.push_back('"');
          state = State::kQuoted;
        } else if (c == ',') {
          end_field();
          state = State::kFieldStart;
        } else {
          record.data_.push_back(c);  // text after a closing quote is kept literally
          state = State::kUnquoted;
        }
        break;
    }
  }
  if (!started) return false;
  if (state == State::kQuoted) {
    ++rows_skipped_;
    if (diagnostics_ != nullptr) {
      diagnostics_->Add(DiagId::csv_unterminated_quote, {name_, record.line_, -1},
                        "quoted field opened in this record is never closed");
    }
    return false;
  }
  end_field();
  return true;
}

Status CsvReader::ReadHeader() {
  CsvRecord rec;
  PD_ASSIGN_OR_RETURN(bool ok, ParseRecord(rec));
  if (!ok) {
    return ParseError(fmt::format("{}:{}: empty file: no CSV header", name_, line_));
  }
  header_line_ = rec.line();
  bool any_name = false;
  for (size_t i = 0; i < rec.size(); ++i) {
    std::string_view f = rec[i];
    for (char ch : f) {
      const auto u = static_cast<unsigned char>(ch);
      if (u < 0x20 && ch != '\t') {
        return ParseError(fmt::format("{}:{}: header contains control byte 0x{:02x}; not a CSV text file",
                                      name_, header_line_, u));
      }
    }
    std::string_view t = TrimCell(f);
    if (!t.empty()) any_name = true;
    header_.emplace_back(t);
  }
  if (!any_name) {
    return ParseError(fmt::format("{}:{}: CSV header has no column names", name_, header_line_));
  }
  return Status::Ok();
}

StatusOr<bool> CsvReader::Next(CsvRecord& record) {
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool ok, ParseRecord(record));
    if (!ok) return false;
    if (record.size() == header_.size()) {
      ++rows_read_;
      if (diagnostics_ != nullptr && !IsValidUtf8(record.data_)) {
        // Kept as raw bytes (the cells are compared byte-wise); counted so users see it.
        diagnostics_->Add(DiagId::invalid_utf8, {name_, record.line(), -1}, {});
      }
      return true;
    }
    ++rows_skipped_;
    if (diagnostics_ != nullptr) {
      diagnostics_->Add(DiagId::csv_row_width, {name_, record.line(), -1},
                        fmt::format("{} fields, header has {}", record.size(), header_.size()));
    }
  }
}

}  // namespace profdiff
