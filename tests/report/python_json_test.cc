// PythonJsonDumps writes what Python's json.dumps writes with its defaults (python_json.h).
#include "profdiff/report/python_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace profdiff::report {
namespace {

TEST(PythonJson, WritesWhatJsonDumpsWrites) {
  OrderedJson v = OrderedJson::object();
  v["a"] = OrderedJson::array({1, 2.5, 0.0, 1e-05, 1e16, 1234567890123456.0, -0.0,
                               std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                               true, nullptr});
  v["k\xC3\xA9\n\"\\\x01"] = "\xF0\x9F\x98\x80\t";  // é, 😀
  v["e"] = OrderedJson::object();
  v["l"] = OrderedJson::array();
  // Python 3: json.dumps({'a': [1, 2.5, 0.0, 1e-05, 1e16, 1234567890123456.0, -0.0, float('nan'),
  // float('inf'), True, None], 'k\u00e9\n"\\\x01': '\U0001F600\t', 'e': {}, 'l': []})
  EXPECT_EQ(PythonJsonDumps(v),
            "{\"a\": [1, 2.5, 0.0, 1e-05, 1e+16, 1234567890123456.0, -0.0, NaN, Infinity, true, null], "
            "\"k\\u00e9\\n\\\"\\\\\\u0001\": \"\\ud83d\\ude00\\t\", \"e\": {}, \"l\": []}");
}

TEST(PythonJson, KeepsTheObjectsOrderAndIntegersApart) {
  OrderedJson v = OrderedJson::object();
  v["z"] = 0;
  v["a"] = 0.1 + 0.2;
  v["m"] = OrderedJson::array({static_cast<uint64_t>(18446744073709551615u), -3});
  EXPECT_EQ(PythonJsonDumps(v), "{\"z\": 0, \"a\": 0.30000000000000004, \"m\": [18446744073709551615, -3]}");
  EXPECT_EQ(PythonJsonDumps(OrderedJson(-std::numeric_limits<double>::infinity())), "-Infinity");
}

}  // namespace
}  // namespace profdiff::report
