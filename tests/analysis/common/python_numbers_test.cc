// The reference's Python numbers (docs/reference/numbers.md): round(), diff and ratio columns, µs
// -> s -> ms.
#include "profdiff/analysis/common/python_numbers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace profdiff::analysis {
namespace {

const double kInf = std::numeric_limits<double>::infinity();

TEST(PythonNumbers, RoundHalfCases) {
  EXPECT_EQ(PyRound(2.675, 2), 2.67);    // 2.675 is 2.67499999... in binary
  EXPECT_EQ(PyRound(0.125, 2), 0.12);    // exact tie -> even
  EXPECT_EQ(PyRound(0.375, 2), 0.38);    // exact tie -> even
  EXPECT_EQ(PyRound(1.0005, 3), 1.0);    // 1.000499999...
  EXPECT_EQ(PyRound(-5.595, 2), -5.59);  // -5.59499999...
  EXPECT_EQ(PyRound(0.96580000001, 4), 0.9658);
  EXPECT_TRUE(std::isinf(PyRound(kInf, 2)));
  EXPECT_TRUE(std::signbit(PyRound(-0.001, 2)));  // Python keeps the sign: round(-0.001, 2) is -0.0
}

TEST(PythonNumbers, DiffAndRatioOracle) {  // reference test_common_func.py examples
  struct Case {
    double base, comp, diff, ratio;
  };
  for (const Case& c : {Case{10, 15, 5.0, 1.5}, Case{2.5, 3.75, 1.25, 1.5}, Case{20, 10, -10.0, 0.5},
                        Case{0, 0, 0.0, 1.0}, Case{0, 5, 5.0, kInf}, Case{-10, -5, 5.0, 0.5}}) {
    EXPECT_EQ(DiffMs(c.base, c.comp), c.diff) << c.base << " " << c.comp;
    EXPECT_EQ(DiffRatio(c.base, c.comp), c.ratio) << c.base << " " << c.comp;
  }
  EXPECT_EQ(DiffRatio(136.581009, 131.912616), 0.9658);  // npu_text_r0_r1 E2E row
  EXPECT_EQ(DiffMs(136.581009, 131.912616), -4.67);
}

TEST(PythonNumbers, MicrosecondsToMillisecondsThroughSeconds) {
  EXPECT_EQ(UsToMsViaSeconds(123.456), 0.12345600000000001);  // 123.456 / 1e3 is 0.123456
  EXPECT_EQ(UsToMsViaSeconds(8873.756), 8.873756);
}

}  // namespace
}  // namespace profdiff::analysis
