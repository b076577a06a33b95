// Bad trace inputs at the loader level: the outcome (error message, or diagnostics and model) must not
// depend on how the streaming reader cuts the file into chunks. tests/cli/inspect_cli_test.cc checks
// what users see for the same kinds of input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "profdiff/loaders/loader.h"
#include "profdiff/base/time.h"
#include "profdiff/loaders/trace_json.h"
#include "../common/temp_file.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;

std::string WriteTemp(const std::string& name, const std::string& bytes) {
  return testing::WriteTempFile("bad_input_test_tmp", name, bytes);
}

// Loads with several chunk sizes; returns "ERROR <message>" or a summary of what was loaded.
std::string Outcome(const std::string& path, size_t chunk) {
  Profile p;
  Status s = LoadTraceJson(path, p, LoadOptions{}, chunk);
  if (!s.ok()) return "ERROR " + s.ToString();
  std::string o = "slices " + std::to_string(p.slices.size()) + "; flows " + std::to_string(p.flows.size());
  o += "; " + p.diagnostics.Summary();
  return o;
}

const std::string kEvent = R"({"ph":"X","cat":"cpu_op","name":"op \"q\" \u00e9","ts":"1736408883688177.930","dur":2,"pid":1,"tid":"t 1"})";

struct Case {
  std::string name;
  std::string bytes;
  std::string expect;  // a part of the outcome
};

TEST(BadTraceInput, OutcomeDoesNotDependOnChunking) {
  const std::vector<Case> cases = {
      {"ok.json", "[" + kEvent + "," + kEvent + "]", "slices 2"},
      {"no_close.json", "[" + kEvent + ",\n" + kEvent + ",\n", "missing_closing_bracket x1"},
      {"no_close_kineto.json", "{\"traceEvents\": [" + kEvent, "missing_closing_bracket x1"},
      {"truncated.json", "[" + kEvent + ",\n" + kEvent.substr(0, 40), "ERROR parse error: "},
      {"truncated_in_escape.json", "[" + kEvent + ",{\"name\":\"a\\", "input ends inside a trace event"},
      {"after_array.json", "{\"traceEvents\": [" + kEvent + "], \"deviceProperties\": [{\"name\": \"H100\"}]}",
       "slices 1"},
      {"trailing.json", "[" + kEvent + "]\n garbage", "trailing_garbage x1"},
      {"numbers.json", "[1,2,3]", "none of the 3 element(s)"},
      {"malformed_middle.json", "[" + kEvent + ",{\"ph\":\"X\" \"ts\":1}," + kEvent + "]", "json_event_malformed x1"},
      {"bad_utf8.json", "[{\"ph\":\"X\",\"name\":\"\xff\xfe\",\"ts\":1,\"dur\":1}]", "invalid_utf8 x1"},
      {"deep.json", "[" + std::string(200, '[') + std::string(200, ']') + "," + kEvent + "]", "json_event_not_object x1"},
      {"object_no_events.json", "{\"schemaVersion\": 1}", "no \"traceEvents\" array"},
      {"unclosed_string.json", "[{\"name\": \"abc]", "input ends inside a trace event"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = WriteTemp(c.name, c.bytes);
    const std::string reference = Outcome(path, 1 << 16);
    EXPECT_NE(reference.find(c.expect), std::string::npos) << reference;
    if (reference.rfind("ERROR", 0) == 0) {
      EXPECT_NE(reference.find(path), std::string::npos) << "an error must name the file: " << reference;
    }
    for (size_t chunk : {1, 2, 3, 7, 64}) {
      EXPECT_EQ(Outcome(path, chunk), reference) << "chunk " << chunk;
    }
  }
}

TEST(BadTraceInput, ErrorsNameTheFileAndOffset) {
  const std::vector<Case> cases = {
      {"e1.json", "[" + kEvent + ",\n" + kEvent.substr(0, 40), "e1.json:2 (byte "},
      {"e2.json", "{\"traceEvents\": 7}", "e2.json:1 (byte 16)"},
      {"e3.json", "{}", "e3.json@byte 0"},
      {"e4.json", "[" + kEvent + " x " + kEvent + "]", "e4.json:1 (byte "},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = WriteTemp(c.name, c.bytes);
    Profile p;
    Status s = LoadTraceJson(path, p, LoadOptions{});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.code(), StatusCode::kParseError);
    EXPECT_NE(s.message().find(path.substr(0, path.size() - c.name.size()) + c.expect), std::string::npos)
        << s.message();
  }
}

TEST(BadTraceInput, StrictTurnsErrorDiagnosticsIntoFailures) {
  const std::string path = WriteTemp("strict.json", "[" + kEvent + ",{\"ph\":\"X\",\"ts\":\"x\"}]");
  Profile lenient;
  ASSERT_TRUE(LoadTraceJson(path, lenient, LoadOptions{}).ok());
  EXPECT_EQ(lenient.slices.size(), 1u);
  EXPECT_EQ(lenient.diagnostics.count(DiagId::bad_timestamp), 1u);
  LoadOptions strict;
  strict.strict = true;
  auto loaded = LoadProfile(path, strict);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find(path + ":1 (byte "), std::string::npos) << loaded.status().message();
}

}  // namespace
}  // namespace profdiff

namespace profdiff {
namespace {

// The loader's fast time path (plain "digits[.ddd]") and the exact slow path must agree at the edge of
// the accepted range (base/time.h: kMaxTimeNs = 2^62 ns, kMinTimeNs = -2^60 ns), near the int64
// boundary and on Ascend's 16-digit µs timestamps.
TEST(TraceTimestamps, SixteenDigitMicrosAndTheRangeBoundary) {
  const std::vector<std::pair<std::string, int64_t>> ok = {
      {"\"1736408883688177.930\"", 1736408883688177930},
      {"1736408883688177.93", 1736408883688177930},
      {"\"4611686018427387.904\"", kMaxTimeNs},
      {"4611686018427387.904", kMaxTimeNs},
      {"0.0005", 0},  // sub-ns: rounded by the shared exact parser (value checked below)
      {"12", 12000},
      {"-3.5", -3500},
      {"-1152921504606846.976", kMinTimeNs},
  };
  std::string text = "[";
  for (size_t i = 0; i < ok.size(); ++i) {
    text += (i ? "," : "");
    text += R"({"ph":"i","name":"e)" + std::to_string(i) + R"(","ts":)" + ok[i].first + "}";
  }
  // Parsed exactly but outside the range (fast and slow paths), then beyond int64 itself.
  for (const char* ts : {"\"4611686018427387.905\"", "4611686018427387.905", "\"9223372036854774.999\"",
                         "\"9223372036854775.807\"", "-1152921504606846.977"})
    text += std::string(R"(,{"ph":"i","name":"out","ts":)") + ts + "}";
  text += R"(,{"ph":"i","name":"overflow","ts":"9223372036854776"})";
  // In range, but its end is not: kept with dur 0 and a diagnostic; then one ending exactly at the edge.
  text += R"(,{"ph":"X","name":"long","ts":4611686018427387,"dur":1})";
  text += R"(,{"ph":"X","name":"edge","ts":4611686018427387,"dur":0.904}])";
  const std::string path = WriteTemp("timestamps.json", text);
  Profile p;
  ASSERT_TRUE(LoadTraceJson(path, p, LoadOptions{}).ok());
  ASSERT_EQ(p.slices.size(), ok.size() + 2);
  for (size_t i = 0; i < ok.size(); ++i) {
    if (i == 4) continue;  // checked below against the shared parser
    EXPECT_EQ(p.slices[i].ts_ns, ok[i].second) << ok[i].first;
  }
  EXPECT_EQ(p.slices[4].ts_ns, *ParseMicrosToNs("0.0005"));
  // The overflow is a number out of range too, not "not a number" (issue 32).
  EXPECT_EQ(p.diagnostics.count(DiagId::bad_timestamp), 0u);
  EXPECT_EQ(p.diagnostics.count(DiagId::time_out_of_range), 7u);  // 5 timestamps, the overflow, 1 end
  EXPECT_EQ(p.slices[ok.size()].dur_ns, 0);
  EXPECT_EQ(p.slices[ok.size() + 1].end_ns(), kMaxTimeNs);
  for (const Slice& s : p.slices) EXPECT_TRUE(SpanInRange(s.ts_ns, s.dur_ns));
}

// A slice holds a duration up to 2^46 - 1 ns (19.5 hours): one longer, as 'dur' or as an 'E' after its
// 'B', is kept with dur 0 and a duration_too_long error (never wrapped into the field), at every chunking.
TEST(TraceDurations, TheLongestASliceHoldsAndBeyond) {
  const std::string text =
      R"([{"ph":"X","name":"max","ts":1,"dur":70368744177.663,"pid":1,"tid":1},)"
      R"({"ph":"B","name":"b_over","ts":0,"pid":3,"tid":3},{"ph":"E","ts":70368744177.664,"pid":3,"tid":3},)"
      R"({"ph":"B","name":"b_max","ts":0,"pid":2,"tid":2},{"ph":"E","ts":70368744177.663,"pid":2,"tid":2},)"
      R"({"ph":"X","name":"over","ts":1,"dur":70368744177.664,"pid":1,"tid":1},)"
      R"({"ph":"X","name":"sub","ts":1,"dur":70368744177.66250001,"pid":1,"tid":1}])";
  const std::string path = WriteTemp("long_durations.json", text);
  for (size_t chunk : {size_t{1} << 16, size_t{5}}) {
    SCOPED_TRACE(chunk);
    Profile p;
    ASSERT_TRUE(LoadTraceJson(path, p, LoadOptions{}, chunk).ok());
    ASSERT_EQ(p.slices.size(), 5u);
    EXPECT_EQ(p.slices[0].dur_ns, Slice::kMaxDurNs);
    EXPECT_EQ(p.slices[1].dur_ns, 0);  // the first error's example: the 'E'
    EXPECT_EQ(p.slices[2].dur_ns, Slice::kMaxDurNs);
    EXPECT_EQ(p.slices[3].dur_ns, 0);
    EXPECT_EQ(p.slices[4].dur_ns, Slice::kMaxDurNs);  // rounded to ns, its remainder kept below
    EXPECT_EQ(p.slices[4].dur_e5(), Slice::kMaxDurNs * Slice::kE5PerNs - 49999);
    EXPECT_EQ(p.diagnostics.count(DiagId::duration_too_long), 2u) << p.diagnostics.Summary();
    EXPECT_NE(p.diagnostics.Summary().find("more than 2^46 ns after its 'B'"), std::string::npos)
        << p.diagnostics.Summary();
  }
}

// A slice's category is an index into the profile's categories, in order of first use.
TEST(TraceCategories, IndexedInOrderOfFirstUse) {
  const std::string path = WriteTemp("cats.json", R"([{"ph":"X","cat":"b","name":"x","ts":1},)"
                                                  R"({"ph":"X","name":"y","ts":1},{"ph":"i","cat":"a","name":"z","ts":1},)"
                                                  R"({"ph":"X","cat":"b","name":"w","ts":1}])");
  Profile p;
  ASSERT_TRUE(LoadTraceJson(path, p, LoadOptions{}).ok());
  ASSERT_EQ(p.slices.size(), 4u);
  std::vector<std::string> cats;
  for (const Slice& s : p.slices) cats.emplace_back(p.str(p.Cat(s)));
  EXPECT_EQ(cats, (std::vector<std::string>{"b", "", "a", "b"}));
  EXPECT_EQ(p.slice_cats.size(), 3u);  // "", "b", "a"
  EXPECT_EQ(p.slices[3].cat_index, p.slices[0].cat_index);
}

}  // namespace
}  // namespace profdiff

namespace profdiff {
namespace {

// An event whose escaped text does not fit the in-place scratch buffer (64 KiB) takes the
// whole-element path and loads the same; so does one cut by every chunk boundary.
TEST(TraceInPlace, LongEscapedStringsFallBackAndDecodeTheSame) {
  std::string name;
  for (int i = 0; i < 30000; ++i) name += "a\\n\\u00e9";  // 30000 x (a, LF, é)
  const std::string ev_big = R"({"ph":"X","cat":"cpu_op","name":")" + name + R"(","ts":1,"dur":2})";
  const std::string ev = R"({"ph":"X","cat":"cpu_op","name":"x\ty","ts":3,"dur":1})";
  const std::string path = WriteTemp("long_escaped.json", "[" + ev + "," + ev_big + "," + ev + "]");
  std::string expected_name;
  for (int i = 0; i < 30000; ++i) expected_name += "a\n\xC3\xA9";
  for (size_t chunk : {size_t{4} << 20, size_t{1000}, size_t{7}}) {
    SCOPED_TRACE(chunk);
    Profile p;
    ASSERT_TRUE(LoadTraceJson(path, p, LoadOptions{}, chunk).ok());
    ASSERT_EQ(p.slices.size(), 3u);
    EXPECT_EQ(p.str(p.slices[0].name), "x\ty");
    EXPECT_EQ(p.str(p.slices[1].name), expected_name);
    EXPECT_EQ(p.str(p.slices[2].name), "x\ty");
    EXPECT_TRUE(p.diagnostics.empty()) << p.diagnostics.Summary();
  }
}

}  // namespace
}  // namespace profdiff

namespace profdiff {
namespace {

// Line numbers in diagnostics and errors come from counting newlines in the consumed input (16 bytes
// at a time, folded every 255 blocks): check them far into a file and across buffer refills.
TEST(TraceLineNumbers, ExactFarIntoTheFileAtAnyChunking) {
  std::string text = "[\n";
  int64_t line = 2;
  int64_t bad_line = 0;
  uint64_t bad_offset = 0;
  for (int i = 0; i < 6000; ++i) {
    if (i == 5321) {
      bad_line = line;
      bad_offset = text.size() + 17;  // the error position inside the event (after `"ts":1 `)
      text += R"({"ph":"X","ts":1 "dur":2},)";
    } else {
      text += R"({"ph":"X","name":"e","ts":)" + std::to_string(i) + "},";
    }
    const int blank = i % 7 == 0 ? 40 : (i % 3);  // runs of empty lines, some longer than 16 bytes
    text += std::string(static_cast<size_t>(blank + 1), '\n');
    line += blank + 1;
  }
  text += "{\"ph\":\"X\",\"ts\":\n";  // cut inside the last event
  const int64_t last_line = line;
  const uint64_t last_offset = text.size() - 16;
  const std::string path = WriteTemp("lines.json", text);
  for (size_t chunk : {size_t{4} << 20, size_t{100}, size_t{4099}}) {
    SCOPED_TRACE(chunk);
    Profile p;
    Status s = LoadTraceJson(path, p, LoadOptions{}, chunk);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find(path + ":" + std::to_string(last_line) + " (byte " + std::to_string(last_offset) + ")"),
              std::string::npos)
        << s.message();
    const auto& e = p.diagnostics.entry(DiagId::json_event_malformed);
    ASSERT_EQ(e.count, 1u);
    EXPECT_EQ(e.examples[0].where.ToString(),
              path + ":" + std::to_string(bad_line) + " (byte " + std::to_string(bad_offset) + ")");
  }
}

// A key that "args" repeats, or a second "args": the first value counts, as for the event's own
// keys and the top level, with a diagnostic naming the key (before, the last catalogued value won, a
// counter got two rows of one series and a second "args" was merged in, silently).
TEST(TraceDuplicateKeys, InArgsTheFirstValueCountsWithADiagnostic) {
  const std::string path = WriteTemp(
      "dup_args.json",
      R"([{"ph":"M","name":"process_name","pid":1,"args":{"name":"first","name":"second"}},)"
      R"({"ph":"X","cat":"kernel","name":"k","pid":1,"tid":2,"ts":1,"dur":1,"args":{"stream":7,"External id":5,"External id":9}},)"
      R"({"ph":"C","name":"mem","pid":1,"tid":3,"ts":2,"args":{"v":1,"v":2,"w":3}},)"
      R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":4,"ts":3,"dur":1,"args":{"Sequence number":1},"args":{"Sequence number":2}}])");
  for (size_t chunk : {size_t{7}, size_t{1} << 16}) {
    Profile p;
    ASSERT_TRUE(LoadTraceJson(path, p, LoadOptions{}, chunk).ok());
    ASSERT_EQ(p.processes.size(), 1u);
    EXPECT_EQ(p.str(p.processes[0].name), "first");
    ASSERT_EQ(p.slices.size(), 2u);
    EXPECT_EQ(p.ArgInt(p.slices[0], ArgKey::kExternalId), 5);
    EXPECT_EQ(p.ArgInt(p.slices[0], ArgKey::kStream), 7);
    EXPECT_EQ(p.ArgInt(p.slices[1], ArgKey::kSequenceNumber), 1);
    ASSERT_EQ(p.counters.size(), 2u);  // v = 1 and w = 3
    EXPECT_EQ(p.counters[0].value, 1.0);
    EXPECT_EQ(p.counters[1].value, 3.0);
    const auto& dup = p.diagnostics.entry(DiagId::duplicate_key);
    EXPECT_EQ(dup.count, 4u);
    std::string details;
    for (const auto& ex : dup.examples) details += ex.detail + " ";
    for (const char* key : {R"("args"."name")", R"("args"."External id")", R"("args"."v")", R"("args")"})
      EXPECT_NE(details.find(key), std::string::npos) << key << " in " << details;
  }
}

}  // namespace
}  // namespace profdiff
