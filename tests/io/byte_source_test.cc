#include "profdiff/io/byte_source.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "../common/gzip_util.h"

namespace profdiff {
namespace {

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("profdiff_bs_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

void WriteFile(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary) << data;
}

using profdiff::testing::Gzip;

std::string ReadAll(ByteSource& src, size_t n) {
  std::string out;
  std::string buf(n, '\0');
  for (;;) {
    auto got = src.Read(buf.data(), buf.size());
    EXPECT_TRUE(got.ok()) << got.status().ToString();
    if (!got.ok() || *got == 0) break;
    out.append(buf.data(), *got);
  }
  return out;
}

std::string Payload() {
  std::string s;
  for (int i = 0; i < 5000; ++i) s += "{\"ph\":\"X\",\"ts\":" + std::to_string(i * 7) + "},\n";
  return s;
}

TEST(ByteSource, ReadsPlainFileInChunks) {
  std::string path = TempPath("plain.json");
  std::string data = Payload();
  WriteFile(path, data);
  auto src = ByteSource::Open(path, 7);
  ASSERT_TRUE(src.ok()) << src.status().ToString();
  EXPECT_FALSE((*src)->gzipped());
  EXPECT_EQ(ReadAll(**src, 1000), data);  // chunk size caps every read at 7 bytes
  EXPECT_EQ((*src)->offset(), data.size());
  std::remove(path.c_str());
}

TEST(ByteSource, GunzipsTransparently) {
  std::string path = TempPath("z.json.gz");
  std::string data = Payload();
  WriteFile(path, Gzip(data));
  for (size_t chunk : {size_t{1}, size_t{13}, size_t{4096}, ByteSource::kDefaultChunkBytes}) {
    auto src = ByteSource::Open(path, chunk);
    ASSERT_TRUE(src.ok());
    EXPECT_TRUE((*src)->gzipped());
    EXPECT_EQ(ReadAll(**src, 4096), data) << "chunk " << chunk;
    EXPECT_EQ((*src)->offset(), data.size());
  }
  std::remove(path.c_str());
}

TEST(ByteSource, ConcatenatedGzipMembers) {
  std::string path = TempPath("cat.gz");
  WriteFile(path, Gzip("hello ") + Gzip("world"));
  auto src = ByteSource::Open(path, 3);
  ASSERT_TRUE(src.ok());
  EXPECT_EQ(ReadAll(**src, 100), "hello world");
  std::remove(path.c_str());
}

TEST(ByteSource, TruncatedGzipIsAnErrorNamingTheFile) {
  std::string path = TempPath("trunc.gz");
  std::string z = Gzip(Payload());
  WriteFile(path, z.substr(0, z.size() / 2));
  auto src = ByteSource::Open(path, 64);
  ASSERT_TRUE(src.ok());
  std::string buf(4096, '\0');
  Status err;
  for (;;) {
    auto got = (*src)->Read(buf.data(), buf.size());
    if (!got.ok()) {
      err = got.status();
      break;
    }
    ASSERT_NE(*got, 0u) << "truncated gzip must not read as a clean end";
  }
  EXPECT_EQ(err.code(), StatusCode::kParseError);
  EXPECT_NE(err.message().find(path), std::string::npos);
  EXPECT_NE(err.message().find("truncated"), std::string::npos);
  // A reader that reads on (the serial reader after the parallel one) meets the same error.
  auto again = (*src)->Read(buf.data(), buf.size());
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(), err.message());
  EXPECT_TRUE((*src)->failed());
  EXPECT_EQ((*src)->failure().message(), err.message());
  std::remove(path.c_str());
}

TEST(ByteSource, MapsAPlainFileAndSeeks) {
  std::string path = TempPath("mapped.json");
  const std::string data = Payload();
  WriteFile(path, data);
  auto src = ByteSource::Open(path, 64);
  ASSERT_TRUE(src.ok());
  const std::string_view mapped = (*src)->Map();
  EXPECT_EQ(mapped, data);
  (*src)->ReleaseBefore(data.size() / 2);  // the memory goes, the view's bytes stay readable
  EXPECT_EQ(mapped.substr(data.size() - 10), data.substr(data.size() - 10));
  EXPECT_EQ(mapped.substr(0, 10), data.substr(0, 10));
  ASSERT_TRUE((*src)->SeekTo(100).ok());
  EXPECT_EQ((*src)->offset(), 100u);
  EXPECT_EQ(ReadAll(**src, 1000), data.substr(100));
  std::remove(path.c_str());
  const std::string gz_path = TempPath("mapped.json.gz");
  WriteFile(gz_path, Gzip(data));
  auto gz = ByteSource::Open(gz_path, 64);
  ASSERT_TRUE(gz.ok());
  EXPECT_TRUE((*gz)->Map().empty());  // a gzip file is read, not mapped
  EXPECT_FALSE((*gz)->SeekTo(0).ok());
  std::remove(gz_path.c_str());
}

TEST(ByteSource, CorruptGzipIsAnError) {
  std::string path = TempPath("corrupt.gz");
  std::string z = Gzip(Payload());
  for (size_t i = 20; i < z.size() - 10; i += 3) z[i] = static_cast<char>(z[i] ^ 0x5a);
  WriteFile(path, z);
  auto src = ByteSource::Open(path, 256);
  ASSERT_TRUE(src.ok());
  std::string buf(4096, '\0');
  bool failed = false;
  for (int k = 0; k < 100000; ++k) {
    auto got = (*src)->Read(buf.data(), buf.size());
    if (!got.ok()) {
      failed = true;
      EXPECT_NE(got.status().message().find(path), std::string::npos);
      break;
    }
    if (*got == 0) break;
  }
  EXPECT_TRUE(failed);
  std::remove(path.c_str());
}

TEST(ByteSource, MissingFileAndDirectory) {
  auto missing = ByteSource::Open("/nonexistent/profdiff/x.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("/nonexistent/profdiff/x.json"), std::string::npos);
  auto dir = ByteSource::Open(std::filesystem::temp_directory_path().string());
  EXPECT_FALSE(dir.ok());
}

TEST(ByteSource, ReadWholeFile) {
  std::string path = TempPath("whole.gz");
  WriteFile(path, Gzip("abc"));
  auto s = ReadWholeFile(path);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, "abc");
  std::string empty = TempPath("empty");
  WriteFile(empty, "");
  auto e = ReadWholeFile(empty);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(*e, "");
  std::remove(path.c_str());
  std::remove(empty.c_str());
}

}  // namespace
}  // namespace profdiff
