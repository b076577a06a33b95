// Small synthetic Ascend DB exports for the DB loader tests: the tables and columns profdiff reads,
// with the shapes of a real export (PYTORCH_API times as text, strings behind STRING_IDS ids).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace profdiff::testing {

// The schema of the tables the loader reads (columns as in a CANN 8 export).
inline constexpr const char* kDbSchema = R"sql(
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER,
  sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER,
  type INTEGER, depth INTEGER);
CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER, globalTaskId INTEGER,
  globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER, modelId INTEGER,
  depth INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER PRIMARY KEY, blockDim INTEGER,
  mixBlockDim INTEGER, taskType INTEGER, opType INTEGER, inputFormats INTEGER, inputDataTypes INTEGER,
  inputShapes INTEGER, outputFormats INTEGER, outputDataTypes INTEGER, outputShapes INTEGER, attrInfo INTEGER,
  waitNs INTEGER);
CREATE TABLE COMMUNICATION_OP (opName INTEGER, startNs INTEGER, endNs INTEGER, connectionId INTEGER,
  groupName INTEGER, opId INTEGER PRIMARY KEY, relay INTEGER, retry INTEGER, dataType INTEGER, algType INTEGER,
  count NUMERIC, opType INTEGER, waitNs INTEGER);
CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER, globalTaskId INTEGER, taskType INTEGER, planeId INTEGER,
  groupName INTEGER, notifyId INTEGER, rdmaType INTEGER, srcRank INTEGER, dstRank INTEGER,
  transportType INTEGER, size INTEGER, dataType INTEGER, linkType INTEGER, opId INTEGER);
CREATE TABLE OP_MEMORY (name INTEGER, size INTEGER, allocationTime INTEGER, releaseTime INTEGER,
  activeReleaseTime INTEGER, duration INTEGER, activeDuration INTEGER, allocationTotalAllocated INTEGER,
  allocationTotalReserved INTEGER, allocationTotalActive INTEGER, releaseTotalAllocated INTEGER,
  releaseTotalReserved INTEGER, releaseTotalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);
CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER, totalAllocated INTEGER, totalReserved INTEGER,
  totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);
)sql";

// One step (50) of 1000 ns; two torch ops (aten::add launches two CANN ids, one of them a compute
// task, the other a communication op), one python function, an Enqueue, a compute task, an event
// task, an HCCL op with one plane task, one op-memory row and two memory records.
inline constexpr const char* kDbRows = R"sql(
INSERT INTO STRING_IDS VALUES (1,'aten::add'),(2,'ProfilerStep#50'),(3,'AddKernel'),(4,'Add'),(5,'AI_CORE'),
  (6,'KERNEL_AICORE'),(7,'EVENT_WAIT_SQE'),(8,'hcom_allReduce_1'),(9,'group_a'),(10,'hcom_allReduce'),
  (11,'Notify_Wait'),(12,'NOTIFY_WAIT_SQE'),(13,'8,16'),(14,'Enqueue@aten::add'),(15,'train.py: step'),
  (16,'PTA'),(17,'float;float');
INSERT INTO ENUM_API_TYPE VALUES (50001,'op'),(50002,'queue'),(50003,'trace');
INSERT INTO STEP_TIME VALUES (50, 1000, 2000);
INSERT INTO PYTORCH_API VALUES
  ('1000','2000',(3136493 << 32) | 7,NULL,2,NULL,NULL,NULL,NULL,NULL,50001,0),
  ('1100','1400',(3136493 << 32) | 7,77,1,12,NULL,NULL,17,NULL,50001,1),
  ('1000','1900',(3136493 << 32) | 7,NULL,15,NULL,NULL,NULL,NULL,NULL,50003,0),
  ('1150','1160',(3136493 << 32) | 8,NULL,14,NULL,NULL,NULL,NULL,NULL,50002,0);
INSERT INTO CONNECTION_IDS VALUES (77, 500), (77, 501);
INSERT INTO TASK VALUES (1500,1600,0,500,10,1,6,0,2,3,0,0), (1700,1750,0,NULL,11,1,7,0,2,4,0,0),
  (1610,1900,0,501,12,1,12,0,5,5,0,0), (1620,1640,0,NULL,13,1,12,0,5,6,0,0);
INSERT INTO COMPUTE_TASK_INFO VALUES (3,10,1,0,5,4,NULL,NULL,13,NULL,NULL,NULL,NULL,0);
INSERT INTO COMMUNICATION_OP VALUES (8,1610,1900,501,9,1,0,0,0,0,4,10,0);
INSERT INTO COMMUNICATION_TASK_INFO VALUES (8,13,11,0,9,0,0,0,1,0,0,0,0,1);
INSERT INTO OP_MEMORY VALUES (16,2048,1100,1800,NULL,700,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0);
INSERT INTO MEMORY_RECORD VALUES (16,1100,1048576,2097152,0,0,0),(16,1800,0,3145728,0,0,0);
)sql";

// SQLite's count(*) of `table` in the open database `db` (-1 when it cannot be counted).
inline int64_t SqliteCount(sqlite3* db, const std::string& table) {
  sqlite3_stmt* st = nullptr;
  int64_t n = -1;
  if (sqlite3_prepare_v2(db, ("SELECT count(*) FROM " + table).c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return n;
}

// Creates `path` holding `sql` (run as one script; PRAGMAs such as page_size first), with
// `reserve_bytes` reserved per page. Returns sqlite's error text, "" on success.
inline std::string WriteDb(const std::string& path, const std::string& sql, int reserve_bytes = 0) {
  sqlite3* db = nullptr;
  std::string error;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    error = db != nullptr ? sqlite3_errmsg(db) : "cannot open";
  } else {
    // Bytes reserved at the end of every page (set before the first page is written).
    if (reserve_bytes > 0) sqlite3_file_control(db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve_bytes);
    char* msg = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) error = msg != nullptr ? msg : "exec";
    sqlite3_free(msg);
  }
  sqlite3_close(db);
  return error;
}

// The profiler DB exports (ascend_*.db) of ../shared/corpus, empty when it is absent (a user's
// clone).
inline std::vector<std::string> CorpusDbExports() {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  const fs::path corpus = fs::path(PROFDIFF_SOURCE_DIR) / ".." / "shared" / "corpus";
  if (!fs::exists(corpus)) return files;
  for (const auto& e : fs::recursive_directory_iterator(corpus))
    if (e.path().extension() == ".db" && e.path().filename().string().starts_with("ascend_"))
      files.push_back(e.path().string());
  return files;
}

}  // namespace profdiff::testing
