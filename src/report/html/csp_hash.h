// Internal to the html room: the Content-Security-Policy hash source of a SHA-256 digest. The
// digests themselves are computed at build time by CMake's string(SHA256) over page.css and
// page.js (src/report/CMakeLists.txt); profdiff has no hash code of its own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace profdiff::report::html {

// Standard base64 (RFC 4648, with '=' padding).
std::string Base64(const uint8_t* data, size_t size);
// "'sha256-<base64 of the digest>'" from the digest as 64 hex digits (as CMake prints it); an empty
// string when `sha256_hex` is not 64 hex digits.
std::string CspHashSource(std::string_view sha256_hex);

}  // namespace profdiff::report::html
