// io::ParseDecimalInt: the text of a DB cell as an int64, eight digits at a time where it can.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>

#include "profdiff/io/sqlite_pages.h"

namespace profdiff::io {
namespace {

// The definition, one digit at a time with a check on every step.
std::optional<int64_t> Slow(const std::string& t) {
  size_t i = 0;
  const bool negative = !t.empty() && t[0] == '-';
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) i = 1;
  if (i == t.size()) return std::nullopt;
  uint64_t v = 0;
  for (; i < t.size(); ++i) {
    if (t[i] < '0' || t[i] > '9') return std::nullopt;
    const auto digit = static_cast<uint64_t>(t[i] - '0');
    if (v > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - digit) / 10)
      return std::nullopt;
    v = v * 10 + digit;
  }
  return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

TEST(DecimalInt, TimesAndLimits) {
  EXPECT_EQ(ParseDecimalInt("1736410576395167660"), 1736410576395167660);
  EXPECT_EQ(ParseDecimalInt("-1736410576395167660"), -1736410576395167660);
  EXPECT_EQ(ParseDecimalInt("+12345678"), 12345678);
  EXPECT_EQ(ParseDecimalInt("0"), 0);
  EXPECT_EQ(ParseDecimalInt("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ParseDecimalInt("9223372036854775808"), std::nullopt);
  EXPECT_EQ(ParseDecimalInt("-9223372036854775807"), -std::numeric_limits<int64_t>::max());
  EXPECT_EQ(ParseDecimalInt("00000000000000000000000042"), 42);  // leading zeros past 18 digits
  EXPECT_EQ(ParseDecimalInt("99999999999999999999"), std::nullopt);
  for (const char* bad :
       {"", "-", "+", "12345678x", "1234567:", "1234/678", "1e5", " 1", "1 ", "12345678901234567-"})
    EXPECT_EQ(ParseDecimalInt(bad), std::nullopt) << bad;
}

// Every byte value at every position of texts of 0 to 24 characters: the same as the definition.
TEST(DecimalInt, EveryByteAtEveryPositionAsTheDefinition) {
  std::mt19937_64 rng(7);
  for (size_t len = 0; len <= 24; ++len) {
    for (int trial = 0; trial < 200; ++trial) {
      std::string t(len, '0');
      for (char& c : t) c = static_cast<char>('0' + rng() % 10);
      if (len > 0 && trial % 3 == 0) t[0] = trial % 2 == 0 ? '-' : '+';
      ASSERT_EQ(ParseDecimalInt(t), Slow(t)) << t;
      if (len == 0) continue;
      const size_t at = rng() % len;
      for (int b = 0; b < 256; ++b) {
        std::string u = t;
        u[at] = static_cast<char>(b);
        ASSERT_EQ(ParseDecimalInt(u), Slow(u)) << "byte " << b << " at " << at << " of " << t;
      }
    }
  }
}

}  // namespace
}  // namespace profdiff::io
