// The trace array stream's memory bound: a value past the cap is refused with the read buffer near
// the cap, not at the next doubling (issue 32: a refused 1 GiB value peaked at 1.7 GB, 3x before).
#include <gtest/gtest.h>

#include <string>

#include "profdiff/io/byte_source.h"
#include "profdiff/io/json_reader.h"
#include "../common/temp_file.h"

namespace profdiff {
namespace {

TEST(JsonArrayStream, AValuePastTheCapIsRefusedWithTheBufferNearTheCap) {
  constexpr size_t kChunk = size_t{64} << 10;
  constexpr size_t kCap = size_t{1} << 20;
  for (size_t value_bytes : {2 * kCap, 3 * kCap}) {  // well past it: cannot end inside the buffer
    const std::string path = testing::WriteTempFile(
        "json_stream_test_tmp", "huge.json", "[{\"name\":\"" + std::string(value_bytes, 'a') + "\"}]");
    auto source = ByteSource::Open(path, kChunk);
    ASSERT_TRUE(source.ok()) << source.status().ToString();
    JsonStreamOptions options;
    options.max_element_bytes = kCap;
    JsonArrayStream stream(**source, options);
    ASSERT_TRUE(stream.Start().ok());
    std::string_view element;
    StatusOr<bool> more = stream.Next(&element);
    ASSERT_FALSE(more.ok());
    EXPECT_NE(more.status().ToString().find("JSON value larger than 1048576 bytes"), std::string::npos)
        << more.status().ToString();
    EXPECT_LE(stream.buffer_bytes(), kCap + 2 * kChunk + 2 * kJsonSnippetRadius) << value_bytes;
  }
}

}  // namespace
}  // namespace profdiff
