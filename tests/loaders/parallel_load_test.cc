// The parallel trace reader (`--threads`) builds exactly the model a serial pass builds: every
// table, every string id, every diagnostic with its line and byte offset, at every thread count and
// block size, for good and bad inputs (tiny blocks put a block boundary at every event).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "profdiff/loaders/loader.h"
#include "profdiff/loaders/trace_json.h"
#include "../common/gzip_util.h"
#include "../common/profile_dump.h"
#include "../common/temp_file.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;
using testing::DumpProfile;

// "ERROR <status>" or the dump.
std::string Load(const std::string& path, int threads, size_t block_bytes, size_t chunk_bytes, bool map = true) {
  LoadOptions options;
  options.threads = threads;
  options.parallel_block_bytes = block_bytes;
  options.parallel_map_file = map;
  Profile p;
  Status s = LoadTraceJson(path, p, options, chunk_bytes);
  if (!s.ok()) return "ERROR " + s.ToString();
  return DumpProfile(p);
}

// "" when equal, else the first line that differs in each (and its number).
std::string FirstDifference(const std::string& a, const std::string& b) {
  if (a == b) return "";
  size_t line = 1, start = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()) && a[i] == b[i]; ++i) {
    if (a[i] == '\n') {
      ++line;
      start = i + 1;
    }
  }
  auto line_of = [&](const std::string& s) { return s.substr(start, s.find('\n', start) - start); };
  return fmt::format("line {}: parallel \"{}\" serial \"{}\"", line, line_of(a), line_of(b));
}

// The read chunk changes nothing either (the serial reader's own tests check that): each chunk size
// is compared with the serial load at that size, the small one cutting events everywhere.
void ExpectSameAtEveryThreadCount(const std::string& path, const std::vector<size_t>& blocks,
                                  const std::vector<size_t>& chunks = {size_t{1} << 16, 13}) {
  for (size_t chunk : chunks) {
    const std::string serial = Load(path, 1, 0, chunk);
    for (int threads : {2, 3, 4}) {
      for (size_t block : blocks) {
        for (bool map : {true, false}) {  // a plain file mapped, or read as a gzip file is
          SCOPED_TRACE(fmt::format("{} threads {} block {} chunk {} map {}", path, threads, block, chunk, map));
          const std::string parallel = Load(path, threads, block, chunk, map);
          ASSERT_EQ(FirstDifference(parallel, serial), "");
        }
      }
    }
  }
}

std::string WriteTemp(const std::string& name, const std::string& bytes) {
  return testing::WriteTempFile("parallel_load_test_tmp", name, bytes);
}

const std::string kDataDir = PROFDIFF_SOURCE_DIR "/tests/data";

TEST(ParallelLoad, BundledTracesAreIdentical) {
  for (const char* rel : {"/kineto_h100_tiny/before_fix_trace.json", "/kineto_h100_tiny/after_fix_trace.json",
                          "/ascend_trace_view/trace_view.json"}) {
    ExpectSameAtEveryThreadCount(kDataDir + rel, {257, 4096});
  }
  // 29 MB decompressed: blocks of real sizes (many rounds), the read chunk of a real load.
  ExpectSameAtEveryThreadCount(kDataDir + "/kineto_resnet50_v100/worker0.1623143089861.pt.trace.json.gz",
                               {size_t{1} << 16, size_t{1} << 20}, {size_t{4} << 20});
}

const std::string kEvent = R"({"ph":"X","cat":"cpu_op","name":"op \"q\" \u00e9","ts":"1736408883688177.930","dur":2,"pid":1,"tid":"t 1"})";

std::string Events(int n, const std::string& extra) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    s += fmt::format(R"({{"ph":"X","cat":"kernel","name":"k{}","ts":{},"dur":1.0005,"pid":7,"tid":{},"args":{{"External id":{},"grid":[1,2,3]}}}},)",
                     i % 5, 1000 + i, i % 3, i);
    s += "\n  ";
    if (i % 7 == 3) s += extra;
  }
  return s;
}

TEST(ParallelLoad, BadAndUnusualInputsAreIdentical) {
  const std::string begin_end =
      R"({"ph":"B","name":"outer","ts":1,"pid":1,"tid":1},)" + Events(20, "") +
      R"({"ph":"E","ts":50,"pid":1,"tid":1},{"ph":"E","ts":51,"pid":1,"tid":1},)" +
      R"({"ph":"B","name":"late","ts":90,"pid":1,"tid":2},)" + Events(10, "") +
      R"({"ph":"E","ts":80,"pid":1,"tid":2},{"ph":"B","name":"open","ts":95,"pid":2,"tid":2},)" + kEvent;
  const std::string meta =
      R"({"ph":"M","name":"process_name","pid":7,"args":{"name":"first"}},)" + Events(15, "") +
      R"({"ph":"M","name":"process_name","pid":7,"args":{"name":""}},{"ph":"M","name":"thread_name","pid":7,"tid":1,"args":{"name":"t"}},)" +
      Events(15, R"({"ph":"M","name":"process_sort_index","pid":9,"args":{"sort_index":3}},)") + kEvent;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"begin_end.json", "[" + begin_end + "]"},
      {"meta.json", "{\"traceEvents\": [" + meta + "], \"schemaVersion\": 1}"},
      {"malformed.json", "[" + Events(30, R"({"ph":"X" "ts":1},7,"s",[1,{"a":"},{"}],{"ts":"x"},)") + kEvent + "]"},
      {"strings_like_separators.json",
       "[" + Events(30, R"({"ph":"i","name":"},\n{\"x\":1}","ts":5,"args":{"Call stack":"a},{b"}},)") + kEvent + "]"},
      {"nested_objects.json", "[" + Events(30, R"({"ph":"X","name":"n","ts":9,"args":{"v":[{"a":1},{"b":2}]}},)") + kEvent + "]"},
      {"no_close.json", "[" + Events(40, "") + kEvent + ",\n"},
      {"truncated.json", "[" + Events(40, "") + kEvent.substr(0, 40)},
      {"bad_separator.json", "[" + Events(20, "") + kEvent + " x " + Events(20, "") + kEvent + "]"},
      {"trailing_comma.json", "[" + Events(30, "") + "]\n garbage"},
      {"flows.json", "[" + Events(30, R"({"ph":"s","id":"abc","ts":3,"pid":1,"tid":1},{"ph":"f","id":12,"ts":4,"bp":"e"},{"ph":"C","name":"c","ts":5,"args":{"v":1.5}},{"ph":"i","name":"[memory]","ts":6,"args":{"Bytes":64,"Addr":99}},)") + kEvent + "]"},
      // Integers beyond an Arg's 48 inline bits are interned as text: each block's pool merged.
      {"big_int_args.json", "[" + Events(30, R"({"ph":"X","name":"n","ts":9,"args":{"External id":281474976710656,"correlation":-9223372036854775808,"stream":140737488355327}},)") + kEvent + "]"},
      // Categories first met in later blocks get the indices a serial pass gives; durations past
      // the longest a slice holds (2^46 ns) are refused the same, an 'E' in another block too.
      {"cats_and_long.json",
       "[" + Events(20, R"({"ph":"X","cat":"a","name":"n","ts":1,"dur":1},)") +
           R"({"ph":"B","name":"long","ts":0,"pid":3,"tid":3},{"ph":"B","name":"max","ts":0,"pid":4,"tid":4},)" +
           Events(20, R"({"ph":"X","cat":"b","name":"n","ts":2,"dur":70368744177.664},)") +
           R"({"ph":"E","ts":70368744177.664,"pid":3,"tid":3},{"ph":"E","ts":70368744177.663,"pid":4,"tid":4},)" +
           Events(20, R"({"ph":"i","cat":"c","name":"n","ts":3},{"ph":"X","cat":"a","name":"m","ts":4,"dur":5},)") +
           kEvent + "]"},
      {"bad_utf8.json", "[" + Events(30, "{\"ph\":\"X\",\"name\":\"\xff\xfe\",\"ts\":1,\"dur\":1},") + kEvent + "]"},

      // A run of NULs inside a string (an event that parses) and in place of a value: refused at the
      // run whichever reader met it, whatever the chunk (a block that holds it is handed back).
      {"nul_run_in_string.json",
       "[" + Events(30, "{\"ph\":\"X\",\"name\":\"a" + std::string(70, '\0') + "b\",\"ts\":1,\"dur\":1},") + kEvent + "]"},
      {"nul_run_as_value.json",
       "[" + Events(30, "{\"ph\":" + std::string(64, '\0') + "\"X\",\"ts\":1},") + kEvent + "]"},
  };
  for (const auto& [name, bytes] : cases) {
    const std::string path = WriteTemp(name, bytes);
    ExpectSameAtEveryThreadCount(path, {1, 7, 64, 200, 1000});
  }
}

// Found by the fuzzer: an event holding a run of NULs was refused only when it spanned two reads
// (the serial reader's chunk), so the outcome depended on the chunk size and the parallel reader,
// whose blocks hold whole events, went on to a later error.
TEST(ParallelLoad, NulRunIsRefusedWhateverTheChunk) {
  const std::string event_with_run = "{\"ph\":\"X\",\"name\":\"a" + std::string(64, '\0') + "b\",\"ts\":1,\"dur\":1}";
  const std::string path = WriteTemp("nul_run_chunks.json", "[" + Events(40, "") + event_with_run + "," + kEvent + "]");
  const std::string whole = Load(path, 1, 0, size_t{1} << 16);
  EXPECT_NE(whole.find("64 NUL bytes in a row inside a JSON value"), std::string::npos) << whole;
  for (size_t chunk : {size_t{13}, size_t{64}, size_t{4096}}) EXPECT_EQ(Load(path, 1, 0, chunk), whole) << chunk;
  for (size_t block : {size_t{7}, size_t{300}}) EXPECT_EQ(Load(path, 3, block, 64), whole) << block;
}

// The tests above would pass if nothing were read in parallel: check that blocks are, and that a
// wrong guess of a block's start (a separator inside a string) costs only that block.
TEST(ParallelLoad, BlocksAreReadInParallel) {
  const std::string trace = kDataDir + "/ascend_trace_view/trace_view.json";
  for (bool map : {true, false}) {
    SCOPED_TRACE(map);
    ParallelLoadStats stats;
    LoadOptions options;
    options.threads = 4;
    options.parallel_block_bytes = 4096;
    options.parallel_map_file = map;
    options.parallel_stats = &stats;
    Profile p;
    ASSERT_TRUE(LoadTraceJson(trace, p, options, 4096).ok());  // the first round: one read chunk
    EXPECT_GT(stats.rounds, 10u);
    EXPECT_GE(stats.blocks, 3 * stats.rounds);
    EXPECT_EQ(stats.blocks_absorbed, stats.blocks);  // every guess was right on this trace
    EXPECT_GT(stats.bytes_absorbed, fs::file_size(trace) * 9 / 10);
  }
  std::string tricky = "[";
  for (int i = 0; i < 200; ++i) {
    if (i % 2 == 0) {
      tricky += R"({"ph":"X","cat":"cpu_op","pid":1,"tid":1,"args":{"Sequence number":12},"name":"a},{b","ts":1,"dur":1,"x":"x},\n{y"},)";
    } else {
      tricky += Events(1, "");
    }
    tricky += "\n";
  }
  tricky += kEvent + "]";
  const std::string path = WriteTemp("tricky.json", tricky);
  ParallelLoadStats stats;
  LoadOptions options;
  options.threads = 3;
  options.parallel_block_bytes = 1000;
  options.parallel_stats = &stats;
  Profile p;
  ASSERT_TRUE(LoadTraceJson(path, p, options).ok());
  EXPECT_EQ(p.slices.size(), 201u);
  EXPECT_EQ(FirstDifference(Load(path, 3, 1000, 1 << 16), Load(path, 1, 0, 1 << 16)), "");
  EXPECT_LT(stats.blocks_absorbed, stats.blocks);  // some guesses fell inside a string
  EXPECT_GT(stats.blocks_absorbed, stats.rounds);  // and many were right
}

// A plain file's arrays are sized for the whole file from the first rounds (no doubling, and little
// enough slack for LoadProfile to keep them as they are); a gzip file's grow by doubling.
TEST(ParallelLoad, ArraysAreSizedForTheWholeFile) {
  const std::string extra =
      R"({"ph":"s","id":7,"ts":3,"pid":1,"tid":1},{"ph":"i","name":"[memory]","ts":6,"args":{"Bytes":64,"Addr":99}},)";
  const std::string path = WriteTemp("uniform.json", "[" + Events(20000, extra) + kEvent + "]");
  LoadOptions options;
  options.threads = 2;
  options.parallel_block_bytes = size_t{32} << 10;
  ParallelLoadStats stats;
  options.parallel_stats = &stats;
  Profile p;
  ASSERT_TRUE(LoadTraceJson(path, p, options).ok());
  EXPECT_GT(stats.rounds, 20u);
  auto expect_sized = [](const auto& v, const char* what) {
    EXPECT_GE(v.capacity(), v.size()) << what;
    EXPECT_LE(v.capacity() - v.size(), v.capacity() / 16) << what << " " << v.size() << " " << v.capacity();
  };
  expect_sized(p.slices, "slices");
  expect_sized(p.args, "args");
  expect_sized(p.flows, "flows");
  expect_sized(p.memory_events, "memory events");
  EXPECT_EQ(FirstDifference(DumpProfile(p), Load(path, 1, 0, 1 << 16)), "");
}

// Flows are counted per id as they come (the serial reader as it commits them, the parallel one as
// it absorbs them): every unpaired id is found and reported in order of first appearance, an integer
// id apart from a string id with the same value or StringId, past several growths of the table.
TEST(ParallelLoad, UnpairedFlowsAreFoundInOrderOfFirstAppearance) {
  std::vector<std::pair<char, std::string>> flows;  // phase, id as written
  for (int i = 0; i < 6000; ++i) {
    // Ids in a scattered order; every third one has no finish, string ids every fifth.
    const int id = (i * 7919) % 6000 + 1;
    const std::string key = i % 5 == 0 ? fmt::format(R"("{}")", id) : std::to_string(id);
    flows.emplace_back('s', key);
    if (i % 3 != 0) flows.emplace_back('f', key);
  }
  for (int i = 0; i < 20; ++i) flows.emplace_back('f', std::to_string(i));  // small ids: a string's StringId
  std::string events;
  std::vector<std::string> order;  // ids in order of first appearance
  std::map<std::string, std::pair<int, int>> ends;
  for (size_t i = 0; i < flows.size(); ++i) {
    const auto& [phase, key] = flows[i];
    events += fmt::format(R"({{"ph":"{}","id":{},"ts":{},"pid":1,"tid":1,"bp":"e"}},)", phase, key, i);
    if (i % 3 == 0) events += "\n";
    auto [it, inserted] = ends.try_emplace(key);
    if (inserted) order.push_back(key);
    ++(phase == 's' ? it->second.first : it->second.second);
  }
  std::vector<std::string> expected;
  for (const std::string& key : order) {
    const auto [starts, finishes] = ends[key];
    if ((starts == 0) == (finishes == 0)) continue;
    const std::string shown = key[0] == '"' ? key.substr(1, key.size() - 2) : key;
    expected.push_back(fmt::format("flow id {} has {} start(s) and {} end(s)", shown, starts, finishes));
  }
  ASSERT_GE(expected.size(), 2000u);
  const std::string path = WriteTemp("many_flows.json", "[" + events + kEvent + "]");
  for (int threads : {1, 2, 3}) {
    for (size_t block : {size_t{512}, size_t{64} << 10}) {
      SCOPED_TRACE(fmt::format("threads {} block {}", threads, block));
      LoadOptions options;
      options.threads = threads;
      options.parallel_block_bytes = block;
      Profile p;
      ASSERT_TRUE(LoadTraceJson(path, p, options).ok());
      const Diagnostics::Entry& unpaired = p.diagnostics.entry(DiagId::flow_unpaired);
      EXPECT_EQ(unpaired.count, expected.size());
      ASSERT_EQ(unpaired.examples.size(), Diagnostics::kMaxExamples);
      for (size_t i = 0; i < Diagnostics::kMaxExamples; ++i) EXPECT_EQ(unpaired.examples[i].detail, expected[i]);
    }
  }
  EXPECT_EQ(FirstDifference(Load(path, 2, 512, 1 << 16), Load(path, 1, 0, 1 << 16)), "");
}

TEST(ParallelLoad, GzipDamagedLaterGivesTheSerialError) {
  std::string json = "[" + Events(400, "") + kEvent + "]";
  std::string gz = testing::Gzip(json);
  gz.resize(gz.size() * 2 / 3);  // truncated gzip stream
  const std::string path = WriteTemp("damaged.json.gz", gz);
  ExpectSameAtEveryThreadCount(path, {64, 1000});
  EXPECT_NE(Load(path, 2, 64, 1 << 16).find("ERROR"), std::string::npos);
}

}  // namespace
}  // namespace profdiff
