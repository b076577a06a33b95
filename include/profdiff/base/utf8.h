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
