#include "profdiff/base/diagnostics.h"
#include "profdiff/base/string_pool.h"

#include <gtest/gtest.h>

namespace profdiff {
namespace {

TEST(Diagnostics, CountsAndKeepsFirstExamples) {
  Diagnostics d;
  for (int i = 1; i <= 5; ++i) d.Add(DiagId::bad_timestamp, {"t.json", i, -1}, "x");
  EXPECT_EQ(d.count(DiagId::bad_timestamp), 5u);
  EXPECT_EQ(d.entry(DiagId::bad_timestamp).examples.size(), Diagnostics::kMaxExamples);
  EXPECT_EQ(d.entry(DiagId::bad_timestamp).examples[0].where.ToString(), "t.json:1");
  EXPECT_NE(d.Summary().find("bad_timestamp x5"), std::string::npos);
}

TEST(Diagnostics, LocationForms) {
  EXPECT_EQ((SourceLocation{"t.json", 3, 70}).ToString(), "t.json:3 (byte 70)");
  EXPECT_EQ((SourceLocation{"t.json", 3, -1}).ToString(), "t.json:3");
  EXPECT_EQ((SourceLocation{"t.json", 0, 70}).ToString(), "t.json@byte 70");
  EXPECT_EQ((SourceLocation{"t.json", 0, -1}).ToString(), "t.json");
}

TEST(Diagnostics, StrictFailsOnlyOnErrors) {
  Diagnostics d;
  d.Add(DiagId::sub_ns_rounded, {"a", 0, 10});
  EXPECT_TRUE(d.CheckStrict().ok());
  d.Add(DiagId::json_event_malformed, {"a", 0, 42}, "bad");
  Status s = d.CheckStrict();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("a@byte 42"), std::string::npos) << s.message();
}

TEST(StringPool, InternsOnce) {
  StringPool pool;
  EXPECT_EQ(pool.Intern(""), kEmptyString);
  StringId a = pool.Intern("aten::mm");
  EXPECT_EQ(pool.Intern("aten::mm"), a);
  EXPECT_NE(pool.Intern("aten::bmm"), a);
  EXPECT_EQ(pool.Get(a), "aten::mm");
  EXPECT_EQ(pool.Find("nope"), StringPool::kNotInterned);
  std::string big(1 << 19, 'x');
  StringId b = pool.Intern(big);
  EXPECT_EQ(pool.Get(b), big);
  EXPECT_EQ(pool.Get(a), "aten::mm");
}

}  // namespace
}  // namespace profdiff
