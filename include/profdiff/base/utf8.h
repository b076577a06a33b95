// UTF-8 encoding of one code point (for decoded \u escapes in JSON and Python string literals).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace profdiff {

// Appends the UTF-8 bytes of `cp` to `out`. The caller passes a Unicode scalar value (at most
// 0x10FFFF, no surrogate): decoders map lone surrogates to U+FFFD before calling this.
inline void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// The code point that starts at text[i] (UTF-8), advancing i past it; a byte that does not start a
// well-formed sequence is taken as U+FFFD and skipped alone.
inline uint32_t NextCodePoint(std::string_view text, size_t& i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  const size_t len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
  bool ok = len != 0 && i + len <= text.size();
  for (size_t k = 1; ok && k < len; ++k) ok = (byte(i + k) & 0xC0) == 0x80;
  if (!ok) {
    ++i;
    return 0xFFFD;
  }
  uint32_t cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1Fu) : len == 3 ? (b0 & 0x0Fu) : (b0 & 0x07u);
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  i += len;
  return cp;
}

// Code points of the longest line of `text` (UTF-8; a column count for text without wide
// characters or colour codes: a workbook column's width, a screen table's).
inline size_t LongestLineCodePoints(std::string_view text) {
  size_t longest = 0, line = 0;
  for (const char ch : text) {
    if (ch == '\n') {
      longest = std::max(longest, line);
      line = 0;
    } else if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) {
      ++line;
    }
  }
  return std::max(longest, line);
}

}  // namespace profdiff
