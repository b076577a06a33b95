// The parts of a zip file (a workbook) read back with zlib, for the tests that compare workbooks
// part by part (the package's deflate stream may differ, its parts may not).
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <map>
#include <string>

#include "report_test_util.h"

namespace profdiff::report::testing {

inline uint32_t ZipU16(const std::string& s, size_t at) {
  return static_cast<uint8_t>(s[at]) | (static_cast<uint32_t>(static_cast<uint8_t>(s[at + 1])) << 8);
}
inline uint32_t ZipU32(const std::string& s, size_t at) { return ZipU16(s, at) | (ZipU16(s, at + 2) << 16); }

// The parts of a zip file by name, inflated; a part whose CRC-32 or size does not match fails the test.
inline std::map<std::string, std::string> ReadParts(const std::string& path) {
  std::map<std::string, std::string> parts;
  std::string zip;
  EXPECT_TRUE(ReadFile(path, &zip)) << path;
  const size_t eocd = zip.rfind(std::string("PK\x05\x06", 4));
  if (eocd == std::string::npos) {
    ADD_FAILURE() << path << ": no end of central directory";
    return parts;
  }
  size_t at = ZipU32(zip, eocd + 16);
  for (uint32_t n = ZipU16(zip, eocd + 10); n > 0; --n) {
    EXPECT_EQ(ZipU32(zip, at), 0x02014b50u) << path;
    const uint32_t method = ZipU16(zip, at + 10), crc = ZipU32(zip, at + 16), packed = ZipU32(zip, at + 20),
                   size = ZipU32(zip, at + 24), name_len = ZipU16(zip, at + 28);
    const std::string name = zip.substr(at + 46, name_len);
    const size_t local = ZipU32(zip, at + 42);
    const size_t data = local + 30 + ZipU16(zip, local + 26) + ZipU16(zip, local + 28);
    std::string bytes(size, '\0');
    if (method == 0) {
      bytes = zip.substr(data, packed);
    } else {
      z_stream zs{};
      inflateInit2(&zs, -MAX_WBITS);
      zs.next_in = reinterpret_cast<Bytef*>(zip.data() + data);
      zs.avail_in = packed;
      zs.next_out = reinterpret_cast<Bytef*>(bytes.data());
      zs.avail_out = size;
      EXPECT_EQ(inflate(&zs, Z_FINISH), Z_STREAM_END) << name;
      EXPECT_EQ(zs.total_out, size) << name;
      inflateEnd(&zs);
    }
    EXPECT_EQ(crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()), crc) << name;
    parts[name] = bytes;
    at += 46 + name_len + ZipU16(zip, at + 30) + ZipU16(zip, at + 32);
  }
  return parts;
}

}  // namespace profdiff::report::testing
