#include "profdiff/base/raw_buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace profdiff {
namespace {

TEST(RawBuffer, GrowsAndShrinksKeepingItsBytes) {
  RawBuffer b;
  EXPECT_EQ(b.size(), 0u);
  b.resize(5);
  std::memcpy(b.data(), "hello", 5);
  b.resize(size_t{64} << 20);  // a large block: moved by the allocator, its bytes kept
  EXPECT_EQ(std::string(b.data(), 5), "hello");
  b[(size_t{64} << 20) - 1] = 'z';
  b.resize(3);
  EXPECT_EQ(std::string(b.data(), 3), "hel");
  RawBuffer moved(std::move(b));
  EXPECT_EQ(moved.size(), 3u);
  EXPECT_EQ(b.size(), 0u);  // NOLINT(bugprone-use-after-move): a moved-from buffer is empty
  moved.resize(0);
  EXPECT_EQ(moved.size(), 0u);
}

}  // namespace
}  // namespace profdiff
