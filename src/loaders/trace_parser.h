// The trace-event parser of the JSON trace loaders (trace_json.cc), shared by the serial reader and
// the parallel one (trace_json_parallel.cc). Internal to the loaders library.
//
// One parser commits events into one Profile. The parallel reader gives each block of the trace
// array its own parser and Profile (a fragment) in block mode, then the main parser absorbs the
// fragments in file order: string ids, processes and tracks are created in the order of their first
// appearance, exactly as one serial pass creates them, so the model is identical at any thread count.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/diagnostics.h"
#include "profdiff/io/json_reader.h"
#include "profdiff/model/profile.h"

namespace profdiff::trace_json_internal {

enum class ValueKind : uint8_t { kAbsent, kString, kNumber, kOther };

struct Value {
  ValueKind kind = ValueKind::kAbsent;
  std::string_view text;  // decoded string, raw number, or raw JSON
};

struct PendingArg {
  ArgKey key;
  ArgType type;
  int64_t i;
  std::string_view text;
};

struct NumericArg {
  std::string_view key;
  std::string_view raw;  // number text (or a numeric string)
};

// One event as read from the JSON, before it is committed to the profile. Views point into the element
// text or the cursor's scratch buffer.
struct RawEvent {
  Value ph, name, cat, pid, tid, ts, dur, id;
  Value meta_name, meta_labels, meta_sort_index;  // args.name / args.labels / args.sort_index
  std::vector<PendingArg> args;
  std::vector<NumericArg> numeric_args;
  std::string_view duplicate_key;  // the first key the event repeats (its first value is used)
  bool duplicate_in_args = false;  // that key is one of "args"
  bool args_seen = false;
  void Clear() {
    ph = name = cat = pid = tid = ts = dur = id = Value{};
    duplicate_key = {};
    duplicate_in_args = args_seen = false;
    meta_name = meta_labels = meta_sort_index = Value{};
    args.clear();
    numeric_args.clear();
  }
};

// What Commit reads once for every phase but 'M', shared by the phase handlers.
struct EventHead {
  int64_t ts_ns = 0;
  StringId name = kEmptyString;
  StringId cat = kEmptyString;
  TrackId track = 0;
  char ph = 0;
};

// Details of the diagnostics of an 'E' event.
inline constexpr std::string_view kEndWithoutBegin = "'E' without an open 'B' on its track";
inline constexpr std::string_view kEndBeforeBegin = "'E' before its 'B'";
inline constexpr std::string_view kEndTooLate = "'E' more than 2^46 ns after its 'B'; the slice is kept with dur 0";

// Where an input byte offset is, for a diagnostic's example.
class EventLocator {
 public:
  virtual ~EventLocator() = default;
  virtual SourceLocation Locate(uint64_t offset) const = 0;
};

// The starts and finishes of each flow id (an id and whether it is a string's), in order of the
// id's first appearance (Finalize reports the unpaired ones): open addressing with linear probing
// over 4-byte slots that number the ids (a node-based unordered_map before: a malloc per id).
class FlowCounts {
 public:
  struct Ends {
    uint64_t id;
    bool is_string;
    uint32_t starts, finishes;
  };
  void Add(const FlowEvent& f);
  const std::vector<Ends>& ends() const { return ends_; }

 private:
  static void Count(Ends& e, char phase) {
    if (phase == 's') ++e.starts;
    if (phase == 'f') ++e.finishes;
  }
  static size_t Hash(uint64_t id, bool is_string);
  void Grow();
  std::vector<uint32_t> slots_;  // an id's index in ends_ + 1; 0 when empty
  std::vector<Ends> ends_;
  size_t mask_ = 0;
};

class TraceParser {
 public:
  TraceParser(Profile& profile, const EventLocator& locator) : p_(profile), loc_(locator) {}

  void Parse(std::string_view text, uint64_t offset);
  // Fast path: parses one event object at the start of `rest` (the buffered input) and commits it.
  // Returns false, committing nothing, when `rest` does not start with a whole well-formed object
  // (cut by the buffer end, malformed or not an object): the caller then takes the Parse() path.
  bool TryParseInPlace(std::string_view rest, uint64_t offset, size_t* len);
  // After the last event: unclosed 'B's, Ascend lanes, flow pairing (messages name `file`).
  void Finalize(const std::string& file);
  bool looks_ascend() const { return ascend_signals_ > 0; }
  Profile& profile() { return p_; }
  uint64_t elements() const { return elements_; }
  uint64_t events() const { return events_; }
  uint64_t first_bad_offset() const { return first_bad_offset_; }

  // Block mode (a fragment of the trace read on its own): an 'E' that finds no open 'B' in the
  // fragment is kept for the main parser, whose open 'B's of earlier blocks it may close.
  void SetBlockMode() { block_mode_ = true; }
  // Moves a block parser's fragment (`block`, its Profile `fragment`) into this parser's profile, as
  // if its events had been committed here, in order after everything committed so far. Line numbers
  // in the fragment's diagnostics count from the block's start; `lines_before` are the newlines of
  // the input before it. The fragment is left empty.
  void Absorb(TraceParser& block, Profile& fragment, int64_t lines_before);

 private:
  // Bits of which metadata a fragment's process or track received (the last write wins).
  enum MetaBit : uint8_t { kSetName = 1, kSetLabels = 2, kSetSortIndex = 4 };
  struct DeferredEnd {
    TrackId track = 0;
    int64_t ts_ns = 0;
    SourceLocation where;
  };

  void Diag(DiagId id, uint64_t offset, std::string_view detail);
  // Same, formatting the detail only when it is kept as an example (most occurrences are only
  // counted: formatting them all cost ~10% on traces with many sub-ns durations).
  template <typename MakeDetail>
  void DiagLazy(DiagId id, uint64_t offset, MakeDetail&& make_detail) {
    if (p_.diagnostics.count(id) < Diagnostics::kMaxExamples) {
      p_.diagnostics.Add(id, loc_.Locate(offset), make_detail());
    } else {
      p_.diagnostics.Add(id, SourceLocation{}, {});
    }
  }
  // Reads one event object; with whole_text, nothing but white space may follow it.
  bool ReadEvent(JsonCursor& cur, bool whole_text = true);
  bool ReadArgs(JsonCursor& cur);
  bool RepeatedArg(std::string_view key, ArgKey k, JsonType t, uint64_t* seen);
  void DiagDuplicateKey(uint64_t offset);
  bool ReadValue(JsonCursor& cur, Value* v);
  // Commit and its per-phase handlers move the event read into ev_ into the profile.
  void Commit(uint64_t offset);
  StringId InternText(const Value& v);
  bool ReadTimestamp(uint64_t offset, int64_t* ts_ns);
  void CommitMeta(StringId name, uint64_t offset);
  void CommitSlice(const EventHead& h, uint64_t offset);
  void CommitDuration(Slice& s, uint64_t offset);
  void CommitEnd(const EventHead& h, uint64_t offset);
  // Closes the innermost open 'B' of `track` at `ts_ns` (dur 0 when it ends before it begins).
  enum class EndOutcome : uint8_t { kClosed, kNoOpenBegin, kBeforeBegin, kTooLong };
  EndOutcome CloseOpenBegin(TrackId track, int64_t ts_ns);
  void CommitInstant(const EventHead& h);
  void CommitMemory(const EventHead& h);
  void CommitFlow(const EventHead& h, uint64_t offset);
  bool ReadFlowId(FlowEvent& f);
  void CommitCounter(const EventHead& h);
  void CommitUnknown(const EventHead& h, uint64_t offset);
  void PushInstant(const EventHead& h, char phase);
  TrackId TrackFor(uint64_t offset);
  SliceKind KindFor(StringId cat, StringId name);
  void CommitArgs(Slice& s);
  bool TimeValue(const Value& v, int64_t* ns, bool* rounded) const;
  void MarkMeta(std::vector<uint8_t>& bits, size_t index, MetaBit bit);
  // Absorb's steps.
  void AbsorbProcessesAndTracks(const TraceParser& block, const Profile& fragment,
                                const std::vector<StringId>& strings, std::vector<TrackId>& tracks);
  void AbsorbEvents(const Profile& fragment, const std::vector<StringId>& strings,
                    const std::vector<TrackId>& tracks);
  void AbsorbOpenBegins(TraceParser& block, Profile& fragment, const std::vector<TrackId>& tracks,
                        SliceId slice_base, int64_t lines_before);
  void CountNewFlows();

  Profile& p_;
  const EventLocator& loc_;
  RawEvent ev_;
  std::string scratch_;
  // Track cache: the previous event's pid/tid text.
  std::string last_pid_, last_tid_;
  TrackId last_track_ = 0;
  bool have_last_track_ = false;
  // Per-category kind cache indexed by StringId (-1 = not computed).
  std::vector<int8_t> cat_kind_;
  std::vector<int8_t> name_is_step_;
  // Open 'B' slices per track.
  std::vector<std::vector<SliceId>> open_b_;
  bool block_mode_ = false;
  std::vector<DeferredEnd> deferred_ends_;  // block mode: 'E's without an open 'B', in order
  std::vector<uint8_t> process_meta_, track_meta_;  // MetaBit sets by process / track index
  // The flows of p_.flows[0, flows_counted_), counted by CountNewFlows: after each block the
  // parallel reader absorbs (while the next round is parsed, not at the end, when its threads have
  // nothing left to do), and at Finalize (all of them after a serial read: the table then grows
  // after the model's arrays, not among them, and the peak RSS stays lower).
  FlowCounts flow_counts_;
  size_t flows_counted_ = 0;
  uint64_t ascend_signals_ = 0;
  uint64_t elements_ = 0;          // elements of the trace array
  uint64_t events_ = 0;            // elements that were well-formed event objects
  uint64_t first_bad_offset_ = 0;  // offset of the first element
};

}  // namespace profdiff::trace_json_internal
