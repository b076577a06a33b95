// Python's str()/repr() of JSON arg values, as the reference prints "Input Dims" and "Input type".
#include "profdiff/analysis/common/python_text.h"

#include <gtest/gtest.h>

#include "../../common/profile_builder.h"

namespace profdiff::analysis {
namespace {

TEST(PythonText, StrOfJsonValues) {
  EXPECT_EQ(PythonStrOfJson("[[32, 3, 224, 224], [], []]"), "[[32, 3, 224, 224], [], []]");
  EXPECT_EQ(PythonStrOfJson("[\"float\",\"Int\",\"\"]"), "['float', 'Int', '']");
  EXPECT_EQ(PythonStrOfJson("[null, true, false, \"it's\"]"), "[None, True, False, \"it's\"]");
  EXPECT_EQ(PythonStrOfJson("{\"a\": [1.5e3, -2], \"b\": {}}"), "{'a': [1.5e3, -2], 'b': {}}");
  EXPECT_EQ(PythonStrOfJson("\"top-level text\""), "top-level text");  // str() of a str: no quotes
  EXPECT_EQ(PythonStrOfJson("[\"tab\\tand \\\"both\\\" 'quotes'\"]"), "['tab\\tand \"both\" \\'quotes\\'']");
  EXPECT_EQ(PythonStrOfJson("[\"\\u00e9\\u4e2d\"]"), "['\xc3\xa9\xe4\xb8\xad']");  // UTF-8
  EXPECT_EQ(PythonStrOfJson("  [ 1 ,2 ]  "), "[1, 2]");
}

TEST(PythonText, TextThatIsNotOneJsonValueIsKept) {
  EXPECT_EQ(PythonStrOfJson("not json ["), "not json [");
  EXPECT_EQ(PythonStrOfJson("[1, 2] trailing"), "[1, 2] trailing");
  EXPECT_EQ(PythonStrOfJson("[1,"), "[1,");
  EXPECT_EQ(PythonStrOfJson(""), "");
  std::string deep(100, '[');
  deep += std::string(100, ']');
  EXPECT_EQ(PythonStrOfJson(deep), deep);  // deeper than 64 levels: not parsed
}

TEST(PythonText, ParsedValuesKeepNumbersAsWritten) {
  PyValue v;
  ASSERT_TRUE(ParseJsonForPython("[[1, 1], 7, \"x\"]", v));
  ASSERT_EQ(v.type, PyValue::Type::kList);
  ASSERT_EQ(v.items.size(), 3u);
  EXPECT_EQ(v.items[0].type, PyValue::Type::kList);
  EXPECT_EQ(v.items[1].text, "7");
  EXPECT_EQ(PythonStr(v.items[2]), "x");
  EXPECT_EQ(PythonStr(v.items[0]), "[1, 1]");
}

TEST(PythonText, StrOfASlicesArg) {
  testing::ProfileBuilder b(DeviceKind::kGpu);
  const TrackId t = b.Track("1", "1");
  const SliceId json = b.Add(t, SliceKind::kCpuOp, "aten::mm", "cpu_op", 0, 10);
  b.p.slices[json].args_begin = static_cast<uint32_t>(b.p.args.size());
  b.p.args.push_back(Arg::Text(ArgKey::kInputDims, ArgType::kJson, b.p.strings.Intern("[[2,3],[3, 4]]")));
  b.p.args.push_back(Arg::Null(ArgKey::kInputType));
  b.p.slices[json].args_count = 2;
  const SliceId text = b.Add(t, SliceKind::kCpuOp, "aten::add", "cpu_op", 20, 10, {}, {{ArgKey::kInputDims, "1x2"}});
  EXPECT_EQ(PythonStrOfArg(b.p, json, ArgKey::kInputDims), "[[2, 3], [3, 4]]");
  EXPECT_EQ(PythonStrOfArg(b.p, json, ArgKey::kInputType), "None");
  EXPECT_EQ(PythonStrOfArg(b.p, text, ArgKey::kInputDims), "1x2");
  EXPECT_EQ(PythonStrOfArg(b.p, text, ArgKey::kInputType), "N/A");  // absent
}

}  // namespace
}  // namespace profdiff::analysis
