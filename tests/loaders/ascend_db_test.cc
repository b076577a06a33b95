// The Ascend DB loader on small synthetic exports (tests/common/ascend_db_fixture.h) and on the
// corpus: what lands in the model, that the file is never changed, and bad input.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "../../src/loaders/ascend_db_sqlite.h"
#include "../common/ascend_db_fixture.h"
#include "../common/profile_dump.h"
#include "../report/report_test_util.h"
#include "profdiff/base/time.h"
#include "profdiff/loaders/ascend_db.h"
#include "profdiff/loaders/loader.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;
using report::testing::TempDir;
using testing::kDbRows;
using testing::kDbSchema;
using testing::WriteDb;

std::string MakeDb(const TempDir& d, const std::string& sql, const std::string& name = "ascend_pytorch_profiler_0.db") {
  const std::string path = d / name;
  EXPECT_EQ(WriteDb(path, sql), "");
  return path;
}

uint64_t CountKind(const Profile& p, SliceKind k) { return p.CountByKind()[static_cast<size_t>(k)]; }

const Slice* FindSlice(const Profile& p, std::string_view name) {
  for (const Slice& s : p.slices)
    if (p.str(s.name) == name) return &s;
  return nullptr;
}

TEST(AscendDb, LoadsTheTimelineModel) {
  TempDir d;
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows), p, LoadOptions{}).ok());
  EXPECT_EQ(p.meta.format, SourceFormat::kAscendDb);
  EXPECT_EQ(p.meta.device, DeviceKind::kNpu);
  EXPECT_EQ(CountKind(p, SliceKind::kStepMarker), 1u);
  EXPECT_EQ(CountKind(p, SliceKind::kCpuOp), 1u);
  EXPECT_EQ(CountKind(p, SliceKind::kPythonFunction), 1u);
  EXPECT_EQ(CountKind(p, SliceKind::kEnqueue), 1u);
  EXPECT_EQ(CountKind(p, SliceKind::kNpuTask), 4u);
  EXPECT_EQ(CountKind(p, SliceKind::kHcclOp), 1u);
  EXPECT_EQ(CountKind(p, SliceKind::kHcclTask), 1u);

  const Slice* add = FindSlice(p, "aten::add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->ts_ns, 1100);
  EXPECT_EQ(add->dur_ns, 300);
  EXPECT_EQ(p.ArgText(*add, ArgKey::kInputDims), "float;float");
  // Only the args a comparison reads: no sequence number (12 in the row) or connection id on an op.
  EXPECT_FALSE(p.FindArg(*add, ArgKey::kSequenceNumber).has_value());
  EXPECT_FALSE(p.FindArg(*add, ArgKey::kConnectionId).has_value());
  EXPECT_EQ(p.str(p.process(*add).name), "Python");
  EXPECT_EQ(p.process(*add).pid, 3136493);
  EXPECT_EQ(p.track(*add).tid, 7);

  const Slice* kernel = FindSlice(p, "AddKernel");
  ASSERT_NE(kernel, nullptr);
  const auto kernel_id = static_cast<SliceId>(kernel - p.slices.data());
  // A task's type, stream and global id are not args: its compute row and its track keep them.
  EXPECT_EQ(p.TaskType(kernel_id), "AI_CORE");  // COMPUTE_TASK_INFO.taskType
  EXPECT_EQ(p.TaskStream(*kernel), 2);
  EXPECT_EQ(p.str(p.track(*kernel).name), "Stream 2");
  ASSERT_TRUE(p.DbComputeRow(kernel_id).has_value());
  EXPECT_EQ(p.npu.db.compute_tasks[*p.DbComputeRow(kernel_id)].slice, kernel_id);
  EXPECT_EQ(p.str(p.npu.db.compute_tasks[*p.DbComputeRow(kernel_id)].rts_type), "KERNEL_AICORE");
  for (ArgKey key : {ArgKey::kTaskType, ArgKey::kStreamId, ArgKey::kGlobalTaskId, ArgKey::kConnectionId})
    EXPECT_FALSE(p.FindArg(*kernel, key).has_value()) << kArgKeyNames[static_cast<size_t>(key)];
  EXPECT_EQ(p.str(p.process(*kernel).name), "Ascend Hardware");
  // A task without COMPUTE_TASK_INFO is named by its task type, which is its type.
  const Slice* event = FindSlice(p, "EVENT_WAIT_SQE");
  ASSERT_NE(event, nullptr);
  const auto event_id = static_cast<SliceId>(event - p.slices.data());
  EXPECT_EQ(p.TaskType(event_id), "EVENT_WAIT_SQE");
  EXPECT_FALSE(p.DbComputeRow(event_id).has_value());

  const Slice* op = FindSlice(p, "hcom_allReduce_1");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(p.ArgText(*op, ArgKey::kGroupName), "group_a");
  EXPECT_EQ(p.str(p.track(*op).name), "group_a");
  const Slice* wait = FindSlice(p, "Notify_Wait");
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(p.str(p.track(*wait).name), "Plane 0");
  // A communication task's group is its plane's, not an arg.
  EXPECT_FALSE(p.FindArg(*wait, ArgKey::kGroupName).has_value());
  ASSERT_EQ(p.npu.db.plane_groups.size(), 1u);
  EXPECT_EQ(p.npu.db.plane_groups[0].first, wait->track);
  EXPECT_EQ(p.str(p.npu.db.plane_groups[0].second), "group_a");

  // Launches: one per CANN id of aten::add's CONNECTION_IDS rows, in their order, to the last task or
  // op holding it: the compute task (500); the HCCL task on the hardware lane, then the HCCL op (501:
  // the op, read after TASK). Slice pairs, no flow events (those are fwdbwd only).
  const std::vector<DbLaunchLink>& links = p.npu.db.launch_links;
  ASSERT_EQ(links.size(), 2u);
  EXPECT_EQ(links[0].connection_id, 500);
  EXPECT_EQ(&p.slices[links[0].start], add);
  EXPECT_EQ(&p.slices[links[0].end], kernel);
  EXPECT_EQ(links[1].connection_id, 501);
  EXPECT_EQ(&p.slices[links[1].start], add);
  EXPECT_EQ(&p.slices[links[1].end], op);
  EXPECT_EQ(p.npu.db.launch_ids_without_end, 0u);
  EXPECT_TRUE(p.flows.empty());
}

// Each step's memory peak is the largest reserved total at the times it holds, ends included, with
// steps that overlap, nest, repeat an id, share an end or end before they start; rows at every
// boundary, between and outside the steps (checked against a scan of the rows per step).
TEST(AscendDb, MemoryPeakOfEachStepWhateverTheStepsLayout) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    SCOPED_TRACE(round);
    std::vector<DbStep> steps;
    std::string sql = std::string(kDbSchema) + "INSERT INTO STEP_TIME VALUES (1, 100, 200)";
    steps.push_back({1, 100, 200});
    for (int i = 0; i < 12; ++i) {
      const int64_t start = 100 * static_cast<int64_t>(rng() % 20), end = start + 100 * static_cast<int64_t>(rng() % 6) - 100;
      const int64_t id = 2 + static_cast<int64_t>(rng() % 8);  // some ids repeat
      steps.push_back({id, start, end});
      sql += fmt::format(",({}, {}, {})", id, start, end);
    }
    sql += ";\nINSERT INTO MEMORY_RECORD VALUES ";
    std::vector<std::pair<int64_t, double>> rows;
    for (int i = 0; i < 200; ++i) {
      const int64_t ts = 50 * static_cast<int64_t>(rng() % 44) + (rng() % 4 == 0 ? 1 : 0);
      const int64_t reserved = static_cast<int64_t>(rng() % 1000) << 20;
      rows.push_back({ts, static_cast<double>(reserved) / (1024.0 * 1024.0)});
      sql += fmt::format("{}(16,{},0,{},0,0,0)", i ? "," : "", ts, reserved);
    }
    TempDir d;
    Profile p;
    ASSERT_TRUE(LoadAscendDb(MakeDb(d, sql + ";"), p, LoadOptions{}).ok());
    EXPECT_EQ(p.npu.memory_record.rows, 200);
    double whole = 0;
    for (const auto& [ts, mb] : rows) whole = std::max(whole, mb);
    EXPECT_EQ(p.npu.memory_record.peak_reserved_mb, whole);
    // The loaded steps are in id order (stable): match them to the written ones the same way.
    std::stable_sort(steps.begin(), steps.end(), [](const DbStep& a, const DbStep& b) { return a.id < b.id; });
    ASSERT_EQ(p.npu.db.steps.size(), steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
      double peak = 0;
      for (const auto& [ts, mb] : rows)
        if (ts >= steps[i].start_ns && ts <= steps[i].end_ns) peak = std::max(peak, mb);
      EXPECT_EQ(p.npu.db.steps[i].start_ns, steps[i].start_ns);
      EXPECT_EQ(p.npu.db.steps[i].peak_reserved_mb, peak) << "step " << steps[i].id << " [" << steps[i].start_ns
                                                          << ", " << steps[i].end_ns << "]";
    }
  }
}

TEST(AscendDb, SideTablesStepsAndUnits) {
  TempDir d;
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows), p, LoadOptions{}).ok());
  ASSERT_EQ(p.npu.db.steps.size(), 1u);
  EXPECT_EQ(p.npu.db.steps[0].id, 50);
  EXPECT_EQ(p.npu.db.steps[0].start_ns, 1000);
  ASSERT_TRUE(p.npu.kernel_details.present);
  ASSERT_EQ(p.npu.kernel_details.rows.size(), 1u);
  const KernelDetailRow& k = p.npu.kernel_details.rows[0];
  EXPECT_EQ(p.str(k.type), "Add");
  EXPECT_EQ(p.str(k.input_shapes), "8,16");
  ASSERT_EQ(p.npu.db.compute_tasks.size(), 1u);
  EXPECT_EQ(p.npu.db.compute_tasks[0].global_task_id, 10);
  EXPECT_EQ(k.step_id, 50);
  EXPECT_EQ(k.dur_ns, 100);
  ASSERT_EQ(p.npu.operator_memory.size(), 1u);
  EXPECT_EQ(p.npu.operator_memory[0].size_kb, 2.0);  // 2048 bytes
  EXPECT_EQ(p.npu.operator_memory[0].duration_ns, 700);
  EXPECT_EQ(p.npu.memory_record.rows, 2);
  EXPECT_EQ(p.npu.memory_record.peak_reserved_mb, 3.0);
  EXPECT_EQ(p.npu.db.steps[0].peak_reserved_mb, 3.0);  // both rows lie in step 50 [1000, 2000]
  const auto used = std::find_if(p.npu.db.tables.begin(), p.npu.db.tables.end(),
                                 [](const DbTableUse& t) { return t.name == "PYTORCH_API"; });
  ASSERT_NE(used, p.npu.db.tables.end());
  EXPECT_TRUE(used->present);
  EXPECT_EQ(used->rows, 4);
  EXPECT_TRUE(p.diagnostics.empty()) << p.diagnostics.Summary();
}

// SQLite's count(*) of `table` in the database at `path`, opened as the loader opens it (read-only
// and immutable): a plain read-only open of a WAL-mode file creates its -shm and -wal beside it, and
// the corpus's exports are WAL-mode files in ../shared, which no test may write into.
int64_t SqliteCount(const std::string& path, const std::string& table) {
  sqlite3* db = nullptr;
  sqlite3_open_v2((db::FileUri(path) + "?immutable=1").c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                  nullptr);
  const int64_t n = testing::SqliteCount(db, table);
  sqlite3_close(db);
  return n;
}

// The row counts `inspect` shows are the tables' exact counts, whether a whole-table scan counted
// them while loading or they were counted at the end; on the synthetic export and the corpus's.
// Without LoadOptions::python_functions (a compare that runs no module comparison) the python
// function rows without a connection id are skipped; everything else is as in a whole load, and
// the table still counts every row.
TEST(AscendDb, PythonFunctionsOnlyWhenAsked) {
  TempDir d;
  // The fixture's rows, and a python function with a connection id (a link's end: kept).
  const std::string db = MakeDb(d, std::string(kDbSchema) + kDbRows +
                                       "INSERT INTO PYTORCH_API VALUES "
                                       "('1200','1300',(3136493 << 32) | 9,78,15,NULL,NULL,NULL,NULL,NULL,50003,1);");
  std::vector<std::string> files = {db};
  for (const std::string& f : testing::CorpusDbExports()) files.push_back(f);
  for (const std::string& f : files) {
    Profile all, some;
    ASSERT_TRUE(LoadAscendDb(f, all, LoadOptions{}).ok()) << f;
    LoadOptions options;
    options.python_functions = false;
    ASSERT_TRUE(LoadAscendDb(f, some, options).ok()) << f;
    uint64_t linked = 0;  // python functions with a connection id
    std::vector<Slice> rest;
    for (const Slice& s : all.slices) {
      if (s.kind != SliceKind::kPythonFunction) rest.push_back(s);
    }
    for (const Slice& s : some.slices) {
      if (s.kind == SliceKind::kPythonFunction) ++linked;
    }
    EXPECT_EQ(some.slices.size(), rest.size() + linked) << f;
    size_t i = 0;
    for (const Slice& s : some.slices) {
      if (s.kind == SliceKind::kPythonFunction) continue;
      ASSERT_LT(i, rest.size()) << f;
      EXPECT_EQ(s.ts_ns, rest[i].ts_ns) << f;
      EXPECT_EQ(s.dur_ns, rest[i].dur_ns) << f;
      EXPECT_EQ(some.str(s.name), all.str(rest[i].name)) << f;
      EXPECT_EQ(s.kind, rest[i].kind) << f;
      ++i;
    }
    EXPECT_TRUE(some.python_functions.empty()) << f;
    EXPECT_EQ(some.flows.size(), all.flows.size()) << f;
    EXPECT_EQ(some.npu.kernel_details.rows.size(), all.npu.kernel_details.rows.size()) << f;
    for (size_t t = 0; t < all.npu.db.tables.size(); ++t)
      EXPECT_EQ(some.npu.db.tables[t].rows, all.npu.db.tables[t].rows) << f << " " << all.npu.db.tables[t].name;
    if (f == db) {
      EXPECT_EQ(CountKind(all, SliceKind::kPythonFunction), 2u);
      EXPECT_EQ(linked, 1u);  // the one with a connection id
    }
  }
}

// A python function is kept in 20 bytes (Profile::python_functions) unless it is more than a
// start, an end, a name and a thread: one with a connection id (a launch's start), with shapes, or
// of 2^40 ns or more stays a slice; ForEachPythonFunction reads them all in table order.
TEST(AscendDb, PythonFunctionsKeptCompactlyUnlessTheyAreMore) {
  TempDir d;
  const std::string rows =
      "INSERT INTO STRING_IDS VALUES (60,'f_linked'),(61,'f_shapes'),(62,'f_long'),(63,'nn.Module: Net_0'),"
      "  (64,'f_last');"
      "INSERT INTO PYTORCH_API VALUES ('1200','1300',(3136493 << 32) | 9,78,60,NULL,NULL,NULL,NULL,NULL,50003,1),"
      "  ('1210','1220',(3136493 << 32) | 9,NULL,61,NULL,NULL,NULL,17,NULL,50003,1),"
      "  ('1000','1099511628776',(3136493 << 32) | 9,NULL,62,NULL,NULL,NULL,NULL,NULL,50003,0),"
      "  ('1000','1099511628775',(3136493 << 32) | 9,NULL,63,NULL,NULL,NULL,NULL,NULL,50003,0),"
      "  ('1230','1240',(3136493 << 32) | 10,NULL,64,NULL,NULL,NULL,NULL,NULL,50003,1);"
      "INSERT INTO CONNECTION_IDS VALUES (78, 700);";
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows + rows), p, LoadOptions{}).ok());
  std::vector<std::string> compact, kept;
  std::vector<PythonFunction> compact_rows;
  p.python_functions.ForEach([&](const PythonFunction& f) { compact_rows.push_back(f); });
  for (const PythonFunction& f : compact_rows) compact.emplace_back(p.str(f.name));
  for (const Slice& s : p.slices)
    if (s.kind == SliceKind::kPythonFunction) kept.emplace_back(p.str(s.name));
  // The fixture's "train.py: step", then the rows above: a duration of 2^40 - 1 ns fits, 2^40 does not.
  EXPECT_EQ(compact, (std::vector<std::string>{"train.py: step", "nn.Module: Net_0", "f_last"}));
  EXPECT_EQ(kept, (std::vector<std::string>{"f_linked", "f_shapes", "f_long"}));
  EXPECT_EQ(p.python_functions.slice_before, (std::vector<uint32_t>{1, 1, 1}));
  EXPECT_EQ(compact_rows[1].end_ns(), 1099511628775);
  EXPECT_EQ(p.str(p.tracks[compact_rows[2].track].name), "Thread 10");
  EXPECT_EQ(CountKind(p, SliceKind::kPythonFunction), 6u);
  EXPECT_TRUE(p.HasPythonFunctions());
  std::vector<std::string> all;
  std::vector<int64_t> ends;
  p.ForEachPythonFunction([&](const PythonFunctionView& f) {
    all.emplace_back(p.str(f.name));
    ends.push_back(f.end_ns);
    EXPECT_TRUE(f.complete);
  });
  EXPECT_EQ(all, (std::vector<std::string>{"train.py: step", "f_linked", "f_shapes", "f_long", "nn.Module: Net_0",
                                           "f_last"}));
  EXPECT_EQ(ends, (std::vector<int64_t>{1900, 1300, 1220, 1099511628776, 1099511628775, 1240}));
}

TEST(AscendDb, TableRowsAreExactCounts) {
  TempDir d;
  std::vector<std::string> files = {MakeDb(d, std::string(kDbSchema) + kDbRows)};
  for (const std::string& f : testing::CorpusDbExports()) files.push_back(f);
  for (const std::string& f : files) {
    Profile p;
    ASSERT_TRUE(LoadAscendDb(f, p, LoadOptions{}).ok()) << f;
    for (const DbTableUse& t : p.npu.db.tables) {
      if (t.present) {
        EXPECT_EQ(t.rows, SqliteCount(f, t.name)) << f << " " << t.name;
      }
    }
  }
}

// The page reader (without threads reading ahead, with two and with four) and SQLite's statement
// engine build the same model, row order and diagnostics included: on the synthetic export, one
// whose rows are malformed, and the corpus's exports (the communication tasks' join included).
TEST(AscendDb, PagesAndSqliteBuildTheSameModel) {
  TempDir d;
  std::vector<std::string> files = {MakeDb(d, std::string(kDbSchema) + kDbRows)};
  files.push_back(MakeDb(d, std::string(kDbSchema) + kDbRows +
                                "INSERT INTO PYTORCH_API VALUES ('x', '9', 1, NULL, 1, NULL, NULL, NULL, NULL, NULL, "
                                "1, 0);"
                                "INSERT INTO TASK VALUES (NULL, 5, 0, NULL, 99, 0, 1, 0, 1, 1, 0, 0);"
                                // Diagnostics of one kind from tables read in turn and read ahead:
                                // in the order of the tables either way.
                                "INSERT INTO OP_MEMORY VALUES (16,NULL,1100,1800,NULL,700,NULL,NULL,NULL,NULL,NULL,"
                                "NULL,NULL,NULL,0);"
                                "INSERT INTO MEMORY_RECORD VALUES (16,NULL,0,1,0,0,0),(16,1500,0,'x',0,0,0),"
                                "(16,1600,0,NULL,0,0,0),(16,1500,0,9437184,0,0,0);"
                                "INSERT INTO COMPUTE_TASK_INFO (globalTaskId, name) VALUES (77, 'n');",
                            "ascend_pytorch_profiler_1.db"));
  // Communication tasks sharing a globalTaskId, tasks sharing one, and the indexes that make SQLite
  // scan TASK first (an index on COMMUNICATION_TASK_INFO, as real exports have) or
  // COMMUNICATION_TASK_INFO first (an index on TASK; none: an automatic covering index).
  const std::string shared_ids =
      "INSERT INTO COMMUNICATION_TASK_INFO VALUES (8,12,11,1,9,0,0,0,0,0,0,0,0,1),(8,13,11,0,9,0,0,0,0,0,0,0,0,1),"
      "(10,12,12,2,9,0,0,0,0,0,0,0,0,1);"
      "INSERT INTO TASK VALUES (1630,1650,0,NULL,12,1,12,0,5,7,0,0);";
  int n = 2;
  for (const char* index : {"", "CREATE INDEX CommunicationTaskIndex ON COMMUNICATION_TASK_INFO (globalTaskId);",
                            "CREATE INDEX TaskGid ON TASK (globalTaskId);"}) {
    files.push_back(MakeDb(d, std::string(kDbSchema) + kDbRows + shared_ids + index,
                           "ascend_pytorch_profiler_" + std::to_string(n++) + ".db"));
  }
  for (const std::string& f : testing::CorpusDbExports()) files.push_back(f);
  for (const std::string& f : files) {
    std::string dumps[4];
    for (int way = 0; way < 4; ++way) {
      LoadOptions o;
      o.db_read_pages = way != 0;
      o.threads = way == 2 ? 2 : way == 3 ? 4 : 1;
      Profile p;
      const Status st = LoadAscendDb(f, p, o);
      dumps[way] = st.ok() ? testing::DumpProfile(p) + testing::DumpNpuTables(p) : st.ToString();
    }
    EXPECT_EQ(dumps[1], dumps[0]) << f;
    EXPECT_EQ(dumps[2], dumps[0]) << f;
    EXPECT_EQ(dumps[3], dumps[0]) << f;
  }
}

TEST(AscendDb, NeverChangesTheFile) {
  TempDir d;
  const std::string path = MakeDb(d, std::string(kDbSchema) + kDbRows);
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  Profile p;
  ASSERT_TRUE(LoadAscendDb(path, p, LoadOptions{}).ok());
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(before.st_mode, after.st_mode);
  EXPECT_EQ(before.st_size, after.st_size);
  EXPECT_EQ(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
  EXPECT_EQ(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
  for (const char* side : {"-journal", "-wal", "-shm"}) EXPECT_FALSE(fs::exists(path + side)) << side;
}

TEST(AscendDb, MalformedRowsAreDiagnosedAndSkipped) {
  TempDir d;
  const std::string extra =
      "INSERT INTO PYTORCH_API VALUES (NULL,'5',1,NULL,1,NULL,NULL,NULL,NULL,NULL,50001,0);"
      "INSERT INTO PYTORCH_API VALUES ('12x','5',1,NULL,1,NULL,NULL,NULL,NULL,NULL,50001,0);"
      "INSERT INTO TASK VALUES (1,2,0,NULL,99,1,4242,0,2,3,0,0);";
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows + extra), p, LoadOptions{}).ok());
  EXPECT_EQ(p.diagnostics.count(DiagId::db_null_value), 1u);
  EXPECT_EQ(p.diagnostics.count(DiagId::db_bad_value), 1u);
  EXPECT_GE(p.diagnostics.count(DiagId::db_dangling_id), 1u);  // taskType 4242 is no string id
  EXPECT_EQ(CountKind(p, SliceKind::kCpuOp), 1u);
  EXPECT_EQ(CountKind(p, SliceKind::kNpuTask), 5u);
  EXPECT_NE(p.diagnostics.Summary().find("PYTORCH_API"), std::string::npos) << p.diagnostics.Summary();
}

// The fixture with `extra` rows, loaded (a load that fails is a test failure).
Profile LoadFixtureWith(TempDir& d, const std::string& extra) {
  Profile p;
  const Status st = LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows + extra), p, LoadOptions{});
  EXPECT_TRUE(st.ok()) << st.message();
  return p;
}

// The NPU tasks starting at or after `ts_ns`, in slice order (a test's own TASK rows).
std::vector<const Slice*> TasksFrom(const Profile& p, int64_t ts_ns) {
  std::vector<const Slice*> tasks;
  for (const Slice& s : p.slices)
    if (s.kind == SliceKind::kNpuTask && s.ts_ns >= ts_ns) tasks.push_back(&s);
  return tasks;
}

// A task's stream is its track: a TASK row without a stream id (NULL, or not an integer) is on a
// track of its own, whose stream is no number, apart from a stream -1 (which a real export's
// streamId never is, but a row may hold); the SDMA and compute-stream sums read no stream for it.
TEST(AscendDb, ATaskWithoutAStreamIsOnATrackOfItsOwn) {
  TempDir d;
  const std::string extra =
      "INSERT INTO TASK VALUES (1800,1810,0,NULL,20,1,7,0,NULL,8,0,0), (1820,1830,0,NULL,21,1,7,0,'x',9,0,0),"
      "  (1840,1850,0,NULL,22,1,7,0,-1,10,0,0);";
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows + extra), p, LoadOptions{}).ok());
  const std::vector<const Slice*> tasks = TasksFrom(p, 1800);
  ASSERT_EQ(tasks.size(), 3u);
  EXPECT_EQ(tasks[0]->track, tasks[1]->track);
  EXPECT_NE(tasks[0]->track, tasks[2]->track);
  EXPECT_EQ(p.str(p.track(*tasks[0]).name), "Stream NULL");
  EXPECT_EQ(p.TaskStream(*tasks[0]), kNoNumber);
  EXPECT_EQ(p.TaskStream(*tasks[1]), kNoNumber);
  EXPECT_EQ(p.TaskStream(*tasks[2]), -1);
  EXPECT_EQ(p.str(p.track(*tasks[2]).name), "Stream -1");
  EXPECT_EQ(p.TaskType(static_cast<SliceId>(tasks[0] - p.slices.data())), "EVENT_WAIT_SQE");
  EXPECT_EQ(p.ArgInt(*tasks[2], ArgKey::kTaskId), 10);
}

// A DB slice's one arg is kept in the slice when it fits (Slice::SetInlineArg: a task id in
// [0, 2^32), an op's shapes), in Profile::args otherwise; either way it reads back.
TEST(AscendDb, ASlicesOneArgIsKeptInItWhenItFits) {
  TempDir d;
  const Profile p = LoadFixtureWith(d, "INSERT INTO TASK VALUES (1800,1810,0,NULL,20,1,7,0,2,4294967295,0,0),"
                                       "  (1820,1830,0,NULL,21,1,7,0,2,4294967296,0,0),"
                                       "  (1840,1850,0,NULL,22,1,7,0,2,-1,0,0),"
                                       "  (1860,1870,0,NULL,23,1,7,0,2,NULL,0,0);");
  const std::vector<const Slice*> tasks = TasksFrom(p, 1800);
  ASSERT_EQ(tasks.size(), 4u);
  EXPECT_EQ(p.ArgInt(*tasks[0], ArgKey::kTaskId), 4294967295);
  EXPECT_EQ(tasks[0]->arg_inline, 1u);
  EXPECT_EQ(p.ArgInt(*tasks[1], ArgKey::kTaskId), 4294967296);
  EXPECT_EQ(tasks[1]->arg_inline, 0u);
  EXPECT_EQ(tasks[1]->args_count, 1u);
  EXPECT_EQ(p.ArgInt(*tasks[2], ArgKey::kTaskId), -1);
  EXPECT_EQ(tasks[2]->arg_inline, 0u);
  EXPECT_FALSE(p.FindArg(*tasks[3], ArgKey::kTaskId).has_value());
  EXPECT_EQ(tasks[3]->arg_count(), 0u);
  const Slice* add = FindSlice(p, "aten::add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->arg_inline, 1u);
  EXPECT_EQ(p.ArgText(*add, ArgKey::kInputDims), "float;float");
  // A communication op keeps its three args in Profile::args.
  const Slice* op = FindSlice(p, "hcom_allReduce_1");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->arg_inline, 0u);
  EXPECT_EQ(p.ArgText(*op, ArgKey::kGroupName), "group_a");
}

// A NULL PYTORCH_API name is an op named "", as the 26.1 reference reads it (8.2 failed on it): the
// row loads, without a diagnostic (NULL is a legal value there).
TEST(AscendDb, NullApiNameIsAnEmptyName) {
  TempDir d;
  const std::string extra =
      "INSERT INTO PYTORCH_API VALUES ('1500','1600',1,NULL,NULL,NULL,NULL,NULL,NULL,NULL,50001,0);";
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows + extra), p, LoadOptions{}).ok());
  EXPECT_EQ(CountKind(p, SliceKind::kCpuOp), 2u);
  const Slice* unnamed = FindSlice(p, "");
  ASSERT_NE(unnamed, nullptr);
  EXPECT_EQ(unnamed->ts_ns, 1500);
  EXPECT_EQ(p.diagnostics.count(DiagId::db_dangling_id), 0u) << p.diagnostics.Summary();
}

// Times outside [kMinTimeNs, kMaxTimeNs] are diagnosed and the row skipped: end - start of the first
// TASK row overflowed int64 (found by fuzz_ascend_db under UBSan).
TEST(AscendDb, TimesOutOfRangeAreDiagnosedAndSkipped) {
  TempDir d, d_base;
  Profile base;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d_base, std::string(kDbSchema) + kDbRows), base, LoadOptions{}).ok());
  const std::string extra =
      "INSERT INTO TASK VALUES (-8567828879477331967,1736407067946339560,0,NULL,98,1,0,0,2,3,0,0);"
      "INSERT INTO PYTORCH_API VALUES (9000000000000000000,9100000000000000000,1,NULL,1,NULL,NULL,NULL,NULL,"
      "NULL,50001,0);"
      "INSERT INTO COMMUNICATION_OP VALUES (0,-9223372036854775807,9223372036854775807,NULL,0,999,0,0,0,0,0,0,0);";
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows + extra), p, LoadOptions{}).ok());
  EXPECT_EQ(p.diagnostics.count(DiagId::time_out_of_range), 3u) << p.diagnostics.Summary();
  EXPECT_EQ(p.slices.size(), base.slices.size()) << p.diagnostics.Summary();
  for (const Slice& s : p.slices) EXPECT_TRUE(SpanInRange(s.ts_ns, s.dur_ns));
  std::string details;
  for (const auto& e : p.diagnostics.entry(DiagId::time_out_of_range).examples) details += e.detail + "\n";
  EXPECT_NE(details.find("table TASK row 5: column startNs = -8567828879477331967"), std::string::npos) << details;
  EXPECT_NE(details.find("table COMMUNICATION_OP row 2: column startNs"), std::string::npos) << details;
}

// A row longer than a slice holds (endNs - startNs over 2^46 - 1 ns, 19.5 hours) is kept with dur 0 and
// a duration_too_long error naming the table and row; one of exactly the longest is kept whole.
TEST(AscendDb, DurationsBeyondTheLongestASliceHoldsAreDiagnosed) {
  TempDir d;
  const std::string extra =
      "INSERT INTO TASK VALUES (1000,70368744178664,0,NULL,98,1,0,0,2,3,0,0);"  // 2^46 ns
      "INSERT INTO PYTORCH_API VALUES (2000,70368744179663,1,NULL,1,NULL,NULL,NULL,NULL,NULL,50001,0);"  // 2^46 - 1
      "INSERT INTO COMMUNICATION_OP VALUES (0,3000,9223372036854775,NULL,0,999,0,0,0,0,0,0,0);";
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows + extra), p, LoadOptions{}).ok());
  EXPECT_EQ(p.diagnostics.count(DiagId::duration_too_long), 2u) << p.diagnostics.Summary();
  std::string details;
  for (const auto& e : p.diagnostics.entry(DiagId::duration_too_long).examples) details += e.detail + "\n";
  EXPECT_NE(details.find("table TASK row 5: endNs - startNs = 70368744177664"), std::string::npos) << details;
  EXPECT_NE(details.find("table COMMUNICATION_OP row 2: endNs - startNs = 9223372036851775"), std::string::npos)
      << details;
  int kept_whole = 0, zero = 0;
  for (const Slice& s : p.slices) {
    if (s.ts_ns == 2000 && s.dur_ns == Slice::kMaxDurNs) ++kept_whole;
    if ((s.ts_ns == 1000 || s.ts_ns == 3000) && s.dur_ns == 0) ++zero;
  }
  EXPECT_EQ(kept_whole, 1);
  EXPECT_EQ(zero, 2);
}

TEST(AscendDb, MissingTablesLeaveTheirDataEmpty) {
  TempDir d;
  const std::string sql = std::string(kDbSchema) + kDbRows + "DROP TABLE OP_MEMORY; DROP TABLE COMMUNICATION_OP;";
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, sql), p, LoadOptions{}).ok());
  EXPECT_FALSE(p.npu.has_operator_memory);
  EXPECT_EQ(CountKind(p, SliceKind::kHcclOp), 0u);
  EXPECT_EQ(p.diagnostics.count(DiagId::db_table_missing), 2u);
}

TEST(AscendDb, BadFilesAreErrorsNamingTheFileAndTable) {
  TempDir d;
  // A table without a column the loader reads.
  const std::string no_column = MakeDb(d, "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER);", "ascend_pytorch_profiler_1.db");
  Profile p1;
  Status s1 = LoadAscendDb(no_column, p1, LoadOptions{});
  ASSERT_FALSE(s1.ok());
  EXPECT_NE(s1.message().find(no_column), std::string::npos) << s1.message();
  EXPECT_NE(s1.message().find("table TASK"), std::string::npos) << s1.message();

  // Not a database at all, and an empty database (no profiler table).
  const std::string garbage = d / "ascend_pytorch_profiler_2.db";
  std::ofstream(garbage, std::ios::binary) << std::string(4096, 'x');
  Profile p2;
  Status s2 = LoadAscendDb(garbage, p2, LoadOptions{});
  ASSERT_FALSE(s2.ok());
  EXPECT_NE(s2.message().find(garbage), std::string::npos) << s2.message();
  EXPECT_NE(s2.message().find("not a readable SQLite database"), std::string::npos) << s2.message();
  const std::string empty = MakeDb(d, "CREATE TABLE OTHER (a INTEGER);", "ascend_pytorch_profiler_3.db");
  Profile p3;
  Status s3 = LoadAscendDb(empty, p3, LoadOptions{});
  ASSERT_FALSE(s3.ok());
  EXPECT_NE(s3.message().find("not an Ascend profiler database"), std::string::npos) << s3.message();
}

TEST(AscendDb, TruncatedFileIsAnErrorOrADiagnosedLoadNeverACrash) {
  TempDir d;
  std::string rows = std::string(kDbSchema) + kDbRows;
  for (int i = 0; i < 300; ++i) rows += "INSERT INTO STRING_IDS (value) VALUES ('padding string number " + std::to_string(i) + "');";
  const std::string full = MakeDb(d, rows);
  const auto size = fs::file_size(full);
  for (uintmax_t keep : {uintmax_t{100}, size / 3, size / 2, size - 1024}) {
    const std::string cut = d / ("ascend_pytorch_profiler_cut" + std::to_string(keep) + ".db");
    fs::copy_file(full, cut);
    fs::resize_file(cut, keep);
    Profile p;
    Status s = LoadAscendDb(cut, p, LoadOptions{});
    if (!s.ok()) {
      EXPECT_NE(s.message().find(cut), std::string::npos) << s.message();
    }
  }
}

TEST(AscendDb, ResolutionPrefersTheDbUnlessTextIsAsked) {
  TempDir d;
  const fs::path out = fs::path(d.path()) / "r0_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
  fs::create_directories(out);
  ASSERT_EQ(WriteDb((out / "ascend_pytorch_profiler_0.db").string(), std::string(kDbSchema) + kDbRows), "");
  std::ofstream(out / "trace_view.json") << "[]";
  const std::string dir = (fs::path(d.path()) / "r0_ascend_pt").string();
  auto automatic = ResolveInput(dir);
  ASSERT_TRUE(automatic.ok());
  EXPECT_EQ(automatic->format, SourceFormat::kAscendDb);
  auto text = ResolveInput(dir, false, InputFormat::kText);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->format, SourceFormat::kAscendProfileDir);
  EXPECT_TRUE(text->db_file.empty());
  fs::remove(out / "trace_view.json");
  auto no_text = ResolveInput(dir, false, InputFormat::kText);
  ASSERT_FALSE(no_text.ok());
  EXPECT_NE(no_text.status().message().find("--input-format text"), std::string::npos);
  auto db_file = ResolveInput((out / "ascend_pytorch_profiler_0.db").string(), false, InputFormat::kText);
  EXPECT_FALSE(db_file.ok());

  LoadOptions options;
  options.input_format = InputFormat::kDb;
  auto loaded = LoadProfile(dir, options);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ((*loaded)->meta.path_level, "db");
  // 4 API rows (the python function kept compactly), 4 tasks, 1 HCCL op, 1 HCCL task
  EXPECT_EQ((*loaded)->slices.size(), 9u);
  EXPECT_EQ((*loaded)->python_functions.size(), 1u);
}

}  // namespace
}  // namespace profdiff

namespace profdiff {
namespace {

// Deterministic byte mutations of a small export (what the fuzz target fuzz_ascend_db does at
// random): every load either succeeds, with whatever diagnostics, or fails with a message naming the
// file. Never a crash.
TEST(AscendDb, MutatedBytesNeverCrash) {
  report::testing::TempDir d;
  const std::string good = d / "good.db";
  ASSERT_EQ(testing::WriteDb(good, std::string(testing::kDbSchema) + testing::kDbRows), "");
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  ASSERT_GT(bytes.size(), 4096u);
  const std::string path = d / "ascend_pytorch_profiler_0.db";
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int failed = 0;
  for (int round = 0; round < 300; ++round) {
    std::string mutated = bytes;
    const int flips = 1 + static_cast<int>(next() % 8);
    for (int i = 0; i < flips; ++i) mutated[next() % mutated.size()] = static_cast<char>(next() & 0xFF);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << mutated;
    Profile p;
    const Status s = LoadAscendDb(path, p, LoadOptions{});
    if (!s.ok()) {
      ++failed;
      EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
    }
  }
  RecordProperty("failed_loads", failed);
}

}  // namespace
}  // namespace profdiff

namespace profdiff {
namespace {

// TASK_PMU_INFO drives the DB cube test: a non-zero aic_total_time or aic_mac_time makes a compute
// task a cube task; text that is not a number reads as zero (never an exception).
TEST(AscendDb, PmuCubeFlag) {
  report::testing::TempDir d;
  const std::string pmu =
      "CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER, value NUMERIC);"
      "INSERT INTO STRING_IDS VALUES (40,'aic_total_time'),(41,'aiv_time');";
  int n = 0;
  for (const auto& [rows, cube] : {std::pair<std::string, bool>{"(10,40,'12.5')", true},
                                   {"(10,40,'not a number')", false},
                                   {"(10,40,0),(10,41,7)", false}}) {
    const std::string path = d / ("ascend_pytorch_profiler_" + std::to_string(n++) + ".db");
    ASSERT_EQ(testing::WriteDb(path, std::string(testing::kDbSchema) + testing::kDbRows + pmu +
                                         "INSERT INTO TASK_PMU_INFO VALUES " + rows + ";"),
              "");
    Profile p;
    ASSERT_TRUE(LoadAscendDb(path, p, LoadOptions{}).ok()) << rows;
    EXPECT_TRUE(p.npu.db.has_pmu);
    ASSERT_EQ(p.npu.db.compute_tasks.size(), 1u);
    EXPECT_EQ(p.npu.db.compute_tasks[0].pmu_cube != 0, cube) << rows;
    EXPECT_EQ(p.str(p.npu.db.compute_tasks[0].rts_type), "KERNEL_AICORE");
  }
}

// The load's steps, each with its cost, in order (`--verbose`).
// With reader threads, the tables that need nothing of the API rows are read beside them (the
// step says which); with one thread, in turn.
TEST(AscendDb, LoadStepsAreTimed) {
  TempDir d;
  const std::string index = "CREATE INDEX CommunicationTaskIndex ON COMMUNICATION_TASK_INFO (globalTaskId);";
  const std::string file = MakeDb(d, std::string(kDbSchema) + kDbRows + index);
  for (int threads : {1, 2}) {
    LoadOptions o;
    o.threads = threads;
    Profile p;
    ASSERT_TRUE(LoadAscendDb(file, p, o).ok());
    std::vector<std::string> names;
    for (const PhaseTiming& lp : p.meta.load_phases) {
      names.push_back(lp.name);
      EXPECT_GE(lp.cost.wall_ms, 0.0) << lp.name;
      EXPECT_GT(lp.cost.peak_rss_kib, 0) << lp.name;
    }
    const std::string api = threads == 1 ? "PYTORCH_API"
                                         : "PYTORCH_API (COMPUTE_TASK_INFO, COMMUNICATION_TASK_INFO, MEMORY_RECORD "
                                           "read beside it)";
    EXPECT_EQ(names, (std::vector<std::string>{"STRING_IDS, ENUM_API_TYPE, STEP_TIME, META_DATA", "CONNECTION_IDS",
                                               api, "TASK, COMPUTE_TASK_INFO, COMMUNICATION_TASK_INFO",
                                               "TASK_PMU_INFO", "COMMUNICATION_OP, launch links, communication tasks",
                                               "OP_MEMORY, MEMORY_RECORD", "row counts"}));
  }
}

// The kernel launches, as pairing trace_view's flow events by id gives them: each CANN id some API
// row holds (through CONNECTION_IDS) links its last such row to its last task or communication op,
// the links in order of each id's first CONNECTION_IDS link in PYTORCH_API order (not id order);
// an id no task holds is counted, one no API row holds is no launch. A python function's id
// launches too.
TEST(AscendDb, LaunchesLinkTheLastRowToTheLastEndInOrderOfFirstLink) {
  TempDir d;
  const std::string rows =
      "INSERT INTO STRING_IDS VALUES (40,'aten::mul'),(41,'aten::mul_backward');"
      "INSERT INTO PYTORCH_API VALUES ('2100','2200',(3136493 << 32) | 7,90,40,NULL,NULL,NULL,NULL,NULL,50001,0),"
      "  ('2300','2400',(3136493 << 32) | 7,91,41,NULL,NULL,NULL,NULL,NULL,50001,0),"
      "  ('2500','2600',(3136493 << 32) | 7,92,15,NULL,NULL,NULL,NULL,NULL,50003,0);"
      "INSERT INTO CONNECTION_IDS VALUES (90, 900), (90, 100), (91, 50), (91, 900), (92, 60), (92, 70);"
      "INSERT INTO TASK VALUES (3000,3010,0,900,20,1,7,0,2,20,0,0), (3100,3110,0,100,21,1,7,0,2,21,0,0),"
      "  (3200,3210,0,900,22,1,7,0,2,22,0,0), (3300,3310,0,50,23,1,7,0,2,23,0,0),"
      "  (3400,3410,0,60,24,1,7,0,2,24,0,0), (3500,3510,0,999,25,1,7,0,2,25,0,0);";
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows + rows), p, LoadOptions{}).ok());
  struct Expected {
    int64_t id, start_ns, end_ns;
  };
  // 500 and 501 (aten::add's, first), 900 (first linked by aten::mul, last held by
  // aten::mul_backward, last ended at 3200), 100, 50, 60 (the python function's); 70 has no end.
  const std::vector<Expected> expected = {{500, 1100, 1500}, {501, 1100, 1610}, {900, 2300, 3200},
                                          {100, 2100, 3100}, {50, 2300, 3300},  {60, 2500, 3400}};
  const std::vector<DbLaunchLink>& links = p.npu.db.launch_links;
  ASSERT_EQ(links.size(), expected.size());
  for (size_t i = 0; i < links.size(); ++i) {
    EXPECT_EQ(links[i].connection_id, expected[i].id) << i;
    EXPECT_EQ(p.slices[links[i].start].ts_ns, expected[i].start_ns) << i;
    EXPECT_EQ(p.slices[links[i].end].ts_ns, expected[i].end_ns) << i;
  }
  EXPECT_EQ(p.slices[links[1].end].kind, SliceKind::kHcclOp);  // the op, read after the TASK row at 1610
  EXPECT_EQ(p.slices[links[5].start].kind, SliceKind::kPythonFunction);
  EXPECT_EQ(p.npu.db.launch_ids_without_end, 1u);
  // 900 is held by two torch ops: also their fwdbwd pair, the only flow events.
  ASSERT_EQ(p.flows.size(), 2u);
  EXPECT_EQ(p.str(p.flows[0].cat), "fwdbwd");
  EXPECT_EQ(p.flows[0].id, 900u);
}

// Two torch ops sharing a CANN connection id are PyTorch's forward op and its backward op: one
// fwdbwd flow from the earlier start to the later. Two queue rows sharing one (an Enqueue and its
// Dequeue), or three rows, are not a link. The compute task keeps its device task id and its DB key.
TEST(AscendDb, TwoOpsSharingAConnectionIdAreAForwardBackwardLink) {
  report::testing::TempDir d;
  const std::string rows =
      "INSERT INTO STRING_IDS VALUES (40,'aten::add_backward'),(41,'Dequeue@aten::add');"
      "INSERT INTO PYTORCH_API VALUES ('1800','1850',(3136493 << 32) | 9,78,40,NULL,NULL,NULL,NULL,NULL,50001,0),"
      "  ('1170','1180',(3136493 << 32) | 8,79,41,NULL,NULL,NULL,NULL,NULL,50002,0);"
      "UPDATE PYTORCH_API SET connectionId = 80 WHERE name = 14;"
      "INSERT INTO CONNECTION_IDS VALUES (78, 500), (79, 600), (80, 600);";
  Profile p;
  ASSERT_TRUE(LoadAscendDb(MakeDb(d, std::string(kDbSchema) + kDbRows + rows), p, LoadOptions{}).ok());
  std::vector<const FlowEvent*> fwd_bwd;
  for (const FlowEvent& f : p.flows)
    if (p.str(f.cat) == "fwdbwd") fwd_bwd.push_back(&f);
  // 500: aten::add (1100) and aten::add_backward (1800); 501 has one row, 600 two queue rows.
  ASSERT_EQ(fwd_bwd.size(), 2u);
  EXPECT_EQ(fwd_bwd[0]->phase, 's');
  EXPECT_EQ(fwd_bwd[0]->ts_ns, 1100);
  EXPECT_EQ(fwd_bwd[1]->phase, 'f');
  EXPECT_EQ(fwd_bwd[1]->ts_ns, 1800);
  EXPECT_EQ(fwd_bwd[0]->id, 500u);
  EXPECT_EQ(p.track(*FindSlice(p, "aten::add_backward")).tid, 9);
  EXPECT_EQ(p.tracks[fwd_bwd[1]->track].tid, 9);
  const Slice* kernel = FindSlice(p, "AddKernel");
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(p.ArgInt(*kernel, ArgKey::kTaskId), 3);  // TASK.taskId
  const auto kernel_id = static_cast<SliceId>(kernel - p.slices.data());
  ASSERT_TRUE(p.DbComputeRow(kernel_id).has_value());
  EXPECT_EQ(p.npu.db.compute_tasks[*p.DbComputeRow(kernel_id)].global_task_id, 10);  // TASK.globalTaskId
}

}  // namespace
}  // namespace profdiff

namespace profdiff {
namespace {

// `profdiff cluster` reads more of a DB export (LoadOptions::cluster_tables): CANN_API's launch starts
// of its communication ops and compute tasks, and analysis.db beside it; `compare` reads none of it.
TEST(AscendDb, ClusterTablesOnlyWhenAsked) {
  for (const std::string& f : testing::CorpusDbExports()) {
    if (f.find("msinsight_pt_db_2025_level2") == std::string::npos) continue;
    Profile plain, cluster;
    ASSERT_TRUE(LoadAscendDb(f, plain, LoadOptions{}).ok()) << f;
    EXPECT_FALSE(plain.npu.db.has_cann_api);
    EXPECT_FALSE(plain.npu.step_trace.present);
    LoadOptions options;
    options.cluster_tables = true;
    ASSERT_TRUE(LoadAscendDb(f, cluster, options).ok()) << f;
    EXPECT_TRUE(cluster.npu.db.has_cann_api && cluster.npu.db.has_analysis_db);
    EXPECT_FALSE(cluster.npu.db.cann_api_starts.empty());
    const auto& starts = cluster.npu.db.cann_api_starts;
    EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end(), [](auto& a, auto& b) { return a.first < b.first; }));
    EXPECT_EQ(cluster.npu.db.comm_analyzer_time_rows, 4);  // four allreduces
    const StepTraceTable& t = cluster.npu.step_trace;
    ASSERT_TRUE(t.present);
    ASSERT_EQ(t.steps, std::vector<std::string>{"50"});
    ASSERT_GE(t.columns.size(), 5u);
    EXPECT_EQ(t.columns[0], "Computing");
    EXPECT_EQ(t.columns[4], "Free");
    EXPECT_GT(t.values_ns[0][0], 0);
    EXPECT_EQ(static_cast<double>(t.values_ns[0][0]) / 1000.0, t.values_us_float[0][0]);  // a ns-exact REAL
    EXPECT_EQ(cluster.slices.size(), plain.slices.size());  // the model itself is the same
  }
}

// The tables of the reference's cluster_analysis.db (model/cluster_db_tables.h): every column, each
// cell by its storage class; META_DATA parallel_group_info in its order with sorted ranks; the rank
// folder's profiler_metadata.json distributed_args without "rank".
TEST(AscendDb, ClusterDbTablesKeepEachCellsStorageClass) {
  TempDir d;
  const fs::path out = fs::path(d.path()) / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
  fs::create_directories(out);
  const std::string info = R"({"g2": {"group_name": "pp", "global_ranks": [3, 1]}, "g1": {"global_ranks": []}})";
  const std::string db = (out / "ascend_pytorch_profiler_0.db").string();
  ASSERT_EQ(WriteDb(db, std::string(kDbSchema) + kDbRows +
                            "CREATE TABLE META_DATA (name TEXT, value TEXT);"
                            "INSERT INTO META_DATA VALUES ('parallel_group_info', '" + info + "');"
                            "CREATE TABLE HOST_INFO (hostUid TEXT, hostName TEXT);"
                            "INSERT INTO HOST_INFO VALUES ('42', 'h'), ('43', 'second row: not read');"
                            "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);"
                            "INSERT INTO RANK_DEVICE_MAP VALUES (0, 4);"),
            "");
  ASSERT_EQ(WriteDb((out / "analysis.db").string(),
                    "CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
                    "synchronization_time NUMERIC);"
                    "INSERT INTO CommAnalyzerTime VALUES ('op', '17', 1736410576520400.0, 0.25), ('op2', NULL, 1.5, 3);"),
            "");
  std::ofstream(fs::path(d.path()) / "rank0_ascend_pt" / "profiler_metadata.json")
      << R"({"distributed_args": {"world_size": 2, "rank": 0, "backend": "hccl"}})";
  LoadOptions options;
  options.cluster_tables = true;
  Profile p;
  ASSERT_TRUE(LoadAscendDb(db, p, options).ok());
  const ClusterDbTables& t = p.npu.db.cluster;
  EXPECT_TRUE(t.present && t.has_analysis_db);
  ASSERT_TRUE(t.comm_time.present);
  EXPECT_EQ(t.comm_time.columns, (std::vector<std::string>{"hccl_op_name", "group_name", "start_timestamp",
                                                           "synchronization_time"}));
  ASSERT_EQ(t.comm_time.rows.size(), 2u);
  EXPECT_EQ(t.comm_time.rows[0][1], SqlValue::Text("17"));
  EXPECT_EQ(t.comm_time.rows[0][2], SqlValue::Int(1736410576520400));  // NUMERIC stored it as an integer
  EXPECT_EQ(t.comm_time.rows[0][3], SqlValue::Real(0.25));
  EXPECT_EQ(t.comm_time.rows[1][1], SqlValue::Null());
  EXPECT_EQ(t.comm_time.rows[1][3], SqlValue::Int(3));
  EXPECT_FALSE(t.comm_bandwidth.present);
  ASSERT_EQ(t.host_info.rows.size(), 1u);  // the first row only, as the reference reads it
  EXPECT_EQ(t.rank_device_map.rows, (std::vector<std::vector<SqlValue>>{{SqlValue::Int(0), SqlValue::Int(4)}}));
  ASSERT_TRUE(t.has_parallel_group_info);
  ASSERT_EQ(t.parallel_groups.size(), 2u);
  EXPECT_EQ(t.parallel_groups[0].group_id, "g2");  // the JSON's order
  EXPECT_EQ(t.parallel_groups[0].pg_name, "pp");
  EXPECT_EQ(t.parallel_groups[0].global_ranks, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(t.parallel_groups[1].pg_name, "");
  EXPECT_EQ(t.distributed_args_json, R"({"world_size":2,"backend":"hccl"})");
  EXPECT_TRUE(t.notes.empty());
  Profile plain;  // compare reads none of it
  ASSERT_TRUE(LoadAscendDb(db, plain, LoadOptions{}).ok());
  EXPECT_FALSE(plain.npu.db.cluster.present);
}

TEST(AscendDb, ClusterDbTablesNoteAParallelGroupInfoThatIsNotJson) {
  TempDir d;
  const std::string db = MakeDb(d, std::string(kDbSchema) + kDbRows +
                                       "CREATE TABLE META_DATA (name TEXT, value TEXT);"
                                       "INSERT INTO META_DATA VALUES ('parallel_group_info', '{not json');");
  LoadOptions options;
  options.cluster_tables = true;
  Profile p;
  ASSERT_TRUE(LoadAscendDb(db, p, options).ok());
  EXPECT_FALSE(p.npu.db.cluster.has_parallel_group_info);
  ASSERT_EQ(p.npu.db.cluster.notes.size(), 1u);
  EXPECT_NE(p.npu.db.cluster.notes[0].find("parallel_group_info is not a JSON object"), std::string::npos);
  EXPECT_FALSE(p.npu.db.cluster.has_analysis_db);
}

}  // namespace
}  // namespace profdiff
