// The Ascend DB export loader (ascend_db.h): SQLite tables -> the timeline model.
#include "profdiff/loaders/ascend_db.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ascend_db_cluster.h"
#include "ascend_db_sqlite.h"
#include "ascend_db_string_ids.h"
#include "profdiff/base/helper_thread.h"
#include "profdiff/base/page_warmer.h"
#include "profdiff/base/radix_sort.h"
#include "profdiff/base/sorted_cursor.h"
#include "profdiff/base/time.h"

namespace profdiff {
namespace {

using db::Database;
using db::IntCell;
using db::Statement;

// Every table the loader reads, in the order `inspect` lists them.
constexpr std::string_view kTablesUsed[] = {
    "STRING_IDS",    "ENUM_API_TYPE",    "STEP_TIME",        "PYTORCH_API",
    "CONNECTION_IDS", "TASK",            "COMPUTE_TASK_INFO", "COMMUNICATION_OP",
    "COMMUNICATION_TASK_INFO", "OP_MEMORY", "MEMORY_RECORD", "META_DATA", "TASK_PMU_INFO"};

// The columns of the tables that may be read ahead (DbLoader::StartAhead), in the order read.
const std::vector<std::string_view> kComputeInfoColumns = {"globalTaskId", "name", "opType", "taskType",
                                                           "inputShapes"};
const std::vector<std::string_view> kCommTaskColumns = {"taskType", "planeId", "groupName", "globalTaskId"};
const std::vector<std::string_view> kMemoryRecordColumns = {"timestamp", "totalReserved"};

constexpr std::string_view kHardwarePid = "Ascend Hardware";
constexpr std::string_view kCommPid = "Communication";
// The most threads a big table's scan decodes on, beside the one building the model.
constexpr int kMaxDbReaders = 4;

// Frees a vector's memory: `v = {}` picks the initializer-list assignment, which empties the
// vector but keeps its capacity.
template <typename T>
void Free(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

// The largest value at the times each step holds ([start_ns, end_ns], ends included; steps may
// overlap, nest or repeat), into DbStep::peak_reserved_mb, without keeping the values: the steps'
// starts and ends cut the time line into slots (each such time, and the open stretch between two),
// a value raises the peak of its slot, and a step's peak is the largest over its run of slots (a
// sparse table: any number of steps in O(slots log slots)).
class StepPeaks {
 public:
  explicit StepPeaks(std::vector<DbStep>& steps) : steps_(steps) {
    for (const DbStep& s : steps) {
      points_.push_back(s.start_ns);
      points_.push_back(s.end_ns);
    }
    std::sort(points_.begin(), points_.end());
    points_.erase(std::unique(points_.begin(), points_.end()), points_.end());
    slot_peak_.assign(2 * points_.size() + 1, 0.0);
  }
  void Add(int64_t ts_ns, double value) {
    double& peak = slot_peak_[SlotOf(ts_ns)];
    peak = std::max(peak, value);
  }
  // Each step's peak (0 when no value lies in it, as for a step that ends before it starts).
  void Finish() {
    std::vector<std::vector<double>> table{slot_peak_};  // table[k][i]: the largest of slots [i, i + 2^k)
    for (size_t k = 1; (size_t{1} << k) <= slot_peak_.size(); ++k) {
      const std::vector<double>& prev = table[k - 1];
      std::vector<double> next(slot_peak_.size() - (size_t{1} << k) + 1);
      for (size_t i = 0; i < next.size(); ++i) next[i] = std::max(prev[i], prev[i + (size_t{1} << (k - 1))]);
      table.push_back(std::move(next));
    }
    for (DbStep& s : steps_) {
      if (s.start_ns > s.end_ns) continue;
      const size_t lo = SlotOf(s.start_ns), hi = SlotOf(s.end_ns);  // both are points: odd slots
      const auto k = static_cast<size_t>(std::bit_width(hi - lo + 1) - 1);
      s.peak_reserved_mb = std::max(table[k][lo], table[k][hi + 1 - (size_t{1} << k)]);
    }
  }

 private:
  // Slot 2j + 1 is points_[j] itself, slot 2j the stretch just before it (slot 2n after the last).
  size_t SlotOf(int64_t ts_ns) const {
    const auto j = static_cast<size_t>(std::lower_bound(points_.begin(), points_.end(), ts_ns) - points_.begin());
    return j < points_.size() && points_[j] == ts_ns ? 2 * j + 1 : 2 * j;
  }
  std::vector<DbStep>& steps_;
  std::vector<int64_t> points_;    // the steps' starts and ends, sorted, distinct
  std::vector<double> slot_peak_;  // the largest value of each slot (0 when none)
};

// The checks of a row's cells, each failure a diagnostic naming the file, the table, the row and the
// column, added to `diags`: the profile's, or a table's own while it is read on another thread.
class RowChecks {
 public:
  RowChecks(const std::string& file, Diagnostics& diags) : file_(file), diags_(diags) {}
  // A required integer cell; false (and a diagnostic naming table and row) when it is NULL or bad.
  bool Need(const IntCell& c, std::string_view table, std::string_view column, int64_t row) {
    if (c.ok()) return true;
    const DiagId id = c.state == IntCell::State::kNull ? DiagId::db_null_value : DiagId::db_bad_value;
    diags_.Add(id, {file_, 0, -1}, fmt::format("table {} row {}: column {}", table, row, column));
    return false;
  }
  // A time cell: Need() and within [kMinTimeNs, kMaxTimeNs], so that end - start cannot overflow.
  bool NeedTime(const IntCell& c, std::string_view table, std::string_view column, int64_t row) {
    if (c.ok() && TimeInRange(c.value)) [[likely]] return true;
    return NeedTimeSlow(c, table, column, row);
  }
  // endNs - startNs of a row (both in range): 0 when negative; 0 with a duration_too_long diagnostic
  // beyond the longest a slice holds.
  int64_t Duration(int64_t start, int64_t end, std::string_view table, int64_t row) {
    const int64_t d = end - start;
    if (d <= Slice::kMaxDurNs) [[likely]] return std::max<int64_t>(0, d);
    diags_.Add(DiagId::duration_too_long, {file_, 0, -1},
               fmt::format("table {} row {}: endNs - startNs = {}", table, row, d));
    return 0;
  }
  // An optional time cell: its value when present and in range.
  std::optional<int64_t> OptionalTime(const IntCell& c, std::string_view table, std::string_view column,
                                      int64_t row) {
    if (!c.ok()) return std::nullopt;
    if (TimeInRange(c.value)) return c.value;
    OutOfRange(c, table, column, row);
    return std::nullopt;
  }

 private:
  bool NeedTimeSlow(const IntCell& c, std::string_view table, std::string_view column, int64_t row) {
    if (!Need(c, table, column, row)) return false;
    if (TimeInRange(c.value)) return true;
    OutOfRange(c, table, column, row);
    return false;
  }
  void OutOfRange(const IntCell& c, std::string_view table, std::string_view column, int64_t row) {
    diags_.Add(DiagId::time_out_of_range, {file_, 0, -1},
               fmt::format("table {} row {}: column {} = {}", table, row, column, c.value));
  }

  const std::string& file_;
  Diagnostics& diags_;
};

// What a comparison reads of MEMORY_RECORD (MemoryRecordSummary): the largest reserved total, of
// the whole table and of each STEP_TIME step holding the row's time (DbStep::peak_reserved_mb of
// `steps`). On any thread: it touches only its arguments.
Status ReadMemoryRecord(Statement& st, RowChecks& checks, MemoryRecordSummary& summary, std::vector<DbStep>& steps) {
  constexpr double kBytesPerMb = 1024.0 * 1024.0;
  StepPeaks peaks(steps);
  for (int64_t n = 1;; ++n) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const IntCell ts = st.Int(0), reserved = st.Int(1);
    if (!checks.NeedTime(ts, "MEMORY_RECORD", "timestamp", n) ||
        !checks.Need(reserved, "MEMORY_RECORD", "totalReserved", n))
      continue;
    const double mb = static_cast<double>(reserved.value) / kBytesPerMb;
    ++summary.rows;
    summary.peak_reserved_mb = std::max(summary.peak_reserved_mb, mb);
    peaks.Add(ts.value, mb);
  }
  peaks.Finish();
  return Status::Ok();
}

class DbLoader {
 public:
  DbLoader(const Database& db, Profile& p, bool python_functions)
      : db_(db), p_(p), python_functions_(python_functions) {}

  // The tables in turn, each step's cost kept in meta.load_phases (`--verbose`).
  Status Run() {
    PhaseClock clock;
    auto done = [&](std::string_view step) { p_.meta.load_phases.push_back({std::string(step), clock.Lap()}); };
    PD_RETURN_IF_ERROR(ListTables());
    Reserve();
    PD_RETURN_IF_ERROR(LoadStrings());
    PD_RETURN_IF_ERROR(LoadApiTypes());
    PD_RETURN_IF_ERROR(LoadSteps());
    PD_RETURN_IF_ERROR(LoadMetaData());
    done("STRING_IDS, ENUM_API_TYPE, STEP_TIME, META_DATA");
    PD_RETURN_IF_ERROR(LoadConnections());
    done("CONNECTION_IDS");
    StartAhead();
    if (db_.readers() > 0) warmer_.emplace(kWarmArrays, kWarmAheadBytes);
    PD_RETURN_IF_ERROR(LoadTorchApi());
    connection_cursor_.reset();  // the connections are read by the API rows only
    Free(connections_);
    done(AheadTables().empty() ? std::string("PYTORCH_API")
                               : fmt::format("PYTORCH_API ({} read beside it)", fmt::join(AheadTables(), ", ")));
    PD_RETURN_IF_ERROR(LoadTasks());
    warmer_.reset();
    done("TASK, COMPUTE_TASK_INFO, COMMUNICATION_TASK_INFO");
    PD_RETURN_IF_ERROR(LoadPmu());
    BuildOpStatistic();
    done("TASK_PMU_INFO");
    PD_RETURN_IF_ERROR(LoadCommunicationOps());
    launched_cursor_.reset();  // the last launch ends are the communication ops
    // Before the communication tasks (not launch ends), so that the launch arrays are freed before
    // the tasks' slices are written beside the join's arrays (the load's peak).
    LinkLaunches();
    PD_RETURN_IF_ERROR(LoadCommunicationTasks());
    done("COMMUNICATION_OP, launch links, communication tasks");
    PD_RETURN_IF_ERROR(LoadOperatorMemory());
    PD_RETURN_IF_ERROR(LoadMemoryRecord());
    done("OP_MEMORY, MEMORY_RECORD");
    PD_RETURN_IF_ERROR(CountTheRest());
    done("row counts");
    return Status::Ok();
  }

 private:
  Status ListTables();
  Status LoadStrings();
  Status LoadApiTypes();
  Status LoadSteps();
  Status LoadMetaData();
  Status LoadDeviceNames();  // NPU_INFO's chip names (e.g. "Ascend910B") into meta.device_names
  Status LoadConnections();
  Status LoadPmu();
  Status LoadTorchApi();
  // Integer cells kept compactly (values and states apart: 4 cells in 40 bytes, not 64).
  template <size_t N>
  struct Cells {
    int64_t value[N];
    IntCell::State state[N];
    IntCell operator[](size_t i) const { return {state[i], value[i]}; }
  };
  // The cells of columns `cols` of the current row.
  template <size_t N>
  static Cells<N> CellsAt(const Statement& st, const std::array<int, N>& cols) {
    Cells<N> c{};
    for (size_t i = 0; i < N; ++i) {
      const IntCell cell = st.Int(cols[i]);
      c.value[i] = cell.value;
      c.state[i] = cell.state;
    }
    return c;
  }
  // A COMPUTE_TASK_INFO row as LoadTasks joins it to its TASK row: the cells kept as read, packed
  // in compute_cells_ (24 bytes: 1.7 M rows held while TASK is read, at 5 M tasks).
  struct ComputeInfo {
    int64_t global_task_id;
    uint32_t cells[4];  // name, opType, taskType, inputShapes
  };
  db::PackedCells compute_cells_;
  IntCell Name(const ComputeInfo& c) const { return compute_cells_.Unpack(c.cells[0]); }
  IntCell OpType(const ComputeInfo& c) const { return compute_cells_.Unpack(c.cells[1]); }
  IntCell TaskType(const ComputeInfo& c) const { return compute_cells_.Unpack(c.cells[2]); }
  IntCell InputShapes(const ComputeInfo& c) const { return compute_cells_.Unpack(c.cells[3]); }
  Status LoadComputeInfo(std::vector<ComputeInfo>& out);
  Status ReadComputeInfo(Statement& st, std::vector<ComputeInfo>& out);
  Status LoadTasks();
  void AddTask(const Statement& st, int64_t n, const ComputeInfo* c);
  void BuildOpStatistic();
  Status LoadCommunicationOps();
  enum class CommJoin { kSqlite, kTaskOuter, kCommOuter };
  StatusOr<CommJoin> CommJoinPlan();
  Status PrepareCommJoin();
  void ReserveCommRows();
  Status ReadCommRows(Statement& st);
  Status LoadCommunicationTasks();
  void AddCommTask(int64_t n, const Cells<3>& comm, const Cells<2>& task);
  Status LoadOperatorMemory();
  Status LoadMemoryRecord();
  void StartAhead();
  std::vector<std::string_view> AheadTables() const {
    std::vector<std::string_view> t;
    if (ahead_.compute) t.push_back("COMPUTE_TASK_INFO");
    if (ahead_.comm) t.push_back("COMMUNICATION_TASK_INFO");
    if (ahead_.memory) t.push_back("MEMORY_RECORD");
    return t;
  }
  void JoinAhead() {
    if (ahead_.thread.joinable()) ahead_.thread.join();
  }

  // False (and a diagnostic) when the table is absent: its data stays empty.
  bool Has(std::string_view table) {
    if (db_.HasTable(table)) return true;
    p_.diagnostics.Add(DiagId::db_table_missing, {db_.file(), 0, -1}, std::string(table));
    return false;
  }
  // The checks of a cell (RowChecks), their diagnostics the profile's.
  bool Need(const IntCell& c, std::string_view table, std::string_view column, int64_t row) {
    return checks_.Need(c, table, column, row);
  }
  bool NeedTime(const IntCell& c, std::string_view table, std::string_view column, int64_t row) {
    return checks_.NeedTime(c, table, column, row);
  }
  int64_t Duration(int64_t start, int64_t end, std::string_view table, int64_t row) {
    return checks_.Duration(start, end, table, row);
  }
  std::optional<int64_t> OptionalTime(const IntCell& c, std::string_view table, std::string_view column,
                                      int64_t row) {
    return checks_.OptionalTime(c, table, column, row);
  }
  // The string behind a STRING_IDS id ("" for NULL; "" and a diagnostic for an unknown id).
  StringId Str(const IntCell& c, std::string_view table) {
    if (c.state != IntCell::State::kValue) return kEmptyString;
    if (const StringId* text = strings_.Find(c.value)) return *text;
    p_.diagnostics.Add(DiagId::db_dangling_id, {db_.file(), 0, -1},
                       fmt::format("table {}: string id {}", table, c.value));
    return kEmptyString;
  }
  // The step whose [start, end] holds `ts_ns`; kNoNumber when none.
  int64_t StepOf(int64_t ts_ns) const {
    for (const DbStep& s : p_.npu.db.steps)
      if (ts_ns >= s.start_ns && ts_ns <= s.end_ns) return s.id;
    return kNoNumber;
  }
  void AddArgInt(ArgKey key, int64_t v) { p_.args.push_back(Arg::Int(key, v, p_.strings)); }
  void AddArgText(ArgKey key, StringId text) { p_.args.push_back(Arg::Text(key, ArgType::kString, text)); }
  // A slice appended to the model, its fields then set in place (not built aside and copied: a
  // slice's bit-fields written one by one then read whole stall the copy, 22 M times on a big export).
  Slice& NewSlice() { return p_.slices.emplace_back(); }
  // Ends the last slice `s`, whose args were pushed since `args_begin`: one arg that fits is kept in
  // it (Slice::SetInlineArg: most slices of a DB export have one, a task's id or an op's shapes).
  SliceId EndSlice(Slice& s, uint32_t args_begin) {
    if (p_.args.size() - args_begin == 1 && Slice::Inlinable(p_.args.back())) {
      s.SetInlineArg(p_.args.back());
      p_.args.pop_back();
    } else {
      s.args_begin = args_begin;
      s.args_count = static_cast<uint8_t>(std::min<size_t>(p_.args.size() - args_begin, Slice::kMaxArgs));
    }
    return static_cast<SliceId>(p_.slices.size() - 1);
  }
  // A big array is sorted on two threads when the load has reader threads (the sorts between
  // tables leave the other core idle; `--threads 1` is one thread). The order is the same.
  int SortThreads() const { return db_.readers() > 0 ? 2 : 1; }
  // A CANN connection id held by exactly two PYTORCH_API rows, both torch ops, links a forward op to
  // its backward op (how the DB export records PyTorch's fwdbwd flows): one fwdbwd flow from the
  // earlier start to the later, in connection-id order. Every id held by API rows may start a
  // launch (launched_): from its last row, its first link's place kept for the links' order.
  void AddFwdBwdFlows() {
    // (CANN id, row) in id order, rows of one id in table order: a flat array, not a map of lists
    // (a 5 M-task export holds 5 M ids), sorted in a few linear passes.
    links_read_ = cann_rows_.size();
    StableRadixSort(cann_rows_, [](const CannRow& r) { return r.cann; }, SortThreads());
    launched_.reserve(cann_rows_.size());
    launches_.reserve(cann_rows_.size());
    const StringId cat = p_.strings.Intern("fwdbwd");
    for (size_t i = 0, j = 0; i < cann_rows_.size(); i = j) {
      while (j < cann_rows_.size() && cann_rows_[j].cann == cann_rows_[i].cann) ++j;
      launched_.push_back(cann_rows_[i].cann);
      launches_.push_back({cann_rows_[i].link, cann_rows_[j - 1].row, kNoEnd});
      if (j - i != 2) continue;
      const int64_t cann = cann_rows_[i].cann;
      const SliceId rows[2] = {cann_rows_[i].row, cann_rows_[i + 1].row};
      if (!IsTorchOpKind(p_.slices[rows[0]].kind) || !IsTorchOpKind(p_.slices[rows[1]].kind)) continue;
      const bool first_earlier = p_.slices[rows[0]].ts_ns <= p_.slices[rows[1]].ts_ns;
      const Slice& fwd = p_.slices[first_earlier ? rows[0] : rows[1]];
      const Slice& bwd = p_.slices[first_earlier ? rows[1] : rows[0]];
      for (const Slice* end : {&fwd, &bwd}) {
        FlowEvent f;
        f.ts_ns = end->ts_ns;
        f.id = static_cast<uint64_t>(cann);
        f.phase = end == &fwd ? 's' : 'f';
        f.track = end->track;
        f.cat = cat;
        p_.flows.push_back(f);
      }
    }
    Free(cann_rows_);
  }
  // A task or communication op (slice `end`) with connection id `cann`: the end of the launch of
  // that id, if an API row holds it (the last such slice of an id is its launch's end).
  void EndLaunch(int64_t cann, SliceId end) {
    if (!launched_cursor_) launched_cursor_.emplace(launched_, Identity{});
    const std::span<const int64_t> at = launched_cursor_->EqualRange(cann);
    if (!at.empty()) launches_[static_cast<size_t>(at.data() - launched_.data())].end = end;
  }
  // DbInfo::launch_links from the launches that have an end, in order of their ids' first links
  // (each launch's first link is a distinct place among the links_read_): a link's place in the
  // array is the number of ended launches whose first link comes before its own, counted in a
  // bitmap of the places (a bit a link read, not a 4-byte slot: the join's arrays are alive here).
  void LinkLaunches() {
    std::vector<uint64_t> first(links_read_ / 64 + 1, 0);
    size_t ended = 0;
    for (const Launch& l : launches_) {
      if (l.end == kNoEnd) continue;
      first[l.first_link / 64] |= uint64_t{1} << (l.first_link % 64);
      ++ended;
    }
    std::vector<size_t> before(first.size(), 0);  // the places set in the words before
    for (size_t w = 1; w < first.size(); ++w)
      before[w] = before[w - 1] + static_cast<size_t>(std::popcount(first[w - 1]));
    std::vector<DbLaunchLink>& links = p_.npu.db.launch_links;
    links.resize(ended);
    for (size_t i = 0; i < launches_.size(); ++i) {
      const Launch& l = launches_[i];
      if (l.end == kNoEnd) continue;
      const uint64_t below = (uint64_t{1} << (l.first_link % 64)) - 1;
      links[before[l.first_link / 64] + static_cast<size_t>(std::popcount(first[l.first_link / 64] & below))] = {
          launched_[i], l.start, l.end};
    }
    p_.npu.db.launch_ids_without_end = launches_.size() - links.size();
    Free(launched_);
    Free(launches_);
  }
  // `table`'s row count, from a whole-table scan `st` that has read every row.
  void Counted(std::string_view table, const Statement& st) {
    for (DbTableUse& t : p_.npu.db.tables)
      if (t.name == table) t.rows = st.rows();
    counted_.insert(std::string(table));
  }
  // The rows of the tables no whole-table scan read (absent ones, those read through a join or a
  // WHERE, a PYTORCH_API the loader skips), counted at the end.
  Status CountTheRest() {
    for (DbTableUse& t : p_.npu.db.tables) {
      if (!t.present || counted_.count(t.name) != 0) continue;
      PD_ASSIGN_OR_RETURN(t.rows, db_.CountRows(t.name));
    }
    return Status::Ok();
  }
  // About the rows of `table` before reading it (0 when absent), to size arrays.
  size_t Rows(std::string_view table) const {
    if (!db_.HasTable(table)) return 0;
    auto n = db_.EstimateRows(table);
    return n.ok() ? static_cast<size_t>(std::max<int64_t>(0, *n)) : 0;
  }
  // The model's arrays sized once from the tables' row counts (at most one slice per API, task or
  // communication row), not grown row by row: no copies and page faults of doubling on big exports.
  // The counts are estimates from a few leaf pages (exact counts read every leaf: seconds at 5 M
  // tasks); a bigger reservation is only address space, a smaller one grows as usual.
  void Reserve() {
    const size_t api = Rows("PYTORCH_API"), tasks = Rows("TASK"), ops = Rows("COMMUNICATION_OP"),
                 comm_tasks = Rows("COMMUNICATION_TASK_INFO");
    // (A python function is mostly kept in python_functions instead: address space, never touched.)
    p_.slices.reserve(p_.slices.size() + api + tasks + ops + comm_tasks);
    // At most 2 args per API row, 1 per task, 3 per communication op, none per communication task.
    p_.args.reserve(p_.args.size() + 2 * api + tasks + 3 * ops);
    p_.npu.operator_memory.reserve(Rows("OP_MEMORY"));
    p_.npu.kernel_details.rows.reserve(Rows("COMPUTE_TASK_INFO"));
    p_.npu.db.compute_tasks.reserve(Rows("COMPUTE_TASK_INFO"));
    // The connections and their CANN links: about one per CONNECTION_IDS row (a link array grows
    // past it only where API rows share a connection id, as a forward and its backward op do).
    const size_t links = Rows("CONNECTION_IDS");
    connections_.reserve(links);
    cann_rows_.reserve(links);
    p_.npu.db.op_launches.reserve(links);
  }
  // A PMU counter LoadPmu reads: its STRING_IDS id, whether a non-zero value makes the task a cube
  // kernel, and the kernel_details field that keeps it (none for aic_total_time).
  struct PmuCounter {
    int64_t string_id = 0;
    bool cube = false;
    int64_t KernelDetailRow::*field = nullptr;
  };
  // One PMU counter of compute task `task`.
  void SetPmu(size_t task, const PmuCounter& counter, double value) {
    if (counter.cube && value != 0) p_.npu.db.compute_tasks[task].pmu_cube = 1;
    if (counter.field != nullptr)
      p_.npu.kernel_details.rows[task].*counter.field = std::fabs(value) < 9.0e18 ? std::llround(value) : kAbsentNs;
  }
  // A table's track per key (a thread, a stream, a group and plane), named the first time only: the
  // names are built and interned once, not per row (millions of rows on a big export). Rows of one
  // key mostly follow each other: the last key's track is kept beside the map.
  template <typename Map>
  struct TrackCache {
    Map map;
    std::optional<std::pair<typename Map::key_type, TrackId>> last;
  };
  template <typename Cache, typename Key, typename Make>
  TrackId CachedTrack(Cache& cache, const Key& key, Make make) {
    if (cache.last && cache.last->first == key) return cache.last->second;
    auto [it, fresh] = cache.map.try_emplace(key, TrackId{0});
    if (fresh) it->second = make();
    cache.last.emplace(key, it->second);
    return it->second;
  }
  // "NPU:{id}" of a device id, interned once per id.
  StringId DeviceName(int64_t id) {
    auto [it, fresh] = device_names_.try_emplace(id, kEmptyString);
    if (fresh) it->second = p_.strings.Intern(fmt::format("NPU:{}", id));
    return it->second;
  }
  // A PYTORCH_API row's kind and category (ApiKind of its ENUM_API_TYPE name and its name), worked
  // out once per (type, name) pair: 22 M rows at 5 M tasks, a few thousand pairs.
  struct ApiClass {
    SliceKind kind = SliceKind::kOther;
    uint16_t cat_index = 0;
    bool queue = false;  // type "queue": its connection id pairs an enqueue with its dequeue
  };
  struct ApiClassKey {
    bool has_type;
    int64_t type;
    StringId name;
    bool operator==(const ApiClassKey&) const = default;
  };
  struct ApiClassHash {
    size_t operator()(const ApiClassKey& k) const {
      return std::hash<uint64_t>()((static_cast<uint64_t>(k.type) * 0x9E3779B97F4A7C15ULL) ^ k.name ^
                                   (uint64_t{k.has_type} << 63));
    }
  };
  std::unordered_map<ApiClassKey, ApiClass, ApiClassHash> api_classes_;
  // The pairs met last, by a few bits of the name and type, in front of the map (a lookup per row).
  struct CachedClass {
    ApiClassKey key{false, 0, kEmptyString};
    ApiClass api;
    bool set = false;
  };
  static constexpr int kClassCacheBits = 12;
  std::vector<CachedClass> class_cache_ = std::vector<CachedClass>(size_t{1} << kClassCacheBits);
  ApiClass ClassOf(const IntCell& type, StringId name);
  // A category literal interned once, as a Slice::cat_index.
  uint16_t Cat(std::string_view literal) {
    auto [it, fresh] = cats_.try_emplace(literal.data(), 0);
    if (fresh) it->second = p_.CatIndex(p_.strings.Intern(literal));
    return it->second;
  }
  // The same for a literal of every row of a table, kept in `index` once met (a lookup per row).
  uint16_t Cat(std::optional<uint16_t>& index, std::string_view literal) {
    if (!index) [[unlikely]] index = Cat(literal);
    return *index;
  }
  TrackId NamedTrack(std::string_view pid, std::string_view process_name, std::string_view tid,
                     std::string_view track_name) {
    const TrackId t = p_.GetOrCreateTrack(pid, tid);
    p_.tracks[t].name = p_.strings.Intern(track_name);
    p_.processes[p_.tracks[t].process].name = p_.strings.Intern(process_name);
    return t;
  }

  const Database& db_;
  Profile& p_;
  RowChecks checks_{db_.file(), p_.diagnostics};
  bool python_functions_ = true;  // LoadOptions::python_functions
  // STRING_IDS (ascend_db_string_ids.h).
  db::StringIds strings_;
  std::unordered_map<int64_t, std::string> api_types_;
  // CONNECTION_IDS: (id = a PYTORCH_API connectionId, its CANN connection id) rows sorted by id,
  // the rows of one id in table order; a flat array, not a map of lists (a 5 M-task export holds
  // 5 M of them).
  struct Connection {
    int64_t id;
    int64_t cann;
  };
  std::vector<Connection> connections_;
  // The arrays below are looked up in table order, where the ids mostly ascend: through a
  // SortedCursor (base/sorted_cursor.h), not a binary search over millions of entries each time.
  struct ConnectionKey {
    int64_t operator()(const Connection& c) const { return c.id; }
  };
  std::optional<SortedCursor<Connection, ConnectionKey>> connection_cursor_;
  // The CANN connection ids of one PYTORCH_API connectionId, in table order.
  std::span<const Connection> ConnectionsOf(int64_t id) {
    if (!connection_cursor_) connection_cursor_.emplace(connections_, ConnectionKey{});
    return connection_cursor_->EqualRange(id);
  }
  // Every CANN connection id some API row holds, sorted and unique (AddFwdBwdFlows makes it from
  // cann_rows_): a task or communication op is a launch's end when its connection id is in it.
  std::vector<int64_t> launched_;
  struct Identity {
    int64_t operator()(int64_t v) const { return v; }
  };
  std::optional<SortedCursor<int64_t, Identity>> launched_cursor_;
  // The launch of each id in launched_: where its first link was read (the links' order), its last
  // API row, its last task or communication op (kNoEnd while none).
  static constexpr SliceId kNoEnd = std::numeric_limits<SliceId>::max();
  struct Launch {
    uint32_t first_link;
    SliceId start;
    SliceId end;
  };
  std::vector<Launch> launches_;
  size_t links_read_ = 0;  // the (API row, CANN id) links read: CannRow::link is below it
  struct CannRow {
    int64_t cann;
    SliceId row;
    uint32_t link;  // its place among the links, in table order
  };
  std::vector<CannRow> cann_rows_;  // every (CANN connection id, API row) link, for AddFwdBwdFlows
  TrackCache<std::unordered_map<int64_t, TrackId>> thread_tracks_;
  TrackCache<std::map<std::optional<int64_t>, TrackId>> stream_tracks_;  // nullopt: no stream
  TrackCache<std::unordered_map<StringId, TrackId>> group_tracks_;
  TrackCache<std::map<std::pair<StringId, int64_t>, TrackId>> plane_tracks_;  // (group, plane id)
  std::unordered_map<int64_t, StringId> device_names_;
  std::unordered_map<const char*, uint16_t> cats_;
  std::optional<uint16_t> task_cat_, hccl_cat_;  // "HostToDevice", "hccl" (Cat)
  std::set<std::string, std::less<>> counted_;  // tables whose rows a whole-table scan counted
  // The communication tasks' join read from the pages (PrepareCommJoin): COMMUNICATION_TASK_INFO's
  // rows with a globalTaskId (taskType, planeId, groupName: what AddCommTask reads) in table order,
  // their indexes by globalTaskId, and the TASK rows they join (startNs, endNs) in table order.
  CommJoin comm_join_ = CommJoin::kSqlite;
  // globalTaskId, taskType, planeId, groupName packed (16 bytes a row, not 40: 2.7 M rows at 5 M
  // tasks, alive at the load's peak).
  struct CommRow {
    uint32_t gid;
    uint32_t cells[3];
  };
  std::vector<CommRow> comm_rows_;
  std::vector<uint32_t> comm_by_gid_;
  db::PackedCells comm_cells_;
  int64_t Gid(const CommRow& r) const { return comm_cells_.Unpack(r.gid).value; }
  // A joined TASK row's globalTaskId (packed in comm_cells_), startNs and endNs (TASK's columns 0
  // and 1 in LoadTasks) packed (20 bytes, not 32).
#pragma pack(push, 4)
  struct CommTaskTimes {
    uint32_t gid;
    db::PackedTimes::Pair times;
  };
#pragma pack(pop)
  static_assert(sizeof(CommRow) == 16 && sizeof(CommTaskTimes) == 20 && sizeof(ComputeInfo) == 24);
  int64_t Gid(const CommTaskTimes& t) const { return comm_cells_.Unpack(t.gid).value; }
  std::vector<CommTaskTimes> comm_task_times_;
  db::PackedTimes comm_times_;
  void AddCommTask(int64_t n, const CommRow& c, const CommTaskTimes& t) {
    Cells<3> cells{};
    for (size_t i = 0; i < 3; ++i) {
      const IntCell cell = comm_cells_.Unpack(c.cells[i]);
      cells.value[i] = cell.value;
      cells.state[i] = cell.state;
    }
    const auto [start, end] = comm_times_.Unpack(t.times);
    Cells<2> times{{start.value, end.value}, {start.state, end.state}};
    AddCommTask(n, cells, times);
  }
  // The tables read ahead (StartAhead): each scan started on this thread, read on `thread`, its
  // outcome (rows, error, diagnostics) taken where the table is read in turn.
  struct Ahead {
    std::optional<Statement> compute, comm, memory;  // the scans read ahead (none: read in turn)
    Status compute_status, comm_status, memory_status;
    std::vector<ComputeInfo> compute_info;
    CommJoin comm_plan = CommJoin::kSqlite;
    MemoryRecordSummary memory_summary;
    std::vector<DbStep> memory_steps;  // STEP_TIME's steps, their peaks set
    Diagnostics memory_diagnostics;
    std::thread thread;
    ~Ahead() {
      if (thread.joinable()) thread.join();
    }
  };
  // The model's arrays written row by row while PYTORCH_API and TASK are read: their next pages
  // are mapped on another core (PageWarmer) while the loader's thread writes them, with reader
  // threads only (`--threads 1` is one thread). Told where the writer is every kWarmEvery rows.
  enum WarmArray : size_t {
    kWarmSlices, kWarmArgs, kWarmCannRows, kWarmOpLaunches, kWarmKernelDetails, kWarmComputeTasks, kWarmArrays
  };
  static constexpr size_t kWarmAheadBytes = size_t{1} << 20;
  static constexpr int64_t kWarmEvery = 256;
  std::optional<PageWarmer> warmer_;
  void Warm(int64_t row) {
    if (!warmer_ || row % kWarmEvery != 0) return;
    warmer_->Used(kWarmSlices, p_.slices);
    warmer_->Used(kWarmArgs, p_.args);
    warmer_->Used(kWarmCannRows, cann_rows_);
    warmer_->Used(kWarmOpLaunches, p_.npu.db.op_launches);
    warmer_->Used(kWarmKernelDetails, p_.npu.kernel_details.rows);
    warmer_->Used(kWarmComputeTasks, p_.npu.db.compute_tasks);
  }
  Ahead ahead_;  // the last member: its thread is joined before the arrays it fills are destroyed
};

Status DbLoader::ListTables() {
  DbInfo& info = p_.npu.db;
  for (std::string_view t : kTablesUsed) {
    DbTableUse use;
    use.name = std::string(t);
    use.present = db_.HasTable(t);
    info.tables.push_back(std::move(use));
  }
  if (!db_.HasTable("PYTORCH_API") && !db_.HasTable("TASK") && !db_.HasTable("COMMUNICATION_OP")) {
    return Unsupported(fmt::format(
        "{}: not an Ascend profiler database: none of the tables PYTORCH_API, TASK, COMMUNICATION_OP",
        db_.file()));
  }
  return Status::Ok();
}

Status DbLoader::LoadStrings() {
  if (!Has("STRING_IDS")) return Status::Ok();
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("STRING_IDS", {"id", "value"}));
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const IntCell id = st.Int(0);
    if (!id.ok()) continue;
    strings_.Set(id.value, p_.strings.Intern(st.Text(1).value_or(std::string_view())));
  }
  strings_.Index();
  Counted("STRING_IDS", st);
  return Status::Ok();
}

Status DbLoader::LoadApiTypes() {
  if (!Has("ENUM_API_TYPE")) return Status::Ok();
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("ENUM_API_TYPE", {"id", "name"}));
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const IntCell id = st.Int(0);
    if (id.ok()) api_types_[id.value] = std::string(st.Text(1).value_or(std::string_view()));
  }
  Counted("ENUM_API_TYPE", st);
  return Status::Ok();
}

Status DbLoader::LoadSteps() {
  if (!Has("STEP_TIME")) return Status::Ok();
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("STEP_TIME", {"id", "startNs", "endNs"}));
  for (int64_t n = 1;; ++n) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const IntCell id = st.Int(0), start = st.Int(1), end = st.Int(2);
    if (!Need(id, "STEP_TIME", "id", n) || !NeedTime(start, "STEP_TIME", "startNs", n) ||
        !NeedTime(end, "STEP_TIME", "endNs", n))
      continue;
    p_.npu.db.steps.push_back({id.value, start.value, end.value});
  }
  Counted("STEP_TIME", st);
  std::stable_sort(p_.npu.db.steps.begin(), p_.npu.db.steps.end(),
                   [](const DbStep& a, const DbStep& b) { return a.id < b.id; });
  return Status::Ok();
}

Status DbLoader::LoadMetaData() {
  if (!db_.HasTable("META_DATA")) return Status::Ok();  // optional: no diagnostic
  PD_ASSIGN_OR_RETURN(Statement st,
                      db_.Prepare("META_DATA", "SELECT value FROM META_DATA WHERE name = 'SCHEMA_VERSION'"));
  PD_ASSIGN_OR_RETURN(bool row, st.Step());
  if (row) p_.npu.db.schema_version = std::string(st.Text(0).value_or(std::string_view()));
  return LoadDeviceNames();
}

Status DbLoader::LoadDeviceNames() {
  if (!db_.HasTable("NPU_INFO")) return Status::Ok();  // optional: the chip is then unknown
  PD_ASSIGN_OR_RETURN(Statement st, db_.Prepare("NPU_INFO", "SELECT name FROM NPU_INFO ORDER BY id"));
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const std::string_view name = st.Text(0).value_or(std::string_view());
    if (!name.empty()) p_.meta.device_names.emplace_back(name);
  }
  return Status::Ok();
}

Status DbLoader::LoadConnections() {
  if (!Has("CONNECTION_IDS")) return Status::Ok();
  PD_ASSIGN_OR_RETURN(Statement st,
                      db_.Scan("CONNECTION_IDS", {"id", "connectionId"}));
  for (int64_t n = 1;; ++n) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const IntCell id = st.Int(0), cid = st.Int(1);
    if (!Need(id, "CONNECTION_IDS", "id", n) || !Need(cid, "CONNECTION_IDS", "connectionId", n)) continue;
    connections_.push_back({id.value, cid.value});
  }
  Counted("CONNECTION_IDS", st);
  StableRadixSort(connections_, [](const Connection& c) { return c.id; }, SortThreads());
  return Status::Ok();
}

// The PMU counters of the compute tasks the reference reads (docs/reference/overall.md#kernel-categorisation):
// aic_total_time and aic_mac_time for the cube test (a task is a cube kernel when either is non-zero),
// aic_mac_time, aic_mte2_time and aiv_time (ns) for an MC2 kernel's computing time, kept in its
// kernel_details row as for the text export (whole ns: the DB stores fractions of a ns).
Status DbLoader::LoadPmu() {
  if (!db_.HasTable("TASK_PMU_INFO") || !db_.HasTable("STRING_IDS")) return Status::Ok();  // optional
  PD_ASSIGN_OR_RETURN(Statement any, db_.Prepare("TASK_PMU_INFO", "SELECT 1 FROM TASK_PMU_INFO LIMIT 1"));
  PD_ASSIGN_OR_RETURN(p_.npu.db.has_pmu, any.Step());
  std::vector<DbComputeTask>& tasks = p_.npu.db.compute_tasks;
  std::vector<std::pair<int64_t, size_t>> by_id;  // (globalTaskId, compute task), sorted
  by_id.reserve(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i)
    if (tasks[i].global_task_id != kNoNumber) by_id.emplace_back(tasks[i].global_task_id, i);
  // Ties: task order.
  StableRadixSort(by_id, [](const std::pair<int64_t, size_t>& e) { return e.first; }, SortThreads());
  auto first = [](const std::pair<int64_t, size_t>& e) { return e.first; };
  SortedCursor<std::pair<int64_t, size_t>, decltype(first)> task_cursor(by_id, first);
  // The counters' STRING_IDS ids, looked up once: the table is then read without a join (a 5 M-task
  // export has 47 M PMU rows; a join looks each one's name up in STRING_IDS), the other counters'
  // rows skipped by their name id (as `WHERE name IN (ids)` would): from the pages as they are
  // decoded, never handed out (OnlyRows), through SQLite by the check in the loop.
  std::vector<PmuCounter> counters;
  for (const auto& [string_id, text] : strings_.rows()) {
    if (*strings_.Find(string_id) != text) continue;  // a later row of the id replaced it
    const std::string_view name = p_.str(text);
    if (name == "aic_total_time") counters.push_back({string_id, true, nullptr});
    if (name == "aic_mac_time") counters.push_back({string_id, true, &KernelDetailRow::aic_mac_time_ns});
    if (name == "aic_mte2_time") counters.push_back({string_id, false, &KernelDetailRow::aic_mte2_time_ns});
    if (name == "aiv_time") counters.push_back({string_id, false, &KernelDetailRow::aiv_time_ns});
  }
  if (counters.empty()) return Status::Ok();
  db::OnlyRows only{1, {}};
  for (const PmuCounter& c : counters) only.values.push_back(c.string_id);
  std::sort(only.values.begin(), only.values.end());
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("TASK_PMU_INFO", {"globalTaskId", "name", "value"}, std::move(only)));
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const IntCell name_id = st.Int(1);
    if (!name_id.ok()) continue;
    auto counter = std::find_if(counters.begin(), counters.end(),
                                [&](const PmuCounter& c) { return c.string_id == name_id.value; });
    if (counter == counters.end()) continue;
    const IntCell id = st.Int(0);
    const std::optional<double> value = st.Real(2);  // NULL and non-numbers: no value
    if (!id.ok() || !value) continue;
    for (const auto& [task_id, task] : task_cursor.EqualRange(id.value)) SetPmu(task, *counter, *value);
  }
  Counted("TASK_PMU_INFO", st);
  return Status::Ok();
}

// Kind and category of a PYTORCH_API row from its ENUM_API_TYPE name (and, for queue rows and step
// markers, its name).
std::pair<SliceKind, std::string_view> ApiKind(std::string_view type, std::string_view name) {
  if (type == "op") {
    if (StepIdFromName(name) != kNoNumber) return {SliceKind::kStepMarker, "cpu_op"};
    return {SliceKind::kCpuOp, "cpu_op"};
  }
  if (type == "queue") {
    if (name.starts_with("Enqueue")) return {SliceKind::kEnqueue, "enqueue"};
    if (name.starts_with("Dequeue")) return {SliceKind::kDequeue, "dequeue"};
    return {SliceKind::kOther, "queue"};
  }
  if (type == "trace") return {SliceKind::kPythonFunction, "python_function"};
  if (type == "mstx") return {SliceKind::kUserAnnotation, "user_annotation"};
  return {SliceKind::kOther, type};
}

DbLoader::ApiClass DbLoader::ClassOf(const IntCell& type, StringId name) {
  const ApiClassKey key{type.ok(), type.ok() ? type.value : 0, name};
  const uint64_t mix = (uint64_t{name} ^ (static_cast<uint64_t>(key.type) << 20)) * 0x9E3779B97F4A7C15ULL;
  CachedClass& cached = class_cache_[mix >> (64 - kClassCacheBits)];
  if (cached.set && cached.key == key) return cached.api;
  auto [it, fresh] = api_classes_.try_emplace(key);
  if (fresh) {
    auto type_it = type.ok() ? api_types_.find(type.value) : api_types_.end();
    const std::string_view type_name =
        type_it == api_types_.end() ? std::string_view() : std::string_view(type_it->second);
    const auto [kind, cat] = ApiKind(type_name, p_.str(name));
    it->second = {kind, Cat(cat), type_name == "queue"};
  }
  cached = {key, it->second, true};
  return it->second;
}

Status DbLoader::LoadTorchApi() {
  if (!Has("PYTORCH_API")) return Status::Ok();
  // The reference reads torch ops only from PyTorch exports (docs/reference/inputs.md#db-export).
  if (!std::filesystem::path(db_.file()).filename().string().starts_with("ascend_pytorch_profiler"))
    return Status::Ok();
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("PYTORCH_API", {"startNs", "endNs", "globalTid", "connectionId", "name",
                                                           "inputShapes", "type"}));
  for (int64_t n = 1;; ++n) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    Warm(n);
    const IntCell start = st.Int(0), end = st.Int(1), tid = st.Int(2), conn = st.Int(3);
    if (!NeedTime(start, "PYTORCH_API", "startNs", n) || !NeedTime(end, "PYTORCH_API", "endNs", n)) continue;
    const StringId name = Str(st.Int(4), "PYTORCH_API");
    const ApiClass api = ClassOf(st.Int(6), name);
    // Not asked for (LoadOptions::python_functions); one with a connection id is a link's end.
    if (api.kind == SliceKind::kPythonFunction && !python_functions_ && !conn.ok()) continue;
    const SliceKind kind = api.kind;
    const int64_t gtid = tid.ok() ? tid.value : 0;
    const int64_t dur_ns = Duration(start.value, end.value, "PYTORCH_API", n);
    const TrackId track = CachedTrack(thread_tracks_, gtid, [&] {
      const std::string pid = std::to_string(gtid >> 32), thread = std::to_string(gtid & 0xFFFFFFFF);
      return NamedTrack(pid, "Python", thread, "Thread " + thread);
    });
    const IntCell shapes = st.Int(5);
    if (kind == SliceKind::kPythonFunction) {
      // Without a connection id or shapes, kept compactly (Profile::python_functions).
      if (!conn.ok() && !shapes.ok() && dur_ns <= PythonFunction::kMaxDurNs) {
        p_.python_functions.Add({start.value, dur_ns, track, name});
        continue;
      }
      p_.python_functions.slice_before.push_back(static_cast<uint32_t>(p_.python_functions.size()));
    }
    // Only the args a comparison reads (a 5 M-task export has 22 M rows): the shapes, and the
    // connection id of a queue row (memory pairs enqueue and dequeue by it); an op's connection ids
    // are its launches (launch_links) and op_launches. The sequence number and forward thread are not read.
    const auto args_begin = static_cast<uint32_t>(p_.args.size());
    if (shapes.ok()) AddArgText(ArgKey::kInputDims, Str(shapes, "PYTORCH_API"));
    if (conn.ok() && api.queue) AddArgInt(ArgKey::kConnectionId, conn.value);  // the queue pairs
    Slice& s = NewSlice();
    s.ts_ns = start.value;
    s.dur_ns = dur_ns;
    s.name = name;
    s.cat_index = api.cat_index;
    s.kind = kind;
    s.track = track;
    const SliceId op = EndSlice(s, args_begin);
    if (!conn.ok()) continue;
    for (const Connection& c : ConnectionsOf(conn.value)) {
      const int64_t cann = c.cann;
      cann_rows_.push_back({cann, op, static_cast<uint32_t>(cann_rows_.size())});
      if (kind == SliceKind::kCpuOp || kind == SliceKind::kStepMarker) p_.npu.db.op_launches.push_back({cann, op});
    }
  }
  Counted("PYTORCH_API", st);
  AddFwdBwdFlows();
  return Status::Ok();
}

// A compute task also becomes a kernel_details row (the DB's kernel table).
void AddKernelDetail(Profile& p, const Slice& s, StringId op_type, StringId shapes, StringId task_type,
                     int64_t step_id) {
  KernelDetailRow r;
  r.type = op_type;
  r.name = s.name;
  r.input_shapes = shapes;
  r.accelerator_core = task_type;
  r.start_ns = s.ts_ns;
  r.dur_ns = s.dur_ns;
  r.step_id = step_id;
  r.line = static_cast<uint32_t>(p.npu.kernel_details.rows.size() + 1);
  p.npu.kernel_details.rows.push_back(r);
}

// COMPUTE_TASK_INFO, as `TASK t LEFT JOIN COMPUTE_TASK_INFO c ON t.globalTaskId = c.globalTaskId`
// meets it: sorted by globalTaskId, the rows of one id in table order.
Status DbLoader::LoadComputeInfo(std::vector<ComputeInfo>& out) {
  if (ahead_.compute) {
    JoinAhead();
    PD_RETURN_IF_ERROR(ahead_.compute_status);
    out = std::move(ahead_.compute_info);
    Counted("COMPUTE_TASK_INFO", *ahead_.compute);
    return Status::Ok();
  }
  out.reserve(Rows("COMPUTE_TASK_INFO"));
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("COMPUTE_TASK_INFO", kComputeInfoColumns));
  PD_RETURN_IF_ERROR(ReadComputeInfo(st, out));
  Counted("COMPUTE_TASK_INFO", st);
  return Status::Ok();
}

// The scan's rows into `out`, sorted (on any thread: it touches `out` and compute_cells_ only).
Status DbLoader::ReadComputeInfo(Statement& st, std::vector<ComputeInfo>& out) {
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const IntCell gid = st.Int(0);
    if (!gid.ok()) continue;
    ComputeInfo& c = out.emplace_back(ComputeInfo{gid.value, {}});
    for (int i = 0; i < 4; ++i) c.cells[i] = compute_cells_.Pack(st.Int(i + 1));
  }
  StableRadixSort(out, [](const ComputeInfo& c) { return c.global_task_id; });
  return Status::Ok();
}

// The TASK rows in table order, each joined to its COMPUTE_TASK_INFO rows (a LEFT JOIN: a task
// without one is read alone), read as two scans rather than through SQLite's join.
Status DbLoader::LoadTasks() {
  if (!Has("TASK")) return Status::Ok();
  const bool compute = Has("COMPUTE_TASK_INFO");
  std::vector<ComputeInfo> info;
  if (compute) PD_RETURN_IF_ERROR(LoadComputeInfo(info));
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("TASK", {"startNs", "endNs", "connectionId", "globalTaskId", "taskType",
                                                      "streamId", "taskId"}));
  KernelDetailsTable& kd = p_.npu.kernel_details;
  kd.present = compute;
  kd.file = db_.file() + ":COMPUTE_TASK_INFO";
  auto gid_of = [](const ComputeInfo& c) { return c.global_task_id; };
  SortedCursor<ComputeInfo, decltype(gid_of)> info_cursor(info, gid_of);
  PD_RETURN_IF_ERROR(PrepareCommJoin());
  auto comm_gid = [&](uint32_t i) { return Gid(comm_rows_[i]); };
  SortedCursor<uint32_t, decltype(comm_gid)> comm_cursor(comm_by_gid_, comm_gid);
  for (int64_t n = 1;; ++n) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    Warm(n);
    const IntCell gid = st.Int(3);
    const std::span<const ComputeInfo> joined =
        gid.ok() ? info_cursor.EqualRange(gid.value) : std::span<const ComputeInfo>();
    if (joined.empty()) AddTask(st, n, nullptr);
    for (const ComputeInfo& c : joined) AddTask(st, n, &c);
    if (comm_join_ != CommJoin::kSqlite && gid.ok() && comm_cursor.Contains(gid.value))
      comm_task_times_.push_back({comm_cells_.Pack(gid), comm_times_.Pack(st.Int(0), st.Int(1))});
  }
  Counted("TASK", st);
  compute_cells_.Clear();
  return Status::Ok();
}

// One TASK row (`st`, the n-th), with its COMPUTE_TASK_INFO row `c` (null: not a compute task).
void DbLoader::AddTask(const Statement& st, int64_t n, const ComputeInfo* c) {
  const IntCell start = st.Int(0), end = st.Int(1), conn = st.Int(2), gid = st.Int(3), stream = st.Int(5);
  if (!NeedTime(start, "TASK", "startNs", n) || !NeedTime(end, "TASK", "endNs", n)) return;
  const bool is_compute = c != nullptr;
  const StringId rts_type = Str(st.Int(4), "TASK");  // TASK.taskType: a compute task's RTS type, else its name
  Slice& s = NewSlice();
  s.ts_ns = start.value;
  s.dur_ns = Duration(start.value, end.value, "TASK", n);
  s.name = is_compute ? Str(Name(*c), "COMPUTE_TASK_INFO") : rts_type;
  s.cat_index = Cat(task_cat_, "HostToDevice");
  s.kind = SliceKind::kNpuTask;
  // The task's stream is its track (Profile::TaskStream): a row without one (NULL, not an integer)
  // is on a track of its own, whose tid is no number.
  const std::optional<int64_t> stream_id = stream.ok() ? std::optional(stream.value) : std::nullopt;
  s.track = CachedTrack(stream_tracks_, stream_id, [&] {
    const std::string tid = stream_id ? std::to_string(*stream_id) : "NULL";
    return NamedTrack(kHardwarePid, kHardwarePid, tid, "Stream " + tid);
  });
  // Its only arg is the task id (kernel lines): the type and the global task id are its compute
  // row's, or its name (Profile::TaskType), 10 M args fewer at 5 M tasks.
  const auto args_begin = static_cast<uint32_t>(p_.args.size());
  if (const IntCell task_id = st.Int(6); task_id.ok()) AddArgInt(ArgKey::kTaskId, task_id.value);
  const SliceId id = EndSlice(s, args_begin);
  if (conn.ok()) EndLaunch(conn.value, id);
  if (is_compute) {
    const int64_t global_id = gid.ok() ? gid.value : kNoNumber;
    p_.npu.db.compute_tasks.push_back({conn.ok() ? conn.value : kNoNumber, global_id, id, rts_type, 0});
    AddKernelDetail(p_, s, Str(OpType(*c), "COMPUTE_TASK_INFO"), Str(InputShapes(*c), "COMPUTE_TASK_INFO"),
                    Str(TaskType(*c), "COMPUTE_TASK_INFO"), StepOf(s.ts_ns));
  }
}

// The DB has no op_statistic table: the reference groups the compute tasks by (opType, task type)
// in first-appearance order (docs/reference/kernel.md), which fills the same table.
void DbLoader::BuildOpStatistic() {
  NpuTables& npu = p_.npu;
  if (!npu.kernel_details.present) return;
  npu.has_op_statistic = true;
  std::map<std::pair<StringId, StringId>, size_t> index;
  for (const KernelDetailRow& r : npu.kernel_details.rows) {
    auto [it, added] = index.try_emplace({r.type, r.accelerator_core}, npu.op_statistic.size());
    if (added) {
      OpStatisticRow row;
      row.op_type = r.type;
      row.core_type = r.accelerator_core;
      row.max_ns = row.min_ns = r.dur_ns;
      npu.op_statistic.push_back(row);
    }
    OpStatisticRow& s = npu.op_statistic[it->second];
    s.count += 1;
    s.total_ns += r.dur_ns;
    s.float_total_us += static_cast<double>(r.dur_ns) / 1000.0;
    s.has_float_total = true;
    s.max_ns = std::max(s.max_ns, r.dur_ns);
    s.min_ns = std::min(s.min_ns, r.dur_ns);
  }
  // Whole ns; the kernel type comparison divides total by count itself for a DB side.
  for (OpStatisticRow& s : npu.op_statistic) s.avg_ns = s.count != 0 ? s.total_ns / s.count : 0;
}

Status DbLoader::LoadCommunicationOps() {
  if (!Has("COMMUNICATION_OP")) return Status::Ok();
  // No ORDER BY: the reference reads the rows in SQLite's order.
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("COMMUNICATION_OP",
                                             {"opName", "startNs", "endNs", "connectionId", "groupName", "opType"}));
  for (int64_t n = 1;; ++n) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const IntCell start = st.Int(1), end = st.Int(2), conn = st.Int(3);
    if (!NeedTime(start, "COMMUNICATION_OP", "startNs", n) || !NeedTime(end, "COMMUNICATION_OP", "endNs", n))
      continue;
    const StringId group = Str(st.Int(4), "COMMUNICATION_OP");
    Slice& s = NewSlice();
    s.ts_ns = start.value;
    s.dur_ns = Duration(start.value, end.value, "COMMUNICATION_OP", n);
    s.name = Str(st.Int(0), "COMMUNICATION_OP");
    s.cat_index = Cat(hccl_cat_, "hccl");
    s.kind = SliceKind::kHcclOp;
    s.track = CachedTrack(group_tracks_, group,
                          [&] { return NamedTrack(kCommPid, kCommPid, p_.str(group), p_.str(group)); });
    const auto args_begin = static_cast<uint32_t>(p_.args.size());
    AddArgText(ArgKey::kGroupName, group);
    AddArgText(ArgKey::kCollectiveName, Str(st.Int(5), "COMMUNICATION_OP"));
    if (conn.ok()) AddArgInt(ArgKey::kConnectionId, conn.value);
    const SliceId id = EndSlice(s, args_begin);
    if (conn.ok()) EndLaunch(conn.value, id);
  }
  Counted("COMMUNICATION_OP", st);
  return Status::Ok();
}

// Built with AddressSanitizer (GCC says so with __SANITIZE_ADDRESS__, clang with __has_feature).
#if defined(__SANITIZE_ADDRESS__)
#define PROFDIFF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROFDIFF_ASAN 1
#endif
#endif

// Gives the heap's free pages back to the system: the join's arrays freed above may sit below
// later allocations (glibc then keeps their pages), and the memory tables read next would add to
// them at the load's peak. Not under AddressSanitizer: its allocator is not glibc's, whose arena
// malloc_trim would then set up lazily, raced by the two sides' loaders (a crash in mtrim).
void ReleaseFreedMemory() {
#if defined(__GLIBC__) && !defined(PROFDIFF_ASAN)
  malloc_trim(0);
#endif
}

// The join LoadCommunicationTasks reads (the plan SQLite makes for it gives the rows' order), with
// the columns the reference selects (they can change the plan); AddCommTask reads five of them.
constexpr const char* kCommTaskJoin =
    "SELECT c.name, c.taskType, c.planeId, c.groupName, t.startNs, t.endNs, t.streamId, t.taskId "
    "FROM COMMUNICATION_TASK_INFO c JOIN TASK t ON c.globalTaskId = t.globalTaskId";

// Which table SQLite's plan for kCommTaskJoin scans first, when the other one's rows of a
// globalTaskId then come in table (rowid) order: a nested scan, the INTEGER PRIMARY KEY, a
// one-column index or an automatic index on it (a covering one orders a key's rows by its other
// columns). Any other plan: the join goes through SQLite.
StatusOr<DbLoader::CommJoin> DbLoader::CommJoinPlan() {
  PD_ASSIGN_OR_RETURN(std::vector<std::string> plan, db_.QueryPlan("COMMUNICATION_TASK_INFO", kCommTaskJoin));
  std::erase_if(plan, [](const std::string& d) { return d.starts_with("BLOOM FILTER"); });
  if (plan.size() != 2) return CommJoin::kSqlite;
  auto in_rowid_order = [&](const std::string& d, std::string_view alias) -> StatusOr<bool> {
    const std::string scan = "SCAN " + std::string(alias), search = "SEARCH " + std::string(alias) + " USING ";
    if (d == scan) return true;
    if (!d.starts_with(search)) return false;
    const std::string_view how = std::string_view(d).substr(search.size());
    if (how == "INTEGER PRIMARY KEY (rowid=?)" || how == "AUTOMATIC INDEX (globalTaskId=?)") return true;
    constexpr std::string_view kIndex = "INDEX ", kKey = " (globalTaskId=?)";
    if (!how.starts_with(kIndex) || !how.ends_with(kKey)) return false;
    const std::string_view index = how.substr(kIndex.size(), how.size() - kIndex.size() - kKey.size());
    PD_ASSIGN_OR_RETURN(int columns, db_.IndexColumns("COMMUNICATION_TASK_INFO", index));
    return columns == 1;
  };
  if (plan[0] == "SCAN t") {
    PD_ASSIGN_OR_RETURN(bool ok, in_rowid_order(plan[1], "c"));
    return ok ? CommJoin::kTaskOuter : CommJoin::kSqlite;
  }
  if (plan[0] == "SCAN c") {
    PD_ASSIGN_OR_RETURN(bool ok, in_rowid_order(plan[1], "t"));
    return ok ? CommJoin::kCommOuter : CommJoin::kSqlite;
  }
  return CommJoin::kSqlite;
}

// Before the TASK scan: COMMUNICATION_TASK_INFO read from the pages when the join's order is known,
// so that the TASK scan keeps the cells of the tasks it joins (no second pass over TASK, no join
// through SQLite's statement engine).
Status DbLoader::PrepareCommJoin() {
  if (!db_.HasTable("COMMUNICATION_TASK_INFO") || !db_.HasTable("TASK")) return Status::Ok();
  if (ahead_.comm) {
    JoinAhead();
    PD_RETURN_IF_ERROR(ahead_.comm_status);
    Counted("COMMUNICATION_TASK_INFO", *ahead_.comm);
    comm_join_ = ahead_.comm_plan;
    return Status::Ok();
  }
  PD_ASSIGN_OR_RETURN(CommJoin plan, CommJoinPlan());
  if (plan == CommJoin::kSqlite) return Status::Ok();
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("COMMUNICATION_TASK_INFO", kCommTaskColumns));
  if (!st.from_pages()) return Status::Ok();
  ReserveCommRows();
  PD_RETURN_IF_ERROR(ReadCommRows(st));
  Counted("COMMUNICATION_TASK_INFO", st);
  comm_join_ = plan;
  return Status::Ok();
}

// Sized once (no doubling copies left behind in the heap); at most one TASK row per communication
// task in real exports.
void DbLoader::ReserveCommRows() {
  comm_rows_.reserve(Rows("COMMUNICATION_TASK_INFO"));
  comm_task_times_.reserve(comm_rows_.capacity());
}

// The scan's rows with a globalTaskId into comm_rows_, their indexes by it into comm_by_gid_ (on any
// thread: it touches those and comm_cells_ only).
Status DbLoader::ReadCommRows(Statement& st) {
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const IntCell gid = st.Int(3);
    if (!gid.ok()) continue;  // NULL joins nothing
    comm_rows_.push_back({comm_cells_.Pack(gid), {comm_cells_.Pack(st.Int(0)), comm_cells_.Pack(st.Int(1)),
                                                  comm_cells_.Pack(st.Int(2))}});
  }
  comm_by_gid_.resize(comm_rows_.size());
  for (uint32_t i = 0; i < comm_by_gid_.size(); ++i) comm_by_gid_[i] = i;
  StableRadixSort(comm_by_gid_, [&](uint32_t i) { return Gid(comm_rows_[i]); }, SortThreads());
  return Status::Ok();
}

Status DbLoader::LoadCommunicationTasks() {
  if (!Has("COMMUNICATION_TASK_INFO") || !db_.HasTable("TASK")) return Status::Ok();
  if (comm_join_ == CommJoin::kSqlite) {
    PD_ASSIGN_OR_RETURN(Statement st, db_.Prepare("COMMUNICATION_TASK_INFO", kCommTaskJoin));
    for (int64_t n = 1;; ++n) {
      PD_ASSIGN_OR_RETURN(bool row, st.Step());
      if (!row) return Status::Ok();
      AddCommTask(n, CellsAt<3>(st, {1, 2, 3}), CellsAt<2>(st, {4, 5}));
    }
  }
  int64_t n = 0;
  auto gid_of_row = [&](uint32_t i) { return Gid(comm_rows_[i]); };
  auto gid_of_times = [&](const CommTaskTimes& t) { return Gid(t); };
  if (comm_join_ == CommJoin::kTaskOuter) {
    SortedCursor<uint32_t, decltype(gid_of_row)> rows(comm_by_gid_, gid_of_row);
    for (const CommTaskTimes& t : comm_task_times_)
      for (uint32_t i : rows.EqualRange(Gid(t))) AddCommTask(++n, comm_rows_[i], t);
  } else {
    StableRadixSort(comm_task_times_, gid_of_times, SortThreads());
    SortedCursor<CommTaskTimes, decltype(gid_of_times)> tasks(comm_task_times_, gid_of_times);
    for (const CommRow& c : comm_rows_)
      for (const CommTaskTimes& t : tasks.EqualRange(Gid(c))) AddCommTask(++n, c, t);
  }
  Free(comm_rows_);
  Free(comm_by_gid_);
  Free(comm_task_times_);
  comm_cells_.Clear();
  comm_times_.Clear();
  ReleaseFreedMemory();
  return Status::Ok();
}

// The n-th row of the join: COMMUNICATION_TASK_INFO's taskType, planeId and groupName, and its TASK's
// startNs and endNs.
void DbLoader::AddCommTask(int64_t n, const Cells<3>& comm, const Cells<2>& task) {
  const IntCell start = task[0], end = task[1], plane = comm[1];
  if (!NeedTime(start, "TASK", "startNs", n) || !NeedTime(end, "TASK", "endNs", n)) return;
  const StringId group = Str(comm[2], "COMMUNICATION_TASK_INFO");
  const int64_t plane_id = plane.ok() ? plane.value : -1;
  Slice& s = NewSlice();
  s.ts_ns = start.value;
  s.dur_ns = Duration(start.value, end.value, "TASK", n);
  // As on trace_view's plane lanes, a task is named by its type ("Notify_Wait", "Memcpy").
  s.name = Str(comm[0], "COMMUNICATION_TASK_INFO");
  s.cat_index = Cat(hccl_cat_, "hccl");
  s.kind = SliceKind::kHcclTask;
  s.track = CachedTrack(plane_tracks_, std::pair{group, plane_id}, [&] {
    const TrackId t = NamedTrack(kCommPid, kCommPid, fmt::format("{}/Plane {}", p_.str(group), plane_id),
                                 fmt::format("Plane {}", plane_id));
    p_.npu.db.plane_groups.emplace_back(t, group);
    return t;
  });
  // No args: its group is its plane's (DbInfo::plane_groups), its type is its name; the op name,
  // stream and task id are not read (2.7 M rows at 5 M tasks).
  EndSlice(s, static_cast<uint32_t>(p_.args.size()));
}

Status DbLoader::LoadOperatorMemory() {
  if (!Has("OP_MEMORY")) return Status::Ok();
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("OP_MEMORY", {"name", "size", "allocationTime", "releaseTime",
                                                           "duration", "deviceId"}));
  p_.npu.has_operator_memory = true;
  for (int64_t n = 1;; ++n) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const IntCell size = st.Int(1);
    if (!Need(size, "OP_MEMORY", "size", n)) continue;
    OperatorMemoryRow r;
    r.name = Str(st.Int(0), "OP_MEMORY");
    r.size_kb = static_cast<double>(size.value) / 1024.0;
    if (auto t = OptionalTime(st.Int(2), "OP_MEMORY", "allocationTime", n)) r.allocation_ns = *t;
    if (auto t = OptionalTime(st.Int(3), "OP_MEMORY", "releaseTime", n)) r.release_ns = *t;
    if (auto t = OptionalTime(st.Int(4), "OP_MEMORY", "duration", n)) r.duration_ns = *t;
    if (const IntCell c = st.Int(5); c.ok()) r.device_type = DeviceName(c.value);
    r.line = static_cast<uint32_t>(n);
    p_.npu.operator_memory.push_back(r);
  }
  Counted("OP_MEMORY", st);
  return Status::Ok();
}

Status DbLoader::LoadMemoryRecord() {
  if (!Has("MEMORY_RECORD")) return Status::Ok();
  p_.npu.has_memory_record = true;
  if (ahead_.memory) {
    JoinAhead();
    p_.diagnostics.Merge(ahead_.memory_diagnostics);  // after those of the tables read before it
    PD_RETURN_IF_ERROR(ahead_.memory_status);
    p_.npu.memory_record = ahead_.memory_summary;
    for (size_t i = 0; i < p_.npu.db.steps.size(); ++i)
      p_.npu.db.steps[i].peak_reserved_mb = ahead_.memory_steps[i].peak_reserved_mb;
    Counted("MEMORY_RECORD", *ahead_.memory);
    return Status::Ok();
  }
  PD_ASSIGN_OR_RETURN(Statement st, db_.Scan("MEMORY_RECORD", kMemoryRecordColumns));
  PD_RETURN_IF_ERROR(ReadMemoryRecord(st, checks_, p_.npu.memory_record, p_.npu.db.steps));
  Counted("MEMORY_RECORD", st);
  return Status::Ok();
}

// Reads ahead, on a thread of its own, the tables no step before TASK needs and that need nothing of
// the API rows: COMPUTE_TASK_INFO and COMMUNICATION_TASK_INFO, which the TASK scan joins, and
// MEMORY_RECORD. While this thread builds the API rows (PYTORCH_API, half the load of a big export),
// their readers leave the other core partly idle (about 1 core-second of 2.5 s on the 5 M-task
// bench): these tables fill it, each decoded on that thread (no readers of its own). Only with
// reader threads (not with --threads 1) and for scans from the pages (SQLite's own statements stay
// on this thread); a table whose scan cannot start here is read in turn (where it fails, if it does).
void DbLoader::StartAhead() {
  if (db_.readers() == 0) return;
  auto scan = [&](std::string_view table, const std::vector<std::string_view>& columns) -> std::optional<Statement> {
    if (!db_.HasTable(table)) return std::nullopt;
    StatusOr<Statement> st = db_.Scan(table, columns, {}, 0);
    if (!st.ok() || !st->from_pages()) return std::nullopt;
    return std::move(*st);
  };
  if (db_.HasTable("TASK")) {
    ahead_.compute = scan("COMPUTE_TASK_INFO", kComputeInfoColumns);
    if (ahead_.compute) ahead_.compute_info.reserve(Rows("COMPUTE_TASK_INFO"));
    const StatusOr<CommJoin> plan =
        db_.HasTable("COMMUNICATION_TASK_INFO") ? CommJoinPlan() : StatusOr<CommJoin>(CommJoin::kSqlite);
    if (plan.ok() && *plan != CommJoin::kSqlite) {
      ahead_.comm = scan("COMMUNICATION_TASK_INFO", kCommTaskColumns);
      ahead_.comm_plan = *plan;
      if (ahead_.comm) ReserveCommRows();
    }
  }
  ahead_.memory = scan("MEMORY_RECORD", kMemoryRecordColumns);
  ahead_.memory_steps = p_.npu.db.steps;
  if (!ahead_.compute && !ahead_.comm && !ahead_.memory) return;
  ahead_.thread = std::thread([this] {
    RunAsHelperThread();  // the API rows on the loader's thread go first
    if (ahead_.compute) ahead_.compute_status = ReadComputeInfo(*ahead_.compute, ahead_.compute_info);
    if (ahead_.comm) ahead_.comm_status = ReadCommRows(*ahead_.comm);
    if (ahead_.memory) {
      RowChecks checks(db_.file(), ahead_.memory_diagnostics);
      ahead_.memory_status = ReadMemoryRecord(*ahead_.memory, checks, ahead_.memory_summary, ahead_.memory_steps);
    }
  });
}

}  // namespace

Status LoadAscendDb(const std::string& db_file, Profile& profile, const LoadOptions& options) {
  // The big tables are read and decoded on other threads (as many as --threads, at most
  // kMaxDbReaders) while this one builds the model, unless one thread is asked for (--threads 1) or
  // the machine has one core. On two cores two readers: while this thread builds from one batch
  // they decode the next ones, and a scan that hands out few rows (TASK_PMU_INFO) is decoded on
  // both cores; a reader waits when the batches ahead are full.
  const int threads = ThreadsFor(options);
  const int readers = threads <= 1 ? 0 : std::min(threads, kMaxDbReaders);
  PD_ASSIGN_OR_RETURN(Database db, Database::Open(db_file, options.db_read_pages, readers));
  ProfileMeta& m = profile.meta;
  m.format = SourceFormat::kAscendDb;
  m.device = DeviceKind::kNpu;
  m.files.push_back(db_file);
  std::error_code ec;
  const auto size = std::filesystem::file_size(db_file, ec);
  if (!ec) m.input_bytes += size;
  profile.npu.db.present = true;
  profile.npu.db.file = db_file;
  DbLoader loader(db, profile, options.python_functions);
  PD_RETURN_IF_ERROR(loader.Run());
  if (options.cluster_tables) PD_RETURN_IF_ERROR(LoadClusterDbTables(db, profile));
  return Status::Ok();
}

}  // namespace profdiff
