#include "profdiff/base/ascii.h"

#include <gtest/gtest.h>

namespace profdiff {
namespace {

TEST(Ascii, FoldsOnlyUpperCaseLetters) {
  EXPECT_EQ(ascii::ToLower('K'), 'k');
  EXPECT_EQ(ascii::ToLower('k'), 'k');
  EXPECT_EQ(ascii::ToLower('@'), '@');  // the byte before 'A'
  EXPECT_EQ(ascii::ToLower('['), '[');  // the byte after 'Z'
  EXPECT_EQ(ascii::ToLower(static_cast<char>(0xC3)), static_cast<char>(0xC3));  // UTF-8 lead byte
  // "É" (two UTF-8 bytes) stays as it is.
  EXPECT_EQ(ascii::ToLower("Async_NPU [Memory] \xC3\x89"), "async_npu [memory] \xC3\x89");
}

TEST(Ascii, EqualsLowerFoldsOnlyTheFirstArgument) {
  EXPECT_TRUE(ascii::EqualsLower("Kernel", "kernel"));
  EXPECT_TRUE(ascii::EqualsLower("ASYNC_NPU", "async_npu"));
  EXPECT_TRUE(ascii::EqualsLower("", ""));
  EXPECT_FALSE(ascii::EqualsLower("kernel", "Kernel"));  // the second argument is not folded
  EXPECT_FALSE(ascii::EqualsLower("kernels", "kernel"));
  EXPECT_FALSE(ascii::EqualsLower("kerne", "kernel"));
  static_assert(ascii::EqualsLower("[MEMORY]", "[memory]"));
}

TEST(Ascii, PrefixAndSuffix) {
  EXPECT_TRUE(ascii::StartsWithLower("nn.Module: Linear", "nn.module:"));
  EXPECT_TRUE(ascii::StartsWithLower("Optimizer.step", "optimizer"));
  EXPECT_TRUE(ascii::StartsWithLower("x", ""));
  EXPECT_FALSE(ascii::StartsWithLower("opt", "optimizer"));
  EXPECT_TRUE(ascii::EndsWithLower("Report.XLSX", ".xlsx"));
  EXPECT_FALSE(ascii::EndsWithLower("xlsx", ".xlsx"));
  EXPECT_FALSE(ascii::EndsWithLower("report.xls", ".xlsx"));
}

}  // namespace
}  // namespace profdiff
