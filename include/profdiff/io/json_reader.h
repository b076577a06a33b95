// Streaming JSON reading for trace files, in two layers (the Perfetto idea of keeping the tokenizer
// apart from the event parser):
//
//  * JsonArrayStream finds the trace array (a top-level array, or the "traceEvents" member of a
//    top-level object, whose other members may come before or after it) and hands out its elements one
//    at a time as complete JSON texts. Only the current element and one input chunk are held in memory;
//    an element may straddle chunk boundaries. It only balances brackets and strings; it does not
//    validate the element (that is the cursor's job, so a malformed event can be skipped).
//  * JsonCursor is a pull tokenizer over one complete JSON text: numbers are handed out as their raw
//    text (never converted to double), strings are decoded (all escapes, \u surrogate pairs) and are
//    views into the input when they need no unescaping. Invalid UTF-8 is kept as raw bytes and counted.
//
// Both never read out of bounds, limit nesting depth and report errors with a byte position.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/diagnostics.h"
#include "profdiff/base/raw_buffer.h"
#include "profdiff/base/status.h"
#include "profdiff/io/byte_source.h"

namespace profdiff {

enum class JsonType : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject, kInvalid };

class JsonCursor {
 public:
  static constexpr int kMaxDepth = 128;

  // `text` must stay alive while the cursor and the views it returned are used. Decoded strings that
  // needed unescaping are written to `scratch` (cleared and reserved to min(text.size(),
  // scratch_limit), so earlier views stay valid while the same text is parsed; a string that would
  // not fit fails with "string longer than the scratch buffer", which only happens with a limit).
  explicit JsonCursor(std::string_view text, std::string* scratch, size_t scratch_limit = SIZE_MAX);

  // Type of the next value, judged by its first byte (skips whitespace). kInvalid at the end or on a
  // byte that cannot start a value. Does not consume anything.
  JsonType Peek();

  // Each Read*/Begin*/Skip* consumes one value (or one bracket) and returns false on a syntax error
  // (then ok() is false and error()/error_pos() tell why and where).
  bool ReadString(std::string_view* out);
  // Raw number text, validated: -?digits[.digits][(e|E)[+-]digits]; also NaN, Infinity, -Infinity
  // (Python's json writes them).
  bool ReadNumber(std::string_view* raw);
  bool ReadBool(bool* out);
  bool ReadNull();
  // Skips any value (validating it); `raw` (optional) receives its text as written.
  bool SkipValue(std::string_view* raw = nullptr);

  // Object iteration: BeginObject(); while (NextMember(&key)) { <consume the value> } ; check ok().
  bool BeginObject();
  bool NextMember(std::string_view* key);
  // Array iteration: BeginArray(); while (NextElement()) { <consume the value> } ; check ok().
  bool BeginArray();
  bool NextElement();

  // True when only whitespace is left.
  bool AtEnd();

  bool ok() const { return error_ == nullptr; }
  const char* error() const { return error_ == nullptr ? "" : error_; }
  size_t error_pos() const { return error_pos_; }
  size_t pos() const { return pos_; }
  // Number of decoded strings that held invalid UTF-8 (kept as raw bytes).
  uint32_t invalid_utf8_strings() const { return invalid_utf8_; }

 private:
  bool Fail(const char* msg);
  bool Fail(const char* msg, size_t at);
  // Inline fast path: most calls find no white space at all.
  void SkipWs() {
    if (pos_ < text_.size() && static_cast<unsigned char>(text_[pos_]) > ' ') return;
    SkipWsSlow();
  }
  void SkipWsSlow();
  bool SkipValueAt(int depth);
  bool SkipStringFast();
  bool ReadStringImpl(std::string_view* out);

  std::string_view text_;
  std::string* scratch_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::array<bool, kMaxDepth + 2> first_{};  // next member/element is the first at this depth
  const char* error_ = nullptr;
  size_t error_pos_ = 0;
  uint32_t invalid_utf8_ = 0;
};

// Number of '\n' bytes in [p, p + n) (SSE2 where available): line numbers of messages.
int64_t CountNewlines(const char* p, size_t n);

// Finds the end of the JSON value that starts `text` by balancing brackets and strings, without
// validating it (a JsonCursor does that). true: *len is its length; false: `text` ends inside it (a
// scalar is complete only when a delimiter follows it). The bracket scan of JsonArrayStream.
bool ScanJsonValue(std::string_view text, size_t* len);

// True when `s` is valid UTF-8 (no overlongs, no surrogates, max U+10FFFF).
bool IsValidUtf8(std::string_view s);

// Bytes a message quotes on each side of a position (JsonSnippet).
inline constexpr size_t kJsonSnippetRadius = 20;

// A run of this many NUL bytes is binary data, never JSON text (a file cut and padded with zeros, a
// wrong file). A value (a trace event, a top-level member) that holds one is refused at the run,
// whatever the reads it came in: a value that spans reads at once, not buffered to the cap.
inline constexpr size_t kNulRunBytes = 64;
// The offset of the first run of kNulRunBytes NUL bytes in `text`, npos when there is none.
size_t FindNulRun(std::string_view text);

// "...text..." around `pos`, at most ~40 bytes, with control bytes and non-ASCII escaped, for messages.
std::string JsonSnippet(std::string_view text, size_t pos);

struct JsonStreamOptions {
  // An element (or a top-level member) larger than this is an error instead of unbounded memory.
  size_t max_element_bytes = size_t{1} << 30;
  // Other top-level members larger than this are skipped instead of kept as raw text.
  size_t max_member_bytes_kept = size_t{16} << 20;
};

class JsonArrayStream {
 public:
  enum class TopLevel : uint8_t { kUnknown, kObject, kArray };
  // A top-level member other than the trace array, as raw JSON text.
  struct Member {
    std::string key;
    std::string raw;  // empty when larger than max_member_bytes_kept
    uint64_t offset = 0;
    bool kept = true;
  };

  JsonArrayStream(ByteSource& source, JsonStreamOptions options = {});

  // Reads up to the first element of the trace array. Errors: empty file, not JSON, wrong top-level
  // type, a top-level object without a "traceEvents" array.
  Status Start();
  TopLevel top_level() const { return top_level_; }

  // true: *element is the complete text of the next element (valid until the next call);
  // false: the array ended (also when the input ended without ']': see missing_closing_bracket()).
  StatusOr<bool> Next(std::string_view* element);
  // The same in two steps, so that an element can be parsed in place (one pass instead of a scan and
  // a parse): BeginElement() moves to the next element (false at the end of the array, as Next()) and
  // sets *rest to every buffered byte from the element's start. A caller that parsed a whole element
  // from *rest calls ConsumeElement(its length); otherwise (the element is cut by the end of the
  // buffer, or malformed) it calls ScanElement(), which reads on until the element's end and returns
  // its complete text, exactly as Next() would. Views stay valid until the next call. Both refuse an
  // element that holds a run of kNulRunBytes NUL bytes (the error names the run's offset).
  StatusOr<bool> BeginElement(std::string_view* rest);
  Status ConsumeElement(size_t len);
  StatusOr<std::string_view> ScanElement();
  // Absolute (decompressed) byte offset of the element last returned.
  uint64_t element_offset() const { return element_offset_; }
  // 1-based line of an offset inside the element last returned (or later bytes still buffered).
  int64_t LineAt(uint64_t offset) const;
  // File name, line and byte offset of a position inside the element last returned.
  SourceLocation Locate(uint64_t offset) const;

  // Reading the array's middle elsewhere (the parallel trace loader): after an element, a caller may
  // take the buffer (Buffered(): up to kJsonSnippetRadius bytes already consumed, which messages
  // quote, then the unconsumed ones from buffered_head()), at offset buffered_offset() with
  // lines_before_buffered() newlines before it, read on from source() itself, and give the stream
  // back with Resume() the bytes from the end of the last element it consumed (`head` in `bytes`,
  // after some bytes of context): the stream then goes on as if it had read them (the next element,
  // ']' and Finish()). The view is valid until the next call.
  std::string_view Buffered() const { return {buf_.data(), tail_}; }
  size_t buffered_head() const { return head_; }
  uint64_t buffered_offset() const { return base_offset_; }
  int64_t lines_before_buffered() const { return lines_before_; }
  ByteSource& source() { return source_; }
  void Resume(std::string_view bytes, size_t head, uint64_t offset, int64_t lines_before);

  // After Next() returned false: reads the rest of the top-level object (members after the array) and
  // checks what follows the document.
  Status Finish();

  const std::vector<Member>& members() const { return members_; }
  bool missing_closing_bracket() const { return missing_closing_bracket_; }
  bool trailing_garbage() const { return trailing_garbage_; }
  uint64_t trailing_garbage_offset() const { return trailing_offset_; }
  // Decompressed bytes read from the source so far.
  uint64_t bytes_read() const { return source_.offset(); }
  // Bytes up to where reading stopped: the end of the input, or where trailing garbage starts (however
  // far the source was read ahead).
  uint64_t bytes_parsed() const { return base_offset_ + head_; }
  const std::string& file() const { return source_.path(); }
  // Bytes the read buffer holds room for (its peak memory): at most about the value cap.
  size_t buffer_bytes() const { return buf_.size(); }

 private:
  enum class Scan : uint8_t { kDone, kEof, kError };
  // A syntax error at `abs_offset`, quoting the bytes around it (read on for them first, so that the
  // quote does not depend on how the input was cut into chunks).
  Status ErrorAt(uint64_t abs_offset, std::string_view what);
  // The error for a run of NUL bytes in buf_[from, to) (relative offsets), Ok when there is none.
  Status RefuseNulRun(size_t from, size_t to);
  void BufferUpTo(uint64_t end);
  Status Refill(bool* got);        // compacts and reads one chunk
  Status SkipWs(bool* at_eof);     // skips whitespace from head_, refilling as needed
  // Scans the value starting at head_ and sets *len to its length. kEof: input ended inside it.
  Status ScanValue(size_t* len, Scan* result);
  Status ReadMembers(bool stop_at_trace_events);
  Status ReadMemberAfterKey(std::string key, uint64_t key_offset, bool stop_at_trace_events,
                            bool* entered_array);

  ByteSource& source_;
  JsonStreamOptions options_;
  TopLevel top_level_ = TopLevel::kUnknown;
  RawBuffer buf_;  // grows to the value cap at most, never zeroed or held twice
  size_t head_ = 0;  // first unconsumed byte
  size_t tail_ = 0;  // end of valid bytes
  uint64_t base_offset_ = 0;   // absolute offset of buf_[0]
  int64_t lines_before_ = 0;   // newlines before buf_[0]
  bool eof_ = false;
  bool in_array_ = false;
  bool first_element_ = true;
  bool array_done_ = false;
  bool object_done_ = false;
  bool missing_closing_bracket_ = false;
  bool trailing_garbage_ = false;
  uint64_t trailing_offset_ = 0;
  uint64_t element_offset_ = 0;
  std::vector<Member> members_;
  std::string scratch_;
};

}  // namespace profdiff
