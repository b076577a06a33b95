#include "csp_hash.h"

#include <array>

namespace profdiff::report::html {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string Base64(const uint8_t* data, size_t size) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < size; i += 3) {
    const uint32_t n = (uint32_t{data[i]} << 16) | (i + 1 < size ? uint32_t{data[i + 1]} << 8 : 0) |
                       (i + 2 < size ? uint32_t{data[i + 2]} : 0);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < size ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < size ? kAlphabet[n & 63] : '=';
  }
  return out;
}

std::string CspHashSource(std::string_view sha256_hex) {
  std::array<uint8_t, 32> digest{};
  if (sha256_hex.size() != 2 * digest.size()) return "";
  for (size_t i = 0; i < digest.size(); ++i) {
    const int hi = HexValue(sha256_hex[2 * i]), lo = HexValue(sha256_hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return "";
    digest[i] = static_cast<uint8_t>(hi * 16 + lo);
  }
  return "'sha256-" + Base64(digest.data(), digest.size()) + "'";
}

}  // namespace profdiff::report::html
