// The timeline model: one representation for GPU (Kineto) and NPU (Ascend) data.
//
//  * Tracks are (process, thread) pairs; Kineto GPU streams and Ascend hardware streams are tracks.
//  * Slices are complete events with int64 ns start and duration, interned name and category, a kind,
//    and a range in the shared `args` array holding only the catalogued args (enums.h, ArgKey).
//  * Flow events (s/f/t), counters (C) and memory events ([memory] instants) have their own tables.
//  * Ascend side files (kernel_details.csv, ...) land in `npu` tables.
// Slices are kept in file order; vector index = stable identity ("slice id").
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "profdiff/base/diagnostics.h"
#include "profdiff/base/phase_clock.h"
#include "profdiff/base/string_pool.h"
#include "profdiff/model/cluster_db_tables.h"
#include "profdiff/model/enums.h"

namespace profdiff {

inline constexpr int64_t kNoNumber = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kAbsentNs = std::numeric_limits<int64_t>::min();

using TrackId = uint32_t;
// The most tracks a profile holds (a flow event keeps its track in 24 bits): Profile::GetOrCreateTrack
// gives the last one for any (pid, tid) beyond, with a track_limit diagnostic. Real profiles have
// hundreds.
inline constexpr TrackId kMaxTracks = TrackId{1} << 24;
using SliceId = uint32_t;

struct Process {
  StringId pid_text = kEmptyString;  // pid as written ("392793", "Spans")
  int64_t pid = kNoNumber;           // numeric pid when it is an integer
  StringId name = kEmptyString;      // process_name metadata
  StringId labels = kEmptyString;    // process_labels metadata ("GPU 0", "CPU")
  int64_t sort_index = kNoNumber;
};

struct Track {
  uint32_t process = 0;              // index into Profile::processes
  StringId tid_text = kEmptyString;  // tid as written ("3096504", "stream 7")
  int64_t tid = kNoNumber;
  StringId name = kEmptyString;      // thread_name metadata
  int64_t sort_index = kNoNumber;    // thread_sort_index metadata
};

// kIntText: an integer outside the 48 bits an Arg holds inline (+-1.4e14), kept as its decimal text.
enum class ArgType : uint8_t { kNull, kBool, kInt, kDouble, kString, kJson, kIntText };

// One catalogued arg. kString/kJson hold an interned string: the decoded string, or the raw JSON
// text of a list/object (e.g. "[[32, 3, 224, 224], []]" as written). kDouble keeps only the raw
// number text interned: nothing is lost to binary rounding, and no comparison does arithmetic on an
// arg's fraction. An integer is held in the arg's 48 payload bits; one beyond them (rare: ids and
// counters are smaller) as its decimal text (kIntText), which Profile::ArgInt reads back.
// 8 bytes: args are one of the model's largest arrays (about 10 per event on real traces; a DB
// export keeps a slice's one arg in the slice itself, Slice::SetInlineArg).
class Arg {
 public:
  static constexpr int64_t kInlineMin = -(int64_t{1} << 47);
  static constexpr int64_t kInlineMax = (int64_t{1} << 47) - 1;

  Arg() = default;

  ArgKey key = ArgKey::kCount;
  ArgType type = ArgType::kNull;

  // The arg of each type. An integer outside [kInlineMin, kInlineMax] is interned as its text.
  static Arg Null(ArgKey k) { return Arg(k, ArgType::kNull, 0); }
  static Arg Bool(ArgKey k, bool b) { return Arg(k, ArgType::kBool, b ? 1 : 0); }
  static Arg Int(ArgKey k, int64_t v, StringPool& strings);
  // An integer in [kInlineMin, kInlineMax] (no pool needed).
  static Arg SmallInt(ArgKey k, int64_t v) { return Arg(k, ArgType::kInt, v); }
  // kString, kJson, kDouble (its raw number text) or kIntText.
  static Arg Text(ArgKey k, ArgType t, StringId text) { return Arg(k, t, text); }

  // kInt and kBool: the value (0 otherwise).
  int64_t i() const {
    if (type != ArgType::kInt && type != ArgType::kBool) return 0;
    const uint64_t bits = (uint64_t{high_} << 32) | low_;
    return static_cast<int64_t>(bits << 16) >> 16;  // sign-extends bit 47 (an arithmetic shift in C++20)
  }
  bool has_text() const {
    return type == ArgType::kString || type == ArgType::kJson || type == ArgType::kDouble ||
           type == ArgType::kIntText;
  }
  // The interned text of a text-valued arg (has_text()); kEmptyString otherwise.
  StringId text() const { return has_text() ? low_ : kEmptyString; }
  // A loader's pool is merged into another: the text re-interned there (no-op for the other types).
  void set_text(StringId text) {
    if (has_text()) low_ = text;
  }

 private:
  Arg(ArgKey k, ArgType t, int64_t payload)
      : key(k), type(t), high_(static_cast<uint16_t>(static_cast<uint64_t>(payload) >> 32)),
        low_(static_cast<uint32_t>(payload)) {}
  uint16_t high_ = 0;  // bits 32..47 of an integer
  uint32_t low_ = 0;   // bits 0..31 of an integer, or the text's StringId
};
static_assert(sizeof(Arg) == 8, "Arg is kept at 8 bytes: one of the model's largest arrays");

// A slice: 32 bytes (18 M of them on a 5 M-task DB export). Its duration in 47 bits (up to
// kMaxDurNs, 19.5 hours: a loader refuses a longer one with a duration_too_long error), its track
// in 24 bits, its category as an index into Profile::slice_cats (Profile::Cat reads it).
// Its args are Profile::args[args_begin, args_begin + args_count), or, when arg_inline, one arg kept
// in the slice itself (SetInlineArg: an integer in [0, 2^32) or a kString text; its value in
// args_begin, its key and type in args_count): a DB export's slices mostly have one such arg (a
// task's id, an op's shapes, a queue row's connection id), 13 M at 5 M tasks. Profile::FindArg
// reads both.
struct Slice {
  static constexpr int64_t kMaxDurNs = (int64_t{1} << 46) - 1;
  int64_t ts_ns = 0;
  int64_t dur_ns : 47 = 0;
  // Sub-nanosecond remainder of the written duration in units of 1e-5 ns (at most half a ns either
  // way): the exact duration is dur_ns + dur_sub_e5 / 1e5 ns (Ascend writes durations such as
  // "53.84109375" µs, multiples of 1/32 ns).
  int64_t dur_sub_e5 : 17 = 0;
  StringId name = kEmptyString;
  uint32_t args_begin = 0;  // or, with arg_inline, the arg's value
  TrackId track : 24 = 0;
  SliceKind kind : 8 = SliceKind::kOther;
  uint16_t cat_index = 0;  // Profile::slice_cats[cat_index]; 0 is the empty category
  uint8_t args_count : 7 = 0;  // or, with arg_inline, the arg's key and whether it is a text
  uint8_t arg_inline : 1 = 0;
  char phase = 'X';  // 'X' complete, 'i'/'I' instant, 'B'/'E' resolved into X by the loader
  static constexpr int64_t kE5PerNs = 100000;  // dur_sub_e5 units per ns
  static constexpr int kE5Digits = 5;          // decimal digits they add below the ns
  static constexpr size_t kMaxArgs = 127;      // args a slice keeps (a loader keeps the first)
  int64_t end_ns() const { return ts_ns + dur_ns; }
  // The duration in units of 1e-5 ns (exact for up to 8 decimals of µs).
  int64_t dur_e5() const { return dur_ns * kE5PerNs + dur_sub_e5; }

  // Whether `a` can be kept in the slice: an integer in [0, 2^32) or a kString text.
  static bool Inlinable(const Arg& a) {
    return (a.type == ArgType::kInt && a.i() >= 0 && a.i() <= int64_t{UINT32_MAX}) || a.type == ArgType::kString;
  }
  // Makes `a` (Inlinable) the slice's one arg.
  void SetInlineArg(const Arg& a) {
    const bool text = a.type == ArgType::kString;
    args_begin = text ? a.text() : static_cast<uint32_t>(a.i());
    args_count = static_cast<uint8_t>((static_cast<unsigned>(a.key) << 1) | (text ? 1u : 0u));
    arg_inline = 1;
  }
  // The arg kept in the slice (arg_inline).
  Arg InlineArg() const {
    const auto key = static_cast<ArgKey>(args_count >> 1);
    return (args_count & 1) != 0 ? Arg::Text(key, ArgType::kString, args_begin) : Arg::SmallInt(key, args_begin);
  }
  // The number of args, kept in the slice or in Profile::args.
  size_t arg_count() const { return arg_inline != 0 ? 1 : args_count; }
};
static_assert(static_cast<size_t>(ArgKey::kCount) <= 64, "an inline arg's key is kept in 6 bits");
static_assert(sizeof(Slice) == 32, "Slice is kept at 32 bytes: the model's largest array");
// The most distinct slice categories a profile holds (Slice::cat_index is 16 bits): Profile::CatIndex
// gives the last one for any category beyond, with a category_limit diagnostic. Real profiles have
// a dozen.
inline constexpr size_t kMaxSliceCats = size_t{1} << 16;

// A python function (a PyTorch `python_function` event) kept compactly rather than as a 32-byte
// slice: a DB export's `trace` rows are half the rows of a big export (11.6 M at 5 M tasks), and
// what is read of them is their start, end, name and thread (the module comparison, inspect). A
// python function that is more than that stays a slice of kind kPythonFunction: one with a
// connection id (a kernel launch's start), args, a duration of 2^40 ns (18 minutes) or more, or a
// phase other than 'X'. Profile::ForEachPythonFunction reads both kinds in their order.
struct PythonFunction {
  static constexpr int64_t kMaxDurNs = (int64_t{1} << 40) - 1;
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;  // [0, kMaxDurNs]
  TrackId track = 0;
  StringId name = kEmptyString;
  int64_t end_ns() const { return ts_ns + dur_ns; }
  bool operator==(const PythonFunction&) const = default;
};

// The compact python functions, in the order they were read, and where the python functions kept as
// slices fall among them: slice_before[i] is the number of rows read before the i-th slice of kind
// kPythonFunction (empty when there are no rows).
// The rows are read in order only, so each is written as four LEB128 numbers: its start's distance
// from the previous row's (zigzag), its duration, track and name. About 8 bytes a row on a DB export
// (7.7 on the 5 M-task bench: its rows come by start) instead of 20, in blocks of 1 MiB (no copy of
// the whole as it grows).
class PythonFunctionTable {
 public:
  static constexpr size_t kBlockBytes = size_t{1} << 20;
  static constexpr size_t kMaxRowBytes = 10 + 6 + 4 + 5;  // the four numbers' longest encodings

  // Appends a row; dur_ns in [0, PythonFunction::kMaxDurNs].
  void Add(const PythonFunction& f);
  size_t size() const { return rows_; }
  bool empty() const { return rows_ == 0; }
  // The bytes the rows take (their blocks' written bytes).
  size_t encoded_bytes() const;
  void Clear();

  // Reads the rows in order: while (r.Next(f)) ...
  class Reader {
   public:
    explicit Reader(const PythonFunctionTable& t) : t_(&t) {}
    bool Next(PythonFunction& f) {
      if (left_ == 0) return false;
      while (pos_ == t_->blocks_[block_].size()) ++block_, pos_ = 0;
      const uint8_t* const data = t_->blocks_[block_].data();
      const uint64_t zigzag = Uleb(data), dur = Uleb(data), track = Uleb(data), name = Uleb(data);
      const uint64_t delta = (zigzag >> 1) ^ (uint64_t{0} - (zigzag & 1));  // wraps, as Add wrote it
      ts_ns_ = static_cast<int64_t>(static_cast<uint64_t>(ts_ns_) + delta);
      f = {ts_ns_, static_cast<int64_t>(dur), static_cast<TrackId>(track), static_cast<StringId>(name)};
      --left_;
      return true;
    }

   private:
    uint64_t Uleb(const uint8_t* data) {
      uint64_t v = 0;
      for (int shift = 0;; shift += 7) {
        const uint8_t b = data[pos_++];
        v |= static_cast<uint64_t>(b & 0x7F) << shift;
        if (b < 0x80) return v;
      }
    }
    const PythonFunctionTable* t_;
    size_t left_ = t_->rows_, block_ = 0, pos_ = 0;
    int64_t ts_ns_ = 0;
  };
  // fn(const PythonFunction&) for each row, in order.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    Reader r(*this);
    for (PythonFunction f; r.Next(f);) fn(f);
  }

  std::vector<uint32_t> slice_before;

 private:
  std::vector<std::vector<uint8_t>> blocks_;  // each reserved kBlockBytes; a row never straddles two
  size_t rows_ = 0;
  int64_t last_ts_ns_ = 0;
};

// What a reader of every python function sees of one (Profile::ForEachPythonFunction).
struct PythonFunctionView {
  int64_t ts_ns = 0;
  int64_t end_ns = 0;
  StringId name = kEmptyString;
  TrackId track = 0;
  bool complete = true;  // phase 'X'
};

// A flow event: what the flow links read of it (its name and "bp" are not kept). 24 bytes: millions
// of them in a big trace; its track in 24 bits (a profile has at most kMaxTracks). A DB
// export's kernel launches are not flow events (DbInfo::launch_links), only its fwdbwd pairs are.
struct FlowEvent {
  int64_t ts_ns = 0;
  uint64_t id = 0;  // integer id, or the StringId of a string id when id_is_string
  StringId cat = kEmptyString;
  TrackId track : 24 = 0;
  uint32_t phase : 7 = 's';  // 's' start, 'f' end, 't' step (ASCII)
  bool id_is_string : 1 = false;
};
static_assert(sizeof(FlowEvent) == 24, "FlowEvent is kept at 24 bytes");

struct CounterEvent {
  int64_t ts_ns = 0;
  TrackId track = 0;
  StringId name = kEmptyString;
  StringId series = kEmptyString;  // the args key
  double value = 0;
};

// Kineto "[memory]" instant events (allocator activity).
struct MemoryEvent {
  int64_t ts_ns = 0;
  TrackId track = 0;
  int64_t bytes = 0;            // signed: negative = free
  uint64_t addr = 0;
  int64_t total_reserved = kNoNumber;
  int64_t total_allocated = kNoNumber;
  int64_t device_id = -1;
  int64_t device_type = kNoNumber;
};

// ---- Ascend side tables --------------------------------------------------------------------------

// kernel_details.csv. Durations in ns; absent/"N/A" cells are kAbsentNs. 72 bytes (1.7 M rows at
// 5 M tasks of a DB export): of the older metric columns (aicore_time, mac_time, aiv_vec_time) only
// what the overall comparison reads is kept, and Wait Time, read by none, not at all (their cells
// are still checked as they are read).
struct KernelDetailRow {
  StringId type = kEmptyString;          // "Type" (op type), may be "N/A"
  StringId name = kEmptyString;          // "Name"
  StringId input_shapes = kEmptyString;  // "Input Shapes" verbatim (quotes kept)
  StringId accelerator_core = kEmptyString;  // "Accelerator Core" / "Task Type"
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int64_t step_id = kNoNumber;  // "Step Id" / "Step ID"; kNoNumber when absent or empty
  int64_t aic_mac_time_ns = kAbsentNs;
  int64_t aic_mte2_time_ns = kAbsentNs;
  int64_t aiv_time_ns = kAbsentNs;
  uint32_t line = 0;  // 1-based line in the CSV
  bool has_mac_or_vec_time = false;     // a "mac_time(us)" or "aiv_vec_time(us)" cell (a valid row)
  bool mac_or_aicore_positive = false;  // "mac_time(us)" or "aicore_time(us)" above 0 (a cube kernel)
};
static_assert(sizeof(KernelDetailRow) == 72, "KernelDetailRow is kept at 72 bytes");

struct KernelDetailsTable {
  bool present = false;
  std::string file;
  std::vector<std::string> columns;  // header as written (for column-set checks)
  bool has_mac_time = false;         // "mac_time(us)" column exists
  bool has_aiv_vec_time = false;     // "aiv_vec_time(us)" column exists
  std::vector<KernelDetailRow> rows;
};

struct OpStatisticRow {
  StringId op_type = kEmptyString;
  StringId core_type = kEmptyString;
  int64_t count = 0;
  int64_t total_ns = 0, avg_ns = 0, max_ns = 0, min_ns = 0;
  // DB export only (no written total): the total as the reference sums it, float µs in task order.
  double float_total_us = 0;
  bool has_float_total = false;
};

struct OperatorMemoryRow {
  StringId name = kEmptyString;
  double size_kb = 0;
  int64_t allocation_ns = kAbsentNs;
  int64_t release_ns = kAbsentNs;
  int64_t duration_ns = kAbsentNs;
  StringId device_type = kEmptyString;
  uint32_t line = 0;
};

// memory_record.csv / MEMORY_RECORD, reduced to what a comparison reads: the largest reserved total,
// of the whole profile here and of each step in DbStep. The rows are not kept (9 M on a 5 M-task DB
// export; the component, device, time and the allocated and active totals are read by no comparison).
struct MemoryRecordSummary {
  int64_t rows = 0;             // the rows read
  double peak_reserved_mb = 0;  // the largest "Total Reserved(MB)" (0 when none is larger)
};

// step_trace_time.csv: its columns changed over CANN versions, so it is kept generic.
struct StepTraceTable {
  bool present = false;
  std::vector<std::string> columns;            // value columns, e.g. "Computing", "Free"
  std::vector<std::string> steps;              // "Step" cell as written (may be empty)
  std::vector<std::vector<int64_t>> values_ns;  // [row][column], kAbsentNs when empty
  // The same cells as the reference's Python reads them (float(text), µs), for --reference-compat
  // output only (`profdiff cluster` writes them back as the reference does); NaN when empty or bad.
  std::vector<std::vector<double>> values_us_float;
};

struct TransportBandwidth {
  double transit_size_mb = 0;
  double transit_time_ms = 0;
  double bandwidth_gb_s = 0;
};

// communication.json, reduced to what analyses use.
struct CommunicationStep {
  std::string step;  // top-level key, e.g. "step50"
  bool has_collective_bandwidth = false;
  std::map<std::string, TransportBandwidth> collective_bandwidth;  // "RDMA", "SDMA", "HCCS", ...
};
// One operator of communication.json or communication_matrix.json (step -> operator type -> operator
// name -> value), kept whole for `profdiff cluster`'s cluster_communication*.json and
// communication_group.json (LoadOptions::cluster_tables). A rank's own "Total Op Info" entries are
// not kept: the reference recomputes them over the ranks of each group.
struct CommunicationOpRecord {
  std::string step;        // the top-level key, e.g. "step50"
  std::string type;        // "collective", "p2p", as written
  std::string name;        // "hcom_allReduce__586_0_1@17522688603477080586"
  std::string value_json;  // the operator's value as compact JSON text (numbers round-trip)
};
struct CommunicationOpRecords {
  bool present = false;  // the file was read (LoadOptions::cluster_tables)
  std::vector<CommunicationOpRecord> ops;  // in file order
  // What was skipped: a step or operator type whose value is not an object ("step50: not an object").
  std::vector<std::string> skipped;
};

struct CommunicationInfo {
  bool present = false;
  bool empty = false;  // the file exists but holds nothing
  std::vector<CommunicationStep> steps;
  CommunicationOpRecords records;  // LoadOptions::cluster_tables only
};

// What became of one optional side file of an Ascend text profile (kernel_details.csv,
// communication.json, ...): the comparisons that read it say why they are empty from this.
enum class SideFileState : uint8_t { kAbsent, kLoaded, kUnreadable };
struct SideFileOutcome {
  std::string name;   // the file name the loader looks for, e.g. "kernel_details.csv"
  std::string path;   // where it was looked for
  SideFileState state = SideFileState::kAbsent;
  std::string error;  // kUnreadable: the load error, naming the file and line or byte
};

// The Ascend DB export (ascend_pytorch_profiler_<rank>.db): which tables were read and the steps of
// STEP_TIME, for `inspect` and the step checks.
struct DbTableUse {
  std::string name;     // "PYTORCH_API", ...
  bool present = false;
  int64_t rows = 0;     // rows in the table (not only those used)
};
struct DbStep {
  int64_t id = 0;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  double peak_reserved_mb = 0;  // MEMORY_RECORD's largest reserved total within [start_ns, end_ns]
};
// A compute task (TASK joined with COMPUTE_TASK_INFO), parallel to npu.kernel_details.rows.
// 24 bytes (1.7 M at 5 M tasks): the type's string id in 31 bits (a pool holds fewer strings).
struct DbComputeTask {
  int64_t connection_id = kNoNumber;  // TASK.connectionId (the CANN id a torch op launched)
  int64_t global_task_id = kNoNumber;
  SliceId slice = 0;                  // its slice on the "Ascend Hardware" process
  StringId rts_type : 31 = kEmptyString;  // TASK.taskType ("KERNEL_AICORE"), not COMPUTE_TASK_INFO's
  StringId pmu_cube : 1 = 0;              // TASK_PMU_INFO aic_total_time or aic_mac_time is non-zero
};
static_assert(sizeof(DbComputeTask) == 24, "DbComputeTask is kept at 24 bytes");
// One CONNECTION_IDS link of a torch op (PYTORCH_API type 'op'): the CANN connection id it launched.
// 12 bytes (2.2 M at 5 M tasks): the id in two halves, read through connection_id().
struct DbLaunch {
  DbLaunch() = default;
  DbLaunch(int64_t connection_id, SliceId op_slice)
      : op(op_slice), id_low(static_cast<uint32_t>(connection_id)),
        id_high(static_cast<uint32_t>(static_cast<uint64_t>(connection_id) >> 32)) {}
  SliceId op = 0;
  int64_t connection_id() const { return static_cast<int64_t>((uint64_t{id_high} << 32) | id_low); }

 private:
  uint32_t id_low = 0;
  uint32_t id_high = 0;
};
static_assert(sizeof(DbLaunch) == 12, "DbLaunch is kept at 12 bytes");
// A kernel launch of a DB export: a CANN connection id held by PYTORCH_API rows (through
// CONNECTION_IDS) and by tasks or communication ops, as one link from the last such API row to the
// last such task or op (table order: TASK, then COMMUNICATION_OP; what pairing trace_view's flow
// events by id gives). Kept as slice pairs rather than as flow events: 10 M of them at 5 M tasks.
struct DbLaunchLink {
  int64_t connection_id = 0;
  SliceId start = 0;  // the API row
  SliceId end = 0;    // the task or communication op
};
struct DbInfo {
  bool present = false;  // the profile was loaded from a DB export
  std::string file;
  std::string schema_version;  // META_DATA SCHEMA_VERSION, when present
  std::vector<DbTableUse> tables;
  std::vector<DbStep> steps;   // STEP_TIME, in id order
  std::vector<DbComputeTask> compute_tasks;  // kernel_details.rows[i] is compute_tasks[i]
  std::vector<DbLaunch> op_launches;         // in PYTORCH_API, then CONNECTION_IDS, order
  // The launches with an end, in order of their ids' first CONNECTION_IDS link in PYTORCH_API
  // order; the ids some API row holds but no task or op (the reference's incomplete flows).
  std::vector<DbLaunchLink> launch_links;
  uint64_t launch_ids_without_end = 0;
  bool has_pmu = false;                      // TASK_PMU_INFO has rows (the cube test reads it)
  // Each communication plane's track and its group (COMMUNICATION_TASK_INFO groupName): a
  // communication task's group is its plane's (not an arg: 2.7 M tasks at 5 M TASK rows).
  std::vector<std::pair<TrackId, StringId>> plane_groups;
  // `profdiff cluster` only (LoadOptions::cluster_tables): CANN_API's (connectionId, startNs) of the
  // connection ids a communication op or compute task holds, by id then in table order (the
  // reference's ClusterTimeSummary puts an op in the step its CANN launch starts in); the
  // analysis.db beside the export (its StepTraceTime is npu.step_trace) and its CommAnalyzerTime rows.
  bool has_cann_api = false;
  std::vector<std::pair<int64_t, int64_t>> cann_api_starts;
  bool has_analysis_db = false;
  int64_t comm_analyzer_time_rows = 0;
  // The tables of the reference's cluster_analysis.db (model/cluster_db_tables.h).
  ClusterDbTables cluster;
};

struct NpuTables {
  DbInfo db;
  // Every side file looked for, in load order.
  std::vector<SideFileOutcome> side_files;
  // The outcome for `name`, or nullptr when it was not looked for (e.g. a bare trace_view.json).
  const SideFileOutcome* SideFile(std::string_view name) const {
    for (const SideFileOutcome& f : side_files)
      if (f.name == name) return &f;
    return nullptr;
  }
  KernelDetailsTable kernel_details;
  bool has_op_statistic = false;
  std::vector<OpStatisticRow> op_statistic;
  bool has_operator_memory = false;
  std::vector<OperatorMemoryRow> operator_memory;
  bool has_memory_record = false;
  MemoryRecordSummary memory_record;
  StepTraceTable step_trace;
  CommunicationInfo communication;
  // profiler_metadata.json parallel_group_info: group id -> process group name (groups that have
  // one), and every group id -> its global_ranks (ascending; empty when it lists none).
  std::map<std::string, std::string> parallel_group_names;
  std::map<std::string, std::vector<int64_t>> parallel_group_ranks;
  // profiler_metadata.json's distributed_args (the job's parallel sizes) as JSON text; "" when absent.
  std::string distributed_args_json;
  // communication_matrix.json (LoadOptions::cluster_tables only).
  CommunicationOpRecords communication_matrix;
};

struct ProfileMeta {
  SourceFormat format = SourceFormat::kUnknown;
  DeviceKind device = DeviceKind::kUnknown;
  std::string input_path;             // the path the user gave
  std::vector<std::string> files;     // every file actually read
  std::string trace_file;             // the main trace file, if any
  int64_t schema_version = kNoNumber; // Kineto schemaVersion
  int64_t base_time_ns = kNoNumber;   // Kineto baseTimeNanoseconds
  int64_t rank = kNoNumber;           // distributedInfo.rank / profiler_info rank_id
  int64_t world_size = kNoNumber;     // distributedInfo.world_size / profiler_metadata distributed_args
  std::vector<std::string> device_names;  // deviceProperties[].name, an Ascend DB's NPU_INFO names
  std::string profiler_level;         // Ascend profiler_info config ("Level1")
  std::string profiler_info_json;     // profiler_info_*.json, verbatim (small)
  std::string path_level;             // Ascend: "trace" | "ascend_output" | "profiling"
  uint64_t input_bytes = 0;           // bytes parsed (decompressed)
  // A DB export's load step by step (a table or a few small ones), in order; empty for a trace.
  std::vector<PhaseTiming> load_phases;
};

struct Profile {
  ProfileMeta meta;
  StringPool strings;
  std::vector<Process> processes;
  std::vector<Track> tracks;
  std::vector<Slice> slices;
  PythonFunctionTable python_functions;  // the python functions not kept as slices
  std::vector<Arg> args;
  std::vector<FlowEvent> flows;
  std::vector<CounterEvent> counters;
  std::vector<MemoryEvent> memory_events;
  NpuTables npu;
  Diagnostics diagnostics;
  // Durations written with more digits than Slice::dur_e5() holds (an advisor trace_view.json writes
  // "139.4186019897461" µs): the written value as the nearest double in µs, as any reader of the text
  // gets it, by slice id in increasing order. Rare; the exact arithmetic keeps using dur_e5().
  std::vector<std::pair<SliceId, double>> fine_dur_us;
  // The categories of the slices, by Slice::cat_index; [0] is the empty one.
  std::vector<StringId> slice_cats = {kEmptyString};

  std::string_view str(StringId id) const { return strings.Get(id); }
  // A slice's category.
  StringId Cat(const Slice& s) const { return slice_cats[s.cat_index]; }
  const Track& track(const Slice& s) const { return tracks[s.track]; }
  const Process& process(const Slice& s) const { return processes[tracks[s.track].process]; }
  // The arg with `key` (in Profile::args or kept in the slice), or nullopt.
  std::optional<Arg> FindArg(const Slice& s, ArgKey key) const;
  // Integer value of an arg (kInt, kBool, or an integer-valued string); `fallback` otherwise.
  int64_t ArgInt(const Slice& s, ArgKey key, int64_t fallback = kNoNumber) const;
  // Text of an arg (string, raw JSON or raw number); empty when absent.
  std::string_view ArgText(const Slice& s, ArgKey key) const;
  // An NPU task's (SliceKind::kNpuTask) stream, task type and global task id. A text export keeps
  // them in the task's args ("Stream Id", "Task Type"); a DB export keeps none of them as args (10 M
  // args at 5 M tasks): the stream is the task's track (a TASK row without a stream is on a track of
  // its own, whose tid is not a number), the type and global id are in its compute row
  // (npu.db.compute_tasks, kernel_details' accelerator core), and a task without one is named by its
  // type (TASK.taskType).
  // The stream id: the "Stream Id" arg, a DB task's track; kNoNumber when none.
  int64_t TaskStream(const Slice& s) const;
  // The task type: the "Task Type" arg's text, a DB task's; empty when none.
  std::string_view TaskType(SliceId id) const;
  // A DB export task's compute row (its index in npu.db.compute_tasks and kernel_details.rows), or
  // nullopt (not a DB task, or a task without one).
  std::optional<size_t> DbComputeRow(SliceId id) const;
  // Whether `s` is a task of a DB export (whose facts are read as above, not from args).
  bool IsDbTask(const Slice& s) const {
    return s.kind == SliceKind::kNpuTask && meta.format == SourceFormat::kAscendDb;
  }
  // A slice's duration in µs as written, as the nearest double: fine_dur_us when the text had more
  // digits than dur_e5() holds, dur_e5() / 1e8 otherwise (then exactly the text's nearest double too).
  double WrittenDurUs(SliceId id) const;

  // Empties the profile, keeping its arrays' memory (a reader that fills one profile again and again).
  void Clear();

  // Find-or-create helpers used by loaders. Past kMaxTracks tracks (the limit a test may lower), a
  // new (pid, tid) gets the last track and a track_limit diagnostic.
  uint32_t GetOrCreateProcess(std::string_view pid_text);
  TrackId GetOrCreateTrack(std::string_view pid_text, std::string_view tid_text);
  // The Slice::cat_index of `cat`, added to slice_cats when new. Past kMaxSliceCats categories
  // (the limit a test may lower), a new one gets the last index and a category_limit diagnostic.
  uint16_t CatIndex(StringId cat);

  // Number of slices of each kind (python_functions' rows counted as python functions).
  std::vector<uint64_t> CountByKind() const;
  // Every python function, the compact ones and the slices of kind kPythonFunction, in the order the
  // loader read them: fn(const PythonFunctionView&).
  template <typename Fn>
  void ForEachPythonFunction(Fn&& fn) const {
    PythonFunctionTable::Reader reader(python_functions);
    size_t row = 0, nth_slice = 0;
    auto rows_until = [&](size_t end) {
      for (PythonFunction f; row < end && reader.Next(f); ++row)
        fn(PythonFunctionView{f.ts_ns, f.end_ns(), f.name, f.track, true});
    };
    const std::vector<uint32_t>& before = python_functions.slice_before;
    for (const Slice& s : slices) {
      if (s.kind != SliceKind::kPythonFunction) continue;
      rows_until(nth_slice < before.size() ? before[nth_slice] : python_functions.size());
      ++nth_slice;
      fn(PythonFunctionView{s.ts_ns, s.end_ns(), s.name, s.track, s.phase == 'X'});
    }
    rows_until(python_functions.size());
  }
  bool HasPythonFunctions() const;

  void LimitTracksForTest(TrackId n) { max_tracks_ = n; }
  void LimitCatsForTest(size_t n) { max_cats_ = n; }

 private:
  TrackId max_tracks_ = kMaxTracks;
  size_t max_cats_ = kMaxSliceCats;
  std::unordered_map<StringId, uint16_t> cat_index_;
  std::pair<StringId, uint16_t> last_cat_{kEmptyString, 0};  // the category met last (most slices repeat it)
  std::map<std::pair<StringId, StringId>, TrackId> track_index_;
  std::map<StringId, uint32_t> process_index_;
};

// "ProfilerStep#12" -> 12; kNoNumber if `name` is not a step marker.
int64_t StepIdFromName(std::string_view name);

}  // namespace profdiff
