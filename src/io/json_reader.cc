#include "profdiff/io/json_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "profdiff/base/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace profdiff {

namespace {

inline bool IsWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

inline int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr uint32_t kReplacementChar = 0xFFFD;

}  // namespace

// Number of '\n' bytes in [p, p + n). SSE2 (x86-64 baseline): 16 bytes per compare, matches summed in
// byte lanes and folded with psadbw every 255 blocks; elsewhere eight bytes at a time (SWAR, exact:
// no borrow crosses a byte).
int64_t CountNewlines(const char* p, size_t n) {
  int64_t count = 0;
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  while (i + 16 <= n) {
    __m128i acc = _mm_setzero_si128();
    const size_t blocks = std::min<size_t>((n - i) / 16, 255);
    for (size_t b = 0; b < blocks; ++b, i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, newline));  // +1 per match in each byte lane
    }
    const __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
    count += _mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
  }
#else
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  constexpr uint64_t kNewlines = 0x0A0A0A0A0A0A0A0AULL;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    const uint64_t x = w ^ kNewlines;                         // a zero byte where the input has '\n'
    const uint64_t t = ~(((x & kLow7) + kLow7) | x | kLow7);  // high bit set exactly on zero bytes
    count += static_cast<int64_t>(((t >> 7) * 0x0101010101010101ULL) >> 56);  // sum of the 0/1 bytes
  }
#endif
  for (; i < n; ++i) count += p[i] == '\n';
  return count;
}

namespace {

// JSON white space: space, TAB, LF, CR.
struct WsTable {
  bool ws[256] = {};
  constexpr WsTable() {
    for (unsigned char c : {' ', '\t', '\n', '\r'}) ws[c] = true;
  }
};
constexpr WsTable kWs;

// Byte classes for the element scanner: what ends a run of ordinary bytes.
enum : uint8_t { kPlain = 0, kQuote = 1, kBackslash = 2, kOpen = 4, kClose = 8 };
struct ScanTable {
  uint8_t cls[256] = {};
  constexpr ScanTable() {
    cls[static_cast<unsigned char>('"')] = kQuote;
    cls[static_cast<unsigned char>('\\')] = kBackslash;
    cls[static_cast<unsigned char>('{')] = kOpen;
    cls[static_cast<unsigned char>('[')] = kOpen;
    cls[static_cast<unsigned char>('}')] = kClose;
    cls[static_cast<unsigned char>(']')] = kClose;
  }
};
constexpr ScanTable kScan;

// Bytes that end the fast scan of a string: the quote, a backslash and non-ASCII bytes.
struct StringTable {
  bool stop[256] = {};
  constexpr StringTable() {
    for (int c = 0; c < 256; ++c) stop[c] = c == '"' || c == '\\' || c >= 0x80;
  }
};
constexpr StringTable kString;

// Index of the first byte in [p, p + n) that kString stops at, or n. Eight bytes at a time: a
// zero-byte test per pattern (exact, no borrow crosses a byte) plus the high bits.
inline size_t FindStringStop(const unsigned char* p, size_t n) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    const uint64_t q = w ^ (kOnes * '"');
    const uint64_t b = w ^ (kOnes * '\\');
    const uint64_t zq = ~(((q & kLow7) + kLow7) | q | kLow7);
    const uint64_t zb = ~(((b & kLow7) + kLow7) | b | kLow7);
    const uint64_t m = zq | zb | (w & kHigh);
    if (m != 0) {
      if constexpr (std::endian::native == std::endian::little) return i + static_cast<size_t>(__builtin_ctzll(m)) / 8;
      break;  // big-endian: finish byte by byte
    }
  }
  while (i < n && !kString.stop[p[i]]) ++i;
  return i;
}

// Finds the end of one JSON value by balancing brackets and strings (no validation: the cursor does
// that), resumably: Step() scans the bytes it has not seen yet of a text that may grow between calls
// (a stream's buffer after a refill) and returns true once the value is complete.
class ValueScan {
 public:
  explicit ValueScan(char first) : scalar_(first != '{' && first != '[' && first != '"') {}
  bool scalar() const { return scalar_; }
  // Length of the value when Step() returned true; else the bytes scanned so far.
  size_t end() const { return r_; }

  bool Step(const char* base, size_t n) {
    if (scalar_) {
      for (; r_ < n; ++r_) {
        const char c = base[r_];
        if (c == ',' || c == ']' || c == '}' || c == '[' || c == '{' || c == '"' || c == ':' || IsWs(c)) {
          if (r_ == 0) r_ = 1;  // a lone structural byte: a one-byte (invalid) value
          return true;
        }
      }
      return false;
    }
    // Table-driven: runs of ordinary bytes (most of a trace) cost one load and compare each.
    const auto* u = reinterpret_cast<const unsigned char*>(base);
    size_t r = r_;
    while (r < n) {
      if (in_str_) {
        while (r < n && (kScan.cls[u[r]] & (kQuote | kBackslash)) == 0) ++r;
        if (r >= n) break;
        if (u[r] == '\\') {
          if (r + 1 >= n) break;  // escape split by the end of the text: rescan it when it grows
          r += 2;
          continue;
        }
        ++r;  // closing quote
        in_str_ = false;
        if (depth_ == 0) return Done(r);  // a top-level string value
        continue;
      }
      while (r < n && kScan.cls[u[r]] == kPlain) ++r;
      if (r >= n) break;
      switch (kScan.cls[u[r]]) {
        case kQuote:
          in_str_ = true;
          break;
        case kOpen:
          ++depth_;
          break;
        case kClose:
          if (--depth_ == 0) return Done(r + 1);
          break;
        default:  // a backslash outside a string: invalid, left to the cursor
          break;
      }
      ++r;
    }
    r_ = r;
    return false;
  }

 private:
  bool Done(size_t len) {
    r_ = len;
    return true;
  }
  bool scalar_;
  bool in_str_ = false;
  int64_t depth_ = 0;
  size_t r_ = 0;
};

}  // namespace

bool ScanJsonValue(std::string_view text, size_t* len) {
  if (text.empty()) return false;
  ValueScan scan(text[0]);
  // A scalar running to the end of the text may go on after it: only a delimiter completes it.
  const bool complete = scan.Step(text.data(), text.size());
  *len = scan.end();
  return complete;
}

bool IsValidUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char* end = p + s.size();
  while (p < end) {
    unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    size_t n;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (static_cast<size_t>(end - p) <= n) return false;
    for (size_t k = 1; k <= n; ++k) {
      if ((p[k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[k] & 0x3F);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF))) return false;
    if (cp >= 0xD800 && cp <= 0xDFFF) return false;
    p += n + 1;
  }
  return true;
}

std::string JsonSnippet(std::string_view text, size_t pos) {
  pos = std::min(pos, text.size());
  size_t begin = pos > kJsonSnippetRadius ? pos - kJsonSnippetRadius : 0;
  size_t end = std::min(text.size(), pos + kJsonSnippetRadius);
  std::string out;
  for (size_t i = begin; i < end; ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7F) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

// ---- JsonCursor ------------------------------------------------------------------------------------

JsonCursor::JsonCursor(std::string_view text, std::string* scratch, size_t scratch_limit)
    : text_(text), scratch_(scratch) {
  if (scratch_ != nullptr) {
    scratch_->clear();
    scratch_->reserve(std::min(text.size(), scratch_limit));
  }
}

bool JsonCursor::Fail(const char* msg) { return Fail(msg, pos_); }

bool JsonCursor::Fail(const char* msg, size_t at) {
  if (error_ == nullptr) {
    error_ = msg;
    error_pos_ = std::min(at, text_.size());
  }
  return false;
}

void JsonCursor::SkipWsSlow() {
  const auto* s = reinterpret_cast<const unsigned char*>(text_.data());
  const size_t n = text_.size();
  size_t p = pos_;
  while (p < n && kWs.ws[s[p]]) ++p;
  pos_ = p;
}

bool JsonCursor::AtEnd() {
  SkipWs();
  return pos_ >= text_.size();
}

JsonType JsonCursor::Peek() {
  if (error_ != nullptr) return JsonType::kInvalid;
  SkipWs();
  if (pos_ >= text_.size()) return JsonType::kInvalid;
  switch (text_[pos_]) {
    case '{': return JsonType::kObject;
    case '[': return JsonType::kArray;
    case '"': return JsonType::kString;
    case 't':
    case 'f': return JsonType::kBool;
    case 'n': return JsonType::kNull;
    case '-':
    case 'N':
    case 'I':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      return JsonType::kNumber;
    default: return JsonType::kInvalid;
  }
}

bool JsonCursor::ReadNumber(std::string_view* raw) {
  if (error_ != nullptr) return false;
  SkipWs();
  // Locals, not members, in the loops: the compiler cannot keep members in registers across stores.
  const size_t start = pos_;
  const size_t n = text_.size();
  const char* s = text_.data();
  size_t p = start;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  auto literal = [&](std::string_view lit) {
    if (text_.substr(p, lit.size()) == lit) {
      p += lit.size();
      return true;
    }
    return false;
  };
  const char first = p < n ? s[p] : '\0';
  const bool maybe_literal = first == 'N' || first == 'I' || (first == '-' && p + 1 < n && s[p + 1] == 'I');
  if (!(maybe_literal && (literal("NaN") || literal("Infinity") || literal("-Infinity")))) {
    if (p < n && s[p] == '-') ++p;
    const size_t int_begin = p;
    while (p < n && digit(s[p])) ++p;
    if (p == int_begin) return Fail("invalid number", start);
    if (p < n && s[p] == '.') {
      const size_t frac_begin = ++p;
      while (p < n && digit(s[p])) ++p;
      if (p == frac_begin) return Fail("invalid number: no digits after '.'", start);
    }
    if (p < n && (s[p] == 'e' || s[p] == 'E')) {
      ++p;
      if (p < n && (s[p] == '+' || s[p] == '-')) ++p;
      const size_t exp_begin = p;
      while (p < n && digit(s[p])) ++p;
      if (p == exp_begin) return Fail("invalid number: bad exponent", start);
    }
  }
  if (p < n) {
    char c = s[p];
    if (digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-' ||
        c == '_') {
      return Fail("invalid number", start);
    }
  }
  pos_ = p;
  *raw = text_.substr(start, pos_ - start);
  return true;
}

bool JsonCursor::ReadBool(bool* out) {
  if (error_ != nullptr) return false;
  SkipWs();
  auto rest = text_.substr(pos_);
  if (rest.substr(0, 4) == "true") {
    pos_ += 4;
    *out = true;
    return true;
  }
  if (rest.substr(0, 5) == "false") {
    pos_ += 5;
    *out = false;
    return true;
  }
  return Fail("expected true or false");
}

bool JsonCursor::ReadNull() {
  if (error_ != nullptr) return false;
  SkipWs();
  if (text_.substr(pos_, 4) == "null") {
    pos_ += 4;
    return true;
  }
  return Fail("expected null");
}

bool JsonCursor::ReadString(std::string_view* out) {
  if (error_ != nullptr) return false;
  SkipWs();
  if (pos_ >= text_.size() || text_[pos_] != '"') return Fail("expected a string");
  return ReadStringImpl(out);
}

// pos_ is at the opening quote.
bool JsonCursor::ReadStringImpl(std::string_view* out) {
  const size_t open = pos_;
  const size_t start = pos_ + 1;
  const size_t n = text_.size();
  const char* s = text_.data();
  size_t p = start;
  bool high = false;
  const auto* u = reinterpret_cast<const unsigned char*>(s);
  // Fast path: no escapes.
  for (;;) {
    p += FindStringStop(u + p, n - p);
    if (p >= n) return Fail("unterminated string", open);
    auto c = static_cast<unsigned char>(s[p]);
    if (c == '"') {
      *out = text_.substr(start, p - start);
      pos_ = p + 1;
      if (high && !IsValidUtf8(*out)) ++invalid_utf8_;
      return true;
    }
    if (c == '\\') break;
    high |= c >= 0x80;
    ++p;
  }
  if (scratch_ == nullptr) return Fail("internal: string needs unescaping but no scratch buffer", open);
  {
    // Earlier views into the scratch must stay valid: the decoded string (never longer than its
    // source) has to fit in the reserved capacity. Find the closing quote to know the source length.
    size_t q = p;
    while (q < n && s[q] != '"') q += s[q] == '\\' ? 2 : 1;
    if (scratch_->size() + (std::min(q, n) - start) > scratch_->capacity())
      return Fail("string longer than the scratch buffer", open);
  }
  const size_t out_begin = scratch_->size();
  scratch_->append(s + start, p - start);
  for (;;) {
    // Copy the run up to the next quote, backslash or non-ASCII byte in one append.
    const size_t run = FindStringStop(u + p, n - p);
    scratch_->append(s + p, run);
    p += run;
    if (p >= n) return Fail("unterminated string", open);
    auto c = static_cast<unsigned char>(s[p]);
    if (c == '"') {
      ++p;
      break;
    }
    if (c != '\\') {
      high |= c >= 0x80;
      scratch_->push_back(static_cast<char>(c));
      ++p;
      continue;
    }
    if (p + 1 >= n) return Fail("unterminated string", open);
    char e = s[p + 1];
    p += 2;
    switch (e) {
      case '"': scratch_->push_back('"'); break;
      case '\\': scratch_->push_back('\\'); break;
      case '/': scratch_->push_back('/'); break;
      case 'b': scratch_->push_back('\b'); break;
      case 'f': scratch_->push_back('\f'); break;
      case 'n': scratch_->push_back('\n'); break;
      case 'r': scratch_->push_back('\r'); break;
      case 't': scratch_->push_back('\t'); break;
      case 'u': {
        auto hex4 = [&](size_t at, uint32_t* v) {
          if (at + 4 > n) return false;
          uint32_t r = 0;
          for (size_t k = 0; k < 4; ++k) {
            int h = HexValue(s[at + k]);
            if (h < 0) return false;
            r = (r << 4) | static_cast<uint32_t>(h);
          }
          *v = r;
          return true;
        };
        uint32_t cp = 0;
        if (!hex4(p, &cp)) return Fail("invalid \\u escape", p - 2);
        p += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          uint32_t lo = 0;
          if (p + 6 <= n && s[p] == '\\' && s[p + 1] == 'u' && hex4(p + 2, &lo) && lo >= 0xDC00 &&
              lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            p += 6;
          } else {
            cp = kReplacementChar;  // lone high surrogate
          }
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          cp = kReplacementChar;  // lone low surrogate
        }
        AppendUtf8(*scratch_, cp);
        break;
      }
      default:
        return Fail("invalid escape in string", p - 2);
    }
  }
  pos_ = p;
  *out = std::string_view(scratch_->data() + out_begin, scratch_->size() - out_begin);
  if (high && !IsValidUtf8(*out)) ++invalid_utf8_;
  return true;
}

// pos_ is at the opening quote; skips without decoding (escapes are not validated).
bool JsonCursor::SkipStringFast() {
  const size_t open = pos_;
  const char* s = text_.data();
  const size_t n = text_.size();
  size_t p = pos_ + 1;
  for (;;) {
    if (p >= n) return Fail("unterminated string", open);
    const void* q = std::memchr(s + p, '"', n - p);
    if (q == nullptr) return Fail("unterminated string", open);
    size_t qi = static_cast<size_t>(static_cast<const char*>(q) - s);
    const void* b = std::memchr(s + p, '\\', qi - p);
    if (b == nullptr) {
      pos_ = qi + 1;
      return true;
    }
    p = static_cast<size_t>(static_cast<const char*>(b) - s) + 2;
  }
}

bool JsonCursor::SkipValue(std::string_view* raw) {
  if (error_ != nullptr) return false;
  SkipWs();
  size_t start = pos_;
  if (!SkipValueAt(depth_)) return false;
  if (raw != nullptr) *raw = text_.substr(start, pos_ - start);
  return true;
}

bool JsonCursor::SkipValueAt(int depth) {
  SkipWs();
  if (pos_ >= text_.size()) return Fail("unexpected end of input, expected a value");
  const size_t n = text_.size();
  char c = text_[pos_];
  switch (c) {
    case '"':
      return SkipStringFast();
    case '{': {
      if (depth >= kMaxDepth) return Fail("nesting too deep");
      ++pos_;
      SkipWs();
      if (pos_ < n && text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      for (;;) {
        SkipWs();
        if (pos_ >= n || text_[pos_] != '"') return Fail("expected a member name");
        if (!SkipStringFast()) return false;
        SkipWs();
        if (pos_ >= n || text_[pos_] != ':') return Fail("expected ':'");
        ++pos_;
        if (!SkipValueAt(depth + 1)) return false;
        SkipWs();
        if (pos_ >= n) return Fail("unexpected end of input in an object");
        if (text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (text_[pos_] == '}') {
          ++pos_;
          return true;
        }
        return Fail("expected ',' or '}'");
      }
    }
    case '[': {
      if (depth >= kMaxDepth) return Fail("nesting too deep");
      ++pos_;
      SkipWs();
      if (pos_ < n && text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      for (;;) {
        if (!SkipValueAt(depth + 1)) return false;
        SkipWs();
        if (pos_ >= n) return Fail("unexpected end of input in an array");
        if (text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (text_[pos_] == ']') {
          ++pos_;
          return true;
        }
        return Fail("expected ',' or ']'");
      }
    }
    case 't':
    case 'f': {
      bool b;
      return ReadBool(&b);
    }
    case 'n':
      return ReadNull();
    default: {
      std::string_view num;
      return ReadNumber(&num);
    }
  }
}

bool JsonCursor::BeginObject() {
  if (error_ != nullptr) return false;
  SkipWs();
  if (pos_ >= text_.size() || text_[pos_] != '{') return Fail("expected an object");
  if (depth_ >= kMaxDepth) return Fail("nesting too deep");
  ++pos_;
  ++depth_;
  first_[depth_] = true;
  return true;
}

bool JsonCursor::NextMember(std::string_view* key) {
  if (error_ != nullptr) return false;
  SkipWs();
  if (pos_ >= text_.size()) return Fail("unexpected end of input in an object");
  if (text_[pos_] == '}') {
    ++pos_;
    --depth_;
    return false;
  }
  if (!first_[depth_]) {
    if (text_[pos_] != ',') return Fail("expected ',' or '}'");
    ++pos_;
    SkipWs();
  }
  first_[depth_] = false;
  if (pos_ >= text_.size() || text_[pos_] != '"') return Fail("expected a member name");
  if (!ReadStringImpl(key)) return false;
  SkipWs();
  if (pos_ >= text_.size() || text_[pos_] != ':') return Fail("expected ':'");
  ++pos_;
  return true;
}

bool JsonCursor::BeginArray() {
  if (error_ != nullptr) return false;
  SkipWs();
  if (pos_ >= text_.size() || text_[pos_] != '[') return Fail("expected an array");
  if (depth_ >= kMaxDepth) return Fail("nesting too deep");
  ++pos_;
  ++depth_;
  first_[depth_] = true;
  return true;
}

bool JsonCursor::NextElement() {
  if (error_ != nullptr) return false;
  SkipWs();
  if (pos_ >= text_.size()) return Fail("unexpected end of input in an array");
  if (text_[pos_] == ']') {
    ++pos_;
    --depth_;
    return false;
  }
  if (!first_[depth_]) {
    if (text_[pos_] != ',') return Fail("expected ',' or ']'");
    ++pos_;
  }
  first_[depth_] = false;
  return true;
}

// ---- JsonArrayStream -------------------------------------------------------------------------------

JsonArrayStream::JsonArrayStream(ByteSource& source, JsonStreamOptions options)
    : source_(source), options_(options) {
  buf_.resize(std::max<size_t>(source.chunk_bytes() * 2, 64));
}

int64_t JsonArrayStream::LineAt(uint64_t offset) const {
  if (offset < base_offset_) return 0;
  size_t rel = static_cast<size_t>(std::min<uint64_t>(offset - base_offset_, tail_));
  return lines_before_ + CountNewlines(buf_.data(), rel) + 1;
}

void JsonArrayStream::Resume(std::string_view bytes, size_t head, uint64_t offset, int64_t lines_before) {
  const size_t want = bytes.size() + source_.chunk_bytes();
  if (buf_.size() < want) buf_.resize(want);
  std::memmove(buf_.data(), bytes.data(), bytes.size());
  head_ = std::min(head, bytes.size());
  tail_ = bytes.size();
  base_offset_ = offset;
  lines_before_ = lines_before;
}

SourceLocation JsonArrayStream::Locate(uint64_t offset) const {
  SourceLocation loc;
  loc.file = source_.path();
  loc.line = LineAt(offset);
  loc.byte_offset = static_cast<int64_t>(offset);
  return loc;
}

void JsonArrayStream::BufferUpTo(uint64_t end) {
  while (!eof_ && !source_.failed() && base_offset_ + tail_ < end) {
    const size_t want = source_.chunk_bytes();
    if (buf_.size() - tail_ < want) buf_.resize(tail_ + want);
    StatusOr<size_t> n = source_.Read(buf_.data() + tail_, want);
    if (!n.ok()) return;  // a shorter quote; the source keeps the error for the next reader
    if (*n == 0) eof_ = true;
    tail_ += *n;
  }
}

Status JsonArrayStream::ErrorAt(uint64_t abs_offset, std::string_view what) {
  BufferUpTo(abs_offset + kJsonSnippetRadius);
  std::string msg;
  int64_t line = LineAt(abs_offset);
  if (line > 0) {
    msg = fmt::format("{}:{} (byte {}): {}", source_.path(), line, abs_offset, what);
  } else {
    msg = fmt::format("{}@byte {}: {}", source_.path(), abs_offset, what);
  }
  if (abs_offset >= base_offset_ && tail_ > 0) {
    std::string_view view(buf_.data(), tail_);
    size_t rel = static_cast<size_t>(std::min<uint64_t>(abs_offset - base_offset_, tail_));
    if (rel < tail_) msg += fmt::format(" near \"{}\"", JsonSnippet(view, rel));
  }
  return ParseError(std::move(msg));
}

Status JsonArrayStream::Refill(bool* got) {
  *got = false;
  if (eof_) return Status::Ok();
  if (head_ > kJsonSnippetRadius) {  // the bytes before head_ that a message quotes stay
    const size_t drop = head_ - kJsonSnippetRadius;
    lines_before_ += CountNewlines(buf_.data(), drop);
    std::memmove(buf_.data(), buf_.data() + drop, tail_ - drop);
    tail_ -= drop;
    base_offset_ += drop;
    head_ -= drop;
  }
  size_t want = source_.chunk_bytes();
  if (buf_.size() - tail_ < want) {
    // Doubling, but never far past what a value may hold (the cap, a chunk beyond it, the quoted
    // context): a value refused at the 1 GiB cap costs about 1 GiB, not 2.
    const size_t most = std::max(tail_ + want, options_.max_element_bytes + want + 2 * kJsonSnippetRadius);
    buf_.resize(std::min(std::max(buf_.size() * 2, tail_ + want), most));
  }
  PD_ASSIGN_OR_RETURN(size_t n, source_.Read(buf_.data() + tail_, buf_.size() - tail_));
  tail_ += n;
  if (n == 0) {
    eof_ = true;
  } else {
    *got = true;
  }
  return Status::Ok();
}

Status JsonArrayStream::SkipWs(bool* at_eof) {
  uint64_t skipped = 0;
  for (;;) {
    const size_t from = head_;
    while (head_ < tail_ && IsWs(buf_[head_])) ++head_;
    if (head_ < tail_) {
      *at_eof = false;
      return Status::Ok();
    }
    // White space longer than a value may be is no trace either (a small gzip can hold gigabytes
    // of it): refused at the value cap rather than inflated to its end.
    skipped += head_ - from;
    if (skipped > options_.max_element_bytes)
      return ErrorAt(base_offset_ + head_,
                     fmt::format("more than {} bytes of white space in a row (corrupt file?)", options_.max_element_bytes));
    bool got = false;
    PD_RETURN_IF_ERROR(Refill(&got));
    if (!got) {
      *at_eof = true;
      return Status::Ok();
    }
  }
}

Status JsonArrayStream::RefuseNulRun(size_t from, size_t to) {
  const size_t at = FindNulRun(std::string_view(buf_.data() + from, to - from));
  if (at == std::string_view::npos) return Status::Ok();
  return ErrorAt(base_offset_ + from + at,
                 fmt::format("{} NUL bytes in a row inside a JSON value (binary data, not JSON text)", kNulRunBytes));
}

size_t FindNulRun(std::string_view text) {
  for (size_t i = 0; i + kNulRunBytes <= text.size();) {
    const void* nul = std::memchr(text.data() + i, '\0', text.size() - i);
    if (nul == nullptr) return std::string_view::npos;
    i = static_cast<size_t>(static_cast<const char*>(nul) - text.data());
    size_t run = 0;
    while (run < kNulRunBytes && i + run < text.size() && text[i + run] == '\0') ++run;
    if (run == kNulRunBytes) return i;
    i += run + 1;
  }
  return std::string_view::npos;
}

Status JsonArrayStream::ScanValue(size_t* len, Scan* result) {
  ValueScan scan(buf_[head_]);
  size_t checked = 0;  // bytes of a value that spans reads checked for NUL
  for (;;) {
    if (scan.Step(buf_.data() + head_, tail_ - head_)) {
      // Checked whole, as when it spans reads: the outcome must not depend on the chunk size.
      PD_RETURN_IF_ERROR(RefuseNulRun(head_ + checked, head_ + scan.end()));
      *len = scan.end();
      *result = Scan::kDone;
      return Status::Ok();
    }
    // A value that needs more bytes: a run of NUL bytes in it is binary data (a file cut and padded
    // with zeros, a wrong file): refused at once, not buffered up to the cap (a lone raw NUL inside a
    // string is tolerated, as the event parser does).
    PD_RETURN_IF_ERROR(RefuseNulRun(head_ + checked, head_ + scan.end()));
    checked = scan.end() > kNulRunBytes ? scan.end() - kNulRunBytes : 0;
    if (scan.end() > options_.max_element_bytes) {
      return ErrorAt(base_offset_ + head_,
                     fmt::format("JSON value larger than {} bytes (corrupt file?)", options_.max_element_bytes));
    }
    bool got = false;
    PD_RETURN_IF_ERROR(Refill(&got));  // keeps [head_, tail_), so the scan's position stays valid
    if (!got) {
      *len = scan.end();
      *result = scan.scalar() && scan.end() > 0 ? Scan::kDone : Scan::kEof;
      return Status::Ok();
    }
  }
}

Status JsonArrayStream::Start() {
  bool got = false;
  PD_RETURN_IF_ERROR(Refill(&got));
  if (tail_ >= 3 && static_cast<unsigned char>(buf_[0]) == 0xEF && static_cast<unsigned char>(buf_[1]) == 0xBB &&
      static_cast<unsigned char>(buf_[2]) == 0xBF) {
    head_ = 3;  // UTF-8 byte order mark
  }
  bool eof = false;
  PD_RETURN_IF_ERROR(SkipWs(&eof));
  if (eof) return ParseError(fmt::format("{}: empty file (no JSON value)", source_.path()));
  char c = buf_[head_];
  if (c == '[') {
    top_level_ = TopLevel::kArray;
    ++head_;
    in_array_ = true;
    return Status::Ok();
  }
  if (c != '{') {
    return ErrorAt(base_offset_ + head_, "not a JSON trace: expected '{' or '[' at the top level");
  }
  top_level_ = TopLevel::kObject;
  uint64_t object_offset = base_offset_ + head_;
  ++head_;
  PD_RETURN_IF_ERROR(ReadMembers(/*stop_at_trace_events=*/true));
  if (!in_array_) {
    return ParseError(fmt::format("{}@byte {}: the top-level JSON object has no \"traceEvents\" array",
                                  source_.path(), object_offset));
  }
  return Status::Ok();
}

Status JsonArrayStream::ReadMembers(bool stop_at_trace_events) {
  // At Start() we are right after '{'; at Finish() right after the trace array's ']'.
  bool first = stop_at_trace_events;
  for (;;) {
    bool eof = false;
    PD_RETURN_IF_ERROR(SkipWs(&eof));
    if (eof) {
      if (!stop_at_trace_events) {
        missing_closing_bracket_ = true;  // the object after the array was not closed
        return Status::Ok();
      }
      return ParseError(fmt::format("{}@byte {}: input ends inside the top-level object", source_.path(),
                                    base_offset_ + head_));
    }
    char c = buf_[head_];
    if (c == '}') {
      ++head_;
      object_done_ = true;
      return Status::Ok();
    }
    if (!first) {
      if (c != ',') return ErrorAt(base_offset_ + head_, "expected ',' or '}' in the top-level object");
      ++head_;
      PD_RETURN_IF_ERROR(SkipWs(&eof));
      if (eof) {
        return ParseError(fmt::format("{}@byte {}: input ends inside the top-level object", source_.path(),
                                      base_offset_ + head_));
      }
      c = buf_[head_];
    }
    first = false;
    if (c != '"') return ErrorAt(base_offset_ + head_, "expected a member name in the top-level object");
    uint64_t key_offset = base_offset_ + head_;
    size_t len = 0;
    Scan res = Scan::kDone;
    PD_RETURN_IF_ERROR(ScanValue(&len, &res));
    if (res != Scan::kDone) return ErrorAt(key_offset, "input ends inside a member name");
    std::string key;
    {
      JsonCursor cur(std::string_view(buf_.data() + head_, len), &scratch_);
      std::string_view k;
      if (!cur.ReadString(&k)) return ErrorAt(key_offset + cur.error_pos(), cur.error());
      key.assign(k);
    }
    head_ += len;
    bool entered = false;
    PD_RETURN_IF_ERROR(ReadMemberAfterKey(std::move(key), key_offset, stop_at_trace_events, &entered));
    if (entered) return Status::Ok();
  }
}

Status JsonArrayStream::ReadMemberAfterKey(std::string key, uint64_t key_offset, bool stop_at_trace_events,
                                           bool* entered_array) {
  bool eof = false;
  PD_RETURN_IF_ERROR(SkipWs(&eof));
  if (eof || buf_[head_] != ':') {
    if (eof) return ParseError(fmt::format("{}@byte {}: input ends after a member name", source_.path(), key_offset));
    return ErrorAt(base_offset_ + head_, "expected ':' after a member name");
  }
  ++head_;
  PD_RETURN_IF_ERROR(SkipWs(&eof));
  if (eof) return ParseError(fmt::format("{}@byte {}: input ends after a member name", source_.path(), key_offset));
  if (stop_at_trace_events && key == "traceEvents") {
    if (buf_[head_] != '[') return ErrorAt(base_offset_ + head_, "\"traceEvents\" is not an array");
    ++head_;
    in_array_ = true;
    *entered_array = true;
    return Status::Ok();
  }
  Member m;
  m.key = std::move(key);
  m.offset = base_offset_ + head_;
  size_t len = 0;
  Scan res = Scan::kDone;
  PD_RETURN_IF_ERROR(ScanValue(&len, &res));
  if (res != Scan::kDone) {
    return ErrorAt(m.offset, fmt::format("input ends inside the value of top-level member \"{}\"", m.key));
  }
  if (len <= options_.max_member_bytes_kept) {
    m.raw.assign(buf_.data() + head_, len);
  } else {
    m.kept = false;
  }
  head_ += len;
  members_.push_back(std::move(m));
  return Status::Ok();
}

StatusOr<bool> JsonArrayStream::BeginElement(std::string_view* rest) {
  if (array_done_ || !in_array_) return false;
  bool eof = false;
  PD_RETURN_IF_ERROR(SkipWs(&eof));
  if (eof) {
    missing_closing_bracket_ = true;
    array_done_ = true;
    return false;
  }
  if (buf_[head_] == ']') {
    ++head_;
    array_done_ = true;
    return false;
  }
  if (!first_element_) {
    if (buf_[head_] != ',') return ErrorAt(base_offset_ + head_, "expected ',' or ']' after a trace event");
    ++head_;
    PD_RETURN_IF_ERROR(SkipWs(&eof));
    if (eof) {
      missing_closing_bracket_ = true;
      array_done_ = true;
      return false;
    }
    if (buf_[head_] == ']') {  // trailing comma: tolerated
      ++head_;
      array_done_ = true;
      return false;
    }
  }
  first_element_ = false;
  element_offset_ = base_offset_ + head_;
  *rest = std::string_view(buf_.data() + head_, tail_ - head_);
  return true;
}

Status JsonArrayStream::ConsumeElement(size_t len) {
  len = std::min(len, tail_ - head_);
  PD_RETURN_IF_ERROR(RefuseNulRun(head_, head_ + len));
  head_ += len;
  return Status::Ok();
}

StatusOr<std::string_view> JsonArrayStream::ScanElement() {
  size_t len = 0;
  Scan res = Scan::kDone;
  PD_RETURN_IF_ERROR(ScanValue(&len, &res));  // may refill: head_ stays at the element start
  if (res != Scan::kDone) {
    return ErrorAt(base_offset_ + head_, "input ends inside a trace event (truncated file?)");
  }
  element_offset_ = base_offset_ + head_;
  std::string_view element(buf_.data() + head_, len);
  head_ += len;
  return element;
}

StatusOr<bool> JsonArrayStream::Next(std::string_view* element) {
  std::string_view rest;
  PD_ASSIGN_OR_RETURN(bool more, BeginElement(&rest));
  if (!more) return false;
  PD_ASSIGN_OR_RETURN(*element, ScanElement());
  return true;
}

Status JsonArrayStream::Finish() {
  if (top_level_ == TopLevel::kObject && array_done_ && !missing_closing_bracket_ && !object_done_) {
    PD_RETURN_IF_ERROR(ReadMembers(/*stop_at_trace_events=*/false));
  }
  if (!missing_closing_bracket_) {
    bool eof = false;
    PD_RETURN_IF_ERROR(SkipWs(&eof));
    if (!eof) {
      trailing_garbage_ = true;
      trailing_offset_ = base_offset_ + head_;
    }
  }
  return Status::Ok();
}

}  // namespace profdiff
