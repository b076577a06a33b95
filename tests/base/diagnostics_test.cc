#include "profdiff/base/diagnostics.h"
#include "profdiff/base/string_pool.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

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

TEST(Diagnostics, InsertKeepsFileOrderAndShiftLinesMovesKnownLines) {
  Diagnostics d;
  d.Add(DiagId::negative_duration, {"t.json", 2, 20}, "b");
  d.Add(DiagId::negative_duration, {"t.json", 4, 40}, "d");
  d.Insert(DiagId::negative_duration, {"t.json", 1, 10}, "a");  // found late, but first in the file
  d.Insert(DiagId::negative_duration, {"t.json", 3, 30}, "c");
  d.Insert(DiagId::negative_duration, {"t.json", 5, 50}, "e");  // after the three kept: counted only
  const auto& e = d.entry(DiagId::negative_duration);
  EXPECT_EQ(e.count, 5u);
  ASSERT_EQ(e.examples.size(), 3u);
  EXPECT_EQ(e.examples[0].detail, "a");
  EXPECT_EQ(e.examples[1].detail, "b");
  EXPECT_EQ(e.examples[2].detail, "c");
  d.Add(DiagId::trailing_garbage, {"t.json", 0, 99});
  d.ShiftLines(100);
  EXPECT_EQ(e.examples[0].where.line, 101);
  EXPECT_EQ(d.entry(DiagId::trailing_garbage).examples[0].where.line, 0);  // unknown stays unknown
}

TEST(StringPool, ClearKeepsOnlyTheEmptyString) {
  StringPool pool;
  pool.Intern("a");
  pool.Intern(std::string(1 << 19, 'y'));
  pool.Clear();
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_EQ(pool.Find("a"), StringPool::kNotInterned);
  EXPECT_EQ(pool.Intern("b"), 1u);
  EXPECT_EQ(pool.Get(1), "b");
  EXPECT_EQ(pool.Intern(""), kEmptyString);
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

// The shared blocks start at 4 KiB and double up to 1 MiB: a pool of a few strings holds kilobytes
// (a parallel load keeps one pool per block), and every view stays valid as blocks are added.
TEST(StringPool, BlocksStartSmallAndDouble) {
  StringPool pool;
  pool.Intern("aten::mm");
  EXPECT_EQ(pool.arena_bytes(), size_t{4} << 10);
  std::vector<std::pair<StringId, std::string>> kept;
  for (int i = 0; i < 5000; ++i) {
    std::string s = "op_" + std::to_string(i) + std::string(static_cast<size_t>(i % 300), 'z');
    kept.emplace_back(pool.Intern(s), s);
  }
  for (const auto& [id, s] : kept) ASSERT_EQ(pool.Get(id), s);
  // ~0.77 MB of strings in blocks of 4, 8, ..., 512 KiB: about what they take.
  EXPECT_GE(pool.arena_bytes(), size_t{760} << 10);
  EXPECT_LE(pool.arena_bytes(), size_t{3} << 20);
  const std::string medium(100 << 10, 'm');  // larger than the current block's room: a block its size
  EXPECT_EQ(pool.Get(pool.Intern(medium)), medium);
}

}  // namespace
}  // namespace profdiff
