// Internal to the html room: SHA-256 (FIPS 180-4) of a byte string, as the base64 text a
// Content-Security-Policy hash source needs ('sha256-<base64>').
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace profdiff::report::html {

std::array<uint8_t, 32> Sha256(std::string_view data);
std::string Base64(const uint8_t* data, size_t size);
// "'sha256-<base64 of SHA-256(data)>'"
std::string CspHashSource(std::string_view data);

}  // namespace profdiff::report::html
