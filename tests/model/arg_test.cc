// An Arg holds an integer in 48 bits and any other in the string pool (kIntText): every value reads
// back exactly through Profile::ArgInt, and the texts of the other types are kept.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

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

}  // namespace
}  // namespace profdiff
