#include "profdiff/report/json_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace profdiff::report {
namespace {

TEST(JsonNumber, NoNegativeZeroNanOrInfinity) {
  EXPECT_EQ(JsonNumber(-0.0).dump(), "0.0");
  EXPECT_FALSE(std::signbit(JsonNumber(-0.0).get<double>()));
  EXPECT_EQ(JsonNumber(-0.01).dump(), "-0.01");
  EXPECT_EQ(JsonNumber(1.5).dump(), "1.5");
  EXPECT_TRUE(JsonNumber(std::nan("")).is_null());
  EXPECT_EQ(JsonNumber(std::numeric_limits<double>::infinity()), "INF");
  EXPECT_EQ(JsonNumber(-std::numeric_limits<double>::infinity()), "-INF");
}

}  // namespace
}  // namespace profdiff::report
