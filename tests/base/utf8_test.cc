#include "profdiff/base/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace profdiff {
namespace {

std::string Encode(uint32_t cp) {
  std::string out = "<";
  AppendUtf8(out, cp);
  return out;
}

TEST(Utf8, EachEncodingLengthAtItsBoundaries) {
  EXPECT_EQ(Encode(0x41), "<A");
  EXPECT_EQ(Encode(0x7F), "<\x7F");
  EXPECT_EQ(Encode(0x80), "<\xC2\x80");
  EXPECT_EQ(Encode(0xE9), "<\xC3\xA9");  // é
  EXPECT_EQ(Encode(0x7FF), "<\xDF\xBF");
  EXPECT_EQ(Encode(0x800), "<\xE0\xA0\x80");
  EXPECT_EQ(Encode(0x4E2D), "<\xE4\xB8\xAD");  // 中
  EXPECT_EQ(Encode(0xFFFD), "<\xEF\xBF\xBD");  // the replacement character
  EXPECT_EQ(Encode(0x10000), "<\xF0\x90\x80\x80");
  EXPECT_EQ(Encode(0x1F600), "<\xF0\x9F\x98\x80");  // an emoji (a surrogate pair in JSON)
  EXPECT_EQ(Encode(0x10FFFF), "<\xF4\x8F\xBF\xBF");
}

TEST(Utf8, NulIsOneByte) {
  const std::string s = Encode(0);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1], '\0');
}

}  // namespace
}  // namespace profdiff
