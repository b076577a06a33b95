#include "profdiff/base/time.h"

#include <gtest/gtest.h>

#include <limits>

namespace profdiff {
namespace {

int64_t Us(std::string_view s) {
  auto r = ParseMicrosToNs(s);
  EXPECT_TRUE(r.ok()) << s << ": " << r.status().ToString();
  return r.ok() ? *r : 0;
}

TEST(ParseTime, AscendStringTimestampIsExact) {
  // 16 integer digits + 3 decimals = 19 significant digits: a double cannot hold this exactly.
  EXPECT_EQ(Us("1736408883688177.930"), 1736408883688177930LL);
  EXPECT_EQ(Us("1736408883704643.212"), 1736408883704643212LL);
  EXPECT_EQ(Us("1736408883704643.212\t"), 1736408883704643212LL);  // kernel_details tab suffix
  EXPECT_EQ(Us(" 1736408883704643.2 "), 1736408883704643200LL);
}

TEST(ParseTime, IntegerAndShortForms) {
  EXPECT_EQ(Us("1623142623529058"), 1623142623529058000LL);  // 16-digit Kineto int µs
  EXPECT_EQ(Us("0"), 0);
  EXPECT_EQ(Us("145.57"), 145570);
  EXPECT_EQ(Us(".5"), 500);
  EXPECT_EQ(Us("5."), 5000);
  EXPECT_EQ(Us("-2.5"), -2500);
  EXPECT_EQ(Us("+7"), 7000);
  EXPECT_EQ(Us("88437691101.719"), 88437691101719LL);
}

TEST(ParseTime, ExponentForms) {
  EXPECT_EQ(Us("1.23e-4"), 0);  // 0.123 ns -> rounds to 0
  EXPECT_EQ(Us("1.5e3"), 1500000);
  EXPECT_EQ(Us("2E+2"), 200000);
  EXPECT_EQ(Us("1736408883688177930e-3"), 1736408883688177930LL);
}

TEST(ParseTime, SubNanosecondRoundsHalfEven) {
  auto r = ParseScaledDecimal("1.0005", 3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->value, 1000);  // 1000.5 -> 1000 (even)
  EXPECT_TRUE(r->rounded);
  r = ParseScaledDecimal("1.0015", 3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->value, 1002);  // 1001.5 -> 1002 (even)
  r = ParseScaledDecimal("1.00150001", 3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->value, 1002);
  r = ParseScaledDecimal("1.0014999", 3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->value, 1001);
  r = ParseScaledDecimal("1.001", 3);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->rounded);
}

TEST(ParseTime, NineteenDigitNanoseconds) {
  auto r = ParseTimeNs("9223372036854775807", TimeUnit::kNanoseconds);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, std::numeric_limits<int64_t>::max());
  r = ParseTimeNs("-9223372036854775808", TimeUnit::kNanoseconds);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, std::numeric_limits<int64_t>::min());
  EXPECT_FALSE(ParseTimeNs("9223372036854775808", TimeUnit::kNanoseconds).ok());
  EXPECT_FALSE(ParseMicrosToNs("9223372036854776").ok());  // * 1000 overflows
  EXPECT_EQ(*ParseMicrosToNs("9223372036854775.807"), std::numeric_limits<int64_t>::max());
}

TEST(ParseTime, RejectsGarbage) {
  for (std::string_view bad : {"", " ", "abc", "1.2.3", "1e", "--1", "1 2", "N/A", "0x10", "1e+"}) {
    EXPECT_FALSE(ParseMicrosToNs(bad).ok()) << bad;
  }
}

TEST(ParseTime, ManyDigitsDoNotOverflowTheParser) {
  std::string zeros(400, '0');
  EXPECT_EQ(Us(zeros + "1.5"), 1500);
  EXPECT_EQ(Us("0." + zeros + "1"), 0);
  EXPECT_FALSE(ParseMicrosToNs("1" + zeros).ok());
}

TEST(FormatTime, RoundTripsAscendText) {
  EXPECT_EQ(FormatNsAsMicros(1736408883688177930LL), "1736408883688177.930");
  EXPECT_EQ(FormatNsAsMicros(-2500), "-2.500");
  EXPECT_EQ(FormatNsAsMicrosShortest(1623142623529058000LL), "1623142623529058");
  EXPECT_EQ(FormatNsAsMicrosShortest(145570), "145.57");
  EXPECT_EQ(FormatNsAsMicrosShortest(std::numeric_limits<int64_t>::min()), "-9223372036854775.808");
}

}  // namespace
}  // namespace profdiff
