// An Arg holds an integer in 48 bits and any other in the string pool (kIntText): every value reads
// back exactly through Profile::ArgInt, and the texts of the other types are kept.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>

#include "profdiff/model/profile.h"

namespace profdiff {
namespace {

// One slice carrying `args` (in p.args from index 0).
void AddSliceWith(Profile& p, std::initializer_list<Arg> args) {
  p.GetOrCreateTrack("1", "1");
  Slice s;
  s.args_begin = static_cast<uint32_t>(p.args.size());
  s.args_count = static_cast<uint8_t>(args.size());
  p.args.insert(p.args.end(), args);
  p.slices.push_back(s);
}

TEST(Arg, IntegersReadBackExactlyInlineOrAsText) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
  for (const int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, Arg::kInlineMax, Arg::kInlineMin, int64_t{4294967296},
                          -int64_t{4294967297}, Arg::kInlineMax + 1, Arg::kInlineMin - 1, kMax, kMin}) {
    SCOPED_TRACE(v);
    Profile p;
    const Arg a = Arg::Int(ArgKey::kExternalId, v, p.strings);
    const bool inline_value = v >= Arg::kInlineMin && v <= Arg::kInlineMax;
    EXPECT_EQ(a.type, inline_value ? ArgType::kInt : ArgType::kIntText);
    if (inline_value) {
      EXPECT_EQ(a.i(), v);
      EXPECT_EQ(a.text(), kEmptyString);
    } else {
      EXPECT_EQ(a.i(), 0);
      EXPECT_EQ(p.str(a.text()), std::to_string(v));
    }
    AddSliceWith(p, {a});
    EXPECT_EQ(p.ArgInt(p.slices[0], ArgKey::kExternalId, 7), v);
    EXPECT_EQ(p.ArgText(p.slices[0], ArgKey::kExternalId), "");  // an integer arg has no text
  }
}

TEST(Arg, OtherTypesKeepTheirValue) {
  Profile p;
  const StringId json = p.strings.Intern("[[1, 2], []]"), dbl = p.strings.Intern("1.50"), str = p.strings.Intern("42");
  AddSliceWith(p, {Arg::Bool(ArgKey::kDevice, true), Arg::Text(ArgKey::kInputDims, ArgType::kJson, json),
                        Arg::Text(ArgKey::kStream, ArgType::kDouble, dbl),
                        Arg::Text(ArgKey::kTaskType, ArgType::kString, str), Arg::Null(ArgKey::kGrid)});
  const Slice& s = p.slices[0];
  EXPECT_EQ(p.FindArg(s, ArgKey::kDevice)->i(), 1);
  EXPECT_EQ(p.ArgInt(s, ArgKey::kDevice), 1);
  EXPECT_EQ(p.ArgText(s, ArgKey::kInputDims), "[[1, 2], []]");
  EXPECT_EQ(p.ArgText(s, ArgKey::kStream), "1.50");
  EXPECT_EQ(p.ArgInt(s, ArgKey::kStream, -5), -5);  // a fraction is not an integer
  EXPECT_EQ(p.ArgInt(s, ArgKey::kTaskType), 42);    // an integer-valued string is
  EXPECT_EQ(p.FindArg(s, ArgKey::kGrid)->type, ArgType::kNull);
  EXPECT_EQ(p.FindArg(s, ArgKey::kGrid)->text(), kEmptyString);
  EXPECT_EQ(p.ArgInt(s, ArgKey::kGrid, -3), -3);
  // Re-interning a text (a block's pool merged) leaves the other types alone.
  Arg b = Arg::Bool(ArgKey::kDevice, true);
  b.set_text(99);
  EXPECT_EQ(b.i(), 1);
  Arg t = Arg::Text(ArgKey::kTaskType, ArgType::kString, str);
  t.set_text(json);
  EXPECT_EQ(t.text(), json);
}

// A slice's one arg may be kept in the slice itself: an integer in [0, 2^32) or a kString text, of
// any key; Profile::FindArg, ArgInt and ArgText read it as one in Profile::args.
TEST(Arg, OneArgKeptInTheSliceReadsBack) {
  Profile p;
  const StringId text = p.strings.Intern("[1,2]");
  const Arg last_key_text = Arg::Text(static_cast<ArgKey>(static_cast<size_t>(ArgKey::kCount) - 1),
                                      ArgType::kString, text);
  for (const Arg& a : {Arg::SmallInt(ArgKey::kTaskId, 0), Arg::SmallInt(ArgKey::kTaskId, UINT32_MAX),
                       Arg::SmallInt(ArgKey::kConnectionId, 7), Arg::Text(ArgKey::kInputDims, ArgType::kString, text),
                       Arg::Text(ArgKey::kInputDims, ArgType::kString, UINT32_MAX), last_key_text}) {
    ASSERT_TRUE(Slice::Inlinable(a));
    Slice s;
    s.SetInlineArg(a);
    EXPECT_EQ(s.arg_count(), 1u);
    const std::optional<Arg> back = p.FindArg(s, a.key);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->key, a.key);
    EXPECT_EQ(back->type, a.type);
    EXPECT_EQ(back->i(), a.i());
    EXPECT_EQ(back->text(), a.text());
    const ArgKey other = a.key == ArgKey::kTaskId ? ArgKey::kInputDims : ArgKey::kTaskId;
    EXPECT_FALSE(p.FindArg(s, other).has_value());
  }
  Slice s;
  s.SetInlineArg(Arg::SmallInt(ArgKey::kTaskId, 4000000000));
  EXPECT_EQ(p.ArgInt(s, ArgKey::kTaskId), 4000000000);
  s.SetInlineArg(Arg::Text(ArgKey::kInputDims, ArgType::kString, text));
  EXPECT_EQ(p.ArgText(s, ArgKey::kInputDims), "[1,2]");
  EXPECT_EQ(p.ArgInt(s, ArgKey::kTaskId, -1), -1);
  // Not kept in a slice: what does not fit in 32 bits, or other types (their type would be lost).
  for (const Arg& a : {Arg::SmallInt(ArgKey::kTaskId, -1), Arg::SmallInt(ArgKey::kTaskId, int64_t{UINT32_MAX} + 1),
                       Arg::Int(ArgKey::kTaskId, INT64_MAX, p.strings), Arg::Bool(ArgKey::kDevice, true),
                       Arg::Null(ArgKey::kGrid), Arg::Text(ArgKey::kInputDims, ArgType::kJson, text),
                       Arg::Text(ArgKey::kStream, ArgType::kDouble, text)})
    EXPECT_FALSE(Slice::Inlinable(a)) << static_cast<int>(a.type);
  // A slice of args in Profile::args counts them there.
  Slice many;
  many.args_count = Slice::kMaxArgs;
  EXPECT_EQ(many.arg_count(), Slice::kMaxArgs);
}

}  // namespace
}  // namespace profdiff
