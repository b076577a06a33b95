#include "profdiff/base/terminal_text.h"

#include <fmt/format.h>

#include <cstdint>

namespace profdiff {
namespace {

// The length of the valid UTF-8 sequence at `p` (1 to 4), 0 when it is not one.
size_t Utf8Length(std::string_view s, size_t p) {
  const auto b = [&](size_t i) { return static_cast<uint8_t>(s[i]); };
  const uint8_t c = b(p);
  size_t n = 0;
  uint32_t cp = 0;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
  else return 0;
  if (p + n > s.size()) return 0;
  for (size_t i = 1; i < n; ++i) {
    if ((b(p + i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(p + i) & 0x3F);
  }
  const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  if (cp >= 0x80 && cp <= 0x9F) return 0;  // a C1 control: escaped byte by byte
  return n;
}

}  // namespace

std::string EscapeForTerminal(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<uint8_t>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else if ((c == '\n' || c == '\t') && keep_newlines) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (const size_t n = c >= 0x80 ? Utf8Length(text, i) : 0; n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += fmt::format("\\x{:02X}", c);
      ++i;
    }
  }
  return out;
}

}  // namespace profdiff
